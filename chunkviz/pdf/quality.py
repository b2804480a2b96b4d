"""A note on how well a PDF could be read, kept with the document and shown on upload.

A PDF can look right on screen and still read wrongly: glyphs drawn from a font without a
Unicode map have no code point (PDFium reports none, or a control character), and some fonts
map them into the private use area. Vertical pages, pages turned upright and readings (ruby) left
out change what the text is. ``ReadQuality`` counts each; a page where more than
``UNMAPPED_WARNING`` of the glyphs have no usable code point is named in a warning.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from chunkviz.pdf.layout import PageChars

#: Share of a page's glyphs without a usable code point above which the read warns.
UNMAPPED_WARNING = 0.05


#: What ``is_unusable`` says yes to, as a pattern (one pass over a page's text).
_UNUSABLE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def is_unusable(ch: str) -> bool:
    """Whether ``ch`` stands for no character: private use, or a control character."""
    o = ord(ch)
    return (
        0xE000 <= o <= 0xF8FF
        or o >= 0xF0000
        or (o < 0x20 and ch not in "\t\n\r")
        or 0x7F <= o < 0xA0
    )


@dataclass(frozen=True, slots=True)
class ReadQuality:
    """How well a PDF could be read.

    Attributes:
        glyphs: Glyphs on the pages, with and without a code point (spaces aside).
        unmapped: Glyphs with no code point or a control character for one (left out of the
            text).
        unusable: Glyphs read as private-use characters (kept in the text: some fonts put
            real characters there, gaiji).
        vertical_pages: Pages (1-based) mostly set in vertical lines, read as columns.
        rotated_pages: Pages (1-based) with a ``/Rotate``, read turned upright.
        ruby: Readings (ruby, furigana) left out of the text, in runs (the readings of
            neighbouring words touch and count as one).
        warn_pages: Pages (1-based) where more than ``UNMAPPED_WARNING`` of the glyphs have no
            usable code point.
    """

    glyphs: int
    unmapped: int
    unusable: int
    vertical_pages: tuple[int, ...] = ()
    rotated_pages: tuple[int, ...] = ()
    ruby: int = 0
    warn_pages: tuple[int, ...] = ()

    @property
    def unmapped_share(self) -> float:
        """Share of the glyphs without a usable code point."""
        return (self.unmapped + self.unusable) / self.glyphs if self.glyphs else 0.0


def read_quality(
    pages: Sequence[PageChars], *, vertical: Sequence[int] = (), ruby: int = 0
) -> ReadQuality:
    """The note for ``pages`` as read (``vertical``: 0-based pages read as columns)."""
    glyphs = unmapped = unusable = 0
    warn = []
    for number, page in enumerate(pages, start=1):
        visible = len("".join(page.text.split()))  # split() drops what isspace() calls space
        bad = len(_UNUSABLE.findall(page.text))
        total = visible + page.unmapped
        glyphs += total
        unmapped += page.unmapped
        unusable += bad
        if total and (page.unmapped + bad) / total > UNMAPPED_WARNING:
            warn.append(number)
    rotated = tuple(n for n, p in enumerate(pages, start=1) if p.rotation)
    return ReadQuality(
        glyphs,
        unmapped,
        unusable,
        tuple(int(p) + 1 for p in np.unique(np.asarray(vertical, np.int64))),
        rotated,
        ruby,
        tuple(warn),
    )
