"""Issue 39 in Chromium: a projector at 150% and a phone see every number and every title whole.

- Projector (1280×720 at 150%: 853×480 CSS pixels): Explore's number tiles are all on the first
  screen, and no line of the highlight's legend is cut at the view's edge.
- Phone (390×844): Benchmark's chart titles neither print over each other nor run off the chart
  (the verdict chart's and those of the Trade-offs tab), and Explore's highlight, with its red
  answer, is on the screen that starts at the numbers.

Screenshots go to ``test-artifacts/screens-*.png``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"

# Every text plotly draws in a chart (titles, panel titles, axis titles) with its box, and the
# chart's own box: what is drawn outside the chart is cut, two boxes that meet print over each
# other.
_CHART_TEXTS = """(plot) => {
  const r = plot.getBoundingClientRect();
  const found = '.gtitle, .annotation-text, .g-xtitle text, .g-ytitle text';
  const texts = [...plot.querySelectorAll(found)]
    .filter(t => t.textContent.trim())
    .map(t => { const b = t.getBoundingClientRect();
                return {text: t.textContent, left: b.left, right: b.right, top: b.top,
                        bottom: b.bottom}; });
  return {chart: {left: r.left, right: r.right}, texts};
}"""


def _settled(page: Any) -> None:
    page.wait_for_selector(IDLE, timeout=120_000)
    page.wait_for_timeout(1500)
    page.wait_for_selector(IDLE, timeout=120_000)


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"] - 1
        and b["left"] < a["right"] - 1
        and a["top"] < b["bottom"] - 1
        and b["top"] < a["bottom"] - 1
    )


def _titles_whole(plot: Any) -> list[str]:
    """The texts of a chart that run off it or print over another (empty: none)."""
    drawn = plot.evaluate(_CHART_TEXTS)
    chart, texts = drawn["chart"], drawn["texts"]
    assert texts, "the chart draws no title"
    problems = [
        f"cut: {t['text']}"
        for t in texts
        if t["left"] < chart["left"] - 1 or t["right"] > chart["right"] + 1
    ]
    problems += [
        f"over each other: {a['text']} / {b['text']}"
        for i, a in enumerate(texts)
        for b in texts[i + 1 :]
        if _overlap(a, b)
    ]
    return problems


def test_a_projector_at_150_percent_shows_every_number_and_the_legend_whole(browser, app_url):
    context = browser.new_context(viewport={"width": 853, "height": 480}, device_scale_factor=1.5)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/Explore")
        page.locator(".hl-box .broken").first.wait_for(timeout=120_000)
        tiles = page.locator("[data-testid='stMetric']")
        tiles.nth(6).wait_for(timeout=60_000)
        _settled(page)
        assert tiles.count() == 7
        for i in range(7):  # the six numbers of the issue and the input limit
            box = tiles.nth(i).bounding_box()
            assert box is not None
            assert box["y"] >= 0, (i, box)
            assert box["y"] + box["height"] <= 480, (i, box)
        red = page.locator(".hl-box .broken").first.bounding_box()
        assert red is not None
        assert red["y"] + red["height"] <= 480, red  # the answer too
        page.screenshot(path=str(ARTIFACTS / "screens-projector-explore.png"))
        legend = page.locator(".hl-legend").first
        legend.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        cut = legend.evaluate("""(l) => {
          const box = l.getBoundingClientRect();
          const out = [];
          for (const item of l.querySelectorAll('.item')) {
            if (!item.getClientRects().length) continue;  // folded into "all marks"
            for (const r of item.getClientRects())
              if (r.right > box.right + 1 || r.left < box.left - 1) out.push(item.textContent);
          }
          if (l.scrollWidth > l.clientWidth + 1) out.push('legend scrolls sideways');
          return out;
        }""")
        assert cut == []
        assert legend.get_by_text("so the question is contained", exact=False).count() == 1
        page.screenshot(path=str(ARTIFACTS / "screens-projector-legend.png"))
    finally:
        context.close()


def test_on_a_phone_benchmarks_chart_titles_are_whole_and_apart(browser, app_url):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/Benchmark")
        verdict = page.locator(".js-plotly-plot").first
        verdict.locator(".annotation-text").first.wait_for(timeout=120_000)
        _settled(page)
        assert _titles_whole(verdict) == []
        verdict.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "screens-phone-benchmark-verdict.png"))
        page.get_by_role("tab", name="Trade-offs").click()
        plots = page.locator(".js-plotly-plot")
        plots.nth(5).locator(".gtitle").first.wait_for(timeout=120_000)  # verdict + five
        _settled(page)
        for i in range(1, plots.count()):
            assert _titles_whole(plots.nth(i)) == [], i
        plots.nth(1).scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "screens-phone-benchmark-plots.png"))
        widths = page.evaluate("() => document.scrollingElement.scrollWidth")
        assert widths <= 390
    finally:
        context.close()


def test_on_a_phone_explores_highlight_is_on_the_screen_that_starts_at_the_numbers(
    browser, app_url
):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/Explore")
        page.locator(".hl-box .broken").first.wait_for(timeout=120_000)
        _settled(page)
        numbers = page.locator("[data-testid='stMetric']").first.bounding_box()
        box = page.locator(".hl-box").first.bounding_box()
        red = page.locator(".hl-box .broken").first.bounding_box()
        assert numbers is not None
        assert box is not None
        assert red is not None
        # The screen whose top is the first number: the highlight starts on it, red and all.
        assert numbers["y"] < box["y"] < numbers["y"] + 844 - 200, (numbers, box)
        assert red["y"] + red["height"] <= numbers["y"] + 844, (numbers, red)
        page.locator("[data-testid='stMetric']").first.scroll_into_view_if_needed()
        page.mouse.wheel(0, 0)
        page.screenshot(path=str(ARTIFACTS / "screens-phone-explore.png"))
    finally:
        context.close()


def test_a_japanese_uploader_reads_japanese_where_streamlit_allows(browser, app_url):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/Explore?lang=ja")
        page.locator(".hl-box").first.wait_for(timeout=120_000)
        _settled(page)
        page.locator(".st-key-explore_document summary").first.click()
        page.get_by_text("ファイルをアップロード", exact=True).click()
        zone = page.locator("[data-testid='stFileUploaderDropzone']").first
        zone.wait_for(timeout=60_000)
        _settled(page)
        shown = zone.evaluate("""(z) => {
          const drawn = (e) => [getComputedStyle(e).fontSize,
                                getComputedStyle(e, '::after').content];
          return {button: drawn(z.querySelector('button p')),
                  limits: drawn(z.querySelector(
                    "[data-testid='stFileUploaderDropzoneInstructions'] span"))};
        }""")
        # Streamlit's English is drawn at size 0; the catalogue's Japanese in its place.
        assert shown["button"] == ["0px", '"アップロード"']
        assert shown["limits"][0] == "0px"
        assert shown["limits"][1].startswith('"1 ファイル 64 MB まで・TXT, MD, HTML')
        zone.screenshot(path=str(ARTIFACTS / "screens-uploader-ja.png"))
    finally:
        context.close()
