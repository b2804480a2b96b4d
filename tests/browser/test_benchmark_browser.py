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
        # The answer before any number: the tile and the one-line verdict at the budget.
        tile = (
            page.locator("[data-testid='stMetric']")
            .filter(has_text="Recommended at 2,000 characters")
            .first
        )
        tile_box = tile.bounding_box()
        assert tile_box is not None
        assert tile_box["y"] >= 0, tile_box
        assert tile_box["y"] + tile_box["height"] <= 900, tile_box
        line = page.get_by_text("Recommended at 2,000 characters of context", exact=False)
        line_box = line.first.bounding_box()
        assert line_box is not None
        assert tile_box["y"] < line_box["y"] < 900, line_box
        # The chart follows, with its band, margin lines and zero drawn on both panels
        # (plotly drew none when they were added before the traces).
        box = chart.bounding_box()
        assert box is not None
        assert line_box["y"] < box["y"] < 900 - 200, box
        shapes = chart.locator(".shapelayer path")
        assert shapes.count() >= 8, shapes.count()
        band = chart.locator(".shapelayer path").first.bounding_box()
        assert band is not None
        assert band["y"] + band["height"] <= 900, band
        # The axis named once under both panels, short panel titles (issue 39: two fit on a
        # phone).
        assert chart.get_by_text("characters sent to the generator").count() == 1
        assert chart.get_by_text("budget 2,000 chars", exact=True).count() == 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "benchmark-verdict-1400x900.png"))
    finally:
        context.close()


def test_a_390_px_phone_never_scrolls_sideways(browser, app_url):
    context, page = _open(browser, app_url, 390, 844)
    try:
        # The answer is on a phone's first screen too (issue 34).
        tile = (
            page.locator("[data-testid='stMetric']")
            .filter(has_text="Recommended at 2,000 characters")
            .first
        )
        tile_box = tile.bounding_box()
        assert tile_box is not None
        assert tile_box["y"] + tile_box["height"] <= 844, tile_box
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
