from __future__ import annotations

import pytest

import chunkviz
from chunkviz import Chunk
from chunkviz.tokenizers import WhitespaceTokenizer

TEXT = "短い段落。\n\n長い段落の一文目。二文目。三文目。\n\n最後。"


def test_paragraph_without_max_size_keeps_every_paragraph_whole():
    result = chunkviz.chunk(TEXT, "paragraph")
    assert result.chunk_texts() == ["短い段落。", "長い段落の一文目。二文目。三文目。", "最後。"]


def test_paragraph_max_size_cuts_only_the_long_paragraph_recursively():
    result = chunkviz.chunk(TEXT, "paragraph", max_size=12)
    assert result.chunk_texts() == [
        "短い段落。",
        "長い段落の一文目。",
        "二文目。三文目。",
        "最後。",
    ]
    assert result.chunks[1] == Chunk(7, 16)  # offsets are absolute, not relative to the paragraph


def test_paragraph_max_size_in_tokens():
    text = "a b c d e\n\nf g"
    result = chunkviz.chunk(
        text, "paragraph", max_size=2, unit="tokens", tokenizer=WhitespaceTokenizer()
    )
    assert result.chunk_texts() == ["a b ", "c d ", "e", "f g"]


def test_paragraph_max_size_with_known_paragraph_starts():
    text = "一文目。二文目。三文目。次の段落。"
    result = chunkviz.chunk(text, "paragraph", max_size=8, paragraph_starts=[0, 12])
    assert result.chunk_texts() == ["一文目。二文目。", "三文目。", "次の段落。"]


def test_paragraph_golden_on_repeated_text():
    assert chunkviz.chunk("w1 w1 w1", "paragraph").chunks == (Chunk(0, 8),)
    assert chunkviz.chunk("w1 w1 w1", "paragraph", max_size=3).chunks == (
        Chunk(0, 3),
        Chunk(3, 6),
        Chunk(6, 8),
    )
    assert chunkviz.chunk("。。。。", "paragraph", max_size=2).chunks == (Chunk(0, 2), Chunk(2, 4))


def test_paragraph_rejects_a_zero_max_size():
    message = r"max_size is out of range \(got max_size=0\)"
    with pytest.raises(chunkviz.ParameterError, match=message):
        chunkviz.chunk(TEXT, "paragraph", max_size=0)
