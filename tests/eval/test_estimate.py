from __future__ import annotations

import pytest

from chunkviz.eval.estimate import CHARS_PER_THREAD_SECOND, encode_estimate
from chunkviz.eval.grid import chunk_config
from chunkviz.retrieval.backends import get_backend
from chunkviz.retrieval.cache import EmbeddingCache
from tests.eval.test_benchmark import CONFIGS, make_dataset


def test_a_lexical_run_has_nothing_to_encode(tmp_path):
    assert (
        encode_estimate(make_dataset(), CONFIGS, get_backend("bm25"), EmbeddingCache(tmp_path))
        is None
    )


@pytest.mark.parametrize("name", ["e5-small", "hybrid"])
def test_the_estimate_counts_what_the_cache_lacks(tmp_path, name):
    data = make_dataset()
    backend = get_backend(name)
    encoder = get_backend("e5-small")
    cache = EmbeddingCache(tmp_path)
    chunks = list(
        dict.fromkeys(
            t for c in CONFIGS for d in data.documents for t in chunk_config(c, d).embed_texts()
        )
    )
    questions = [q.question for q in data.questions]
    total = sum(map(len, chunks)) + sum(map(len, questions))
    cold = encode_estimate(data, CONFIGS, backend, cache)
    assert cold is not None
    assert (cold.backend, cold.chars, cold.missing_chars) == ("e5-small", total, total)
    assert cold.seconds == pytest.approx(
        total / (CHARS_PER_THREAD_SECOND["e5-small"] * encoder.threads)
    )
    cache.encode(encoder, chunks[:3], "document")
    warm = encode_estimate(data, CONFIGS, backend, cache)
    assert warm is not None
    assert warm.missing_chars == total - sum(map(len, chunks[:3]))
