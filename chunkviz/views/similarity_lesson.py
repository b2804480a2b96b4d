"""Seed 003's lesson on real embeddings: norm vs chunk length, and ranks under three measures.

The Similarity page embeds the chunks of the current configuration with a backend that exposes
raw (unnormalised) vectors, then shows

- how the vector norm follows the chunk length (Pearson correlation);
- for a typed query, each chunk's rank under dot product, cosine and L2, and which chunks move
  the most between them;
- a 2-D PCA projection of the chunks and the query (numpy SVD).

Everything here is numpy on plain arrays; the backend and the chunking come from the caller.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from chunkviz.errors import ParameterError
from chunkviz.retrieval.base import Measure
from chunkviz.retrieval.ranking import rank_order
from chunkviz.retrieval.similarity import MEASURES, similarity

#: What the lesson embeds with when the app's backend has no vectors (BM25, a hybrid): raw
#: TF-IDF first (its norms follow the length), then the bundled dense encoders (unit vectors).
LESSON_BACKENDS = ("tfidf", "e5-small", "use-m3")


def has_vectors(backend: Any) -> bool:
    """Whether ``backend`` gives vectors the lesson can compare (dense, or raw TF-IDF)."""
    return backend.kind == "dense" or bool(backend.raw_vectors)


def lesson_backends(available: Collection[str]) -> list[str]:
    """The ``LESSON_BACKENDS`` among the ``available`` backend names, in that order."""
    return [name for name in LESSON_BACKENDS if name in available]


def lesson_choices(backend: Any, available: Collection[str]) -> list[str] | None:
    """None when ``backend`` serves the lesson itself; else the backends to offer instead.

    A backend without vectors the lesson can compare (BM25) is replaced by one of the
    ``LESSON_BACKENDS`` among the ``available`` names, chosen by the reader.
    """
    return None if has_vectors(backend) else lesson_backends(available)


#: Shown when no document was loaded on the Explore page: paragraphs of very different lengths,
#: so that norms have something to follow. The long one mentions 休暇 and 申請 in passing, so
#: under raw TF-IDF the default query ranks it first by dot product, while cosine ranks the short
#: paragraph that answers the query first.
DEFAULT_TEXT = (
    "有給休暇の申請は、取得日の三日前までに勤怠システムから行ってください。\n\n"
    "経費精算は月末締めです。\n\n"
    "防災訓練は毎年九月に全社で実施します。当日は各フロアの防災担当者の指示に従い、非常階段を"
    "使って一階の集合場所まで避難してください。エレベーターは使用できません。訓練の開始時刻は"
    "前週に社内ポータルで告知します。訓練の日に休暇を取る社員は、休暇の申請とは別に、"
    "防災担当者へ不在の申請を出してください。在宅勤務の日に当たった社員は、自宅で避難経路と"
    "非常持ち出し品を確認し、その結果を所定のフォームで申請してください。訓練後には各部署で"
    "振り返りを行い、気づいた点を総務部に提出します。提出された意見は翌年の訓練計画と防災"
    "マニュアルの改訂に反映されます。なお、休暇中の社員の安否確認は上長が行い、来客がいる"
    "場合は担当者が来客を誘導して、人数を集合場所で報告してください。\n\n"
    "休暇の残日数は給与明細に記載されています。\n\n"
    "出張の旅費は、事前に申請した経路と金額を上限として精算します。宿泊費は地域ごとの上限額まで"
    "実費を支給し、領収書の原本を経理部に提出してください。上限を超える場合は、理由を添えて上長の"
    "承認を得る必要があります。"
)
#: The query typed by default.
DEFAULT_QUERY_TEXT = "有給休暇の申請方法"
#: Most chunks the lesson embeds and projects. Its figures show one point per chunk, and hashed
#: TF-IDF vectors are 16,384 wide: 8,229 chunks (fixed, size 3) took 1.94 GB and 145 s (a
#: dense matrix and an n x n eigenproblem). A configuration with more chunks is refused before
#: anything is encoded.
MAX_LESSON_CHUNKS = 2_000


@dataclass(frozen=True)
class NormStats:
    """Chunk lengths, vector norms and their Pearson correlation.

    Attributes:
        lengths: Chunk length in characters, one per chunk.
        norms: Euclidean norm of each chunk vector.
        pearson: Pearson correlation of ``lengths`` and ``norms``; None when it is undefined
            (fewer than two chunks, or one of the two is constant, as with unit vectors).
        unit_vectors: Whether every norm is 1 (within 1e-3): then dot product equals cosine
            and L2 is a monotone function of them, so the three rankings coincide.
    """

    lengths: np.ndarray
    norms: np.ndarray
    pearson: float | None
    unit_vectors: bool


def pearson(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> float | None:
    """Pearson correlation of ``x`` and ``y``; None when undefined (n < 2 or a constant input).

    Raises:
        ParameterError: ``x`` and ``y`` have different lengths.
    """
    a = np.asarray(x, dtype=np.float64)
    b = np.asarray(y, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ParameterError("xy_shapes", x=str(a.shape), y=str(b.shape))
    if a.size < 2:
        return None
    # A relative tolerance: float32 unit vectors have norms that differ from 1 by ~1e-7, and a
    # "correlation" of that noise with length would be meaningless.
    if any(np.ptp(v) <= 1e-6 * max(1.0, float(np.abs(v).max())) for v in (a, b)):
        return None
    da, db = a - a.mean(), b - b.mean()
    denom = float(np.sqrt((da**2).sum() * (db**2).sum()))
    return float((da * db).sum() / denom)


def norm_stats(lengths: Sequence[int], vectors: np.ndarray) -> NormStats:
    """Norms of ``vectors`` and their correlation with ``lengths``.

    Raises:
        ParameterError: The number of lengths and vectors differ.
    """
    v = np.asarray(vectors, dtype=np.float64)
    lens = np.asarray(lengths, dtype=np.float64)
    if v.ndim != 2 or v.shape[0] != lens.shape[0]:
        raise ParameterError("lengths_vectors", lengths=lens.shape[0], shape=str(v.shape))
    norms = np.linalg.norm(v, axis=1)
    unit = bool(norms.size) and bool(np.all(np.abs(norms - 1.0) <= 1e-3))
    return NormStats(lens, norms, pearson(lens, norms), unit)


def measure_ranks(query: np.ndarray, documents: np.ndarray) -> dict[Measure, np.ndarray]:
    """1-based rank of every document for one query under each measure (ties: lower index first).

    Args:
        query: Shape ``(dim,)``.
        documents: Shape ``(n, dim)``.
    """
    out: dict[Measure, np.ndarray] = {}
    for m in MEASURES:
        order = rank_order(similarity(np.asarray(query), np.asarray(documents), m))
        ranks = np.empty(order.shape[0], dtype=np.int64)
        ranks[order] = np.arange(1, order.shape[0] + 1)
        out[m] = ranks
    return out


def rank_spread(ranks: dict[Measure, np.ndarray]) -> np.ndarray:
    """Per document: best rank minus worst rank across the measures (0: all agree)."""
    stacked = np.stack([ranks[m] for m in MEASURES])
    return np.asarray(stacked.max(axis=0) - stacked.min(axis=0))


def most_moved(ranks: dict[Measure, np.ndarray], n: int = 3) -> list[int]:
    """Indices of up to ``n`` documents whose rank differs most across measures (spread > 0).

    Ties go to the document with the better cosine rank.
    """
    if n < 1:
        raise ParameterError("at_least", name="n", value=n, min=1)
    spread = rank_spread(ranks)
    order = sorted(range(spread.size), key=lambda i: (-int(spread[i]), int(ranks["cosine"][i])))
    return [i for i in order[:n] if spread[i] > 0]


@dataclass(frozen=True)
class Projection:
    """Chunks and query in the plane of the chunks' first two principal components.

    Attributes:
        chunks: Shape ``(n, 2)``.
        query: Shape ``(2,)``.
        explained: Share of the chunks' variance along each of the two axes.
    """

    chunks: np.ndarray
    query: np.ndarray
    explained: np.ndarray


def pca_2d(documents: np.ndarray, query: np.ndarray) -> Projection:
    """Project ``documents`` and ``query`` onto the documents' first two principal axes.

    The axes are the top two eigenvectors of the mean-centred documents' scatter matrix; the
    query is centred with the same mean. The eigenproblem is solved on the smaller of the two
    Gram matrices (``n × n`` for many-dimensional vectors such as hashed TF-IDF, ``dim × dim``
    otherwise), which is the SVD's answer at a fraction of its cost. With fewer than two
    informative directions the missing coordinate is 0. Signs are fixed so that each axis'
    largest loading is positive (deterministic pictures).

    Raises:
        ParameterError: ``documents`` is empty or widths differ.
    """
    d = np.asarray(documents, dtype=np.float64)
    q = np.asarray(query, dtype=np.float64)
    if d.ndim != 2 or d.shape[0] == 0 or q.shape != (d.shape[1],):
        raise ParameterError("documents_query_shapes", documents=str(d.shape), query=str(q.shape))
    mean = d.mean(axis=0)
    n, dim = d.shape
    axes = np.zeros((2, dim))
    if n <= dim:
        # centred = U S Vᵀ: eigenvectors of the n × n Gram matrix are U, and V = centredᵀ U / S.
        # The Gram matrix of the centred rows comes from the raw one, so a sparse matrix (hashed
        # TF-IDF: a few hundred non-zeros in 16,384 columns) is never densified and centred.
        x = _maybe_sparse(d)
        raw = np.asarray((x @ x.T).toarray() if hasattr(x, "toarray") else x @ x.T)
        r = np.asarray(x @ mean).ravel()
        gram = raw - r[:, None] - r[None, :] + float(mean @ mean)
        total = float(np.trace(gram))
        values, vectors = _top2_eigh(gram)
        for i in range(values.shape[0]):
            if values[i] > 1e-12 * max(values[0], 1e-300):
                u = vectors[:, i]
                axes[i] = (np.asarray(x.T @ u).ravel() - mean * u.sum()) / np.sqrt(values[i])
    else:
        centred = d - mean
        scatter = centred.T @ centred
        total = float(np.trace(scatter))
        values, vectors = _top2_eigh(scatter)
        for i in range(values.shape[0]):
            if values[i] > 1e-12 * max(values[0], 1e-300):
                axes[i] = vectors[:, i]
    for i in range(2):
        if axes[i].any() and axes[i, np.argmax(np.abs(axes[i]))] < 0:
            axes[i] = -axes[i]
    explained = np.zeros(2)
    if total > 0:
        explained[: values.shape[0]] = np.maximum(values, 0.0) / total
    return Projection(d @ axes.T - mean @ axes.T, (q - mean) @ axes.T, explained)


def _top2_eigh(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (up to) two largest eigenvalues of symmetric ``m``, descending, with eigenvectors."""
    n = m.shape[0]
    try:
        from scipy.linalg import eigh
    except ImportError:  # numpy computes all n eigenpairs: same answer, slower
        values, vectors = np.linalg.eigh(m)
    else:
        values, vectors = eigh(m, subset_by_index=[max(n - 2, 0), n - 1])
    order = np.argsort(values)[::-1][:2]
    return values[order], vectors[:, order]


def _maybe_sparse(d: np.ndarray) -> Any:
    """``d`` as a scipy CSR matrix when under 5% of it is non-zero and scipy is installed."""
    if d.size < 1_000_000 or np.count_nonzero(d) > 0.05 * d.size:
        return d
    try:
        from scipy import sparse
    except ImportError:  # scipy comes with the lexical extra; dense numpy is only slower
        return d
    return sparse.csr_matrix(d)


def check_lesson_size(chunks: int) -> None:
    """Refuse a lesson of more than ``MAX_LESSON_CHUNKS`` chunks, before anything is encoded.

    Raises:
        ParameterError: Too many chunks; the message says how to get fewer.
    """
    if chunks > MAX_LESSON_CHUNKS:
        raise ParameterError("lesson_chunks", count=chunks, max=MAX_LESSON_CHUNKS)


@dataclass(frozen=True)
class Lesson:
    """Everything the real-embedding part of the Similarity page shows for one query.

    Attributes:
        stats: Chunk lengths, norms and their correlation.
        ranks: 1-based rank of every chunk under each measure.
        spread: Worst minus best rank of each chunk across the measures.
        moved: Chunks whose rank moves the most (see ``most_moved``).
        projection: Chunks and query in the chunks' first two principal components.
    """

    stats: NormStats
    ranks: dict[Measure, np.ndarray]
    spread: np.ndarray
    moved: list[int]
    projection: Projection


def analyse(
    lengths: Sequence[int], documents: np.ndarray, query: np.ndarray, *, n_moved: int = 3
) -> Lesson:
    """Norms, ranks, movers and projection of ``documents`` for one ``query`` vector.

    Args:
        lengths: Character length of each chunk.
        documents: Chunk vectors, shape ``(n, dim)`` with n >= 1.
        query: Query vector, shape ``(dim,)``.
        n_moved: How many movers to name.

    Raises:
        ParameterError: Shapes that do not match, no chunks, or more than
            ``MAX_LESSON_CHUNKS``.
    """
    check_lesson_size(len(lengths))
    stats = norm_stats(lengths, documents)
    ranks = measure_ranks(query, documents)
    return Lesson(
        stats, ranks, rank_spread(ranks), most_moved(ranks, n_moved), pca_2d(documents, query)
    )


def lesson_rows(
    texts: Sequence[str], lesson: Lesson, *, preview: int = 30
) -> list[dict[str, object]]:
    """One table row per chunk: number, preview, length, norm, the three ranks and the spread.

    Args:
        texts: Source text of each chunk (for the preview).
        lesson: The analysis of the same chunks.
        preview: Characters of each chunk shown (an ellipsis marks a cut).
    """
    moved = set(lesson.moved)
    rows: list[dict[str, object]] = []
    for i, text in enumerate(texts):
        flat = " ".join(text.split())
        rows.append(
            {
                "chunk": i,  # the 0-based number of every page, export and CLI
                "text": flat if len(flat) <= preview else flat[:preview] + "…",
                "chars": int(lesson.stats.lengths[i]),
                "norm": round(float(lesson.stats.norms[i]), 3),
                "dot": int(lesson.ranks["dot"][i]),
                "cosine": int(lesson.ranks["cosine"][i]),
                "l2": int(lesson.ranks["l2"][i]),
                "spread": int(lesson.spread[i]),
                "moved": i in moved,
            }
        )
    return rows
