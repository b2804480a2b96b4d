"""Dot product, cosine and L2 (as negative distance) between query and document vectors.

Seed 003's lesson: with unnormalised vectors whose norm grows with chunk length, the raw dot
product favours long chunks; cosine removes the norm; L2 penalises vectors far from the query,
so on unit vectors all three give the same order.
"""

from __future__ import annotations

from typing import get_args

import numpy as np

from chunkviz.errors import ParameterError
from chunkviz.retrieval.base import Measure

MEASURES: tuple[Measure, ...] = get_args(Measure)


def similarity(queries: np.ndarray, documents: np.ndarray, measure: Measure) -> np.ndarray:
    """Scores of every document for every query; higher is more similar for every measure.

    Args:
        queries: Shape ``(q, dim)`` (or ``(dim,)`` for one query).
        documents: Shape ``(d, dim)``.
        measure: ``dot`` (q·d), ``cosine`` (q·d / |q||d|, 0 for a zero vector) or ``l2``
            (−|q − d|).

    Returns:
        Shape ``(q, d)`` float64 (``(d,)`` for a single query).

    Raises:
        ParameterError: Unknown measure or mismatched dimensions.
    """
    q = np.asarray(queries, dtype=np.float64)
    d = np.asarray(documents, dtype=np.float64)
    single = q.ndim == 1
    q2 = q[None, :] if single else q
    if d.ndim != 2 or q2.ndim != 2 or (d.shape[0] and q2.shape[1] != d.shape[1]):
        raise ParameterError("similarity_shapes", queries=str(q.shape), documents=str(d.shape))
    if measure == "dot":
        out = q2 @ d.T
    elif measure == "cosine":
        qn = np.linalg.norm(q2, axis=1, keepdims=True)
        dn = np.linalg.norm(d, axis=1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = (q2 @ d.T) / (qn * dn.T)
        out = np.nan_to_num(out, nan=0.0, posinf=0.0, neginf=0.0)
    elif measure == "l2":
        sq = (q2**2).sum(1)[:, None] + (d**2).sum(1)[None, :] - 2 * (q2 @ d.T)
        out = -np.sqrt(np.maximum(sq, 0.0))
    else:
        raise ParameterError("one_of", name="measure", value=measure, choices=list(MEASURES))
    return out[0] if single else out
