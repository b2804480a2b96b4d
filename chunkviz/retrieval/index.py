"""One way to score queries against chunks for every backend, lexical or dense.

``score(backend, queries, documents, measure)`` is the whole interface for a page. The benchmark
uses its two halves: ``build_index`` once per configuration and ``prepare_queries`` once per
backend, so questions are encoded once however many configurations are compared.

Dense backends go through the embedding cache when one is given; lexical backends are fast and
their weights depend on the whole collection (IDF), so they are never cached per text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from chunkviz.limits import MAX_DENSE_TEXT_CHARS
from chunkviz.retrieval.base import Backend, Measure, check_dense_work
from chunkviz.retrieval.similarity import similarity
from chunkviz.tokenizers import count_tokens

if TYPE_CHECKING:
    from chunkviz.retrieval.cache import EmbeddingCache, Role


@runtime_checkable
class Index(Protocol):
    """Documents ready to be scored.

    Attributes:
        size: Number of documents.
        dims: Vector dimensions (vocabulary size for BM25).
        nbytes: Memory the index takes (dense: documents x dims x 4 bytes).
    """

    size: int
    dims: int
    nbytes: int

    def scores(self, queries: Any) -> np.ndarray:
        """Scores ``(queries, documents)``, higher is better, for prepared queries."""
        ...


@runtime_checkable
class LexicalBackend(Protocol):
    """A backend that scores from text: it builds its own index over the documents."""

    def build_index(self, documents: Sequence[str], measure: Measure = "cosine") -> Index:
        """Index ``documents``."""
        ...

    def prepare_queries(self, texts: Sequence[str]) -> Any:
        """Queries in the form ``Index.scores`` takes."""
        ...


@runtime_checkable
class FusedBackend(Protocol):
    """A backend that fuses the rankings of its components (``chunkviz.retrieval.hybrid``).

    Attributes:
        components: The backends it fuses, each indexed and queried on its own.
    """

    components: tuple[Backend, ...]

    def fuse_index(self, indexes: Sequence[Index]) -> Index:
        """One index from the components' indexes over the same documents."""
        ...

    def fuse_queries(self, prepared: Sequence[Any]) -> Any:
        """One query batch from the components' prepared queries."""
        ...


def vector_backends(backend: Backend) -> tuple[Backend, ...]:
    """The backends whose vectors a run encodes and caches: itself, or its dense components."""
    if isinstance(backend, FusedBackend):
        return tuple(b for c in backend.components for b in vector_backends(c))
    if isinstance(backend, LexicalBackend):
        return ()
    return (backend,)


class DenseIndex:
    """Document vectors scored with ``chunkviz.retrieval.similarity``."""

    def __init__(self, vectors: np.ndarray, measure: Measure) -> None:
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self.measure = measure
        self.size = int(self.vectors.shape[0])
        self.dims = int(self.vectors.shape[1]) if self.vectors.ndim == 2 else 0
        self.nbytes = self.size * self.dims * 4

    def scores(self, queries: np.ndarray) -> np.ndarray:
        """Scores of every document for query vectors ``(q, dims)``."""
        q = np.asarray(queries)
        if q.shape[0] == 0 or self.size == 0:
            return np.zeros((q.shape[0], self.size), dtype=np.float64)
        return np.asarray(similarity(q, self.vectors, self.measure), dtype=np.float64)


def measure_name(backend: Backend, measure: Measure) -> str:
    """The measure a backend really applies (``bm25`` for BM25, else ``measure``)."""
    fn = getattr(backend, "measure_name", None)
    return str(fn(measure)) if fn is not None else measure


def encode(
    backend: Backend,
    texts: Sequence[str],
    role: Role,
    cache: EmbeddingCache | None = None,
) -> np.ndarray:
    """Vectors of ``texts`` as ``role`` (``document`` or ``query``), through ``cache`` if given.

    Raises:
        ParameterError: More texts or characters than a dense model is sent in one run
            (``check_dense_work``; the pages index through here, the runner checks its whole
            run before).
    """
    if getattr(backend, "kind", "dense") != "lexical":
        check_dense_work(texts)
    if cache is not None:
        return cache.encode(backend, texts, role)
    fn = backend.encode_documents if role == "document" else backend.encode_queries
    return fn(list(texts))


def build_index(
    backend: Backend,
    documents: Sequence[str],
    measure: Measure = "cosine",
    *,
    cache: EmbeddingCache | None = None,
) -> Index:
    """An index over ``documents`` for ``backend`` under ``measure``."""
    if isinstance(backend, FusedBackend):
        return backend.fuse_index(
            [build_index(c, documents, measure, cache=cache) for c in backend.components]
        )
    if isinstance(backend, LexicalBackend):
        return backend.build_index(documents, measure)
    return DenseIndex(encode(backend, documents, "document", cache), measure)


def prepare_queries(
    backend: Backend, texts: Sequence[str], *, cache: EmbeddingCache | None = None
) -> Any:
    """Queries in the form the backend's index scores (vectors for dense backends)."""
    if isinstance(backend, FusedBackend):
        return backend.fuse_queries(
            [prepare_queries(c, texts, cache=cache) for c in backend.components]
        )
    if isinstance(backend, LexicalBackend):
        return backend.prepare_queries(texts)
    return encode(backend, texts, "query", cache)


def score(
    backend: Backend,
    queries: Sequence[str],
    documents: Sequence[str],
    measure: Measure = "cosine",
    *,
    cache: EmbeddingCache | None = None,
) -> np.ndarray:
    """Scores of every document for every query, shape ``(len(queries), len(documents))``.

    Higher is better for every backend and measure (L2 is a negative distance). BM25 applies its
    own scoring function and ignores ``measure``.

    Args:
        backend: Any backend from ``chunkviz.retrieval.backends.get_backend``.
        queries: Query texts (the backend adds its query prefix).
        documents: Chunk texts (the backend adds its document prefix).
        measure: ``dot``, ``cosine`` or ``l2``.
        cache: Optional embedding cache for dense backends.

    Returns:
        float64 array ``(q, d)``.
    """
    index = build_index(backend, documents, measure, cache=cache)
    return index.scores(prepare_queries(backend, queries, cache=cache))


def over_limit(backend: Backend, texts: Sequence[str]) -> list[bool]:
    """For each document text, whether the backend will silently truncate it.

    A text is over the limit when its token count with the document prefix exceeds
    ``backend.max_input_tokens`` (special tokens are already excluded from that limit), or,
    for a dense or hybrid backend, when it is longer than ``MAX_DENSE_TEXT_CHARS`` (what any
    dense model is given, ``dense_input``). Lexical backends flag nothing.
    """
    limit = backend.max_input_tokens
    capped = getattr(backend, "kind", "dense") != "lexical"  # test doubles may lack kind
    if limit is None:
        return [capped and len(t) > MAX_DENSE_TEXT_CHARS for t in texts]
    prefix = backend.document_prefix
    return [
        (capped and len(t) > MAX_DENSE_TEXT_CHARS)
        or count_tokens(backend.tokenizer, prefix + t) > limit
        for t in texts
    ]
