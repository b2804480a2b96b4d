"""Retrieval metrics computed from the rank of the best relevant chunk, as the seed study does.

Every rank-based metric here needs one number per question: the 1-based rank, in the full
ranking of all chunks of the index, of the best-ranked chunk that contains an answer span, or
``None`` when no chunk contains one (the answer was broken by chunking). With that rank ``r``:

- Recall@k = 1 if r <= k else 0 (also called hit rate / success@k: one relevant chunk suffices),
- nDCG@k = 1 / log2(r + 1) if r <= k else 0 (binary gain of the best relevant chunk only, so
  the ideal DCG is 1),
- MRR@k = 1 / r if r <= k else 0,

each computed per question and then averaged. With one relevant item per query these are the
definitions of ranx and ir_measures (``Success@k``/``R@k``, ``nDCG@k``, ``RR@k``); a test
cross-checks them against ranx.

Span metrics follow Chroma's chunking evaluation (Smith & Troynikov, "Evaluating Chunking
Strategies for Retrieval", 2024): with ``t_r`` the text covered by the retrieved chunks and
``t_e`` the answer (the excerpt), precision = |t_e ∩ t_r| / |t_r|, recall = |t_e ∩ t_r| / |t_e|
and IoU = |t_e ∩ t_r| / (|t_e| + |t_r| − |t_e ∩ t_r|). Chroma counts tokens; we count
characters (code points), because offsets are the truth in chunkviz and a character count does
not depend on the embedding model, so every backend is measured on the same scale. ``t_r`` is the
*union* of the retrieved chunks' ranges, so text shared by two overlapping windows counts once.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from chunkviz.errors import ParameterError

Rank = int | None


def _check_k(k: int) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ParameterError("positive_int", name="k", value=k)


def ranks_array(ranks: Iterable[Rank] | np.ndarray) -> np.ndarray:
    """Ranks as float64 with ``inf`` for ``None`` (never retrieved), checked.

    The one conversion: a reader scoring many metrics on the same ranks converts them once and
    passes the array, which is checked and returned as it is.

    Raises:
        ParameterError: A rank that is not a 1-based integer or None.
    """
    if isinstance(ranks, np.ndarray) and ranks.dtype == np.float64:
        out = ranks
    else:
        items = ranks.tolist() if isinstance(ranks, np.ndarray) else list(ranks)
        bad_type = next(
            (
                r
                for r in items
                if isinstance(r, bool) or not (r is None or isinstance(r, int | float | np.number))
            ),
            None,
        )
        if bad_type is not None:
            raise ParameterError("ranks_one_based", value=bad_type)
        out = np.array([math.inf if r is None else r for r in items], dtype=np.float64)
    ok = (out == math.inf) | ((out >= 1) & (out == np.floor(out)))
    if not ok.all():
        first = float(out[~ok][0])
        bad = int(first) if first.is_integer() else first
        raise ParameterError("ranks_one_based", value=bad)
    return out


def recall_at_k(ranks: Iterable[Rank], k: int) -> np.ndarray:
    """Per-question Recall@k: 1 when the best relevant chunk is within the top ``k``.

    Formula: ``1[r <= k]`` with ``r`` the rank of the best relevant chunk (``None``: 0).
    Reference: ranx ``hit_rate@k`` / ir_measures ``Success@k``; equal to ``recall@k`` when a
    question has one relevant item.

    Args:
        ranks: 1-based rank per question, ``None`` when no chunk is relevant.
        k: Cut-off, >= 1 (a ``k`` beyond the ranking is fine).

    Returns:
        float64 array of 0/1, one per question.

    Raises:
        ParameterError: ``k`` < 1 or a rank that is not a positive integer.
    """
    _check_k(k)
    r = ranks_array(ranks)
    return (r <= k).astype(np.float64)


def ndcg_at_k(ranks: Iterable[Rank], k: int) -> np.ndarray:
    """Per-question nDCG@k with binary gain of the best relevant chunk only.

    Formula: ``1 / log2(r + 1)`` if ``r <= k`` else 0. The ideal ranking puts a relevant chunk
    first, so the ideal DCG is 1 (Järvelin & Kekäläinen 2002; ranx ``ndcg@k`` with one relevant
    item per query).

    Args:
        ranks: 1-based rank per question, ``None`` when no chunk is relevant.
        k: Cut-off, >= 1.

    Returns:
        float64 array in [0, 1], one per question.

    Raises:
        ParameterError: ``k`` < 1 or a rank that is not a positive integer.
    """
    _check_k(k)
    r = ranks_array(ranks)
    out = np.zeros_like(r)
    hit = r <= k
    out[hit] = 1.0 / np.log2(r[hit] + 1.0)
    return out


def mrr_at_k(ranks: Iterable[Rank], k: int) -> np.ndarray:
    """Per-question reciprocal rank cut at ``k`` (its mean is MRR@k).

    Formula: ``1 / r`` if ``r <= k`` else 0 (Voorhees 1999; ranx ``mrr@k``).

    Args:
        ranks: 1-based rank per question, ``None`` when no chunk is relevant.
        k: Cut-off, >= 1.

    Returns:
        float64 array in [0, 1], one per question.

    Raises:
        ParameterError: ``k`` < 1 or a rank that is not a positive integer.
    """
    _check_k(k)
    r = ranks_array(ranks)
    out = np.zeros_like(r)
    hit = r <= k
    out[hit] = 1.0 / r[hit]
    return out


def ndcg_all_at_k(
    places: Iterable[Sequence[int]], relevant_counts: Iterable[int], k: int
) -> np.ndarray:
    """Per-question nDCG@k with binary gain over every relevant chunk (the textbook nDCG).

    Formula: ``DCG = sum_{p in places, p <= k} 1 / log2(p + 1)`` over the places of all relevant
    chunks, ``IDCG = sum_{i=1}^{min(R, k)} 1 / log2(i + 1)`` with ``R`` relevant chunks, nDCG =
    DCG / IDCG (0 when ``R`` = 0). Järvelin & Kekäläinen 2002; ranx ``ndcg@k`` with binary qrels.
    With one relevant chunk it equals ``ndcg_at_k``; with two (an answer inside the overlap of
    two windows) a configuration is rewarded for ranking both.

    Args:
        places: Per question, the 1-based places of its relevant chunks in the ranking (those
            beyond ``k`` may be left out).
        relevant_counts: Per question, how many chunks are relevant.
        k: Cut-off, >= 1.

    Returns:
        float64 array in [0, 1], one per question.

    Raises:
        ParameterError: ``k`` < 1, or more places than relevant chunks.
    """
    _check_k(k)
    out = []
    discount = 1.0 / np.log2(np.arange(2, k + 2, dtype=np.float64))
    for ps, count in zip(places, relevant_counts, strict=True):
        hits = [p for p in ps if p <= k]
        if len(hits) > count:
            raise ParameterError("relevant_places", places=len(hits), count=count)
        if count == 0:
            out.append(0.0)
            continue
        dcg = float(sum(discount[p - 1] for p in hits))
        out.append(dcg / float(discount[: min(count, k)].sum()))
    return np.asarray(out, dtype=np.float64)


# ---------------------------------------------------------------------------- span metrics

Range = tuple[int, int]


def union_ranges(ranges: Iterable[Range]) -> list[Range]:
    """Sorted, merged half-open ranges (touching ranges merge)."""
    out: list[list[int]] = []
    for start, end in sorted(r for r in ranges if r[1] > r[0]):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(a, b) for a, b in out]


def span_scores(
    retrieved: Sequence[tuple[str, int, int]], answer: Sequence[tuple[str, int, int]]
) -> tuple[float, float, float]:
    """Character-level span precision, recall and IoU of retrieved text against an answer.

    ``t_r`` is the union of the retrieved ranges (per document), ``t_e`` the answer span.
    precision = |t_e ∩ t_r| / |t_r|, recall = |t_e ∩ t_r| / |t_e|,
    IoU = |t_e ∩ t_r| / (|t_e| + |t_r| − |t_e ∩ t_r|) (Chroma's chunking evaluation, counted in
    characters). When a question has several alternative spans (every occurrence of a user's
    answer), the span with the highest IoU is scored: any one of them answers the question.

    Args:
        retrieved: ``(doc_id, start, end)`` of each retrieved chunk.
        answer: ``(doc_id, start, end)`` of each alternative answer span.

    Returns:
        ``(precision, recall, iou)``; all 0.0 when nothing was retrieved or there is no answer.
    """
    # Called for every question of every configuration: plain loops, no generator per span.
    if not retrieved or not answer:
        return (0.0, 0.0, 0.0)
    by_doc: dict[str, list[Range]] = {}
    for doc, a, b in retrieved:
        ranges = by_doc.get(doc)
        if ranges is None:
            by_doc[doc] = [(a, b)]
        else:
            ranges.append((a, b))
    merged: dict[str, list[Range]] = {}
    total = 0
    for doc, ranges in by_doc.items():
        union = union_ranges(ranges)
        merged[doc] = union
        for a, b in union:
            total += b - a
    if total == 0:
        return (0.0, 0.0, 0.0)
    best = (0.0, 0.0, 0.0)
    best_key = (0.0, 0.0, 0.0)
    for doc, s0, s1 in answer:
        alen = s1 - s0
        if alen <= 0:
            continue
        inter = 0
        for a, b in merged.get(doc, ()):
            lo = a if a > s0 else s0
            hi = b if b < s1 else s1
            if hi > lo:
                inter += hi - lo
        iou, recall, precision = inter / (alen + total - inter), inter / alen, inter / total
        if (iou, recall, precision) > best_key:  # the first best, as max() keeps
            best_key = (iou, recall, precision)
            best = (precision, recall, iou)
    return best


# --------------------------------------------------------------------- context budget


def budget_k(mean_chunk_chars: float, budget_chars: int, *, k_max: int | None = None) -> float:
    """How many chunks fill a budget of characters: ``budget / mean chunk length``, fractional.

    Halving the chunk size doubles ``k`` (seed 003), so configurations are compared at the same
    amount of context handed to the reader rather than at the same number of chunks. ``k`` is
    not rounded: rounding gave a configuration whose chunks happen to round up up to half a chunk
    more context than its neighbours (fixed-400-80 sent 1,149 characters at a 1,000-character
    budget, recursive-400-80 about 900), and more context wins. The last, partial chunk is
    counted by ``budget_values``.

    Args:
        mean_chunk_chars: Mean chunk length of the configuration, in characters (> 0).
        budget_chars: Characters of context to retrieve (>= 1).
        k_max: Optional upper bound (the number of chunks in the index: a budget larger than
            the whole index sends the whole index).

    Returns:
        The k, positive, possibly below 1 (chunks longer than the budget).

    Raises:
        ParameterError: A non-positive chunk length or budget.
    """
    if not mean_chunk_chars > 0:
        raise ParameterError("mean_chunk_chars", value=mean_chunk_chars)
    if budget_chars < 1:
        raise ParameterError("at_least", name="budget_chars", value=budget_chars, min=1)
    k = budget_chars / mean_chunk_chars
    if k_max is not None:
        k = min(k, float(max(1, k_max)))
    return k
