"""Semantic splitting: cut where adjacent sentences stop talking about the same thing (seed 003).

Each sentence is embedded; ``s_i`` is the cosine similarity of sentence ``i`` and sentence
``i + 1``. A boundary is a topic change when ``s_i`` falls below the ``percentile``-th
percentile of the document's own ``s_i`` (a threshold relative to the document is more robust
than an absolute one, as the seed notes). A chunk is not ended at a topic change before it is
``min_size`` characters long, and it is always ended before it would exceed ``max_size``
(LangChain's and LlamaIndex's semantic splitters have no such cap; their users keep asking for
one). A sentence longer than ``max_size`` is cut first, so the cap always holds.

The embedder is a resource the caller hands in: any object with ``encode_documents(texts) ->
ndarray`` (an ``Embedder``). This module never loads one: a strategy does not import
``chunkviz.retrieval`` (``tests/test_import_graph.py``). ``chunkviz.chunk`` hands in the backend
named by ``model`` when the caller gives no embedder; the app hands in the one it has loaded.
The default ``model`` is ``tfidf`` (character-bigram TF-IDF with IDF fitted on the
document's sentences): offline, deterministic and fast (a fraction of a second for 20,000
characters), it measures lexical cohesion as TextTiling does. ``use-m3`` (the multilingual
Universal Sentence Encoder bundled in a pip package, also offline) or ``st:<model>`` compare
meaning instead, at the cost of encoding every sentence; the Strategies page uses the active
dense backend.
``semantic_curve`` exposes the similarities, the threshold and the cuts for pictures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from chunkviz.errors import ParameterError
from chunkviz.model import ChunkingResult, ChunkSequence
from chunkviz.strategies.packing import Bounds, group_units
from chunkviz.strategies.recursive import sentence_units
from chunkviz.strategies.registry import Param, Strategy, register

DEFAULT_MODEL = "tfidf"

PERCENTILE = Param(
    "percentile",
    "float",
    5.0,
    min=0.0,
    max=100.0,
    unit="%",
    help="Cut where adjacent-sentence similarity is below this percentile of the document's own "
    "similarities (lower: fewer cuts).",
)
MIN_SIZE = Param(
    "min_size",
    "int",
    100,
    min=0,
    max=100_000,
    unit="chars",
    at_most="max_size",
    help="A topic change does not end a chunk shorter than this.",
)
MAX_SIZE = Param(
    "max_size",
    "int",
    1000,
    min=1,
    max=100_000,
    unit="chars",
    help="Hard cap: a chunk never exceeds this; an over-long sentence is cut.",
)
MODEL = Param(
    "model",
    "str",
    DEFAULT_MODEL,
    # Offered in a list; any other st:<model> is still accepted.
    choices=(DEFAULT_MODEL, "use-m3", "st:cl-nagoya/ruri-v3-130m"),
    help="Sentence vectors: tfidf (fast, lexical), use-m3 (bundled multilingual encoder, "
    "offline) or st:<model name or path>.",
)


class Embedder(Protocol):
    """Anything that turns texts into vectors."""

    def encode_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts``, shape ``(len(texts), dim)``."""
        ...


@dataclass(frozen=True, slots=True)
class SemanticCurve:
    """What the semantic splitter saw and decided, for the picture.

    Attributes:
        units: The sentences (over-long ones cut), as ``(start, end)``.
        similarities: ``s_i``, cosine similarity of unit ``i`` and unit ``i + 1``.
        threshold: The ``percentile``-th percentile of ``similarities`` (None with fewer than
            two units).
        breakpoints: Boundaries ``i`` with ``s_i < threshold`` (topic changes).
        cuts: Boundaries where a chunk ends (topic changes kept, plus forced ones).
        forced: Cuts made by ``max_size``.
        suppressed: Topic changes skipped because the chunk was below ``min_size``.
        spans: The chunks.
        embedder: Name of the embedder used.
    """

    units: tuple[Bounds, ...]
    similarities: tuple[float, ...]
    threshold: float | None
    breakpoints: tuple[int, ...]
    cuts: tuple[int, ...]
    forced: tuple[int, ...]
    suppressed: tuple[int, ...]
    spans: tuple[Bounds, ...]
    embedder: str


def adjacent_similarities(vectors: Any) -> np.ndarray:
    """Cosine similarity of each row with the next; 0 where either row is all zeros.

    Args:
        vectors: A dense array, or a SciPy sparse matrix (kept sparse: only products of
            adjacent rows are formed).
    """
    if hasattr(vectors, "tocsr"):
        m = vectors.tocsr().astype(np.float64)
        if m.shape[0] < 2:
            return np.zeros(0)
        norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1), dtype=np.float64).ravel())
        dots = np.asarray(m[:-1].multiply(m[1:]).sum(axis=1), dtype=np.float64).ravel()
    else:
        v = np.asarray(vectors, dtype=np.float64)
        if v.shape[0] < 2:
            return np.zeros(0)
        norms = np.linalg.norm(v, axis=1)
        dots = np.einsum("ij,ij->i", v[:-1], v[1:])
    denom = norms[:-1] * norms[1:]
    out = np.zeros_like(dots)
    np.divide(dots, denom, out=out, where=denom > 0)
    clipped: np.ndarray = np.clip(out, -1.0, 1.0)
    return clipped


def embedder_name(embedder: Any) -> str:
    """A readable name for an embedder object (its ``name`` and ``model`` when it has them)."""
    name = str(getattr(embedder, "name", type(embedder).__name__))
    model = getattr(embedder, "model", "")
    return f"{name} ({model})" if model and model != name else name


def _needed(embedder: Embedder | None, model: str) -> Embedder:
    """The embedder, or an error that says how to hand one in."""
    if embedder is None:
        raise ParameterError("semantic_no_embedder", model=model)
    return embedder


def semantic_curve(
    text: str,
    *,
    percentile: float = 5.0,
    min_size: int = 100,
    max_size: int = 1000,
    model: str = DEFAULT_MODEL,
    embedder: Embedder | None = None,
) -> SemanticCurve:
    """Similarities of adjacent sentences, the percentile threshold and the resulting cuts.

    Args:
        text: The document.
        percentile: Percentile (0-100) of the document's similarities used as threshold.
        min_size: Shortest chunk (characters) a topic change may end.
        max_size: Longest chunk (characters).
        model: Name of the backend ``embedder`` is (recorded in the chunking's parameters).
        embedder: Object with ``encode_documents``, from the caller (``chunkviz.chunk`` loads
            the backend named ``model``). Not needed for a text of fewer than two sentences.

    Returns:
        The curve and the chunks.

    Raises:
        ParameterError: No embedder for a text of two sentences or more, or one that returns
            the wrong shape.
    """
    units = sentence_units(text, max_size)
    if len(units) < 2:
        spans = tuple(units)
        name = embedder_name(embedder) if embedder is not None else model
        return SemanticCurve(spans, (), None, (), (), (), (), spans, name)
    emb = _needed(embedder, model)
    sentences = [text[s:e] for s, e in units]
    # NOTE an embedder that has sparse rows (tfidf) gives them: a megabyte of text densified
    # was sentences × 16,384 floats (2.1 GB), and a 10 MB text ran out of memory.
    sparse = getattr(emb, "encode_documents_sparse", None)
    vectors = sparse(sentences) if callable(sparse) else np.asarray(emb.encode_documents(sentences))
    if len(vectors.shape) != 2 or vectors.shape[0] != len(units):
        raise ParameterError(
            "embedder_shape",
            embedder=embedder_name(emb),
            shape=str(vectors.shape),
            sentences=len(units),
        )
    sims = adjacent_similarities(vectors)
    threshold = float(np.percentile(sims, percentile))
    wanted = sims < threshold
    grouping = group_units(units, list(wanted), min_size=min_size, max_size=max_size)
    return SemanticCurve(
        units=tuple(units),
        similarities=tuple(float(x) for x in sims),
        threshold=threshold,
        breakpoints=tuple(int(i) for i in np.flatnonzero(wanted)),
        cuts=grouping.cuts,
        forced=grouping.forced,
        suppressed=grouping.suppressed,
        spans=grouping.spans,
        embedder=embedder_name(emb),
    )


def semantic_split(
    text: str,
    *,
    percentile: float = 5.0,
    min_size: int = 100,
    max_size: int = 1000,
    model: str = DEFAULT_MODEL,
    embedder: Embedder | None = None,
) -> ChunkingResult:
    """Chunks that end where the topic changes (see ``semantic_curve`` for the arguments).

    Returns:
        The chunking; whitespace between sentences at a cut is in no chunk.

    Raises:
        ParameterError: No embedder, or one that returns the wrong shape.
    """
    curve = semantic_curve(
        text,
        percentile=percentile,
        min_size=min_size,
        max_size=max_size,
        model=model,
        embedder=embedder,
    )
    params = {"percentile": percentile, "min_size": min_size, "max_size": max_size, "model": model}
    return ChunkingResult(text, ChunkSequence.from_spans(curve.spans), "semantic", params)


register(
    Strategy(
        name="semantic",
        description="Semantic: cut where adjacent-sentence similarity falls below a percentile "
        "of the document's own similarities; min_size and a hard max_size.",
        params=(PERCENTILE, MIN_SIZE, MAX_SIZE, MODEL),
        gaps="whitespace",
        fn=semantic_split,
        size_param="max_size",
        resources=frozenset({"embedder"}),
    )
)
