"""Explore's question table in Chromium: filter to broken questions, select a row, see its chunk."""

from __future__ import annotations

import pytest

import chunkviz
from chunkviz.samples import load_sample
from chunkviz.views.explore import assess_qa
from chunkviz.views.qa_table import answer_place, shown_questions
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

_TARGET = """
(id) => [...document.querySelectorAll('*')].some((e) => e.shadowRoot
  && e.shadowRoot.querySelector('.hl-box #chunk-' + id + '.target'))
"""


def test_selecting_a_broken_row_moves_the_highlight_to_its_answer(app_url, page):
    sample = load_sample("jsquad_tsuyu")
    result = chunkviz.chunk(sample.text, "fixed", size=100, overlap=0)
    qa = assess_qa(result, sample.questions)
    broken = shown_questions(qa, "broken")
    assert len(broken) >= 2
    chunk, _ = answer_place(qa[broken[1]], result.chunks)
    query = "strategy=fixed&size=100&overlap=0&unit=chars&sample=jsquad_tsuyu"
    page.goto(f"{app_url}/Explore?{query}")
    page.wait_for_selector(".hl-box .cn", timeout=90_000)
    page.get_by_text("Broken only", exact=True).click()
    grid = page.locator("[data-testid='stDataFrame']").filter(has_text="question").first
    page.wait_for_function(
        "(n) => [...document.querySelectorAll('[data-testid=stDataFrame]')].some("
        "(d) => d.querySelectorAll('[role=row]').length === n + 1)",
        arg=len(broken),
        timeout=60_000,
    )
    # The second row of the filtered table is a question far from the first: click its cell.
    # The grid draws on a canvas: click the row marker (the checkbox column) of the second row.
    frame = grid.bounding_box()
    assert frame is not None
    row_height = 35  # Streamlit's default row (and header) height
    page.mouse.click(frame["x"] + 12, frame["y"] + row_height * 2 + row_height / 2)
    page.wait_for_function(_TARGET, arg=chunk, timeout=60_000)
    box = page.locator(".hl-box").first.bounding_box()
    badge = page.locator(f".hl-box #chunk-{chunk}").first.bounding_box()
    assert box is not None
    assert badge is not None
    assert box["y"] <= badge["y"] <= box["y"] + box["height"]
    page.screenshot(path=str(ARTIFACTS / "explore-qa-row-selected.png"), full_page=False)
