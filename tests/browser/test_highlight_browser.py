"""The highlight view in Chromium: the reader's place, the cut-copy style and the saved file.

What only a browser shows: where the view is scrolled after a rerun, the colours a mark gets, and
what a saved HTML file looks like when opened with no network.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import chunkviz
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_app_state_browser import _metric, _settle

pytestmark = pytest.mark.browser

JSQUAD_100 = "strategy=fixed&size=100&overlap=0&unit=chars&sample=jsquad_tsuyu"

# Where character `offset` sits in the highlight box: its top relative to the box's top, the
# box's height and the version of the markup shown.
_WHERE = """(offset) => {
  const host = [...document.querySelectorAll('*')].find(
    (e) => e.shadowRoot && e.shadowRoot.querySelector('.hl-box'));
  const box = host.shadowRoot.querySelector('.hl-box');
  let span = null;
  for (const s of box.querySelectorAll('[data-s]')) {
    if (Number(s.dataset.s) <= offset) { span = s; } else { break; }
  }
  const range = document.createRange();
  const i = offset - Number(span.dataset.s);
  range.setStart(span.firstChild, i);
  range.setEnd(span.firstChild, i + 1);
  const rect = range.getBoundingClientRect();
  return { y: rect.top - box.getBoundingClientRect().top, height: box.clientHeight,
           scrollTop: box.scrollTop, version: box.dataset.version };
}"""


# The offset of the first character visible at the top of the highlight box.
_TOP = """() => {
  const host = [...document.querySelectorAll('*')].find(
    (e) => e.shadowRoot && e.shadowRoot.querySelector('.hl-box'));
  const box = host.shadowRoot.querySelector('.hl-box');
  const top = box.getBoundingClientRect().top + box.clientTop;
  for (const s of box.querySelectorAll('[data-s]')) {
    if (s.getBoundingClientRect().bottom <= top + 1) { continue; }
    const node = s.firstChild;
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      if (range.getBoundingClientRect().bottom > top + 1) { return Number(s.dataset.s) + i; }
    }
  }
  return null;
}"""


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(".hl-box .cn", timeout=120_000)
    _settle(page)


def _paste(page, text: str) -> None:
    # The document picker folds under its name (issue 25): open it first.
    page.locator("[data-testid='stExpander'] summary").filter(has_text="Document").first.click()
    page.get_by_text("Paste text", exact=True).click()
    area = page.get_by_role("textbox", name="Your text")
    area.wait_for(timeout=30_000)
    area.fill(text)
    area.press("Control+Enter")
    _settle(page)


def test_a_size_change_keeps_the_reader_on_the_same_character(app_url, page):
    _open(page, f"{app_url}/Explore?{JSQUAD_100}")
    jump = page.get_by_role("spinbutton", name="Jump to chunk")
    jump.fill("30")
    jump.press("Enter")
    page.locator(".hl-box #chunk-30.target").wait_for(timeout=30_000)
    _settle(page)
    first = 30 * 100  # chunk #30's first character under 100/0
    before = page.evaluate(_WHERE, first)
    top = page.evaluate(_TOP)
    at_top = page.evaluate(_WHERE, top)
    assert before["scrollTop"] > 0
    assert 0 <= before["y"] < before["height"]
    # Move the size slider by keyboard: 100 -> 102, two reruns with new markup.
    size = (
        page.locator("[data-testid='stSlider']")
        .filter(has=page.locator("[data-testid='stWidgetLabel']", has_text="Size"))
        .first
    )
    thumb = size.get_by_role("slider")
    thumb.focus()
    thumb.press("ArrowRight")
    _settle(page)
    thumb.press("ArrowRight")
    _settle(page)
    assert _metric(page, "Chunks") == f"{len(chunkviz.chunk(_jsquad(), 'fixed', size=102)):,}"
    after = page.evaluate(_WHERE, first)
    assert after["version"] != before["version"]
    # Chunk #30's first character is still in view, a line or so from where it was (the text
    # above it may wrap differently around the new badges) ...
    assert 0 <= after["y"] < after["height"]
    assert abs(after["y"] - before["y"]) < 2.5 * 29
    # ... and the character that was at the top of the view is still at the top, to the pixel
    # (the line it is on may now begin a few characters earlier).
    now = page.evaluate(_WHERE, top)
    assert abs(now["y"] - at_top["y"]) < 2, (at_top, now, before, after)
    assert page.evaluate(_TOP) <= top
    page.screenshot(path=str(ARTIFACTS / "highlight-place-kept.png"))


def _jsquad() -> str:
    from chunkviz.samples import load_sample

    return load_sample("jsquad_tsuyu").text


def _add_pair(page, question: str, answer: str) -> None:
    page.get_by_role("textbox", name="Question").fill(question)
    page.get_by_role("textbox", name="Answer (exact text from the document)").fill(answer)
    page.get_by_role("button", name="Add").click()
    _settle(page)


def test_a_cut_copy_beside_a_whole_copy_is_contained_and_not_red(app_url, page):
    _open(page, f"{app_url}/Explore?strategy=fixed&size=18&overlap=0&unit=chars")
    text = "共和国連合。" + "あ" * 10 + "共和国連合。"  # copies at 0..5 and 16..21; 0..18 | 18..22
    _paste(page, text)
    _add_pair(page, "何の連合？", "共和国連合")
    cut = page.locator(".hl-box .cutcopy")
    cut.first.wait_for(timeout=30_000)
    assert _metric(page, "Broken answers") == "0 / 1"
    assert page.locator(".hl-box .broken").count() == 0
    assert "".join(cut.all_inner_texts()) == "共和国連合"
    style = cut.first.evaluate("el => getComputedStyle(el).boxShadow")
    assert "rgb(234, 88, 12)" in style  # the cut-copy orange, explained in the legend
    assert cut.first.evaluate("el => getComputedStyle(el).backgroundColor") != "rgb(220, 38, 38)"
    legend = page.locator(".hl-legend .item").filter(has=page.locator(".swatch.cutcopy"))
    assert "another copy is whole" in legend.inner_text()
    page.screenshot(path=str(ARTIFACTS / "highlight-cut-copy.png"))


def test_the_saved_view_opens_offline_with_the_page_marks(app_url, page, browser, tmp_path):
    _open(page, f"{app_url}/Explore?strategy=fixed&size=10&overlap=0&unit=chars")
    text = "<script>alert(1)</script>\n" + "あ" * 30 + "寒帯ジェット気流が合流する。" + "い" * 30
    answer = "寒帯ジェット気流"
    start = text.index(answer)
    result = chunkviz.chunk(text, "fixed", size=10)
    assert not any(c.start <= start and start + len(answer) <= c.end for c in result.chunks)
    _paste(page, text)
    _add_pair(page, "何が合流する？", answer)
    page.locator(".hl-box .broken").first.wait_for(timeout=30_000)
    badges = page.locator(".hl-box .cn").count()
    red = page.locator(".hl-box .broken").count()
    assert badges == len(result.chunks)
    assert red >= 2
    # The cut is named inline, and its explanation opens on keyboard focus (or a tap): no hover.
    marker = page.locator(".hl-box .cut").first
    assert marker.inner_text().startswith("✂#")
    tip = marker.locator(".tip")
    assert not tip.is_visible()
    marker.focus()
    tip.wait_for(state="visible", timeout=10_000)
    assert "何が合流する？" in tip.inner_text()
    page.get_by_role("tab", name="Export").click()
    _settle(page)
    with page.expect_download(timeout=60_000) as info:
        page.get_by_role("button", name="Highlight as HTML").click()
    saved = tmp_path / "view.html"
    info.value.save_as(saved)
    offline = browser.new_context(offline=True)
    try:
        view = offline.new_page()
        dialogs: list[str] = []
        view.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        view.goto(Path(saved).as_uri())
        assert view.locator(".hl-box .cn").count() == badges
        assert view.locator(".hl-box .broken").count() == red
        assert (
            view.locator(".hl-box .broken").first.evaluate(
                "el => getComputedStyle(el).backgroundColor"
            )
            == "rgb(220, 38, 38)"
        )
        shown = view.evaluate(
            "() => [...document.querySelectorAll('.hl-box [data-s]')].map(e => e.innerText)"
            ".join('')"
        )
        assert shown == text  # the document's own characters, <script> included, as text
        assert view.locator("script").count() == 0
        assert view.locator(".hl-legend .item").count() >= 10
        view.locator(".hl-box .cut").first.focus()
        assert view.locator(".hl-box .cut .tip").first.is_visible()
        view.wait_for_timeout(500)  # an injected handler would have fired by now
        assert dialogs == []
        view.screenshot(path=str(ARTIFACTS / "highlight-saved.png"), full_page=True)
    finally:
        offline.close()
