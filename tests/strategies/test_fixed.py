from __future__ import annotations

import re

import pytest

import chunkviz
from chunkviz import Chunk
from chunkviz.tokenizers import WhitespaceTokenizer


def test_fixed_golden_on_repeated_words():
    result = chunkviz.chunk("w1 w1 w1", "fixed", size=3, overlap=1)
    assert result.chunks == (Chunk(0, 3), Chunk(2, 5), Chunk(4, 7), Chunk(6, 8))
    assert result.chunk_texts() == ["w1 ", " w1", "1 w", "w1"]


def test_fixed_golden_on_repeated_japanese_full_stops():
    result = chunkviz.chunk("。。。。", "fixed", size=2, overlap=1)
    assert result.chunks == (Chunk(0, 2), Chunk(1, 3), Chunk(2, 4))


def test_fixed_matches_the_seed_example():
    # Seed 000's demo document: 50-char windows with 10 overlap give 6 chunks, the last 45 long.
    doc = "あ" * 245
    result = chunkviz.chunk(doc, "fixed", size=50, overlap=10)
    assert [c.length for c in result.chunks] == [50, 50, 50, 50, 50, 45]


def test_fixed_in_whitespace_tokens_cuts_on_token_boundaries():
    text = "alpha beta  gamma delta epsilon"
    result = chunkviz.chunk(
        text, "fixed", size=2, overlap=1, unit="tokens", tokenizer=WhitespaceTokenizer()
    )
    assert result.chunk_texts() == ["alpha beta  ", "beta  gamma ", "gamma delta ", "delta epsilon"]


def test_fixed_in_bundled_sentencepiece_tokens_covers_japanese():
    text = "梅雨は、北海道と小笠原諸島を除く日本でみられる気象現象である。😀 Hello world."
    result = chunkviz.chunk(text, "fixed", size=5, overlap=0, unit="tokens")
    assert "".join(result.chunk_texts()) == text
    assert len(result.chunks) > 3


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"size": 200, "overlap": 200},
            "overlap must be smaller than size (got overlap=200, size=200)",
        ),
        ({"size": 0}, "size is out of range (got size=0)"),
        ({"size": 10, "overlap": -1}, "overlap is out of range (got overlap=-1)"),
        (
            {"size": 10, "unit": "words"},
            "unit must be one of chars, tokens (got unit=words); use one of those values",
        ),
        ({"size": 10, "stride": 3}, "strategy fixed has no parameter stride"),
    ],
)
def test_fixed_rejects_bad_parameters_with_a_named_message(params, message):
    with pytest.raises(chunkviz.ParameterError, match=re.escape(message)):
        chunkviz.chunk("some text", "fixed", **params)


def test_unknown_strategy_lists_the_names():
    with pytest.raises(chunkviz.UnknownStrategyError, match="choose one of .*fixed"):
        chunkviz.chunk("x", "nope")


def test_empty_text_gives_zero_chunks():
    assert chunkviz.chunk("", "fixed", size=10).chunks == ()
