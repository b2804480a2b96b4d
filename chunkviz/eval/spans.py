"""Which answer spans survive chunking: contained in some chunk, or broken before retrieval.

A span is *contained* when some chunk satisfies ``c.start <= s.start and s.end <= c.end``;
otherwise it is *broken*: no retriever can return a chunk holding the whole answer.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

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
