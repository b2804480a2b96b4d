from __future__ import annotations

import pytest
from hypothesis import example, given

import chunkviz
from chunkviz import Chunk
from chunkviz.segment import sentence_spans
from tests.strategies import texts


def _sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("円周率は3.14です。次の文。", ["円周率は3.14です。", "次の文。"]),
        ("Pi is 3.14 today. Next.", ["Pi is 3.14 today.", "Next."]),
        ("Fruits, e.g. apples, i.e. food. Done.", ["Fruits, e.g. apples, i.e. food.", "Done."]),
        ("Mr. Smith met Dr. Who. They left!", ["Mr. Smith met Dr. Who.", "They left!"]),
        ("Tools, pens etc. are here. Yes?", ["Tools, pens etc. are here.", "Yes?"]),
        ("The U.S. is large. It is.", ["The U.S. is large.", "It is."]),
        ("「行こう。」彼は走った。", ["「行こう。」", "彼は走った。"]),
        ("彼は「はい。」と言った。次。", ["彼は「はい。」と言った。", "次。"]),
        ("本当！？（驚き）すごい。」", ["本当！？", "（驚き）すごい。」"]),
        ('He said "Go." Then he went.', ['He said "Go."', "Then he went."]),
        ("  見出し\n本文です。\r\n\r\n  次の段落  ", ["見出し", "本文です。", "次の段落"]),
        ("。。。。", ["。。。。"]),
        ("w1 w1 w1", ["w1 w1 w1"]),
        ("", []),
        (" \n\t ", []),
    ],
)
def test_sentence_spans_golden(text, expected):
    assert _sentences(text) == expected


@given(text=texts)
@example(text="a.\u3000b")
def test_sentence_spans_cover_every_non_whitespace_character_once(text):
    spans = sentence_spans(text)
    covered = [False] * len(text)
    prev_end = 0
    for s, e in spans:
        assert prev_end <= s < e
        assert not text[s].isspace()
        assert not text[e - 1].isspace()
        for j in range(s, e):
            covered[j] = True
        prev_end = e
    assert all(covered[j] or text[j].isspace() for j in range(len(text)))


def test_sentence_spans_of_a_region_use_absolute_offsets():
    text = "前。中の文。後ろ。"
    assert sentence_spans(text, 2, 6) == [(2, 6)]


def test_sentence_golden_on_repeated_words():
    # One sentence longer than size: cut at whitespace, whitespace kept with the word before.
    result = chunkviz.chunk("w1 w1 w1", "sentence", size=3)
    assert result.chunks == (Chunk(0, 3), Chunk(3, 6), Chunk(6, 8))


def test_sentence_golden_on_repeated_japanese_full_stops():
    assert chunkviz.chunk("。。。。", "sentence", size=2).chunks == (Chunk(0, 2), Chunk(2, 4))
    assert chunkviz.chunk("。。。。", "sentence", size=4).chunks == (Chunk(0, 4),)


def test_sentence_packs_whole_sentences_and_leaves_the_space_between_chunks():
    text = "Hi there.  Bye now. Ok."
    result = chunkviz.chunk(text, "sentence", size=12)
    assert result.chunks == (Chunk(0, 9), Chunk(11, 23))
    assert result.chunk_texts() == ["Hi there.", "Bye now. Ok."]


def test_sentence_max_sentences_caps_the_count():
    result = chunkviz.chunk("一。二。三。四。五。", "sentence", size=100, max_sentences=2)
    assert result.chunk_texts() == ["一。二。", "三。四。", "五。"]


def test_sentence_overlap_repeats_whole_sentences():
    result = chunkviz.chunk("一。二。三。四。", "sentence", size=4, overlap=2)
    assert result.chunks == (Chunk(0, 4), Chunk(2, 6), Chunk(4, 8))


def test_sentence_cuts_an_over_long_sentence_at_commas_first():
    text = "短い。これは長い文で、読点で切られ、最後まで続く。終わり。"
    result = chunkviz.chunk(text, "sentence", size=10)
    assert result.chunk_texts() == [
        "短い。",
        "これは長い文で、",
        "読点で切られ、",
        "最後まで続く。",
        "終わり。",
    ]
