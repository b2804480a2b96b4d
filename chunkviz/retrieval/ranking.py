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
from dataclasses import dataclass
from itertools import chain
from typing import Literal

import numpy as np

from chunkviz.errors import ParameterError


def _mask(relevant: np.ndarray | Sequence[int] | None, n: int) -> np.ndarray:
    """A boolean mask of length ``n`` from a mask or a list of indices (None: nothing)."""
    if relevant is None:
        return np.zeros(n, dtype=bool)
    arr = np.asarray(relevant)
    if arr.dtype == bool:
        if arr.shape != (n,):
            raise ParameterError("scores_relevant", length=n, shape=str(arr.shape))
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
        raise ParameterError("scores_1d_relevant", shape=str(s.shape))
    rel = _mask(relevant, s.shape[0])
    return np.lexsort((np.arange(s.shape[0]), rel, -s))


def _pairs(
    relevant: Sequence[np.ndarray | Sequence[int]], q: int, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """Every (row, document) relevant pair, each once, ordered by row then document."""
    if len(relevant) != q:
        raise ParameterError("scores_2d_sets", shape=str((q, n)), sets=len(relevant))
    if all(
        isinstance(rel, list) and not (rel and isinstance(rel[0], bool | np.bool_))
        for rel in relevant
    ):
        # Lists of indices (the benchmark's): one flat array, no per-row conversion.
        lengths = np.fromiter(map(len, relevant), dtype=np.int64, count=q)
        cols = np.fromiter(chain.from_iterable(relevant), dtype=np.int64, count=int(lengths.sum()))
        rows = np.repeat(np.arange(q, dtype=np.int64), lengths)
    else:
        parts = [_indices(rel, n) for rel in relevant]
        rows = np.repeat(np.arange(q, dtype=np.int64), [p.size for p in parts])
        cols = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    if cols.size and (cols.min() < -n or cols.max() >= n):
        raise IndexError(f"relevant index out of range for {n} documents")
    width = max(n, 1)
    flat = rows * width + cols % width
    if flat.size > 1 and not np.all(flat[1:] > flat[:-1]):  # not already sorted and unique
        flat = np.unique(flat)
    return flat // width, flat % width


def _indices(rel: np.ndarray | Sequence[int], n: int) -> np.ndarray:
    """The indices of one row's relevant documents, from a mask or from indices."""
    arr = np.asarray(rel)
    if arr.dtype == bool:
        if arr.shape != (n,):
            raise ParameterError("scores_relevant", length=n, shape=str(arr.shape))
        return np.flatnonzero(arr).astype(np.int64)
    return arr.astype(np.int64).ravel()


def _top(s: np.ndarray, k: int, rel: np.ndarray | None) -> np.ndarray:
    """The first ``k`` of every row's order, all rows at once (``k`` <= n)."""
    q, n = s.shape
    if k < n:
        # Only documents scored at least the k-th best can be in the top k: order those alone.
        kth = np.partition(s, n - k, axis=1)[:, n - k]
        r, c = np.nonzero(s >= kth[:, None])
    else:
        r, c = np.divmod(np.arange(q * n, dtype=np.int64), n)
    flag = rel[r, c] if rel is not None else np.zeros(r.size, dtype=bool)
    order = np.lexsort((c, flag, -s[r, c], r))
    r, c = r[order], c[order]
    place = np.arange(r.size) - np.searchsorted(r, np.arange(q))[r]
    out: np.ndarray = c[place < k].reshape(q, k).astype(np.int64)
    return out


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
        raise ParameterError("at_least", name="k", value=k, min=1)
    s = np.asarray(scores, dtype=np.float64)
    q, n = s.shape
    k = min(k, n)
    if k == 0 or q == 0:
        return np.empty((q, k), dtype=np.int64)
    rel = None if relevant is None else _relevance_mask(relevant, q, n)
    return _top(s, k, rel)


def _relevance_mask(relevant: Sequence[np.ndarray | Sequence[int]], q: int, n: int) -> np.ndarray:
    rows, cols = _pairs(relevant, q, n)
    mask = np.zeros((q, n), dtype=bool)
    mask[rows, cols] = True
    return mask


Ties = Literal["pessimistic", "optimistic"]


def _check_ties(ties: str) -> None:
    if ties not in ("pessimistic", "optimistic"):
        raise ParameterError(
            "one_of", name="ties", value=ties, choices=["pessimistic", "optimistic"]
        )


def _check_2d(scores: np.ndarray) -> np.ndarray:
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 2:
        raise ParameterError("scores_2d", shape=str(s.shape))
    return s


def _rank_counts(
    s: np.ndarray, rows: np.ndarray, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row: any relevant document, #(scored above the best one), #(irrelevant tied with it).

    All rows at once, without sorting.
    """
    q = s.shape[0]
    values = s[rows, cols]
    best = np.full(q, -np.inf)
    np.maximum.at(best, rows, values)
    has = np.bincount(rows, minlength=q) > 0
    higher = np.count_nonzero(s > best[:, None], axis=1)
    tied = np.count_nonzero(s == best[:, None], axis=1)
    tied_relevant = np.bincount(rows, weights=values == best[rows], minlength=q).astype(np.int64)
    return has, higher, tied - tied_relevant


def _as_ranks(has: np.ndarray, ranks: np.ndarray) -> list[int | None]:
    return [int(r) if h else None for h, r in zip(has.tolist(), ranks.tolist(), strict=True)]


def best_relevant_ranks(
    scores: np.ndarray,
    relevant: Sequence[np.ndarray | Sequence[int]],
    ties: Ties = "pessimistic",
) -> list[int | None]:
    """Per row, the 1-based place in ``rank_order`` of the best relevant document.

    ``ties="optimistic"`` is the benchmark's sensitivity definition, not an order of this
    module: the rank ``1 + #(scored higher)``, as if the relevant document won every tie (the
    opposite bound; the truth under any tie-breaking lies between the two). All rows are
    counted at once (no sort): ``1 + #(scored higher) + #(irrelevant scored equal)``.

    Args:
        scores: Shape ``(q, n)``, higher is better.
        relevant: Per row, a boolean mask or the indices of its relevant documents.
        ties: ``pessimistic`` (the rule of this module) or ``optimistic``.

    Returns:
        One rank per row, None where no document is relevant.
    """
    _check_ties(ties)
    s = _check_2d(scores)
    rows, cols = _pairs(relevant, *s.shape)
    has, higher, tied_irrelevant = _rank_counts(s, rows, cols)
    return _as_ranks(has, 1 + higher + (tied_irrelevant if ties == "pessimistic" else 0))


@dataclass(frozen=True, slots=True)
class BatchRanks:
    """What the benchmark needs of one batch of queries, from one pass over their scores.

    Attributes:
        pessimistic: Per row, the rank of the best relevant document (``rank_order``).
        optimistic: Per row, the rank if it won every tie (``ties="optimistic"``).
        top: ``(q, min(k, n))``: the first ``k`` of each row's ``rank_order``.
        places: Per row, the 1-based places of the relevant documents within ``top``.
    """

    pessimistic: list[int | None]
    optimistic: list[int | None]
    top: np.ndarray
    places: list[list[int]]


def rank_batch(
    scores: np.ndarray, relevant: Sequence[np.ndarray | Sequence[int]], k: int
) -> BatchRanks:
    """Both tie bounds of the best relevant rank, the top ``k`` and the relevant places in it.

    The same figures as ``best_relevant_ranks`` (both ties), ``top_k`` and ``relevant_places``,
    with the relevance pairs and the mask built once for all of them.

    Raises:
        ParameterError: ``k`` < 1, or scores and relevance that do not match.
    """
    if k < 1:
        raise ParameterError("at_least", name="k", value=k, min=1)
    s = _check_2d(scores)
    q, n = s.shape
    rows, cols = _pairs(relevant, q, n)
    has, higher, tied_irrelevant = _rank_counts(s, rows, cols)
    mask = np.zeros((q, n), dtype=bool)
    mask[rows, cols] = True
    kk = min(k, n)
    top = _top(s, kk, mask) if kk and q else np.empty((q, kk), dtype=np.int64)
    hits = np.take_along_axis(mask, top, axis=1)
    places = [(np.flatnonzero(h) + 1).tolist() for h in hits]
    return BatchRanks(
        _as_ranks(has, 1 + higher + tied_irrelevant), _as_ranks(has, 1 + higher), top, places
    )


def relevant_places(
    scores: np.ndarray, relevant: Sequence[np.ndarray | Sequence[int]], k: int
) -> list[list[int]]:
    """Per row, the places of every relevant document within the first ``k`` of the order.

    Places are 1-based and ascending, in the order of ``top_k`` (so ties count against the
    relevant documents): what an nDCG over all relevant documents needs.

    Args:
        scores: Shape ``(q, n)``, higher is better.
        relevant: Per row, a boolean mask or the indices of its relevant documents.
        k: How deep to look, >= 1.

    Returns:
        One ascending list per row (empty where none is in the first ``k``).

    Raises:
        ParameterError: ``k`` < 1.
    """
    return rank_batch(scores, relevant, k).places


def best_relevant_rank(scores: np.ndarray, relevant: np.ndarray | Sequence[int]) -> int | None:
    """``best_relevant_ranks`` for one query: ``scores`` of shape ``(n,)``, a mask or indices.

    Raises:
        ParameterError: A mask whose length differs from the scores'.
    """
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 1:
        raise ParameterError("scores_1d", shape=str(s.shape))
    return best_relevant_ranks(s[None, :], [relevant])[0]
