"""Invariants every registered strategy must keep, on mixed Japanese/English/emoji/CRLF text."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import chunkviz
from chunkviz.strategies import all_strategies
from chunkviz.tokenizers import WhitespaceTokenizer, bundled_sentencepiece
from tests.helpers import assert_token_bound, assert_valid_chunking
from tests.strategies import texts

# Small parameters so that short generated texts still produce many chunks.
SMALL_PARAMS: dict[str, dict[str, object]] = {
    "fixed": {"size": 7, "overlap": 2},
    "recursive": {"size": 9, "overlap": 3},
    "paragraph": {"max_size": 9},
    "sentence": {"size": 12, "overlap": 4, "max_sentences": 2},
    "markdown": {"size": 10, "overlap": 3},
    "table": {"size": 12},
    "code": {"size": 15},
    # Offline models only: TF-IDF vectors and the character n-gram LM need no download.
    "semantic": {"percentile": 30.0, "min_size": 3, "max_size": 12, "model": "tfidf"},
    "perplexity": {"threshold": 0.1, "min_size": 0, "max_size": 12},
    "parent_child": {"child_size": 8, "parent_size": 20},
}

# Strategies whose size can be counted in tokens (they have a ``unit`` parameter).
TOKEN_SIZED = [
    s for s in all_strategies() if s.size_param and any(p.name == "unit" for p in s.params)
]
TOKENIZERS = {"whitespace": WhitespaceTokenizer, "sentencepiece": bundled_sentencepiece}


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


@pytest.mark.parametrize("spec", all_strategies(), ids=lambda s: s.name)
@given(text=texts)
@example(text="w1 w1 w1")
def test_every_strategy_keeps_its_invariants_with_default_parameters(spec, text):
    result = chunkviz.chunk(text, spec.name)
    size = spec.param(spec.size_param).default if spec.size_param else None
    assert_valid_chunking(result, measure=len if size is not None else None, size=size)
    if text.strip():
        assert result.chunks


@pytest.mark.parametrize("tokenizer_name", sorted(TOKENIZERS))
@pytest.mark.parametrize("spec", TOKEN_SIZED, ids=lambda s: s.name)
@given(text=texts)
@example(text="w1 w1 w1")
@example(text="。。。。")
@example(text="梅雨は、北海道と小笠原諸島を除く日本でみられる気象現象である。😀 Hello world.")
def test_token_sizes_hold_in_tokens(spec, tokenizer_name, text):
    tokenizer = TOKENIZERS[tokenizer_name]()
    params = {**SMALL_PARAMS.get(spec.name, {}), "unit": "tokens"}
    size = params.get(spec.size_param) or spec.param(spec.size_param).default
    size = max(int(size) // 3, 2)  # tokens are longer than characters: keep chunks many
    params[spec.size_param] = size
    if "overlap" in params:
        params["overlap"] = min(int(params["overlap"]), size - 1)
    result = chunkviz.chunk(text, spec.name, tokenizer=tokenizer, **params)
    assert_valid_chunking(result)
    assert_token_bound(result, tokenizer, size)
    assert chunkviz.chunk(text, spec.name, tokenizer=tokenizer, **params) == result
    if text.strip():
        assert result.chunks


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
