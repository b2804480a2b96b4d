"""The jump, paging and follow-once rules of the highlight views, over a plain dict."""

from __future__ import annotations

from typing import Any

import chunkviz
from chunkviz.document import locate_questions
from chunkviz.model import Chunk
from chunkviz.ui.jumps import (
    chunk_page,
    current_jump,
    follow_answer,
    follow_once,
    follow_to_page,
    keep_choice,
    page_default,
    pick_cut,
    reopen_tab,
    request_jump,
    selected,
    valid_page,
)
from chunkviz.views.explore import assess_qa
from chunkviz.views.highlight import PAGE_SIZE, PANEL_PAGE_SIZE

# 500 chunks of 100 characters: chunk i starts at 100 * i, so chunk 250 is on page 2.
CHUNKS = tuple(Chunk(100 * i, 100 * (i + 1)) for i in range(500))
LENGTH = 50_000


def test_a_follow_once_fires_once_and_again_after_a_clear():
    state: dict[str, Any] = {}
    assert follow_once(state, "f", ("all", 3))
    assert not follow_once(state, "f", ("all", 3))  # still selected: the reader moved on
    assert follow_once(state, "f", ("broken", 3))  # another filter's row is another choice
    assert not follow_once(state, "f", None)
    assert "f" not in state
    assert follow_once(state, "f", ("broken", 3))  # cleared, so the same choice is new


def test_a_jump_lands_on_the_page_holding_its_chunk_once():
    state: dict[str, Any] = {"explore_page": 1}
    request_jump(state, "explore", 250)
    jump = current_jump(state, "explore", CHUNKS, LENGTH)
    assert (jump.scroll, jump.focus, jump.request) == (250, None, 1)
    assert "explore_page" not in state  # the pager's own state goes; its default moves
    assert page_default(state, "explore", 3) == 2  # chunk 250 starts at 25,000
    # The reader pages on; the next run does not pull the pager back.
    state["explore_page"] = 3
    again = current_jump(state, "explore", CHUNKS, LENGTH)
    assert again == jump
    assert state["explore_page"] == 3


def test_a_focus_offset_wins_the_page_and_a_second_jump_is_a_new_request():
    state: dict[str, Any] = {}
    request_jump(state, "explore", 3, offset=45_000)
    current_jump(state, "explore", CHUNKS, LENGTH)
    assert page_default(state, "explore", 3) == 3
    request_jump(state, "explore", 3, offset=45_000)
    assert current_jump(state, "explore", CHUNKS, LENGTH).request == 2


def test_a_jump_survives_a_size_change_and_is_dropped_when_out_of_range():
    state: dict[str, Any] = {}
    request_jump(state, "explore", 250)
    current_jump(state, "explore", CHUNKS, LENGTH)
    # Bigger chunks: 250 chunks of 200 characters. Chunk 250 is gone, the request is kept.
    bigger = tuple(Chunk(200 * i, 200 * (i + 1)) for i in range(250))
    jump = current_jump(state, "explore", bigger, LENGTH)
    assert (jump.scroll, jump.request) == (None, 1)
    # Back to 100 characters: the same chunk is marked again, without a new scroll request.
    jump = current_jump(state, "explore", CHUNKS, LENGTH)
    assert (jump.scroll, jump.request) == (250, 1)
    # A focus past a shorter document is dropped.
    request_jump(state, "explore", offset=49_999)
    assert current_jump(state, "explore", CHUNKS[:10], 1_000).focus is None


def test_the_page_default_stays_within_the_pages():
    state: dict[str, Any] = {"explore_page_default": 3}
    assert page_default(state, "explore", 2) == 2
    assert page_default({}, "explore", 2) == 1


def test_a_qa_row_jumps_to_its_answer_once_per_choice():
    text = "".join(chr(0x3042 + i) for i in range(60))  # 60 distinct kana
    result = chunkviz.chunk(text, "fixed", size=20)
    qa = assess_qa(result, locate_questions(text, [{"question": "q?", "answer": text[45:50]}]))
    state: dict[str, Any] = {}
    assert follow_answer(state, "explore", "all", [0], [0], qa, result.chunks)
    assert (state["explore_scroll"], state["explore_focus"]) == (2, 45)
    assert not follow_answer(state, "explore", "all", [0], [0], qa, result.chunks)
    assert state["explore_jump_request"] == 1
    # A row past the table (the filter changed under the selection) follows nothing.
    assert not follow_answer(state, "explore", "all", [5], [0], qa, result.chunks)
    assert selected([1], [4, 7]) == 7
    assert selected([], [4, 7]) is None


def test_a_clicked_strip_mark_moves_the_panels_to_its_part_once():
    state: dict[str, Any] = {}
    offset = PANEL_PAGE_SIZE + 10
    assert follow_to_page(state, "followed", "page", offset, 3 * PANEL_PAGE_SIZE, PANEL_PAGE_SIZE)
    assert state["page"] == 2
    state["page"] = 1  # the reader moves back; the click, still selected, does not pull
    assert not follow_to_page(
        state, "followed", "page", offset, 3 * PANEL_PAGE_SIZE, PANEL_PAGE_SIZE
    )
    assert state["page"] == 1
    # One part only: nothing to move.
    assert not follow_to_page({}, "followed", "page", 10, 100, PANEL_PAGE_SIZE)


def test_a_page_past_a_shorter_document_is_dropped():
    state: dict[str, Any] = {"compare_page": 5}
    assert valid_page(state, "compare_page", 2) == 1
    assert "compare_page" not in state
    state["compare_page"] = 2
    assert valid_page(state, "compare_page", 2) == 2


def test_the_page_of_a_chunk_and_of_no_chunk():
    assert chunk_page(CHUNKS, 250) == 25_000 // PAGE_SIZE == 1
    assert chunk_page(CHUNKS, None) == 0
    assert chunk_page((), 3) == 0


def test_a_clicked_cut_selects_its_item_and_an_unknown_one_nothing():
    state: dict[str, Any] = {"jump": 0}
    pick_cut(state, "jump", (4, 9, 12), 9)
    assert state["jump"] == 2
    pick_cut(state, "jump", (4, 9, 12), 5)
    assert state["jump"] == 2


def test_a_cleared_choice_comes_back_and_a_tab_reopens_after_a_language_switch():
    state: dict[str, Any] = {"filter": None}
    keep_choice(state, "filter", ("all", "broken"), "broken")
    assert state["filter"] == "broken"
    tabs = {"tab": "グラフ", "tab_id": "figures"}
    reopen_tab(tabs, "tab", "tab_id", {"qa": "質問", "figures": "グラフ"})
    assert tabs["tab"] == "グラフ"
    tabs["tab"] = "Figures"  # the label of the language before the switch
    reopen_tab(tabs, "tab", "tab_id", {"qa": "質問", "figures": "グラフ"})
    assert tabs["tab"] == "グラフ"
