"""Which answer spans survive chunking: contained in some chunk, or broken before retrieval.

A span is *contained* when some chunk satisfies ``c.start <= s.start and s.end <= c.end``;
otherwise it is *broken*: no retriever can return a chunk holding the whole answer.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
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


def analyze_spans(result: ChunkingResult, spans: Sequence[Span]) -> SpanReport:
    """Status of each span under ``result`` (spans of other documents are the caller's concern).

    Chunks are ordered by start and end (every strategy guarantees it), so the chunks that touch
    a span are found by bisection: O((chunks + spans) log chunks) for the whole report.
    """
    chunks = result.chunks
    starts = [c.start for c in chunks]
    ends = [c.end for c in chunks]
    statuses = []
    for span in spans:
        # Chunks overlapping [s.start, s.end): start < s.end and end > s.start.
        lo = bisect_right(ends, span.start)
        hi = bisect_left(starts, span.end) if span.end > span.start else lo
        containing: list[int] = []
        cutting: list[int] = []
        for i in range(lo, max(hi, lo)):
            c = chunks[i]
            if c.start <= span.start and span.end <= c.end:
                containing.append(i)
            elif c.end > span.start and c.start < span.end:
                cutting.append(i)
        statuses.append(SpanStatus(span, tuple(containing), tuple(cutting)))
    return SpanReport(tuple(statuses))


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
