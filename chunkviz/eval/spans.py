"""Which answer spans survive chunking: contained in some chunk, or broken before retrieval.

A span is *contained* when some chunk satisfies ``c.start <= s.start and s.end <= c.end``;
otherwise it is *broken*: no retriever can return a chunk holding the whole answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from chunkviz.model import ChunkingResult, Span


@dataclass(frozen=True, slots=True)
class SpanStatus:
    """How one span fares under a chunking.

    Attributes:
        span: The span.
        containing: Indices of the chunks that hold the whole span.
        cutting: Indices of the chunks that overlap the span but hold only part of it
            (their boundaries cut it); meaningful when the span is broken.
    """

    span: Span
    containing: tuple[int, ...]
    cutting: tuple[int, ...]

    @property
    def contained(self) -> bool:
        """Some chunk holds the whole span."""
        return bool(self.containing)

    @property
    def broken(self) -> bool:
        """No chunk holds the whole span."""
        return not self.containing


@dataclass(frozen=True, slots=True)
class SpanReport:
    """Statuses of a set of spans under one chunking, in the order the spans were given."""

    statuses: tuple[SpanStatus, ...]

    @property
    def broken_count(self) -> int:
        """How many spans no chunk contains."""
        return sum(1 for s in self.statuses if s.broken)


def offsets(values: Sequence[int]) -> np.ndarray:
    """A chunk offset column (list, ``range``, ``ClippedRange``) as an int64 array, at C speed."""
    return np.fromiter(values, dtype=np.int64, count=len(values))


def chunk_ranges(
    result: ChunkingResult, starts: Sequence[int] | np.ndarray, ends: Sequence[int] | np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each span ``[starts[j], ends[j])``, the chunks around it as index ranges.

    Returns ``(first, stop, lo, hi)``, int64 arrays with one entry per span: the chunks that
    overlap the span are ``range(first, stop)`` and those that hold it whole are
    ``range(lo, hi)`` (empty when ``hi <= lo``); the rest of the overlapping ones cut it. An
    empty span overlaps nothing.

    Chunks are ordered by start and by end (every strategy guarantees it), so both sets are
    contiguous and four binary searches per span find them, all spans at once (numpy): chunk
    ``i`` holds ``[s, e)`` when ``start_i <= s`` (a prefix of the chunks) and ``e <= end_i`` (a
    suffix), and overlaps it when ``end_i > s`` and ``start_i < e``.
    """
    columns = result.columns
    c_starts, c_ends = offsets(columns.starts), offsets(columns.ends)
    s = np.asarray(starts, dtype=np.int64)
    e = np.asarray(ends, dtype=np.int64)
    first = np.searchsorted(c_ends, s, side="right")
    stop = np.searchsorted(c_starts, e, side="left")
    lo = np.searchsorted(c_ends, e, side="left")
    hi = np.searchsorted(c_starts, s, side="right")
    empty = e <= s
    if empty.any():
        stop[empty] = first[empty]
        hi[empty] = lo[empty]
    return first, stop, lo, hi


def cut_and_held(
    first: int, stop: int, lo: int, hi: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(containing, cutting)`` chunk indices of one span from its ``chunk_ranges`` entry."""
    if hi > lo:
        return tuple(range(lo, hi)), (*range(first, lo), *range(hi, stop))
    return (), tuple(range(first, stop))


def analyze_spans(result: ChunkingResult, spans: Sequence[Span]) -> SpanReport:
    """Status of each span under ``result`` (spans of other documents are the caller's concern).

    The chunks around every span come from ``chunk_ranges``: O((chunks + spans) log chunks) for
    the whole report, the searches vectorised.
    """
    ranges = [
        a.tolist() for a in chunk_ranges(result, [s.start for s in spans], [s.end for s in spans])
    ]
    return SpanReport(
        tuple(
            SpanStatus(span, *cut_and_held(*r))
            for span, r in zip(spans, zip(*ranges, strict=True), strict=True)
        )
    )


def containing_ranges(
    offsets: np.ndarray, spans: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """For many spans at once, the chunks that contain each: ``analyze_spans``'s ``containing``.

    Chunks of several documents, documents in order and each document's chunks ordered by
    start and by end, so the chunks holding a span are one run ``lo[i]:hi[i]`` of the global
    order (those ending at or after it, up to those starting at or before it): two binary
    searches per span over keys ``document * M + offset``.

    Args:
        offsets: int64 ``(chunks, 3)``: document index, start, end of every chunk.
        spans: int64 ``(spans, 3)``: document index, start, end of every span.

    Returns:
        ``(lo, hi)``: the containing chunks of span ``i`` are ``range(lo[i], hi[i])`` (empty
        when ``hi[i] <= lo[i]``, and for every empty span); None when the chunks are not in
        that order (the caller falls back to ``analyze_spans``).
    """
    o = np.asarray(offsets, dtype=np.int64).reshape(-1, 3)
    s = np.asarray(spans, dtype=np.int64).reshape(-1, 3)
    m = int(max(o[:, 2].max(initial=0), s[:, 2].max(initial=0))) + 1
    key_start = o[:, 0] * m + o[:, 1]
    key_end = o[:, 0] * m + o[:, 2]
    if np.any(np.diff(key_start) < 0) or np.any(np.diff(key_end) < 0):
        return None
    lo = np.searchsorted(key_end, s[:, 0] * m + s[:, 2], side="left")
    hi = np.searchsorted(key_start, s[:, 0] * m + s[:, 1], side="right")
    hi = np.where(s[:, 2] > s[:, 1], hi, lo)
    return lo, hi
