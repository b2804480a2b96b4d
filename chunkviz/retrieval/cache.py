"""Disk cache of embeddings keyed by (backend name, model, prefix, sha256(text)).

Layout under ``cache_dir``: one folder per (backend, model, prefix) namespace, named by a hash of
the three and holding ``meta.json`` (the three in clear) and ``shard-*.npz`` files. Each shard
holds ``keys`` (32-byte SHA-256 digests of the texts) and ``vectors`` (float32). A call that
encodes new texts writes one new shard; every write goes to a temporary file in the same folder
and is moved into place with ``os.replace``, so a reader never sees half a file and two processes
never corrupt each other (at worst both encode the same texts once). A shard that cannot be
trusted (damaged, inconsistent, non-finite vectors) is ignored by name, see ``read_shard``.

Identical texts are encoded once however many configurations contain them, and queries share
the cache with documents when the backend gives them the same prefix (the encoder sees the same
string, so the vector is the same).
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
import platformdirs

from chunkviz.atomic import write_atomically
from chunkviz.retrieval.base import Backend

logger = logging.getLogger(__name__)

Role = Literal["document", "query"]
ENV_VAR = "CHUNKVIZ_CACHE_DIR"


def default_cache_root() -> Path:
    """``$CHUNKVIZ_CACHE_DIR``, else the user's cache folder for chunkviz.

    The user's folder comes from ``platformdirs`` (``~/.cache/chunkviz`` on Linux, honouring
    ``$XDG_CACHE_HOME``): an installed package must never write beside its own files.
    """
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return platformdirs.user_cache_path("chunkviz")


def default_cache_dir() -> Path:
    """Where embeddings are cached by default: ``<cache root>/embeddings``."""
    return default_cache_root() / "embeddings"


def text_key(text: str) -> bytes:
    """SHA-256 digest of the UTF-8 text."""
    return hashlib.sha256(text.encode("utf-8")).digest()


def _namespace(name: str, model: str, prefix: str) -> str:
    blob = json.dumps([name, model, prefix], ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()[:32]


def read_shard(path: Path, dims: int | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The ``(keys, vectors)`` of a shard, or None when it cannot be trusted.

    A shard is ignored (and its texts re-encoded) when it is truncated, empty or not an npz
    file, when its arrays are missing or of the wrong kind, when its keys and vectors disagree
    in length, when its vectors have ``dims`` columns unlike the shards read before it, or
    when a vector holds NaN or infinity (it would rank silently wrong). Each reason is logged
    with the shard's name.

    Args:
        path: The shard file.
        dims: Vector dimension of the shards already read, or None for the first.
    """
    try:
        # The file is opened here: np.load(path) leaves it open when the zip is damaged.
        with open(path, "rb") as f, np.load(f, allow_pickle=False) as z:
            keys, vectors = np.asarray(z["keys"]), np.asarray(z["vectors"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        return _ignored(path, f"unreadable ({type(exc).__name__})")
    if keys.dtype != np.uint8 or keys.ndim != 2 or keys.shape[1] != 32:
        return _ignored(path, f"keys of shape {keys.shape}, type {keys.dtype}; not (n, 32) uint8")
    if vectors.ndim != 2 or vectors.dtype.kind != "f" or vectors.shape[1] == 0:
        return _ignored(path, f"vectors of shape {vectors.shape} and type {vectors.dtype}")
    if len(keys) != len(vectors):
        return _ignored(path, f"{len(keys)} keys for {len(vectors)} vectors")
    if dims is not None and vectors.shape[1] != dims:
        return _ignored(path, f"vectors of {vectors.shape[1]} dimensions, not {dims}")
    finite = np.isfinite(vectors).all(axis=1)
    if not finite.all():
        return _ignored(path, f"{int((~finite).sum())} non-finite vectors (NaN or infinity)")
    return keys, vectors


def _ignored(path: Path, why: str) -> tuple[np.ndarray, np.ndarray] | None:
    logger.warning(
        "embedding cache: ignoring shard %s: %s; its texts are encoded again", path.name, why
    )
    return None


@dataclass
class CacheStats:
    """What the cache did since it was opened.

    Attributes:
        hits: Texts served from the cache.
        encoded: Texts the backend had to encode.
        encode_seconds: Time spent inside the backend's encode calls.
    """

    hits: int = 0
    encoded: int = 0
    encode_seconds: float = 0.0


@dataclass
class EmbeddingCache:
    """Embeddings on disk under an explicit ``cache_dir`` (tests pass ``tmp_path``).

    Attributes:
        cache_dir: Root folder of the cache.
        stats: Hit and encode counts since the cache was opened.
    """

    cache_dir: Path
    stats: CacheStats = field(default_factory=CacheStats)
    _loaded: dict[str, dict[bytes, np.ndarray]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.cache_dir = Path(self.cache_dir)

    def _folder(self, backend: Backend, prefix: str) -> Path:
        return self.cache_dir / _namespace(backend.name, backend.model, prefix)

    def _table(self, backend: Backend, prefix: str) -> dict[bytes, np.ndarray]:
        folder = self._folder(backend, prefix)
        key = folder.name
        if key not in self._loaded:
            table: dict[bytes, np.ndarray] = {}
            dims: int | None = None
            for shard in sorted(folder.glob("shard-*.npz")):
                loaded = read_shard(shard, dims)
                if loaded is None:
                    continue  # a damaged shard is ignored: its texts are simply re-encoded
                keys, vectors = loaded
                dims = vectors.shape[1]
                for k, v in zip(keys, vectors, strict=True):
                    table[k.tobytes()] = v
            self._loaded[key] = table
        return self._loaded[key]

    def _prefix(self, backend: Backend, role: Role) -> str:
        return backend.document_prefix if role == "document" else backend.query_prefix

    def lookup(self, backend: Backend, texts: Sequence[str], role: Role) -> list[bool]:
        """For each text, whether its vector is cached."""
        table = self._table(backend, self._prefix(backend, role))
        return [text_key(t) in table for t in texts]

    def missing(self, backend: Backend, texts: Sequence[str], role: Role) -> list[str]:
        """The texts whose vectors are not cached yet, in order, each once.

        An engine that encodes elsewhere encodes exactly these and hands them to ``store``.
        """
        table = self._table(backend, self._prefix(backend, role))
        out: dict[bytes, str] = {}
        for t in texts:
            k = text_key(t)
            if k not in table and k not in out:
                out[k] = t
        return list(out.values())

    def store(
        self, backend: Backend, texts: Sequence[str], vectors: np.ndarray, role: Role
    ) -> None:
        """Add the vectors of ``texts`` as ``role``: one shard written atomically, then in memory.

        Raises:
            ValueError: ``vectors`` does not hold one row per text.
        """
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(texts):
            raise ValueError(
                f"store needs one vector row per text (got {len(texts)} texts and vectors of "
                f"shape {vectors.shape})"
            )
        if not texts:
            return
        prefix = self._prefix(backend, role)
        keys = [text_key(t) for t in texts]
        self._write(backend, prefix, keys, vectors)
        table = self._table(backend, prefix)
        for k, v in zip(keys, vectors, strict=True):
            table[k] = v

    def encode(self, backend: Backend, texts: Sequence[str], role: Role) -> np.ndarray:
        """Vectors of ``texts`` as ``role``, encoding only texts not cached yet (each once).

        Args:
            backend: A dense backend.
            texts: Texts (the backend adds its own prefix).
            role: ``document`` or ``query``: which prefix and encode method apply.

        Returns:
            float32 array ``(len(texts), dim)`` in the order of ``texts``.
        """
        missing = self.missing(backend, texts, role)
        self.stats.hits += len(texts) - len(missing)  # every text not encoded by this call
        if missing:
            fn = backend.encode_documents if role == "document" else backend.encode_queries
            t0 = time.perf_counter()
            new = np.asarray(fn(missing), dtype=np.float32)
            self.stats.encode_seconds += time.perf_counter() - t0
            self.stats.encoded += len(missing)
            self.store(backend, missing, new, role)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        table = self._table(backend, self._prefix(backend, role))
        return np.stack([table[text_key(t)] for t in texts]).astype(np.float32, copy=False)

    def _write(self, backend: Backend, prefix: str, keys: list[bytes], vectors: np.ndarray) -> None:
        folder = self._folder(backend, prefix)
        meta = folder / "meta.json"
        if not meta.exists():
            info = {"backend": backend.name, "model": backend.model, "prefix": prefix}
            write_atomically(meta, json.dumps(info, ensure_ascii=False).encode("utf-8"))
        # NOTE: uint8 rows, not an "S32" array: numpy strips trailing NUL bytes from S-strings.
        key_array = np.frombuffer(b"".join(keys), dtype=np.uint8).reshape(-1, 32)
        digest = hashlib.sha256(b"".join(keys)).hexdigest()[:16]
        buf = io.BytesIO()
        np.savez(buf, keys=key_array, vectors=vectors)
        write_atomically(folder / f"shard-{digest}.npz", buf.getvalue())  # OutputError: 1 line
