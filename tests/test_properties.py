"""Invariants every registered strategy must keep, on mixed Japanese/English/emoji/CRLF text."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import chunkviz
from chunkviz.strategies import all_strategies
from tests.helpers import assert_valid_chunking
from tests.strategies import texts

# Small parameters so that short generated texts still produce many chunks.
SMALL_PARAMS: dict[str, dict[str, object]] = {
    "fixed": {"size": 7, "overlap": 2},
    "table": {"size": 12},
    "code": {"size": 15},
    # Offline models only: TF-IDF vectors and the character n-gram LM need no download.
    "semantic": {"percentile": 30.0, "min_size": 3, "max_size": 12, "model": "tfidf"},
    "perplexity": {"threshold": 0.1, "min_size": 0, "max_size": 12},
    "parent_child": {"child_size": 8, "parent_size": 20},
}


@pytest.mark.parametrize("spec", all_strategies(), ids=lambda s: s.name)
@given(text=texts)
@example(text="w1 w1 w1")
@example(text="。。。。")
@example(text="")
@example(text="\r\n\r\n")
def test_every_strategy_keeps_its_invariants(spec, text):
    params = SMALL_PARAMS.get(spec.name, {})
    result = chunkviz.chunk(text, spec.name, **params)
    size = params.get(spec.size_param) if spec.size_param else None
    assert_valid_chunking(result, measure=len if size is not None else None, size=size)
    assert chunkviz.chunk(text, spec.name, **params) == result  # deterministic
    if text.strip():
        assert result.chunks, "non-blank text gave no chunk"
    if not text:
        assert result.chunks == ()


@given(text=texts, size=st.integers(1, 30), overlap=st.integers(0, 29))
def test_fixed_chars_overlap_and_count_follow_the_formula(text, size, overlap):
    if overlap >= size:
        return
    result = chunkviz.chunk(text, "fixed", size=size, overlap=overlap)
    chunks = result.chunks
    for prev, nxt in zip(chunks, chunks[1:], strict=False):
        assert prev.end - nxt.start == overlap
        assert prev.end - prev.start == size
    assert len(chunks) == chunkviz.predicted_chunk_count(len(text), size, overlap)
