"""Snapping window cuts to word or phrase boundaries (``snap`` and ``max_shift``).

A fixed window cuts wherever its length lands: in Japanese, mostly inside a word. With
``snap="word"`` (or ``"phrase"``) each window still starts where the previous one says, but
its end moves *back* to the nearest boundary of ``chunkviz.text_boundaries`` within
``max_shift`` units, and the next window's start moves *forward* to the nearest boundary within
``max_shift`` of where the overlap puts it. So no chunk is longer than ``size``, no overlap is
longer than ``overlap`` (with ``overlap=0`` a chunk starts exactly where the previous one
ends), every chunk starts after the one before it and ends after it, and the chunks still
cover the whole text. Where no boundary lies within reach, the cut stays where the window put
it (inside a word).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from chunkviz.strategies.registry import Param
from chunkviz.text_boundaries import Boundaries

Snap = Literal["none", "word", "phrase"]

SNAP = Param(
    "snap",
    "choice",
    "none",
    choices=("none", "word", "phrase"),
    help="Move each cut to the nearest word or phrase boundary (BudouX) within max_shift.",
)
MAX_SHIFT = Param(
    "max_shift",
    "int",
    10,
    min=0,
    max=1_000,
    unit="chars/tokens",
    help="Furthest a snapped cut may move, in the unit of size.",
)


def active_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` without ``snap`` and ``max_shift`` when snapping is off.

    The one rule for what a configuration says about snapping: a chunking's own ``params``,
    a shared link and generated code name them only when ``snap`` is on, so configurations and
    links made before the option existed keep their exact form.
    """
    if params.get("snap", "none") != "none":
        return dict(params)
    return {k: v for k, v in params.items() if k not in ("snap", "max_shift")}


class _Allowed:
    """Sorted unit indices where a cut falls on a boundary, with bounded searches."""

    __slots__ = ("_values",)

    def __init__(self, values: list[int]) -> None:
        self._values = values

    def last_in(self, low: int, high: int) -> int | None:
        """The largest allowed index in ``[low, high]``, or None."""
        i = bisect_right(self._values, high) - 1
        return self._values[i] if i >= 0 and self._values[i] >= low else None

    def first_in(self, low: int, high: int) -> int | None:
        """The smallest allowed index in ``[low, high]``, or None."""
        i = bisect_left(self._values, low)
        return self._values[i] if i < len(self._values) and self._values[i] <= high else None


def snapped_windows(
    count: int, size: int, overlap: int, max_shift: int, allowed: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Window starts and ends over ``count`` units, cuts moved onto ``allowed`` indices.

    Args:
        count: Number of units (characters or tokens) of the text.
        size: Largest window, in units.
        overlap: Largest overlap, in units (smaller than ``size``).
        max_shift: Furthest a cut moves, in units.
        allowed: Unit indices where a cut is clean (a word boundary), increasing.

    Returns:
        Starts and ends in units; see the module docstring for the rules.
    """
    starts: list[int] = []
    ends: list[int] = []
    if count == 0:
        return starts, ends
    marks = _Allowed(list(allowed))
    start, previous_end = 0, 0
    while True:
        nominal = start + size
        if nominal >= count:
            starts.append(start)
            ends.append(count)
            return starts, ends
        low = max(start + 1, nominal - max_shift, previous_end + 1)
        end = marks.last_in(low, nominal)
        if end is None:
            end = nominal
        starts.append(start)
        ends.append(end)
        previous_end = end
        if overlap == 0:
            start = end
            continue
        first = max(end - overlap, start + 1)
        snapped = marks.first_in(first, min(first + max_shift, end))
        start = first if snapped is None else snapped


def allowed_offsets(boundaries: Boundaries, offsets: Sequence[int]) -> list[int]:
    """Indices ``i`` of ``offsets`` (unit boundaries as text offsets) that are word boundaries."""
    inside = boundaries.inside(list(offsets))
    return [i for i, cut_inside in enumerate(inside.tolist()) if not cut_inside]
