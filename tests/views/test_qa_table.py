from __future__ import annotations

import chunkviz
from chunkviz.document import locate_questions
from chunkviz.views.explore import assess_qa
from chunkviz.views.qa_table import QA_COLUMNS, answer_place, qa_rows, shown_questions

TEXT = "abcdefghijkl"
PAIRS = [
    {"question": "whole?", "answer": "ab"},
    {"question": "cut?", "answer": "def"},  # 3-6, cut at 4 by fixed size=4
    {"question": "missing?", "answer": "xyz"},
    {"question": "cut too?", "answer": "hij"},  # 7-10, cut at 8
]


def _qa():
    result = chunkviz.chunk(TEXT, "fixed", size=4)
    return assess_qa(result, locate_questions(TEXT, PAIRS))


def test_the_broken_filter_keeps_question_indices_in_order():
    qa = _qa()
    assert [r.status for r in qa] == ["contained", "broken", "not found", "broken"]
    assert shown_questions(qa, "all") == [0, 1, 2, 3]
    assert shown_questions(qa, "broken") == [1, 3]  # row 1 of the filtered table is question 3


def test_the_answer_place_is_a_whole_copy_else_where_the_cut_copy_starts():
    result = chunkviz.chunk(TEXT, "fixed", size=4)
    qa = assess_qa(result, locate_questions(TEXT, PAIRS))
    places = [answer_place(r, result.chunks) for r in qa]
    assert places == [(0, 0), (0, 3), None, (1, 7)]


def test_the_answer_place_prefers_a_copy_some_chunk_holds_whole():
    text = "xxabyyyab"  # "ab" at 2 (cut by fixed size=3 at 3) and at 7 (whole in 6-9)
    result = chunkviz.chunk(text, "fixed", size=3)
    qa = assess_qa(result, locate_questions(text, [{"question": "ab?", "answer": "ab"}]))
    assert qa[0].status == "contained"
    assert answer_place(qa[0], result.chunks) == (2, 7)


def test_rows_follow_the_shown_questions_in_the_ui_words():
    qa = _qa()
    columns = {c: c.upper() for c in QA_COLUMNS}
    statuses = {"contained": "ok", "broken": "cut", "not found": "none", "ambiguous": "?"}
    rows = qa_rows(qa, [3, 1], columns, statuses)
    assert [r["QUESTION"] for r in rows] == ["cut too?", "cut?"]
    assert rows[0] == {
        "QUESTION": "cut too?",
        "ANSWER": "hij",
        "STATUS": "cut",
        "IN": "",
        "CUT": "#1, #2",
        "FOUND": 1,
        "AMBIGUOUS": "",
        "NEAREST": "",
    }
    assert qa_rows(qa, [0], columns, statuses)[0]["IN"] == "#0"


def test_the_ambiguous_filter_keeps_answers_whose_place_is_a_guess():
    text = "abcabc-long tail"
    pairs = [
        {"question": "twice?", "answer": "abc"},
        {"question": "once?", "answer": "c-lo"},
        {"question": "short?", "answer": "ta"},
    ]
    qa = assess_qa(chunkviz.chunk(text, "fixed", size=5), locate_questions(text, pairs))
    assert [r.ambiguous for r in qa] == [True, False, True]
    assert shown_questions(qa, "ambiguous") == [0, 2]
    statuses = {"contained": "ok", "broken": "cut", "not found": "none", "ambiguous": "?"}
    rows = qa_rows(qa, [0, 1], {c: c for c in QA_COLUMNS}, statuses)
    assert [r["ambiguous"] for r in rows] == ["?", ""]


# --- Answers not found, counted apart (issue 23) ---------------------------------------------


def test_answers_not_found_are_counted_apart_and_never_broken():
    from chunkviz.views.explore import qa_counts

    qa = _qa()
    counts = qa_counts(qa)
    assert (counts.broken, counts.found, counts.not_found) == (2, 3, 1)
    assert counts.contained + counts.broken + counts.not_found == counts.total == len(qa)
    assert shown_questions(qa, "not_found") == [2]


def test_the_not_found_row_shows_its_nearest_near_match():
    from chunkviz.views.qa_table import near_label, near_matches

    text = "年次有給休暇は入社6か月後に10日付与される。"
    pairs = [
        {"question": "いつ?", "answer": "入社6ヶ月後"},  # ヶ where the text has か
        {"question": "何日?", "answer": "１０日"},
    ]  # fullwidth digits: found
    result = chunkviz.chunk(text, "fixed", size=100)
    qa = assess_qa(result, locate_questions(text, pairs))
    assert [r.status for r in qa] == ["not found", "contained"]
    span = qa[1].item.spans[0]
    assert text[span.start : span.end] == "10日"  # exact offsets of the shown text
    near = near_matches(text, qa, [0, 1])
    assert list(near) == [0]
    assert text[near[0].start : near[0].end] == "入社6か月後"
    assert near_label(text, near[0]) == "入社6か月後 (83%)"
    rows = qa_rows(
        qa,
        [0, 1],
        {c: c for c in QA_COLUMNS},
        {"contained": "ok", "broken": "x", "not found": "?", "ambiguous": "a"},
        {0: near_label(text, near[0])},
    )
    assert [r["nearest"] for r in rows] == ["入社6か月後 (83%)", ""]
