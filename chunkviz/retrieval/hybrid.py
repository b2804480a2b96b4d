"""``hybrid``: reciprocal rank fusion of a lexical and a dense backend (default BM25 + e5-small).

Each component ranks every chunk on its own; a chunk's fused score is
``sum over components of 1 / (k + rank)`` with ``k = 60`` (Cormack, Clarke and Büttcher, SIGIR
2009, the value every hybrid search engine defaults to). Within a component, chunks with equal
scores share the best of their ranks (competition ranking), so a tie never favours one chunk
over another; chunks with equal fused scores are then ordered by chunk order. The fused index
returns that final order as scores (``n`` for the first chunk, ``n - 1`` for the second, ...), so
every consumer of scores sees one order, the same on every run, with no ties left to break.

``hybrid`` means ``hybrid:bm25+e5-small``; ``hybrid:<lexical>+<dense>`` names any other pair
(``hybrid:bm25+use-m3``). Results files record both components (``BackendRecord.components``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from chunkviz.errors import ParameterError
from chunkviz.retrieval.base import Backend, BackendKind, Measure
from chunkviz.retrieval.index import Index, measure_name

HYBRID = "hybrid"
DEFAULT_COMPONENTS = ("bm25", "e5-small")
RRF_K = 60


def parse_hybrid(name: str) -> tuple[str, str]:
    """``(lexical, dense)`` component names of a hybrid backend name.

    Args:
        name: ``hybrid`` or ``hybrid:<lexical>+<dense>``.

    Raises:
        ParameterError: Not a hybrid name, or not two components joined by ``+``.
    """
    if name == HYBRID:
        return DEFAULT_COMPONENTS
    head, sep, rest = name.partition(":")
    parts = rest.split("+", 1) if sep else []
    if head != HYBRID or len(parts) != 2 or not all(p.strip() for p in parts):
        raise ParameterError("hybrid_name", value=name)
    return parts[0].strip(), parts[1].strip()


def hybrid_name(lexical: str, dense: str) -> str:
    """The registry name of a pair: ``hybrid`` for the default pair, else ``hybrid:a+b``."""
    if (lexical, dense) == DEFAULT_COMPONENTS:
        return HYBRID
    return f"{HYBRID}:{lexical}+{dense}"


def competition_ranks(scores: np.ndarray) -> np.ndarray:
    """Per row, ``1 + #(scores strictly higher)``: equal scores share the best rank.

    Args:
        scores: Shape ``(q, n)``, higher is better.

    Returns:
        int64 array of the same shape.
    """
    s = np.asarray(scores, dtype=np.float64)
    if s.size == 0:
        return np.zeros(s.shape, dtype=np.int64)
    ordered = np.sort(-s, axis=1)  # ascending negated scores: best first
    return np.stack(
        [
            np.searchsorted(row_sorted, -row, side="left") + 1
            for row_sorted, row in zip(ordered, s, strict=True)
        ]
    ).astype(np.int64)


def rrf_scores(component_scores: Sequence[np.ndarray], k: int = RRF_K) -> np.ndarray:
    """Reciprocal rank fusion: ``sum_c 1 / (k + rank_c)`` per query and chunk (float64)."""
    total: np.ndarray | None = None
    for s in component_scores:
        part = 1.0 / (k + competition_ranks(s))
        total = part if total is None else total + part
    if total is None:
        raise ParameterError("rrf_no_component")
    return total


def order_as_scores(fused: np.ndarray) -> np.ndarray:
    """Scores that rank like ``fused`` with ties broken by chunk order: ``n - place``."""
    q, n = fused.shape
    out = np.empty((q, n), dtype=np.float64)
    places = np.arange(n, 0, -1, dtype=np.float64)
    for i in range(q):
        order = np.lexsort((np.arange(n), -fused[i]))
        out[i, order] = places
    return out


class FusedQueries:
    """Prepared queries of every component, sliced together (the runner batches questions)."""

    def __init__(self, parts: Sequence[Any]) -> None:
        self.parts = tuple(parts)

    def __len__(self) -> int:
        return len(self.parts[0]) if self.parts else 0

    def __getitem__(self, item: slice) -> FusedQueries:
        return FusedQueries([p[item] for p in self.parts])


class FusedIndex:
    """One index per component over the same chunks, scored by reciprocal rank fusion."""

    def __init__(self, indexes: Sequence[Index], k: int = RRF_K) -> None:
        self.indexes = tuple(indexes)
        self.k = k
        self.size = self.indexes[0].size if self.indexes else 0
        self.dims = sum(ix.dims for ix in self.indexes)
        self.nbytes = sum(ix.nbytes for ix in self.indexes)

    def scores(self, queries: FusedQueries) -> np.ndarray:
        """The fused order as scores, shape ``(queries, chunks)`` (see ``order_as_scores``)."""
        parts = [ix.scores(q) for ix, q in zip(self.indexes, queries.parts, strict=True)]
        return order_as_scores(rrf_scores(parts, self.k))


class HybridBackend:
    """BM25 (or TF-IDF) and a dense backend, fused by reciprocal rank (``RRF_K``).

    Token counts, the input limit and the prefixes are the dense component's (the only one with
    a limit); its vectors go through the embedding cache like the dense backend's own.
    """

    kind: BackendKind = "hybrid"
    normalized = False
    raw_vectors = False

    def __init__(self, lexical: Backend, dense: Backend, k: int = RRF_K) -> None:
        """Fuse ``lexical`` and ``dense``.

        Raises:
            ParameterError: The components are not one lexical and one dense backend.
        """
        if lexical.kind != "lexical" or dense.kind != "dense":
            raise ParameterError(
                "hybrid_kinds",
                lexical=lexical.name,
                lexical_kind=lexical.kind,
                dense=dense.name,
                dense_kind=dense.kind,
            )
        self.lexical = lexical
        self.dense = dense
        self.k = k
        self.components: tuple[Backend, ...] = (lexical, dense)
        self.name = hybrid_name(lexical.name, dense.name)
        self.model = f"rrf k={k}: {lexical.model} + {dense.model}"
        self.max_input_tokens = dense.max_input_tokens
        self.tokenizer = dense.tokenizer
        self.document_prefix = dense.document_prefix
        self.query_prefix = dense.query_prefix
        self.long_inputs = getattr(dense, "long_inputs", "truncated")

    def measure_name(self, measure: Measure) -> str:
        """``rrf`` of the components' measures, e.g. ``rrf(bm25, cosine)``."""
        return f"rrf({measure_name(self.lexical, measure)}, {measure_name(self.dense, measure)})"

    def fuse_index(self, indexes: Sequence[Index]) -> Index:
        """The components' indexes over the same chunks, fused."""
        return FusedIndex(indexes, self.k)

    def fuse_queries(self, prepared: Sequence[Any]) -> FusedQueries:
        """The components' prepared queries, kept together."""
        return FusedQueries(prepared)

    def encode_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Not a vector backend.

        Raises:
            ParameterError: Always; vectors come from the dense component.
        """
        raise ParameterError("hybrid_no_vectors", name=self.name, dense=self.dense.name)

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Not a vector backend.

        Raises:
            ParameterError: Always; vectors come from the dense component.
        """
        return self.encode_documents(texts)
