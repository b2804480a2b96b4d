"""A printed Japanese PDF in Explore's page view, in Chromium (issue 23).

Selecting a chunk in the text shows its boxes on its page; a chunk over a page break has boxes
on both pages; a broken answer is red on the page where it is cut; a click on a box selects its
chunk in the text view. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import pytest

import chunkviz
from chunkviz.extract import extract
from tests.browser.conftest import ARTIFACTS
from tests.pdf.printing import article_html, jsquad_article, print_with

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZE = 300
_IN_VIEW = """
([cls, n]) => [...document.querySelectorAll('*')].some((e) => e.shadowRoot
  && e.shadowRoot.querySelector(`.pv-box[data-page="${n}"] ${cls}`))
"""
_TARGET = """
(id) => [...document.querySelectorAll('*')].some((e) => e.shadowRoot
  && e.shadowRoot.querySelector('.hl-box #chunk-' + id + '.target'))
"""


def _settle(page) -> None:
    page.wait_for_function(
        "() => !document.querySelector('[data-stale=\"true\"]') && "
        "!document.querySelector('[data-testid=\"stStatusWidget\"] svg')",
        timeout=90_000,
    )
    page.wait_for_timeout(400)


def _shot(page, name: str) -> None:
    """A screenshot of the page view (the rendered page and its boxes) in test-artifacts/."""
    box = page.evaluate_handle(
        "() => { for (const e of document.querySelectorAll('*')) { const b = e.shadowRoot"
        " && e.shadowRoot.querySelector('.pv-box'); if (b) return b; } }"
    ).as_element()
    assert box is not None
    box.evaluate("(b) => b.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _number(page, label: str, value: int) -> None:
    box = (
        page.locator("[data-testid='stNumberInput']")
        .filter(has=page.locator("[data-testid='stWidgetLabel']", has_text=label))
        .first
    )
    field = box.locator("input")
    field.fill(str(value))
    field.press("Enter")
    _settle(page)


def test_chunks_and_a_broken_answer_on_the_printed_pages(app_url, page, browser, tmp_path):
    paragraphs, _ = jsquad_article(0)
    pdf = print_with(browser, article_html(paragraphs), tmp_path / "tsuyu.pdf")
    got = extract(pdf.read_bytes(), pdf.name)
    layout = got.layout
    assert layout is not None
    text = got.text
    result = chunkviz.chunk(text, "fixed", size=SIZE, overlap=0)
    over = next(i for i, c in enumerate(result.chunks) if len(layout.pages_of(c.start, c.end)) == 2)
    first, second = layout.pages_of(result.chunks[over].start, result.chunks[over].end)
    # An answer cut by the boundary between chunks 4 and 5, on one printed line.
    cut = 5 * SIZE
    answer = text[cut - 4 : cut + 4]
    assert "\n" not in answer
    assert text.count(answer) == 1
    cut_page = int(layout.page[cut])

    page.goto(f"{app_url}/Explore?strategy=fixed&size={SIZE}&overlap=0&unit=chars")
    page.wait_for_selector(".hl-box .cn", timeout=180_000)  # the first run has drawn the text
    _settle(page)
    # The document picker folds under its name (issue 25): open it first.
    page.locator("[data-testid='stExpander'] summary").filter(has_text="Document").first.click()
    page.locator("[data-testid='stRadio'] label").filter(has_text="Upload a file").first.click()
    _settle(page)
    page.get_by_role("region", name="Document file").locator("input[type='file']").set_input_files(
        str(pdf)
    )
    page.get_by_text(f"Read {layout.page_count} pages by layout", exact=False).first.wait_for(
        timeout=180_000
    )
    _settle(page)
    page.get_by_label("Question", exact=True).fill("どこで切れる？")
    page.get_by_label("Answer (exact text from the document)").fill(answer)
    page.get_by_role("button", name="Add", exact=True).click()
    _settle(page)
    page.get_by_text("Show the PDF's pages").click()
    _settle(page)

    # Select a chunk in the text view (the jump box): its boxes show on its page, outlined.
    _number(page, "Jump to chunk", over)
    page.wait_for_function(_IN_VIEW, arg=[f'.pv-sel[data-chunk="{over}"]', first], timeout=60_000)
    _shot(page, "pdf-page-selected-chunk")
    # The same chunk continues on the next page: boxes there too.
    _number(page, "Page (of", second + 1)
    page.wait_for_function(
        _IN_VIEW, arg=[f'.pv-chunk[data-chunk="{over}"]', second], timeout=60_000
    )
    _shot(page, "pdf-page-chunk-continued")

    # The broken answer is red, with its cut marked, on the page where it is cut.
    _number(page, "Jump to chunk", 5)
    page.wait_for_function(_IN_VIEW, arg=[".pv-broken", cut_page], timeout=60_000)
    page.wait_for_function(_IN_VIEW, arg=[".pv-cut", cut_page], timeout=60_000)
    _shot(page, "pdf-page-broken-answer")

    # And back: a click on a chunk's box on the page selects it in the text view.
    target = 4
    handle = page.evaluate_handle(
        "(n) => { for (const e of document.querySelectorAll('*')) { const r = e.shadowRoot"
        ' && e.shadowRoot.querySelector(`.pv-chunk[data-chunk="${n}"]`); if (r) return r; } }',
        target,
    )
    handle.as_element().click()
    page.wait_for_function(_TARGET, arg=target, timeout=60_000)
    _shot(page, "pdf-page-click-selects-text")
