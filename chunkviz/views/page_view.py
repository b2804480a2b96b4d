"""A PDF page with the chunks drawn on it: every chunk's boxes, broken answers and their cuts.

Everything comes from offsets and the document's ``PageLayout``: a chunk ``[start, end)`` is drawn
as one box per printed line it covers on the page (a chunk across a page break is drawn on both
pages), in the highlight's alternating colours, translucent so that where chunks overlap the
page is darker. A broken answer's lines are red, and each cut inside it (a chunk boundary) is a
red bar with ``✂#i|#j``. Coordinates are fractions of the page's width and height, so the
overlay fits the rendered image at any size. The overlay is SVG; every label is escaped.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from chunkviz.model import Chunk
from chunkviz.pdf.pages import Box, PageLayout
from chunkviz.views.highlight import Mark
from chunkviz.views.markup import escape_html

#: Fill of chunk bands by parity (the highlight's blue and amber, translucent so overlaps darken).
CHUNK_FILL = ("#3b82f6", "#f59e0b")
CHUNK_OPACITY = 0.28
BROKEN = "#dc2626"


@dataclass(frozen=True, slots=True)
class Rect:
    """A box on the page as fractions of its size, and what it belongs to."""

    x: float
    y: float
    w: float
    h: float
    chunk: int  # the chunk index, or -1 for an answer mark


@dataclass(frozen=True, slots=True)
class Cut:
    """A chunk boundary inside a broken answer: where it is and which chunks meet there."""

    x: float
    y: float
    h: float
    label: str


@dataclass(frozen=True, slots=True)
class PageShapes:
    """What one page shows: chunk boxes, broken-answer boxes and cut markers."""

    page: int
    width: float
    height: float
    chunks: tuple[Rect, ...]
    broken: tuple[Rect, ...]
    cuts: tuple[Cut, ...]


def chunk_pages(layout: PageLayout, chunk: Chunk) -> tuple[int, ...]:
    """The pages a chunk is printed on."""
    return layout.pages_of(chunk.start, chunk.end)


def _rect(box: Box, width: float, height: float, chunk: int) -> Rect:
    return Rect(
        round(box.x0 / width, 5),
        round(box.top / height, 5),
        round((box.x1 - box.x0) / width, 5),
        round((box.bottom - box.top) / height, 5),
        chunk,
    )


def page_shapes(
    layout: PageLayout, chunks: Sequence[Chunk], marks: Sequence[Mark], page: int
) -> PageShapes:
    """The shapes of ``page``: every chunk and broken answer printed on it (see the docstring)."""
    width, height = layout.sizes[page]
    a, b = layout.page_range(page)
    rects: list[Rect] = []
    starts = [c.start for c in chunks]
    # Chunks are ordered by start: those starting before the page's end; overlapping ones kept.
    for i in range(bisect_left(starts, b)):
        c = chunks[i]
        if c.end <= a:
            continue
        rects += [_rect(box, width, height, i) for box in layout.boxes_of(c.start, c.end, page)]
    broken: list[Rect] = []
    cuts: list[Cut] = []
    for m in marks:
        if not m.broken or m.end <= a or m.start >= b:
            continue
        broken += [_rect(box, width, height, -1) for box in layout.boxes_of(m.start, m.end, page)]
        for at in sorted(
            {c.start for c in chunks if m.start < c.start < m.end}
            | {c.end for c in chunks if m.start < c.end < m.end}
        ):
            point = layout.point_of(at)
            if point is None or point.page != page:
                continue
            before = [i for i, c in enumerate(chunks) if c.start < at <= c.end]
            after = [i for i, c in enumerate(chunks) if c.start <= at < c.end]
            label = "✂" + "|".join(f"#{i}" for i in (before[-1:] + after[:1]))
            cuts.append(
                Cut(
                    round(point.x1 / width, 5),
                    round(point.top / height, 5),
                    round((point.bottom - point.top) / height, 5),
                    label,
                )
            )
    return PageShapes(page, width, height, tuple(rects), tuple(broken), tuple(cuts))


def page_svg(shapes: PageShapes, selected: int | None = None) -> str:
    """The overlay of ``shapes`` as SVG in a 0..1000 box (scaled over the page image).

    Each chunk box carries ``data-chunk`` (clicks select the chunk); the selected chunk is
    outlined, and each chunk's number is written at its first box on the page. Broken answers
    are red with a bar and a ``✂#i|#j`` label at each cut.
    """
    sx, sy = 1000, 1000 * shapes.height / shapes.width
    out = [
        f'<svg class="pv-svg" viewBox="0 0 {sx} {sy:.1f}" preserveAspectRatio="none" '
        'xmlns="http://www.w3.org/2000/svg">'
    ]
    for r in shapes.chunks:
        sel = " pv-sel" if r.chunk == selected else ""
        out.append(
            f'<rect class="pv-chunk{sel}" data-chunk="{r.chunk}" x="{r.x * sx:.1f}" '
            f'y="{r.y * sy:.1f}" width="{r.w * sx:.1f}" height="{r.h * sy:.1f}" '
            f'fill="{CHUNK_FILL[r.chunk % 2]}" fill-opacity="{CHUNK_OPACITY}">'
            f"<title>#{r.chunk}</title></rect>"
        )
    # Each chunk's number at its first box on the page, so boxes read without hovering.
    first: dict[int, Rect] = {}
    for r in shapes.chunks:
        first.setdefault(r.chunk, r)
    for chunk, r in first.items():
        out.append(
            f'<text class="pv-num" x="{r.x * sx + 1:.1f}" y="{r.y * sy + 13:.1f}" '
            f'font-size="14" font-weight="700" fill="#1f2328" fill-opacity="0.8" '
            f'pointer-events="none">#{chunk}</text>'
        )
    for r in shapes.broken:
        out.append(
            f'<rect class="pv-broken" x="{r.x * sx:.1f}" y="{r.y * sy:.1f}" '
            f'width="{r.w * sx:.1f}" height="{r.h * sy:.1f}" fill="{BROKEN}" '
            f'fill-opacity="0.35" stroke="{BROKEN}" stroke-width="1.5"/>'
        )
    for c in shapes.cuts:
        x, y, h = c.x * sx, c.y * sy, c.h * sy
        out.append(
            f'<g class="pv-cut"><line x1="{x:.1f}" y1="{y - 2:.1f}" x2="{x:.1f}" '
            f'y2="{y + h + 2:.1f}" stroke="{BROKEN}" stroke-width="3"/>'
            f'<text x="{x + 2:.1f}" y="{max(y - 3, 10):.1f}" fill="{BROKEN}" '
            f'font-size="18" font-weight="700">{escape_html(c.label)}</text></g>'
        )
    out.append("</svg>")
    return "".join(out)
