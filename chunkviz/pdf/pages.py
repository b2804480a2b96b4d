"""Each character's page and box, for a document read from a PDF: compact arrays, not objects.

``PageLayout`` rides along with a ``Document`` (``Document.layout``; None for every other
format). It keeps the file's bytes, to render a page, and three arrays over the text's offsets:
the page, the printed line (-1 for a space or break the reader inserted) and the box, in points,
top-down from the page's top-left corner as the rendered image is. It compares and hashes by
identity (``eq=False``), so a ``Document`` that holds one stays hashable and cheap to compare.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from chunkviz.pdf.layout import PageChars, Ruby
    from chunkviz.pdf.quality import ReadQuality


class Box(NamedTuple):
    """A rectangle on a page, in points from its top-left corner."""

    page: int
    x0: float
    top: float
    x1: float
    bottom: float


@dataclass(frozen=True, slots=True, eq=False)
class PageLayout:
    """Where each character of a PDF's text is printed.

    Attributes:
        pdf: The PDF file's bytes (pages are rendered from them).
        sizes: ``(width, height)`` of every page, in points.
        page: int32 per text offset: the page it is on (an inserted break takes the page of the
            character before it).
        line: int32 per text offset: its printed line, -1 for what the reader inserted.
        boxes: float32 ``(len(text), 4)``: x0, top, x1, bottom (zeros where ``line`` is -1).
        quality: How well the PDF could be read (None where not measured).
        ruby: Readings (furigana) left out of the text, each with its base's offsets.
    """

    pdf: bytes
    sizes: tuple[tuple[float, float], ...]
    page: np.ndarray
    line: np.ndarray
    boxes: np.ndarray
    quality: ReadQuality | None = None
    ruby: tuple[Ruby, ...] = ()

    @classmethod
    def build(
        cls,
        pdf: bytes,
        pages: Sequence[PageChars],
        source: np.ndarray,
        line: np.ndarray,
        *,
        quality: ReadQuality | None = None,
        ruby: tuple[Ruby, ...] = (),
    ) -> PageLayout:
        """The layout of a text whose character ``i`` came from source character ``source[i]``.

        ``source`` indexes the pages' characters laid end to end; -1 marks an inserted one.
        """
        counts = np.array([len(p.text) for p in pages], np.int64)
        all_boxes = (
            np.concatenate([p.boxes for p in pages])
            if pages and counts.sum()
            else np.zeros((0, 4), np.float32)
        )
        page_of_source = np.repeat(np.arange(len(pages), dtype=np.int32), counts)
        real = source >= 0
        boxes = np.zeros((len(source), 4), np.float32)
        boxes[real] = all_boxes[source[real]]
        page = np.full(len(source), -1, np.int32)
        page[real] = page_of_source[source[real]]
        # Inserted characters take the page of the character before them (the first: page 0).
        idx = np.where(real, np.arange(len(source)), 0)
        np.maximum.accumulate(idx, out=idx)
        page = np.where(real, page, page[idx])
        page[page < 0] = 0
        return cls(
            pdf,
            tuple((p.width, p.height) for p in pages),
            page.astype(np.int32),
            line.astype(np.int32),
            boxes,
            quality,
            ruby,
        )

    @property
    def page_count(self) -> int:
        """Pages in the PDF."""
        return len(self.sizes)

    def page_range(self, page: int) -> tuple[int, int]:
        """Text offsets ``[start, end)`` printed on ``page`` (the text is in page order)."""
        start = int(np.searchsorted(self.page, page, side="left"))
        end = int(np.searchsorted(self.page, page, side="right"))
        return start, end

    def pages_of(self, start: int, end: int) -> tuple[int, ...]:
        """The pages the text ``[start, end)`` is printed on, in order."""
        if end <= start:
            return ()
        return tuple(int(p) for p in np.unique(self.page[start:end][self.line[start:end] >= 0]))

    def boxes_of(self, start: int, end: int, page: int | None = None) -> list[Box]:
        """One box per printed line the text ``[start, end)`` covers (on ``page`` only, if given).

        Each is the union of the boxes of the characters of the span on that line.
        """
        if page is not None:
            a, b = self.page_range(page)
            start, end = max(start, a), min(end, b)
        if end <= start:
            return []
        lines = self.line[start:end]
        keep = np.flatnonzero(lines >= 0)
        if not len(keep):
            return []
        ids = lines[keep]
        cuts = np.flatnonzero(np.diff(ids)) + 1
        heads = np.concatenate(([0], cuts))
        sel = self.boxes[start:end][keep]
        x0 = np.minimum.reduceat(sel[:, 0], heads)
        top = np.minimum.reduceat(sel[:, 1], heads)
        x1 = np.maximum.reduceat(sel[:, 2], heads)
        bottom = np.maximum.reduceat(sel[:, 3], heads)
        pages = self.page[start:end][keep][heads]
        return [
            Box(int(p), float(a), float(t), float(b), float(c))
            for p, a, t, b, c in zip(pages, x0, top, x1, bottom, strict=True)
        ]

    def point_of(self, offset: int) -> Box | None:
        """The box of the printed character at ``offset``, or of the nearest one before it."""
        idx = np.flatnonzero(self.line[: offset + 1] >= 0)
        if not len(idx):
            return None
        i = int(idx[-1])
        x0, top, x1, bottom = (float(v) for v in self.boxes[i])
        return Box(int(self.page[i]), x0, top, x1, bottom)
