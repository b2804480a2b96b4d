"""Benchmark page in Chromium: the verdict on the first screen, no sideways scroll on a phone."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

_VERDICT = "[data-testid='stMarkdownContainer']:has-text('the best is')"


def _open(browser, app_url, width, height):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{app_url}/Benchmark")
    page.wait_for_selector(_VERDICT, timeout=120_000)
    return context, page


def test_the_first_screen_shows_the_verdict(browser, app_url):
    context, page = _open(browser, app_url, 1400, 900)
    try:
        chart = page.locator("[data-testid='stPlotlyChart']").first
        chart.locator(".main-svg").first.wait_for(timeout=120_000)
        assert page.evaluate("() => document.scrollingElement.scrollTop") == 0
        # The chart leads: difference from the best by context, both bases, fully in view.
        box = chart.bounding_box()
        assert box is not None
        assert box["y"] >= 0
        assert box["y"] + box["height"] <= 900, box
        assert chart.get_by_text("characters sent to the generator").count() == 2
        assert chart.get_by_text("Equal context budget", exact=False).count() >= 1
        # The sentence under it starts on the first screen.
        words = page.locator(_VERDICT).first.bounding_box()
        assert words is not None
        assert box["y"] < words["y"] < 900, words
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "benchmark-verdict-1400x900.png"))
    finally:
        context.close()


def test_a_390_px_phone_never_scrolls_sideways(browser, app_url):
    context, page = _open(browser, app_url, 390, 844)
    try:
        # Wait for the whole page: the main table, the figures and the drill-down below them.
        page.wait_for_selector("table", timeout=60_000)
        page.locator("[data-testid='stPlotlyChart']").first.wait_for(timeout=120_000)
        page.get_by_text("One question", exact=True).wait_for(timeout=120_000)
        widths = page.evaluate("""() => {
            const main = document.querySelector("[data-testid='stMain']");
            return {doc: document.scrollingElement.scrollWidth, inner: window.innerWidth,
                    main: main.scrollWidth, mainClient: main.clientWidth};
        }""")
        assert widths["doc"] <= widths["inner"], widths
        assert widths["main"] <= widths["mainClient"], widths
        # The wide main table scrolls inside its own box instead.
        table = page.locator("table").first
        assert table.evaluate("t => t.scrollWidth > t.clientWidth")
    finally:
        context.close()
