"""The one ranking rule: documents by score, best first, ties counted against the relevant ones.

Every place that turns scores into an order or a rank goes through this module: the benchmark's
ranks and its span metrics' top k, Compare's ranks, parent expansion's child order, and the
Similarity lessons' orders. The rule:

1. a higher score comes first;
2. among equal scores, irrelevant documents come before relevant ones (pessimistic: a tie never
   helps the answer, and an all-zero score, a query sharing nothing with any chunk, gives the
   relevant chunk the worst rank rather than the first);
3. among equal scores and equal relevance, the lower index comes first.

Without relevance (a lesson's order, parent expansion) only rules 1 and 3 apply. The rank of the
best relevant document in this order is ``1 + #(scored higher) + #(irrelevant scored equal)``,
which ``best_relevant_ranks`` counts without sorting; ``top_k`` returns the first ``k`` of the
same order, so a question whose rank is ``r <= k`` finds its chunk at place ``r`` of its top k.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from chunkviz.errors import ParameterError


def _mask(relevant: np.ndarray | Sequence[int] | None, n: int) -> np.ndarray:
    """A boolean mask of length ``n`` from a mask or a list of indices (None: nothing)."""
    if relevant is None:
        return np.zeros(n, dtype=bool)
    arr = np.asarray(relevant)
    if arr.dtype == bool:
        if arr.shape != (n,):
            raise ParameterError(
                f"scores and relevant must be 1-D of the same length (got ({n},) and {arr.shape})"
            )
        return arr
    mask = np.zeros(n, dtype=bool)
    if arr.size:
        mask[arr.astype(np.int64)] = True
    return mask


def rank_order(
    scores: np.ndarray, relevant: np.ndarray | Sequence[int] | None = None
) -> np.ndarray:
    """Every document index of one query, best first, under the rule of this module.

    Args:
        scores: Shape ``(n,)``, higher is better (or ``(q, n)`` when ``relevant`` is None).
        relevant: Boolean mask or indices of the relevant documents (None: no relevance).

    Returns:
        int64 indices.
    """
    s = np.asarray(scores, dtype=np.float64)
    if relevant is None:
        return np.argsort(-s, axis=-1, kind="stable")
    if s.ndim != 1:
        raise ParameterError(f"scores must be 1-D when relevant is given (got shape {s.shape})")
    rel = _mask(relevant, s.shape[0])
    return np.lexsort((np.arange(s.shape[0]), rel, -s))


def top_k(
    scores: np.ndarray, k: int, relevant: Sequence[np.ndarray | Sequence[int]] | None = None
) -> np.ndarray:
    """The first ``k`` of ``rank_order`` for each row of ``scores``.

    Args:
        scores: Shape ``(q, n)``.
        k: How many per row, >= 1 (more than ``n`` gives ``n``).
        relevant: Per row, the relevant documents (mask or indices); None: no relevance.

    Returns:
        int64 array ``(q, min(k, n))``.

    Raises:
        ParameterError: ``k`` < 1.
    """
    if k < 1:
        raise ParameterError(f"k must be at least 1 (got k={k}); use k >= 1")
    s = np.asarray(scores, dtype=np.float64)
    q, n = s.shape
    k = min(k, n)
    out = np.empty((q, k), dtype=np.int64)
    if k == 0:
        return out
    for i in range(q):
        row = s[i]
        # Only documents scored at least the k-th best can be in the top k: order those alone.
        kth = np.partition(row, n - k)[n - k] if k < n else -np.inf
        cand = np.flatnonzero(row >= kth)
        rel = _mask(None if relevant is None else relevant[i], n)[cand]
        order = np.lexsort((cand, rel, -row[cand]))
        out[i] = cand[order[:k]]
    return out


def best_relevant_ranks(
    scores: np.ndarray, relevant: Sequence[np.ndarray | Sequence[int]]
) -> list[int | None]:
    """Per row, the 1-based place in ``rank_order`` of the best relevant document.

    Args:
        scores: Shape ``(q, n)``, higher is better.
        relevant: Per row, a boolean mask or the indices of its relevant documents.

    Returns:
        One rank per row, None where no document is relevant.
    """
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 2 or len(relevant) != s.shape[0]:
        raise ParameterError(
            f"scores must be 2-D with one relevant set per row (got {s.shape} and "
            f"{len(relevant)} sets)"
        )
    out: list[int | None] = []
    for row, rel in zip(s, relevant, strict=True):
        arr = np.asarray(rel)
        idx = np.flatnonzero(_mask(arr, s.shape[1])) if arr.dtype == bool else np.unique(
            arr.astype(np.int64))
        if idx.size == 0:
            out.append(None)
            continue
        rel_scores = row[idx]
        best = rel_scores.max()
        higher = int(np.count_nonzero(row > best))
        tied_irrelevant = int(np.count_nonzero(row == best)) - int(
            np.count_nonzero(rel_scores == best))
        out.append(1 + higher + tied_irrelevant)
    return out


def best_relevant_rank(scores: np.ndarray, relevant: np.ndarray | Sequence[int]) -> int | None:
    """``best_relevant_ranks`` for one query: ``scores`` of shape ``(n,)``, a mask or indices.

    Raises:
        ParameterError: A mask whose length differs from the scores'.
    """
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 1:
        raise ParameterError(f"scores must be 1-D (got shape {s.shape})")
    return best_relevant_ranks(s[None, :], [relevant])[0]
