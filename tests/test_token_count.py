"""Tokenizers' counting fast path gives the number of spans they list."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from chunkviz.retrieval.lexical import CharNgramTokenizer
from chunkviz.tokenizers import (
    CharTokenizer,
    CountingTokenizer,
    WhitespaceTokenizer,
    count_tokens,
)
from tests.strategies import texts

TOKENIZERS = [CharTokenizer(), WhitespaceTokenizer(), *(CharNgramTokenizer(n) for n in (1, 2, 5))]


@pytest.mark.parametrize("tokenizer", TOKENIZERS, ids=lambda t: t.name)
@given(text=texts | st.text(max_size=30))
@example(text="")
@example(text="a")
@example(text=" \u3000a\x1cb\u2028 c\u0085")  # ideographic space, separators, NEL
def test_count_is_the_number_of_token_spans(tokenizer, text):
    assert isinstance(tokenizer, CountingTokenizer)
    assert tokenizer.count(text) == len(tokenizer.token_spans(text))
    assert count_tokens(tokenizer, text) == len(tokenizer.token_spans(text))


class ListingOnly:
    """A tokenizer without a count: count_tokens lists its spans."""

    name = "listing"

    def token_spans(self, text):
        return [(i, i + 2) for i in range(0, len(text), 2)]


def test_a_tokenizer_without_count_is_counted_by_its_spans():
    assert not isinstance(ListingOnly(), CountingTokenizer)
    assert count_tokens(ListingOnly(), "abcde") == 3
    assert count_tokens(ListingOnly(), "") == 0
