"""Shapes of real questions: where their words lie around the answer, and the shipped file."""

from __future__ import annotations

import json

import pytest

from chunkviz.commands.shapes_cmd import shapes_text
from chunkviz.errors import DatasetError
from chunkviz.eval import question_shapes
from chunkviz.eval.question_shapes import (
    SHAPES_FILE,
    question_shape,
    shapes_for,
    shipped_shapes,
)
from chunkviz.paths import package_path
from chunkviz.segment import sentence_spans

TEXT = (
    "梅雨前線は六月に北上する。寒帯ジェット気流が南下すると梅雨前線が停滞し、九州で大雨になる。"
    "気象庁は1989年10月に新しい予報を始めた。"
)


def _shape(
    question: str, answer: str, text: str = TEXT, paragraphs: tuple[int, ...] = (0,)
) -> tuple[tuple[int, float, int, bool], ...]:
    start = text.index(answer)
    return question_shape(
        text, sentence_spans(text), paragraphs, question, answer, start, start + len(answer)
    )


def test_pieces_say_sentence_and_distance_from_the_answer() -> None:
    # 気象庁は ends right before the answer (gap 0: -1); 月に新しい予報を始めた overlaps its
    # end (0); 北上 lies two sentences before, 8 characters into its 13.
    assert _shape("気象庁は何年何月に新しい予報を始めたか？北上", "1989年10月") == (
        (0, -1.0, 4, True),
        (0, 0.0, 11, True),
        (-2, round(8 / (13 - 2), 2), 2, True),
    )


def test_the_occurrence_nearest_the_answer_is_the_one_counted() -> None:
    # 梅雨前線 occurs in the first sentence and 6 characters after 寒帯ジェット気流.
    assert _shape("梅雨前線", "寒帯ジェット気流") == ((0, 6.0, 4, True),)
    # A run that holds the answer, or lies inside it, is no piece: only 流が is left.
    assert _shape("寒帯ジェット気流が", "寒帯ジェット気流") == ((0, 0.0, 2, True),)
    assert _shape("ジェット", "寒帯ジェット気流") == ()


def test_pieces_say_whether_they_lie_in_the_answers_paragraph() -> None:
    # Paragraphs start at 0 and at the third sentence (気象庁...): 北上, in the first sentence,
    # is outside the paragraph of an answer in the third and inside that of one in the second.
    second = TEXT.index("気象庁")
    assert _shape("北上", "気象庁", paragraphs=(0, second)) == (
        (-2, round(8 / (13 - 2), 2), 2, False),
    )
    assert _shape("新しい予報", "1989年10月", paragraphs=(0, second)) == ((0, 1.0, 5, True),)
    assert _shape("北上", "寒帯ジェット気流", paragraphs=(0, second)) == (
        (-1, round(8 / (13 - 2), 2), 2, True),
    )


def test_characters_not_in_the_document_are_skipped() -> None:
    assert _shape("いつ？", "1989年10月") == ()


def test_shipped_file_is_what_the_command_computes() -> None:
    path = package_path(*SHAPES_FILE)
    assert path.read_text(encoding="utf-8") == shapes_text()
    shapes = shipped_shapes()
    assert len(shapes) == 59
    assert sum(len(v) for v in shapes.values()) == 3973
    assert all(length >= 2 for v in shapes.values() for s in v for _, _, length, _ in s)
    # Most far pieces lie outside the answer's paragraph: the file keeps both kinds.
    inside = [p[3] for v in shapes.values() for s in v for p in s if p[0] != 0]
    assert 0 < sum(inside) < len(inside) / 2


def test_a_document_never_borrows_its_own_questions_shapes() -> None:
    everything = sum(len([s for s in v if s]) for v in shipped_shapes().values())
    own = len([s for s in shipped_shapes()["a10336"] if s])
    assert len(shapes_for("a10336")) == everything - own
    assert len(shapes_for("someone-elses-manual")) == everything


def test_a_damaged_shapes_file_is_one_message_naming_it(tmp_path, monkeypatch) -> None:
    bad = tmp_path / "question_shapes.json"
    bad.write_text(json.dumps({"shapes": {"a1": [[[0, 1, 1]]]}}), encoding="utf-8")
    monkeypatch.setattr(question_shapes, "package_path", lambda *parts: bad)
    shipped_shapes.cache_clear()
    try:
        with pytest.raises(DatasetError, match=r"question_shapes\.json \[a1\].*length >= 2"):
            shipped_shapes()
        bad.write_text("{", encoding="utf-8")
        shipped_shapes.cache_clear()
        with pytest.raises(DatasetError, match="cannot read the question shapes"):
            shipped_shapes()
    finally:
        shipped_shapes.cache_clear()
