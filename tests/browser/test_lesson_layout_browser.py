"""Issue 25's layout in Chromium: Compare on a phone, chart toolbars clear of the titles.

Screenshots go to ``test-artifacts/lesson-*.png``.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

_PANELS = """
() => {
  const host = [...document.querySelectorAll('*')]
    .find((e) => e.shadowRoot && e.shadowRoot.querySelector('.cmp-grid .cmp-panel [data-s]'));
  if (!host) { return null; }
  return [...host.shadowRoot.querySelectorAll('.cmp-panel')].map((b) => {
    const r = b.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height};
  });
}
"""

# Each plotly chart's toolbar: whether it shows, and whether it overlaps the chart's title.
_TOOLBARS = """
() => [...document.querySelectorAll('.js-plotly-plot')].map((plot) => {
  const bar = plot.querySelector('.modebar-container');
  const title = plot.querySelector('.gtitle');
  const style = bar ? getComputedStyle(bar) : null;
  const shown = !!bar && style.display !== 'none' && Number(style.opacity) > 0;
  let covers = false;
  if (shown && title) {
    const a = bar.querySelector('.modebar') ? bar.querySelector('.modebar').getBoundingClientRect()
      : bar.getBoundingClientRect();
    const b = title.getBoundingClientRect();
    covers = a.width > 0 && a.left < b.right && b.left < a.right && a.top < b.bottom
      && b.top < a.bottom;
  }
  return {shown, covers};
})
"""


def test_on_a_phone_compares_panels_stack_at_full_width(browser, app_url):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/Compare?sample=jsquad_tsuyu")
        page.wait_for_function(
            f"() => {{ const p = ({_PANELS})(); return p && p.length === 2 "
            "&& p.every((r) => r.width > 0); }",
            timeout=120_000,
        )
        first, second = page.evaluate(_PANELS)
        # Side by side they were ~170 px wide (7 kanji a line); stacked, each takes the width.
        assert first["width"] > 300
        assert second["width"] > 300
        assert second["y"] >= first["y"] + first["height"]
        page.locator("[data-testid='chunkviz-compare-panel']").nth(0).scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "lesson-compare-phone.png"))
    finally:
        context.close()


def _open_benchmark(page, app_url: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{app_url}/Benchmark")
    # The figures below the first screen are drawn when their tab is opened (issue 39).
    page.get_by_role("tab", name="Trade-offs").click()
    page.wait_for_function(
        "() => document.querySelectorAll('.js-plotly-plot .gtitle').length >= 3", timeout=120_000
    )
    page.wait_for_timeout(1500)


def test_chart_toolbars_show_only_on_hover_and_never_on_a_touch_screen(browser, app_url):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    try:
        _open_benchmark(page, app_url)
        page.mouse.move(5, 5)  # the pointer away from every chart
        page.wait_for_timeout(500)
        bars = page.evaluate(_TOOLBARS)
        assert bars
        assert not any(b["shown"] for b in bars), bars
        page.screenshot(path=str(ARTIFACTS / "lesson-benchmark-toolbars.png"))
    finally:
        context.close()
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = phone.new_page()
    try:
        _open_benchmark(page, app_url)
        page.locator(".js-plotly-plot").first.tap()
        page.wait_for_timeout(500)
        bars = page.evaluate(_TOOLBARS)
        assert not any(b["covers"] for b in bars), bars
        assert not any(b["shown"] for b in bars), bars
    finally:
        phone.close()
