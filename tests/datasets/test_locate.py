"""Answers found as a reader finds them, at exact offsets of the shown text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chunkviz.locate import fold, locate, nearest


def test_width_compatibility_forms_and_line_breaks_do_not_hide_an_answer():
    text = "会社はＡＢＣ２０２４年に\n設立。⽂書の⻑さ"
    assert locate(text, "ABC 2024年に設立") == [(3, 15)]
    assert locate(text, "文書の長さ") == [(16, 21)]  # Kangxi ⽂ and supplement ⻑ in the text
    assert locate(text, "⽂書") == [(16, 18)]  # and in the answer
    assert locate(text, "XYZ") == []


def test_overlapping_occurrences_are_all_found():
    assert locate("。。。", "。。") == [(0, 2), (1, 3)]


def test_the_nearest_near_match_of_an_answer_not_found():
    text = "申請は勤怠システムから3営業日前までに行うこと。"
    near = nearest(fold(text), "勤怠システムから五営業日前")
    assert near is not None
    assert text[near.start : near.end].startswith("勤怠システムから")
    assert 0.8 <= near.similarity < 1
    assert nearest(fold(text), "まったく関係のない文") is None


@given(st.text(alphabet="ab　 ａｂ⽂文\n", max_size=30), st.integers(0, 30), st.integers(1, 6))
def test_every_match_is_a_span_of_the_text_that_folds_to_the_answer(text, start, length):
    answer = text[start : start + length]
    for a, b in locate(text, answer):
        assert 0 <= a < b <= len(text)
        assert fold(text[a:b]).text == fold(answer).text
    if fold(answer).text:
        assert locate(text, answer)  # a piece of the text is always found
