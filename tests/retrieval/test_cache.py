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
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    # The user's cache folder, never the package's own: an installed wheel stays untouched.
    assert default_cache_dir() == tmp_path / "xdg" / "chunkviz" / "embeddings"


@pytest.mark.parametrize("texts", [[], ["only"]])
def test_empty_and_single_inputs(tmp_path, texts):
    out = EmbeddingCache(tmp_path).encode(CountingBackend(), texts, "document")
    assert out.shape[0] == len(texts)


def _shard_bytes(keys: np.ndarray, vectors: np.ndarray) -> bytes:
    import io

    buf = io.BytesIO()
    np.savez(buf, keys=keys, vectors=vectors)
    return buf.getvalue()


def _damage(kind: str, good: bytes) -> bytes:
    import hashlib

    key = np.frombuffer(hashlib.sha256(b"a").digest(), dtype=np.uint8).reshape(1, 32)
    return {
        "truncated": good[: len(good) // 2],
        "zero bytes": b"",
        "garbage": b"PK\x03\x04" + b"\x00" * 200,
        "lengths disagree": _shard_bytes(np.repeat(key, 2, axis=0), np.ones((1, 4), np.float32)),
        "no vectors array": _shard_bytes(key, np.ones((1, 4), np.float32)).replace(
            b"vectors", b"vectorz"
        ),
        "keys of text": _shard_bytes(np.array(["k"]), np.ones((1, 4), np.float32)),
    }[kind]


@pytest.mark.parametrize(
    "kind",
    ["truncated", "zero bytes", "garbage", "lengths disagree", "no vectors array", "keys of text"],
)
def test_damaged_shards_are_ignored_and_recomputed(tmp_path, kind, caplog):
    # zipfile.BadZipFile, EOFError and zip(strict=True) crashed the bench before.
    backend = CountingBackend()
    EmbeddingCache(tmp_path).encode(backend, ["a", "b"], "document")
    shard = next(tmp_path.rglob("shard-*.npz"))
    shard.write_bytes(_damage(kind, shard.read_bytes()))
    backend.calls.clear()
    vectors = EmbeddingCache(tmp_path).encode(backend, ["a", "b"], "document")
    assert backend.calls == [["a", "b"]]
    assert vectors.shape == (2, 4)
    assert any(shard.name in r.getMessage() for r in caplog.records)


def test_a_shard_of_other_dimensions_is_ignored(tmp_path):
    import hashlib

    backend = CountingBackend()
    EmbeddingCache(tmp_path).encode(backend, ["a"], "document")
    folder = next(tmp_path.rglob("shard-*.npz")).parent
    key = np.frombuffer(hashlib.sha256(b"b").digest(), dtype=np.uint8).reshape(1, 32)
    (folder / "shard-zzzz.npz").write_bytes(_shard_bytes(key, np.ones((1, 7), np.float32)))
    backend.calls.clear()
    vectors = EmbeddingCache(tmp_path).encode(backend, ["a", "b"], "document")
    assert backend.calls == [["b"]]  # "a" came from the good shard; "b" was encoded again
    assert vectors.shape == (2, 4)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_vectors_in_a_shard_are_refused_by_name(tmp_path, bad, caplog):
    # A shard of NaN vectors was accepted: Recall@5 fell from 0.70 to 0.55 and the run exited 0.
    backend = CountingBackend()
    EmbeddingCache(tmp_path).encode(backend, ["a"], "document")
    shard = next(tmp_path.rglob("shard-*.npz"))
    with np.load(shard) as z:
        keys, vectors = z["keys"], z["vectors"].copy()
    vectors[0, 1] = bad
    shard.write_bytes(_shard_bytes(keys, vectors))
    backend.calls.clear()
    out = EmbeddingCache(tmp_path).encode(backend, ["a"], "document")
    assert backend.calls == [["a"]]
    assert np.isfinite(out).all()
    assert any(
        shard.name in r.getMessage() and "non-finite" in r.getMessage() for r in caplog.records
    )


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
