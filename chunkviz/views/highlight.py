"""The highlight view: a document as escaped HTML with chunk bands, overlap depth and answer marks.

Everything is derived from offsets. The text is cut at every chunk, parent and mark boundary into
elementary segments; each segment is covered by the same set of chunks, parents and marks from
its first character to its last, so one ``<span>`` per segment can say all of it:

- its chunk band: ``c0``/``c1`` (alternating by chunk index) when one chunk holds it, ``ov d2``,
  ``ov d3`` or ``ov d4`` (stripes, darker with depth) when 2, 3, 4 or more chunks share it, ``gap``
  when none does; ``pa0``/``pa1``/``pov`` draw the parents of a hierarchical chunking above it;
- the answer marks (``Mark.css``): ``broken`` (red) for a question no chunk answers whole,
  ``cutcopy`` for a copy that is cut while another copy is whole, ``ans`` for an answer that a
  chunk holds, ``amb`` for a whole copy of an answer the pair does not locate.

Around the text: a badge at every chunk start (``#i``, ``id="chunk-<i>"``, the same 0-based index
as the chunk table and the exports), an end marker where a chunk ends without the next one
starting there (``i]``, class ``ce``), a parent badge at every parent start (class ``pn``), and,
inside a broken answer, a focusable marker at every cut (``✂#16|#17``, class ``cut``) whose
explanation shows on hover, tap and keyboard focus. Every piece of document text and every
question goes through ``escape_html`` (``chunkviz.views.markup``); the only markup is what this
module writes.

Long documents are rendered one page at a time (``page_bounds``), so a 200,000-character text
never becomes one giant DOM.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from chunkviz.model import Chunk
from chunkviz.text import Lang, text
from chunkviz.views.markup import escape_html, needs_escape

#: Characters per page of Explore's view (and of Strategies').
PAGE_SIZE = 20_000
#: Characters per page of Compare's panels: up to four sit side by side, each a fifth of a page.
PANEL_PAGE_SIZE = PAGE_SIZE // 5

#: The view's background, its text and the two alternating band fills (``.c0``, ``.c1`` below):
#: the projector palette of issue 39, its contrast ratios checked by tests/views/test_palette.py.
BACKGROUND = "#ffffff"
TEXT_COLOUR = "#1f2328"
BANDS = ("#5b9cf6", "#fbbf24")
#: Each band's underline, kept so a boundary shows without colour too.
UNDERLINES = ("#1e3a8a", "#92400e")
#: The stripes of text in two chunks (``.ov``) and in three or four (``.ov.d3``, ``.ov.d4``).
OVERLAP_STRIPES = (BANDS, ("#3b82f6", "#f59e0b"))

# The view's colours and marks: one stylesheet for the page component, Compare and saved HTML.
STYLE = """
.hl-box {
  max-height: 65vh; overflow-y: auto; padding: 0.75rem 1rem;
  border: 1px solid #d0d7de; border-radius: 0.5rem; background: #ffffff;
  font-family: "Noto Sans JP", "Hiragino Sans", "Yu Gothic", system-ui, sans-serif;
  font-size: 0.95rem; line-height: 1.9; white-space: pre-wrap; overflow-wrap: anywhere;
  color: #1f2328; overflow-anchor: none;  /* the view keeps the reader's place itself */
}
/* The projector palette (BANDS): neighbouring bands differ by 1.5:1 or more and each differs
   from the white box by 1.5:1 or more, so a projector that washes out pale fills still shows
   where one chunk ends; dark text keeps 5:1 on both. Each band also carries a line of its own
   dark colour (blue, brown; 4:1 or more against its fill). */
.c0 { background: #5b9cf6; box-shadow: inset 0 -2px 0 #1e3a8a; }
.c1 { background: #fbbf24; box-shadow: inset 0 -2px 0 #92400e; }
.ov { background: repeating-linear-gradient(135deg, #5b9cf6 0 5px, #fbbf24 5px 10px); }
/* Deeper overlap, darker and then thinner stripes; the text stays dark on them (4:1 or more). */
.ov.d3 { background: repeating-linear-gradient(135deg, #3b82f6 0 5px, #f59e0b 5px 10px); }
.ov.d4 { background: repeating-linear-gradient(135deg, #3b82f6 0 3px, #f59e0b 3px 6px); }
.gap { background: transparent; }
.pa0 { border-top: 3px solid #7c3aed; }
.pa1 { border-top: 3px solid #0d9488; }
.pov { border-top: 3px double #7c3aed; }
.ans { box-shadow: inset 0 -3px 0 #16a34a; font-weight: 600; }
.amb { box-shadow: inset 0 -2px 0 #64748b; }
.cutcopy { box-shadow: inset 0 -3px 0 #ea580c; text-decoration: line-through dotted #ea580c; }
.broken {
  color: #ffffff; background: #dc2626; font-weight: 700;
  outline: 2px solid #991b1b; border-radius: 2px;
}
.cn, .ce, .pn, .cut {
  display: inline-block; margin: 0 2px; padding: 0 4px; border-radius: 4px;
  font: 600 0.65rem/1.4 ui-monospace, monospace; vertical-align: 0.35em;
  white-space: nowrap; user-select: none;
}
.cn { background: #334155; color: #ffffff; }
.cn.target { background: #7c3aed; box-shadow: 0 0 0 3px #c4b5fd; }
.ce { background: #e2e8f0; color: #334155; }
/* A cut inside a word (issue 38): the badge turns dashed red, the word in its title. */
.cn.wc, .ce.wc { background: #fee2e2; color: #991b1b; outline: 2px dashed #b91c1c; }
.pn { background: #ede9fe; color: #5b21b6; border: 1px solid #7c3aed; }
.cut {
  position: relative; background: #ffffff; color: #991b1b; border: 1px solid #991b1b;
  cursor: help;
}
.cut:focus { outline: 2px solid #1d4ed8; }
.cut .tip {
  display: none; position: absolute; left: 0; top: 1.6em; z-index: 5; width: max-content;
  max-width: 22rem; padding: 0.3rem 0.5rem; border-radius: 4px; background: #1f2328;
  color: #ffffff; font: 400 0.8rem/1.4 system-ui, sans-serif; white-space: pre-line;
}
.cut:hover .tip, .cut:focus .tip, .cut:focus-within .tip { display: block; }
.focus { outline: 3px solid #7c3aed; outline-offset: 1px; }
.hl-legend { margin: 0 0 0.5rem; font-size: 0.95rem; line-height: 2; color: #1f2328; }
.hl-legend details { display: inline; }
.hl-legend summary { display: inline; cursor: pointer; font-weight: 600; color: #1d4ed8; }
.hl-legend details[open] summary { display: block; }
.hl-legend .item { margin-right: 0.9rem; }
.hl-legend .swatch { padding: 0 0.3rem; white-space: nowrap; }
"""

MarkKind = Literal["answer", "cut_copy", "ambiguous"]

# Class of each kind of mark; when marks overlap, the first in this order wins.
_MARK_CSS = {"broken": "broken", "cut_copy": "cutcopy", "answer": "ans", "ambiguous": "amb"}
_PRECEDENCE = {name: rank for rank, name in enumerate(_MARK_CSS)}


@dataclass(frozen=True, slots=True)
class Mark:
    """An answer span to mark in the view.

    Attributes:
        start: First character of the span.
        end: One past the last character.
        label: What the tooltip says about it (the question).
        broken: Its question is broken: no chunk holds any copy of the answer whole (red).
        cut_by: Indices of the chunks whose boundaries cut this span.
        kind: What a mark that is not broken is: ``answer`` (held whole by a chunk),
            ``cut_copy`` (this copy is cut, another copy is whole) or ``ambiguous`` (a whole
            copy of an answer that occurs more than once, located by its text only).
        whole_in: For a ``cut_copy``, the chunks that hold another copy whole.
    """

    start: int
    end: int
    label: str = ""
    broken: bool = False
    cut_by: tuple[int, ...] = ()
    kind: MarkKind = "answer"
    whole_in: tuple[int, ...] = ()

    @property
    def style(self) -> str:
        """``broken`` or the kind: what the view draws."""
        return "broken" if self.broken else self.kind


class Segment(NamedTuple):
    """A run of text covered by one set of chunks, parents and marks.

    A named tuple, not a dataclass: a page of a long document has thousands of segments and a
    tuple is built several times faster (the view is redrawn on every slider move).

    Attributes:
        start: First character.
        end: One past the last character.
        chunks: Indices of the chunks that cover it, ascending.
        marks: Indices (into the marks given) of the marks that cover it, ascending.
        chunk_starts: Indices of chunks that start at ``start`` (a number goes before the text).
        parents: Indices of the parents that cover it, ascending.
        parent_starts: Indices of parents that start at ``start``.
    """

    start: int
    end: int
    chunks: tuple[int, ...]
    marks: tuple[int, ...]
    chunk_starts: tuple[int, ...] = ()
    parents: tuple[int, ...] = ()
    parent_starts: tuple[int, ...] = ()


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


class _Layer:
    """Ordered intervals (chunks or parents) and which of them cover a position, by bisection."""

    __slots__ = ("ends", "hi", "lo", "starts")

    def __init__(self, items: Sequence[Chunk], start: int, stop: int) -> None:
        self.starts = [c.start for c in items]
        self.ends = [c.end for c in items]
        # Items touching the window: end > start and start < stop.
        self.lo = bisect_right(self.ends, start)
        self.hi = max(self.lo, bisect_left(self.starts, stop))

    def bounds(self, start: int, stop: int) -> list[int]:
        out = []
        for i in range(self.lo, self.hi):
            out.append(max(self.starts[i], start))
            out.append(min(self.ends[i], stop))
        return out

    def covering(self, at: int) -> tuple[int, ...]:
        # start <= at < end: a contiguous range because starts and ends are both sorted.
        first = bisect_right(self.ends, at, self.lo, self.hi)
        last = bisect_right(self.starts, at, self.lo, self.hi)
        return tuple(range(first, max(first, last)))


def segments(
    length: int,
    chunks: Sequence[Chunk],
    marks: Sequence[Mark] = (),
    *,
    start: int = 0,
    end: int | None = None,
    parents: Sequence[Chunk] = (),
) -> list[Segment]:
    """Elementary segments of ``[start, end)`` (the whole text by default).

    Chunks (and parents) must be ordered by start and by end, as every strategy returns them;
    marks may come in any order and overlap each other.
    """
    return [Segment(*row) for row in _rows(length, chunks, marks, start, end, parents)]


_Row = tuple[
    int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]
]


def _rows(
    length: int,
    chunks: Sequence[Chunk],
    marks: Sequence[Mark],
    start: int,
    end: int | None,
    parents: Sequence[Chunk],
) -> list[_Row]:
    """``segments`` as plain tuples, in ``Segment``'s field order (what the renderer reads)."""
    stop = length if end is None else min(end, length)
    if stop <= start:
        return []
    layer = _Layer(chunks, start, stop)
    upper = _Layer(parents, start, stop)
    visible_marks = [i for i, m in enumerate(marks) if m.end > start and m.start < stop]

    cuts = {start, stop}
    cuts.update(layer.bounds(start, stop))
    cuts.update(upper.bounds(start, stop))
    opening: dict[int, list[int]] = {}
    closing: dict[int, list[int]] = {}
    for i in visible_marks:
        a, b = max(marks[i].start, start), min(marks[i].end, stop)
        cuts.update((a, b))
        opening.setdefault(a, []).append(i)
        closing.setdefault(b, []).append(i)
    bounds = sorted(cuts)

    active: set[int] = set()
    out: list[_Row] = []
    # One sweep instead of a bisection per segment: the chunks covering ``a`` are
    # ``[first, last)``, ends > a and starts <= a, and both only move forward as ``a`` grows.
    starts, ends, hi = layer.starts, layer.ends, layer.hi
    first = last = layer.lo
    for a, b in zip(bounds, bounds[1:], strict=False):
        if a in closing:
            active.difference_update(closing[a])
        if a in opening:
            active.update(opening[a])
        while first < hi and ends[first] <= a:
            first += 1
        passed = last
        while last < hi and starts[last] <= a:
            last += 1
        covering = tuple(range(first, last)) if last > first else ()
        # Every start inside the window is a bound, so the chunks starting at ``a`` are the
        # ones the sweep just passed (and that still cover ``a``).
        starting = (
            tuple(i for i in range(max(passed, first), last) if starts[i] == a)
            if last > passed
            else ()
        )
        over: tuple[int, ...] = ()
        over_starting: tuple[int, ...] = ()
        if parents:
            over = upper.covering(a)
            over_starting = tuple(i for i in over if upper.starts[i] == a)
        out.append(
            (a, b, covering, tuple(sorted(active)) if active else (), starting, over, over_starting)
        )
    return out


@dataclass(frozen=True, slots=True)
class Labels:
    """Words of the tooltips and markers, in the UI language (catalogue section ``highlight``)."""

    chunk: str = "chunk"
    chunks: str = "chunks"
    overlap: str = "overlap"
    gap: str = "not in any chunk"
    answer: str = "answer (contained)"
    broken: str = "BROKEN answer: no chunk holds all of it; cut by chunks"
    cut_copy: str = "this copy of the answer is cut by chunks"
    whole_in: str = "another copy is whole in"
    ambiguous: str = "one of several copies of the answer (the pair does not say which)"
    ends: str = "ends"
    starts: str = "starts"
    cut: str = "cut inside a broken answer"
    end: str = "end of chunk"
    parent: str = "parent"
    parent_mark: str = "P"
    word_cut: str = "cut inside the word"


def labels_for(lang: Lang) -> Labels:
    """The tooltip words of ``lang`` (catalogue section ``highlight``)."""
    return Labels(*(text(lang, f"highlight.{f}") for f in Labels.__slots__))


def _numbers(indices: Sequence[int]) -> str:
    return ", ".join(f"#{i}" for i in indices)


def _segment_title(
    covering: tuple[int, ...],
    parents: tuple[int, ...],
    mark_ids: tuple[int, ...],
    marks: Sequence[Mark],
    labels: Labels,
) -> str:
    if not covering:
        parts = [labels.gap]
    elif len(covering) == 1:
        parts = [f"{labels.chunk} #{covering[0]}"]
    else:
        parts = [f"{labels.chunks} {_numbers(covering)} ({labels.overlap})"]
    if parents:
        parts.append(f"{labels.parent} {_numbers(parents)}")
    for i in mark_ids:
        m = marks[i]
        if m.broken:
            parts.append(f"{labels.broken} {_numbers(m.cut_by)}: {m.label}")
        elif m.kind == "cut_copy":
            parts.append(
                f"{labels.cut_copy} {_numbers(m.cut_by)} ({labels.whole_in}"
                f" {_numbers(m.whole_in)}): {m.label}"
            )
        elif m.kind == "ambiguous":
            parts.append(f"{labels.ambiguous}: {m.label}")
        else:
            parts.append(f"{labels.answer}: {m.label}")
    return "\n".join(parts)


def _cut_marker(
    at: int, ending: Sequence[int], starting: Sequence[int], broken: Sequence[Mark], labels: Labels
) -> str:
    """A focusable marker naming the chunk boundary at ``at`` inside broken answers."""
    name = f"{' '.join(f'#{i}' for i in ending)}|{' '.join(f'#{i}' for i in starting)}"
    said = [f"{labels.chunk} #{i} {labels.ends}" for i in ending]
    said += [f"{labels.chunk} #{i} {labels.starts}" for i in starting]
    why = [f"{labels.broken} {_numbers(m.cut_by)}: {m.label}" for m in broken]
    tip = escape_html(f"{labels.cut} · {' · '.join(said)}\n" + "\n".join(why))
    return (
        f'<span class="cut" tabindex="0" data-cut="{at}">✂{name}'
        f'<span class="tip" role="tooltip">{tip}</span></span>'
    )


def render_html(
    text: str,
    chunks: Sequence[Chunk],
    marks: Sequence[Mark] = (),
    *,
    start: int = 0,
    end: int | None = None,
    labels: Labels | None = None,
    parents: Sequence[Chunk] = (),
    word_cuts: Mapping[int, str] | None = None,
) -> str:
    """HTML of ``text[start:end]`` with chunk bands, overlap depth, chunk numbers and answer marks.

    The result is a sequence of ``<span>`` elements (no container); all text is escaped. Chunk
    number badges carry ``id="chunk-<i>"`` so a view can scroll to a chunk, and every text span
    (and only a text span) carries ``data-s``, the offset of its first character, so a view can
    find a character. ``parents`` (a hierarchical chunking's ``result.parents``) are drawn above
    the chunks. ``word_cuts`` maps each cut that falls inside a word to that word
    (``chunkviz.views.explore.words_at_cuts``): the chunk's start badge or end marker there is
    drawn dashed red (class ``wc``) and names the word in its title.
    """
    words = labels or Labels()
    inside = word_cuts or {}

    def word_note(at: int) -> str:
        return f"\n{words.word_cut}: {inside[at]}" if at in inside else ""

    stop = len(text) if end is None else min(end, len(text))
    rows = _rows(len(text), chunks, marks, start, stop, parents)
    layer = _Layer(chunks, start, stop)
    ends_at: dict[int, list[int]] = {}
    for i in range(layer.lo, layer.hi):
        ends_at.setdefault(layer.ends[i], []).append(i)
    end_word = escape_html(words.end)
    titles: dict[tuple[tuple[int, ...], tuple[int, ...]], str] = {}
    out: list[str] = []
    # Most pages hold nothing to escape: one search of the page spares one per segment.
    clean = not needs_escape(text, start, stop)

    def end_markers(at: int) -> None:
        # A chunk whose successor starts where it ends needs no end marker: the badge says it.
        for i in ends_at.get(at, ()):
            if not (i + 1 < len(layer.starts) and layer.starts[i + 1] == at):
                wc = " wc" if at in inside else ""
                tip = end_word + escape_html(f" #{i}{word_note(at)}")
                out.append(f'<span class="ce{wc}" title="{tip}">#{i}]</span>')

    # Plain tuples, unpacked: a page has thousands of segments and this loop is the redraw.
    for a, b, covering, mark_ids, starting, over, over_starting in rows:
        if a > start and a in ends_at:
            end_markers(a)
        if mark_ids:
            broken = [marks[i] for i in mark_ids if marks[i].broken and marks[i].start < a]
            if broken and (a in ends_at or starting):
                out.append(_cut_marker(a, ends_at.get(a, ()), starting, broken, words))
        for p in over_starting:
            out.append(
                f'<span class="pn" id="parent-{p}" title="{escape_html(words.parent)}'
                f' #{p}">{escape_html(words.parent_mark)}#{p}</span>'
            )
        for i in starting:
            prefix = chunks[i].prefix
            if a in inside:
                note = escape_html(f"{prefix}{word_note(a)}".strip("\n"))
                out.append(f'<span class="cn wc" id="chunk-{i}" title="{note}">#{i}</span>')
                continue
            tip = f' title="{escape_html(prefix)}"' if prefix else ""
            out.append(f'<span class="cn" id="chunk-{i}"{tip}>#{i}</span>')
        depth = len(covering)
        classes = (
            "gap" if depth == 0 else f"c{covering[0] % 2}" if depth == 1 else f"ov d{min(depth, 4)}"
        )
        if over:
            classes += " pov" if len(over) > 1 else f" pa{over[0] % 2}"
        if mark_ids:
            style = (
                marks[mark_ids[0]].style
                if len(mark_ids) == 1
                else min((marks[i].style for i in mark_ids), key=_PRECEDENCE.__getitem__)
            )
            classes += " " + _MARK_CSS[style]
            title = escape_html(_segment_title(covering, over, mark_ids, marks, words))
        else:
            # Most segments carry no mark: their title depends on the chunks and parents only.
            cover = (covering, over)
            title = titles.get(cover, "")
            if not title:
                title = titles[cover] = escape_html(
                    _segment_title(covering, over, (), marks, words)
                )
        body = text[a:b] if clean else escape_html(text[a:b])
        # data-s (the segment's first character) lets a view keep or share a reading position.
        out.append(f'<span class="{classes}" data-s="{a}" title="{title}">{body}</span>')
    if rows:
        end_markers(stop)
    return "".join(out)


# The legend: every mark the view draws, with a swatch in the view's own classes. Text lives in
# the catalogues (``highlight.legend.<key>``).
_LEGEND: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("band", (("c0", "Aa"), ("c1", "Aa"))),
    ("depth2", (("ov d2", "Aa"),)),
    ("depth3", (("ov d3", "Aa"),)),
    ("depth4", (("ov d4", "Aa"),)),
    ("gap", (("gap", "Aa"),)),
    ("start", (("cn", "#n"),)),
    ("end", (("ce", "#n]"),)),
    ("answer", (("c0 ans", "Aa"),)),
    ("ambiguous", (("c0 amb", "Aa"),)),
    ("cut_copy", (("c0 cutcopy", "Aa"),)),
    ("broken", (("broken", "Aa"),)),
    ("cut", (("cut", "✂#n|#m"),)),
    ("word_cut", (("cn wc", "#n"),)),
)
_PARENT_LEGEND = ("parent", (("pa0", "Aa"), ("pa1", "Aa"), ("pn", "P#k")))
#: A document without questions marks the key phrases a boundary cuts (issue 39): its legend
#: explains those in place of the answer marks, which it never draws.
_ANSWER_KEYS = ("answer", "ambiguous", "cut_copy", "broken", "cut")
_KEY_PHRASE_LEGEND = (("kp_broken", (("broken", "Aa"),)), ("kp_cut", (("cut", "✂#n|#m"),)))


def _legend_items(
    parents: bool, key_phrases: bool
) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    items = _LEGEND
    if key_phrases:
        items = (*(i for i in _LEGEND if i[0] not in _ANSWER_KEYS), *_KEY_PHRASE_LEGEND)
    return (*items, _PARENT_LEGEND) if parents else items


def legend_entries(
    lang: Lang, *, parents: bool = False, key_phrases: bool = False
) -> list[tuple[tuple[tuple[str, str], ...], str]]:
    """``(swatches, explanation)`` for every mark of the view; parents only when drawn.

    ``key_phrases``: the red marks are cut key phrases, not answers (a document without
    questions, ``chunkviz.views.key_phrases``).
    """
    items = _legend_items(parents, key_phrases)
    mark = text(lang, "highlight.parent_mark")
    return [
        (
            tuple(
                (css, sample.replace("P", mark) if key == "parent" else sample)
                for css, sample in swatches
            ),
            text(lang, f"highlight.legend.{key}"),
        )
        for key, swatches in items
    ]


#: The legend entries always in sight; the others fold into "all marks" (a projected legend of
#: a dozen entries in small type was read by nobody).
_LEGEND_FIRST = ("band", "depth2", "start", "answer", "cut_copy", "broken", "kp_broken")


def legend_html(lang: Lang, *, parents: bool = False, key_phrases: bool = False) -> str:
    """The legend as HTML in the view's classes (``STYLE``): a swatch and a sentence per mark.

    The marks of a first lesson (``_LEGEND_FIRST``) are always shown; the rest fold into a
    ``<details>`` (no script needed, on the page and in a saved file).
    """
    first: list[str] = []
    rest: list[str] = []
    keys = [key for key, _ in _legend_items(parents, key_phrases)]
    entries = legend_entries(lang, parents=parents, key_phrases=key_phrases)
    for key, (swatches, words) in zip(keys, entries, strict=True):
        drawn = "".join(
            f'<span class="swatch {css}">{escape_html(sample)}</span>' for css, sample in swatches
        )
        item = f'<span class="item">{drawn} {escape_html(words)}</span>'
        (first if key in _LEGEND_FIRST else rest).append(item)
    more = escape_html(text(lang, "highlight.legend.title"))
    return (
        f'<div class="hl-legend">{" ".join(first)} '
        f"<details><summary>{more}</summary>{' '.join(rest)}</details></div>"
    )
