from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from chunkviz.retrieval.cache import EmbeddingCache, default_cache_dir


class CountingBackend:
    """A dense backend whose vectors are a hash of the text; counts what it encodes."""

    kind = "dense"
    normalized = False
    raw_vectors = True
    max_input_tokens = None
    tokenizer = None

    def __init__(self, name: str = "counting", model: str = "m1", query_prefix: str = "q: "):
        self.name = name
        self.model = model
        self.document_prefix = ""
        self.query_prefix = query_prefix
        self.calls: list[list[str]] = []

    def _vec(self, text: str) -> np.ndarray:
        rng = np.random.default_rng(abs(hash(text)) % (2**32))
        return rng.random(4).astype(np.float32)

    def encode_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.stack([self._vec(self.document_prefix + t) for t in texts])

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.stack([self._vec(self.query_prefix + t) for t in texts])


def test_identical_texts_are_encoded_once(tmp_path):
    backend = CountingBackend()
    cache = EmbeddingCache(tmp_path)
    first = cache.encode(backend, ["a", "b", "a"], "document")
    second = cache.encode(backend, ["b", "c"], "document")
    assert backend.calls == [["a", "b"], ["c"]]
    np.testing.assert_array_equal(first[0], first[2])
    np.testing.assert_array_equal(first[1], second[0])
    assert cache.stats.encoded == 3
    assert cache.stats.hits == 2  # the repeated "a" and the cached "b"


def test_a_new_cache_object_reads_what_an_earlier_one_wrote(tmp_path):
    backend = CountingBackend()
    vecs = EmbeddingCache(tmp_path).encode(backend, ["x", "y"], "document")
    backend.calls.clear()
    again = EmbeddingCache(tmp_path).encode(backend, ["y", "x"], "document")
    assert backend.calls == []
    np.testing.assert_array_equal(again, vecs[::-1])


def test_keys_separate_backend_model_and_prefix(tmp_path):
    cache = EmbeddingCache(tmp_path)
    a = CountingBackend(model="m1")
    b = CountingBackend(model="m2")
    cache.encode(a, ["t"], "document")
    cache.encode(b, ["t"], "document")
    assert b.calls == [["t"]]  # another model: not a hit
    cache.encode(a, ["t"], "query")  # another prefix: not a hit
    assert a.calls == [["t"], ["t"]]
    assert cache.lookup(a, ["t", "u"], "document") == [True, False]


def test_same_prefix_shares_vectors_between_queries_and_documents(tmp_path):
    backend = CountingBackend(query_prefix="")
    cache = EmbeddingCache(tmp_path)
    cache.encode(backend, ["same"], "document")
    cache.encode(backend, ["same"], "query")
    assert backend.calls == [["same"]]


def test_writes_leave_no_temporary_files(tmp_path):
    cache = EmbeddingCache(tmp_path)
    cache.encode(CountingBackend(), ["a", "b"], "document")
    files = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert "meta.json" in files
    assert all(not name.endswith(".tmp") for name in files)
    assert sum(name.startswith("shard-") for name in files) == 1


def test_a_damaged_shard_is_ignored_and_reencoded(tmp_path):
    backend = CountingBackend()
    EmbeddingCache(tmp_path).encode(backend, ["a"], "document")
    shard = next(tmp_path.rglob("shard-*.npz"))
    shard.write_bytes(b"not a zip")
    backend.calls.clear()
    EmbeddingCache(tmp_path).encode(backend, ["a"], "document")
    assert backend.calls == [["a"]]


def test_default_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CHUNKVIZ_CACHE_DIR", str(tmp_path))
    assert default_cache_dir() == tmp_path / "embeddings"
    monkeypatch.delenv("CHUNKVIZ_CACHE_DIR")
    assert default_cache_dir().parts[-3:] == (".cache", "chunkviz", "embeddings")


@pytest.mark.parametrize("texts", [[], ["only"]])
def test_empty_and_single_inputs(tmp_path, texts):
    out = EmbeddingCache(tmp_path).encode(CountingBackend(), texts, "document")
    assert out.shape[0] == len(texts)


def test_missing_lists_uncached_texts_once_in_order(tmp_path):
    backend = CountingBackend()
    cache = EmbeddingCache(tmp_path)
    cache.encode(backend, ["b"], "document")
    assert cache.missing(backend, ["c", "b", "a", "c"], "document") == ["c", "a"]
    assert cache.missing(backend, ["b"], "query") == ["b"]  # another prefix, another namespace


def test_store_lands_vectors_that_a_fresh_cache_reads(tmp_path):
    backend = CountingBackend()
    cache = EmbeddingCache(tmp_path)
    vectors = np.arange(8, dtype=np.float32).reshape(2, 4)
    cache.store(backend, ["x", "y"], vectors, "document")
    assert cache.missing(backend, ["x", "y", "z"], "document") == ["z"]
    fresh = EmbeddingCache(tmp_path)
    np.testing.assert_array_equal(fresh.encode(backend, ["y", "x"], "document"), vectors[::-1])
    assert backend.calls == []
    assert not list(tmp_path.rglob("*.tmp"))


def test_store_rejects_a_row_count_that_does_not_match(tmp_path):
    cache = EmbeddingCache(tmp_path)
    with pytest.raises(ValueError, match="one vector row per text"):
        cache.store(CountingBackend(), ["x", "y"], np.zeros((1, 4)), "document")
