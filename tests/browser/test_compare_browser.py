"""Compare's panels in Chromium: they line up and scroll together, character by character."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.test_app_state_browser import _settle
from tests.browser.test_highlight_browser import _paste

pytestmark = pytest.mark.browser

# Runs in the page: the Compare component's shadow root, and where a character sits in a panel.
_MEASURE = """
(fixed) => {
  const host = [...document.querySelectorAll('*')]
    .find((e) => e.shadowRoot && e.shadowRoot.querySelector('.cmp-grid .cmp-panel [data-s]'));
  const root = host.shadowRoot;
  const boxes = [...root.querySelectorAll('.cmp-panel')];
  const viewTop = (box) => box.getBoundingClientRect().top + box.clientTop
    + parseFloat(getComputedStyle(box).paddingTop);
  const charRect = (span, points) => {
    const node = span.firstChild;
    let units = 0;
    let n = 0;
    for (const ch of node.data) {
      if (n === points) { break; }
      units += ch.length;
      n += 1;
    }
    const range = document.createRange();
    range.setStart(node, units);
    range.setEnd(node, units + 1);
    return range.getBoundingClientRect();
  };
  // The first character (Python offset) whose line reaches below the box's top.
  const firstVisible = (box) => {
    const top = viewTop(box) + 1;
    for (const span of box.querySelectorAll('[data-s]')) {
      if (span.getBoundingClientRect().bottom <= top) { continue; }
      const length = [...span.firstChild.data].length;
      for (let k = 0; k < length; k += 1) {
        if (charRect(span, k).bottom > top) { return Number(span.dataset.s) + k; }
      }
    }
    return null;
  };
  // How far below the box's top the character at ``offset`` is drawn.
  const below = (box, offset) => {
    const spans = [...box.querySelectorAll('[data-s]')]
      .filter((s) => Number(s.dataset.s) <= offset);
    const span = spans[spans.length - 1];
    return charRect(span, offset - Number(span.dataset.s)).top - viewTop(box);
  };
  const captions = [...root.querySelectorAll('.cmp-caption')].map((c) => c.getBoundingClientRect());
  const rects = boxes.map((b) => b.getBoundingClientRect());
  const lead = Number(host.shadowRoot.querySelector('.cmp-grid').dataset.leader || 0);
  const offset = fixed === null || fixed === undefined ? firstVisible(boxes[lead]) : fixed;
  return {
    offset,
    lead,
    scrollTops: boxes.map((b) => b.scrollTop),
    below: boxes.map((b) => below(b, offset)),
    line: parseFloat(getComputedStyle(boxes[0]).lineHeight),
    tops: rects.map((r) => r.top),
    heights: rects.map((r) => r.height),
    captionHeights: captions.map((r) => r.height),
    cuts: root.querySelectorAll('.cmp-panel .bd').length,
  };
}
"""

_SCROLLED = """
(panel) => {
  const host = [...document.querySelectorAll('*')]
    .find((e) => e.shadowRoot && e.shadowRoot.querySelector('.cmp-grid .cmp-panel [data-s]'));
  if (!host) { return false; }
  const boxes = [...host.shadowRoot.querySelectorAll('.cmp-panel')];
  return boxes.length === 2 && boxes.every((b) => b.scrollTop > 0)
    && host.shadowRoot.querySelector('.cmp-grid').dataset.leader === String(panel);
}
"""


def _scroll(page, panel: int, pixels: int | None) -> dict:
    """Scroll a panel by mouse wheel, or up with the keyboard (Page Up) if ``pixels`` is None."""
    box = page.locator("[data-testid='chunkviz-compare-panel']").nth(panel)
    if pixels is None:
        box.focus()
        page.keyboard.press("PageUp")
    else:
        box.hover()
        page.mouse.wheel(0, pixels)
    page.wait_for_function(_SCROLLED, arg=panel, timeout=30_000)
    # Wait until the followers have been aligned to the leader's top character (one frame).
    page.wait_for_function(
        f"() => {{ const m = ({_MEASURE})(null); "
        "return m.below.every((d) => Math.abs(d) < m.line); }",
        timeout=30_000,
    )
    return page.evaluate(_MEASURE, None)


def _open_compare(page, app_url: str) -> None:
    page.goto(f"{app_url}/Compare?sample=jsquad_tsuyu")
    page.wait_for_function(
        "() => [...document.querySelectorAll('*')].some((e) => e.shadowRoot && "
        "e.shadowRoot.querySelectorAll('.cmp-panel').length === 2 && "
        "[...e.shadowRoot.querySelectorAll('.cmp-panel')].every("
        "(b) => b.querySelector('[data-s]')))",
        timeout=90_000,
    )


def test_compares_panels_scroll_together_and_line_up(app_url, page):
    _open_compare(page, app_url)
    before = page.evaluate(_MEASURE, None)
    strip = page.locator("[data-testid='stPlotlyChart']").first
    strip.wait_for(timeout=30_000)
    strip.screenshot(path=str(ARTIFACTS / "compare-diff-strip.png"))
    # Lined up: the same top, the same height, captions of one height (no wrapping).
    assert before["scrollTops"] == [0, 0]
    assert before["tops"][0] == pytest.approx(before["tops"][1], abs=1)
    assert before["heights"][0] == pytest.approx(before["heights"][1], abs=1)
    assert before["captionHeights"][0] == pytest.approx(before["captionHeights"][1], abs=0.5)

    after = _scroll(page, 0, 1500)
    assert after["lead"] == 0
    assert after["offset"] > 100  # well into the text, not the first line
    # Panel 2 brought the same character to its top: it is drawn on its first visible line.
    assert abs(after["below"][0]) < after["line"]
    assert abs(after["below"][1]) < after["line"]
    assert after["scrollTops"][1] > 0
    page.screenshot(path=str(ARTIFACTS / "compare-synced-panels.png"), full_page=False)

    # And the other way round: scrolling panel 2 further brings panel 1 along.
    back = _scroll(page, 1, 2500)
    assert back["lead"] == 1
    assert back["offset"] > after["offset"]
    assert abs(back["below"][0]) < back["line"]
    # A focused panel scrolls with the keyboard, and the other follows.
    keys = _scroll(page, 0, None)
    assert keys["offset"] < back["offset"]
    assert abs(keys["below"][1]) < keys["line"]
    assert not page.dialogs


def test_compares_panels_keep_the_top_character_when_the_markup_changes(app_url, page):
    _open_compare(page, app_url)
    scrolled = _scroll(page, 0, 2000)
    assert scrolled["cuts"] > 0  # configurations 1 and 2 are compared: their cuts are marked
    # Compare configuration 1 with itself: a rerun redraws both panels without the markers.
    choice = page.get_by_role("combobox", name="Configuration B")
    choice.click()
    page.keyboard.type("1: fixed")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => ({_MEASURE})(null).cuts === 0", timeout=60_000)
    kept = page.evaluate(_MEASURE, scrolled["offset"])
    assert kept["scrollTops"][0] > 0
    # The character at the top before the rerun is still on the first line of both panels.
    assert abs(kept["below"][0]) < kept["line"]
    assert abs(kept["below"][1]) < kept["line"]
    page.screenshot(path=str(ARTIFACTS / "compare-kept-place.png"), full_page=False)


def test_pasting_a_document_keeps_the_configurations(app_url, page):
    # "Paste text" makes the document empty for one run. A page that stopped there, before its
    # configuration pickers, lost their widgets: the next click sent the strategy back as the
    # first option ("code"). The configurations are drawn first now (page_document(stop=False)).
    page.goto(f"{app_url}/Compare?sample=jsquad_tsuyu&strategy=fixed&size=300&overlap=0")
    page.wait_for_selector("[data-testid='stDataFrame']", timeout=120_000)
    _settle(page)
    _paste(page, "一文目。二文目。三文目。" * 20)
    count = page.get_by_role("slider").first
    count.focus()
    count.press("ArrowRight")  # any rerun after the paste
    _settle(page)
    assert "strategy=fixed" in page.url
    assert "size=300" in page.url
