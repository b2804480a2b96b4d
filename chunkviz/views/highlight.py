"""The highlight view: a document as escaped HTML with chunk bands, overlaps and answer marks.

Everything is derived from offsets. The text is cut at every chunk and mark boundary into
elementary segments; each segment is covered by the same set of chunks and marks from its first
character to its last, so one ``<span>`` per segment can say all of it:

- the chunk band it belongs to (``c0``/``c1``, alternating by chunk index), or ``ov`` when two or
  more chunks share it (an overlap region, drawn in both colours), or ``gap`` when no chunk does;
- ``ans`` when an answer span that some chunk contains covers it, ``broken`` (red) when an answer
  span that no chunk contains covers it, with a tooltip naming the chunks that cut the span.

A chunk number (``#i``, the same 0-based index as the chunk table and the exports) is placed at the
start of every chunk. Every piece of document text and every question goes through
``escape_html`` (``chunkviz.views.markup``); the only markup is what this module writes.

Long documents are rendered one page at a time (``page_bounds``), so a 200,000-character text
never becomes one giant DOM.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from chunkviz.model import Chunk
from chunkviz.text import Lang, text
from chunkviz.views.markup import escape_html

PAGE_SIZE = 20_000

# The view's colours and marks: one stylesheet for the page component, Compare and saved HTML.
STYLE = """
.hl-box {
  max-height: 65vh; overflow-y: auto; padding: 0.75rem 1rem;
  border: 1px solid #d0d7de; border-radius: 0.5rem; background: #ffffff;
  font-family: "Noto Sans JP", "Hiragino Sans", "Yu Gothic", system-ui, sans-serif;
  font-size: 0.95rem; line-height: 1.9; white-space: pre-wrap; overflow-wrap: anywhere;
  color: #1f2328;
}
.c0 { background: #dbeafe; }
.c1 { background: #fef3c7; }
.ov { background: repeating-linear-gradient(135deg, #93c5fd 0 5px, #fcd34d 5px 10px); }
.gap { background: transparent; }
.ans { box-shadow: inset 0 -3px 0 #16a34a; font-weight: 600; }
.broken {
  color: #ffffff; background: #dc2626; font-weight: 700;
  outline: 2px solid #991b1b; border-radius: 2px;
}
.cn {
  display: inline-block; margin: 0 2px; padding: 0 4px; border-radius: 4px;
  background: #334155; color: #ffffff; font: 600 0.65rem/1.4 ui-monospace, monospace;
  vertical-align: 0.35em; white-space: nowrap; user-select: none;
}
.cn.target { background: #7c3aed; box-shadow: 0 0 0 3px #c4b5fd; }
"""


@dataclass(frozen=True, slots=True)
class Mark:
    """An answer span to mark in the view.

    Attributes:
        start: First character of the span.
        end: One past the last character.
        label: What the tooltip says about it (the question).
        broken: No chunk contains the whole span.
        cut_by: Indices of the chunks whose boundaries cut it (for broken spans).
    """

    start: int
    end: int
    label: str = ""
    broken: bool = False
    cut_by: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of text covered by one set of chunks and one set of marks.

    Attributes:
        start: First character.
        end: One past the last character.
        chunks: Indices of the chunks that cover it, ascending.
        marks: Indices (into the marks given) of the marks that cover it, ascending.
        chunk_starts: Indices of chunks that start at ``start`` (a number goes before the text).
    """

    start: int
    end: int
    chunks: tuple[int, ...]
    marks: tuple[int, ...]
    chunk_starts: tuple[int, ...] = ()


def page_count(length: int, page_size: int = PAGE_SIZE) -> int:
    """Number of pages a text of ``length`` characters needs (at least 1)."""
    return max(1, -(-length // page_size))


def page_bounds(length: int, page: int, page_size: int = PAGE_SIZE) -> tuple[int, int]:
    """``(start, end)`` of 0-based ``page``, clipped to the text."""
    start = min(max(page, 0) * page_size, length)
    return start, min(start + page_size, length)


def page_of(offset: int, page_size: int = PAGE_SIZE) -> int:
    """The 0-based page that shows character ``offset``."""
    return max(offset, 0) // page_size


def segments(
    length: int,
    chunks: Sequence[Chunk],
    marks: Sequence[Mark] = (),
    *,
    start: int = 0,
    end: int | None = None,
) -> list[Segment]:
    """Elementary segments of ``[start, end)`` (the whole text by default).

    Chunks must be ordered by start and by end, as every strategy returns them; marks may come in
    any order and overlap each other.
    """
    stop = length if end is None else min(end, length)
    if stop <= start:
        return []
    starts = [c.start for c in chunks]
    ends = [c.end for c in chunks]
    # Chunks touching the window: end > start and start < stop.
    lo = bisect_right(ends, start)
    hi = bisect_left(starts, stop)
    window = range(lo, max(lo, hi))
    visible_marks = [i for i, m in enumerate(marks) if m.end > start and m.start < stop]

    cuts = {start, stop}
    for i in window:
        cuts.add(max(chunks[i].start, start))
        cuts.add(min(chunks[i].end, stop))
    opening: dict[int, list[int]] = {}
    closing: dict[int, list[int]] = {}
    for i in visible_marks:
        a, b = max(marks[i].start, start), min(marks[i].end, stop)
        cuts.update((a, b))
        opening.setdefault(a, []).append(i)
        closing.setdefault(b, []).append(i)
    bounds = sorted(cuts)

    active: set[int] = set()
    out: list[Segment] = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        active.difference_update(closing.get(a, ()))
        active.update(opening.get(a, ()))
        if b <= a:
            continue
        # Chunks covering [a, b): start <= a < end, a contiguous range because both are sorted.
        first = bisect_right(ends, a, lo, max(lo, hi))
        last = bisect_right(starts, a, lo, max(lo, hi))
        covering = tuple(range(first, max(first, last)))
        starting = tuple(i for i in covering if chunks[i].start == a)
        out.append(Segment(a, b, covering, tuple(sorted(active)), starting))
    return out


@dataclass(frozen=True, slots=True)
class Labels:
    """Words of the tooltips, in the UI language."""

    chunk: str = "chunk"
    chunks: str = "chunks"
    overlap: str = "overlap"
    gap: str = "not in any chunk"
    answer: str = "answer (contained)"
    broken: str = "BROKEN answer: no chunk holds all of it; cut by chunks"


def labels_for(lang: Lang) -> Labels:
    """The tooltip words of ``lang`` (catalogue section ``highlight``)."""
    return Labels(*(text(lang, f"highlight.{f}") for f in Labels.__slots__))


def _segment_title(seg: Segment, marks: Sequence[Mark], labels: Labels) -> str:
    if not seg.chunks:
        parts = [labels.gap]
    elif len(seg.chunks) == 1:
        parts = [f"{labels.chunk} #{seg.chunks[0]}"]
    else:
        numbers = ", ".join(f"#{i}" for i in seg.chunks)
        parts = [f"{labels.chunks} {numbers} ({labels.overlap})"]
    for i in seg.marks:
        m = marks[i]
        if m.broken:
            cut = ", ".join(f"#{c}" for c in m.cut_by)
            parts.append(f"{labels.broken} {cut}: {m.label}")
        else:
            parts.append(f"{labels.answer}: {m.label}")
    return "\n".join(parts)


def render_html(
    text: str,
    chunks: Sequence[Chunk],
    marks: Sequence[Mark] = (),
    *,
    start: int = 0,
    end: int | None = None,
    labels: Labels | None = None,
) -> str:
    """HTML of ``text[start:end]`` with chunk bands, overlaps, chunk numbers and answer marks.

    The result is a sequence of ``<span>`` elements (no container); all text is escaped. Chunk
    number badges carry ``id="chunk-<i>"`` so a view can scroll to a chunk, and every text span
    carries ``data-s``, the offset of its first character, so a view can find a character.
    """
    words = labels or Labels()
    out: list[str] = []
    for seg in segments(len(text), chunks, marks, start=start, end=end):
        for i in seg.chunk_starts:
            prefix = chunks[i].prefix
            tip = f' title="{escape_html(prefix)}"' if prefix else ""
            out.append(f'<span class="cn" id="chunk-{i}"{tip}>#{i}</span>')
        if not seg.chunks:
            band = "gap"
        elif len(seg.chunks) == 1:
            band = f"c{seg.chunks[0] % 2}"
        else:
            band = "ov"
        classes = [band]
        if seg.marks:
            classes.append("broken" if any(marks[i].broken for i in seg.marks) else "ans")
        title = escape_html(_segment_title(seg, marks, words))
        body = escape_html(text[seg.start : seg.end])
        # data-s (the segment's first character) lets a view keep or share a reading position.
        out.append(f'<span class="{" ".join(classes)}" data-s="{seg.start}" title="{title}">'
                   f'{body}</span>')
    return "".join(out)
