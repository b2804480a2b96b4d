"""Cost arithmetic of overlapping windows (seed 003): how many chunks, how much is embedded."""

from __future__ import annotations

import math

from chunkviz.errors import ParameterError
from chunkviz.strategies.registry import Relation

#: The strategies' ``overlap < size`` (``strategies.common.OVERLAP.less_than``).
_OVERLAP_RULE = Relation("overlap", "size", strict=True)


def predicted_chunk_count(length: int, size: int, overlap: int = 0) -> int:
    """Chunks a fixed window makes over ``length`` units: ceil((L - o) / (c - o)) for L > c.

    Returns 1 for 0 < L <= c and 0 for an empty text.

    Raises:
        ParameterError: ``size < 1`` or ``overlap`` outside ``0 <= overlap < size``.
    """
    _check(size, overlap)
    if length <= 0:
        return 0
    if length <= size:
        return 1
    return math.ceil((length - overlap) / (size - overlap))


def overlap_cost_factor(size: int, overlap: int) -> float:
    """How much more text is embedded than the document holds: 1 / (1 - r), r = o / c.

    Raises:
        ParameterError: ``size < 1`` or ``overlap`` outside ``0 <= overlap < size``.
    """
    _check(size, overlap)
    return 1.0 / (1.0 - overlap / size)


def _check(size: int, overlap: int) -> None:
    if size < 1:
        raise ParameterError("cost_size", size=size)
    if overlap < 0:
        raise ParameterError("cost_overlap", overlap=overlap)
    check_overlap(size, overlap)


def check_overlap(size: int, overlap: int) -> None:
    """Raise unless ``overlap < size``: the relation ``OVERLAP`` declares, with its message.

    Raises:
        ParameterError: ``overlap >= size``.
    """
    values = {"size": size, "overlap": overlap}
    if not _OVERLAP_RULE.holds(values):
        raise _OVERLAP_RULE.error(values)
