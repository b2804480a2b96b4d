"""Positioned characters to text as a reader reads it: lines, columns, paragraphs, no furniture.

Input is each page's characters in content order with their boxes (top-down PDF points) and
where the PDF library saw a line end. Output is the text and, for every character of it, the
index of the source character it came from (-1 for what was inserted: a joining space, a line or
paragraph break) and the line it sits on, so every offset keeps its page and box.

The rules, each measured on the page rather than assumed:

- A line is a run of characters between the library's line ends, also cut where the next
  character jumps back leftwards, to another baseline or across a gutter (three font sizes).
- Running headers, footers and page numbers are lines in the top or bottom band of the page
  whose text, digits aside, recurs on at least half of the pages (and on two or more); a lone
  page number in those bands is one too. They are left out and counted (``keep_furniture``
  keeps them, each as its own paragraph).
- Two columns: a vertical gutter near the middle of the page that no line crosses, with lines
  on both sides; the left column is read before the right, lines spanning both cut the page
  into bands.
- A printed line that reached the column's right edge (the next line's first word, or first
  character with its kinsoku neighbour, would not have fitted) was wrapped by the printer: it
  is joined to the next with nothing between CJK characters, a space between Latin words, and a
  line-end hyphen between letters removed. A line that stopped short ends with a line break.
- A paragraph starts where the gap to the previous line is wider than the document's usual gap
  between lines, and where the font size changes; in a document that does not set paragraphs
  apart by space, also at a first-line indent (a line that is indented, runs to the right edge
  and is followed by one that starts back at the left).
- A paragraph that seems to end at the foot of a page or column (its last line stops short)
  ends there: what follows on the next page starts a new one.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

#: Share of the page height at the top and at the bottom where running headers and footers sit.
BAND = 0.12
_PAGE_NUMBER = re.compile(
    r"^[-–—\s(]*(page|p\.|ページ)?\s*(\d{1,5}|[ivxlcdm]{1,7})\s*((/|of|／)\s*\d{1,5})?"
    r"\s*(ページ|頁)?[-–—\s)]*$", re.IGNORECASE)
# Characters that may not start a line (closing marks, small kana) or end one (opening marks):
# the printer moves a neighbour with them, so a wrapped line can stop one character short.
_NO_START = set("、。，．・：；？！」』）］｝〕〉》】〙〗ー’”"
                "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々ゝゞヽヾ"
                ",.:;!?)]}\"'")
_NO_END = set("「『（［｛〔〈《【〘〖‘“([{")


def is_cjk(ch: str) -> bool:
    """Whether ``ch`` is written without spaces around it (CJK, kana, fullwidth forms)."""
    o = ord(ch)
    return o >= 0x2E80 and not (0xFE70 <= o <= 0xFEFF) and not (0x1F000 <= o <= 0x1FAFF)


@dataclass(slots=True)
class Line:
    """One printed line: source characters ``[start, end)`` of its page and its extent."""

    page: int
    start: int
    end: int
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    text: str
    column: int = 0  # 0 single or spanning, 1 left, 2 right
    furniture: bool = False
    need: float = 0.0  # width its first word or character needs at the end of the line before


@dataclass(frozen=True, slots=True)
class PageChars:
    """One page's characters in content order.

    Attributes:
        width: Page width in points.
        height: Page height in points.
        text: One code point per character (generated spaces and line ends left out).
        boxes: ``(len(text), 4)`` float32: x0, top, x1, bottom, top-down.
        newline: Indices of ``text`` before which the PDF library saw a line end.
        sizes: Font size of each character in points (None: its box height stands in).
        rotation: The page's ``/Rotate`` (0, 90, 180, 270): ``width``, ``height`` and
            ``boxes`` are the page's before it is turned, as its text reads
            (``chunkviz.pdf.pages.turn`` gives the boxes as the page is shown).

    Spaces in ``text`` (the library's own, between words) have boxes too but never make a
    line's extent.
    """

    width: float
    height: float
    text: str
    boxes: np.ndarray
    newline: frozenset[int] = field(default_factory=frozenset)
    sizes: np.ndarray | None = None
    rotation: int = 0


@dataclass(frozen=True, slots=True)
class Assembled:
    """The text of the pages and where each of its characters came from.

    Attributes:
        text: The text.
        source: For each character of ``text``, its index in the pages' characters laid end to
            end (page 0's first), or -1 for an inserted space or line break.
        line: For each character, its line's number (-1 for inserted breaks).
        furniture: Lines left out as running headers, footers or page numbers.
        paragraphs: Paragraph count.
    """

    text: str
    source: np.ndarray
    line: np.ndarray
    furniture: int
    paragraphs: int


def page_lines(page_no: int, page: PageChars) -> list[Line]:
    """The printed lines of one page, in content order."""
    text, boxes = page.text, page.boxes
    n = len(text)
    if not n:
        return []
    heights = boxes[:, 3] - boxes[:, 1]
    sizes = page.sizes if page.sizes is not None else heights
    mid = (boxes[:, 1] + boxes[:, 3]) / 2
    h = np.maximum(np.maximum(heights[1:], heights[:-1]), 1.0)
    cut = ((np.abs(mid[1:] - mid[:-1]) > 0.6 * h) | (boxes[1:, 0] < boxes[:-1, 0] - 2 * h)
           | (boxes[1:, 0] - boxes[:-1, 2] > 3 * h))  # a gutter: the next column's line
    starts = sorted({0, *(int(i) + 1 for i in np.flatnonzero(cut)), *page.newline} - {n})
    visible = np.array([not ch.isspace() for ch in text], bool)
    lines: list[Line] = []
    for a, b in zip(starts, [*starts[1:], n], strict=True):
        keep = visible[a:b]
        if not keep.any():
            continue
        seg = boxes[a:b][keep]
        lines.append(Line(page_no, a, b, float(seg[:, 0].min()), float(seg[:, 2].max()),
                          float(seg[:, 1].min()), float(seg[:, 3].max()),
                          float(np.median(sizes[a:b][keep])), text[a:b]))
    return lines


def _furniture_key(line: Line) -> str:
    return re.sub(r"\d+", "#", "".join(line.text.split()))


def mark_furniture(pages: Sequence[list[Line]], heights: Sequence[float]) -> None:
    """Flag running headers, footers and page numbers (``Line.furniture``) across ``pages``."""
    in_band: list[list[Line]] = []
    for lines, h in zip(pages, heights, strict=True):
        in_band.append([ln for ln in lines if ln.top < BAND * h or ln.bottom > (1 - BAND) * h])
    counts: Counter[str] = Counter()
    for band in in_band:
        counts.update({_furniture_key(ln) for ln in band})
    with_text = sum(1 for lines in pages if lines)
    need = max(2, (with_text + 1) // 2)
    for band in in_band:
        for ln in band:
            if counts[_furniture_key(ln)] >= need or _PAGE_NUMBER.match(ln.text.strip()):
                ln.furniture = True


def order_columns(lines: list[Line], width: float) -> list[Line]:
    """``lines`` in reading order: top to bottom, a two-column band left column first."""
    body = sorted(lines, key=lambda ln: (ln.top, ln.x0))
    gutter = _gutter(body, width)
    if gutter is None:
        return body
    out: list[Line] = []
    left: list[Line] = []
    right: list[Line] = []
    for ln in body:
        if ln.x1 <= gutter:
            ln.column = 1
            left.append(ln)
        elif ln.x0 >= gutter:
            ln.column = 2
            right.append(ln)
        else:  # spans the gutter: a title or a figure caption across both columns
            out += left + right
            left, right = [], []
            out.append(ln)
    return out + left + right


def _gutter(lines: Sequence[Line], width: float) -> float | None:
    if len(lines) < 6:
        return None
    best: tuple[int, float] | None = None
    for k in range(30, 71):
        x = width * k / 100
        crossing = sum(1 for ln in lines if ln.x0 < x < ln.x1)
        if best is None or crossing < best[0]:
            best = (crossing, x)
    assert best is not None  # noqa: S101 - the loop runs at least once
    crossing, x = best
    left = sum(1 for ln in lines if ln.x1 <= x)
    right = sum(1 for ln in lines if ln.x0 >= x)
    floor = max(3, int(0.2 * len(lines)))
    if crossing > 0.1 * len(lines) or left < floor or right < floor:
        return None
    return x


def assemble(pages: Sequence[PageChars], *, keep_furniture: bool = False) -> Assembled:
    """The text of ``pages`` read by layout (see the module docstring)."""
    per_page = [page_lines(p, page) for p, page in enumerate(pages)]
    mark_furniture(per_page, [p.height for p in pages])
    offsets = np.cumsum([0] + [len(p.text) for p in pages])
    ordered: list[Line] = []
    furniture = 0
    for p, lines in enumerate(per_page):
        furniture += sum(1 for ln in lines if ln.furniture)
        kept = [ln for ln in lines if keep_furniture or not ln.furniture]
        ordered += order_columns(kept, pages[p].width)
    if not ordered:
        return Assembled("", np.zeros(0, np.int64), np.zeros(0, np.int32), furniture, 0)
    for ln in ordered:
        ln.need = _first_unit(ln, pages[ln.page].text, pages[ln.page].boxes)
    rights = _right_edges(ordered)
    pitch = _pitch(ordered)
    indents = not _spaced(ordered, pitch)
    text_parts: list[str] = []
    source_parts: list[np.ndarray] = []
    line_parts: list[np.ndarray] = []
    paragraphs = 1
    for n, ln in enumerate(ordered):
        if n:
            prev = ordered[n - 1]
            sep = _separator(prev, ln, ordered[n + 1] if n + 1 < len(ordered) else None,
                             rights, pitch, indents=indents)
            if sep == "\n\n":
                paragraphs += 1
            if sep == "-":  # a line-end hyphen between letters: drop it
                text_parts[-1] = text_parts[-1][:-1]
                source_parts[-1] = source_parts[-1][:-1]
                line_parts[-1] = line_parts[-1][:-1]
            elif sep:
                text_parts.append(sep)
                source_parts.append(np.full(len(sep), -1, np.int64))
                line_parts.append(np.full(len(sep), -1, np.int32))
        body, src = _line_text(ln, pages[ln.page], int(offsets[ln.page]))
        text_parts.append(body)
        source_parts.append(src)
        line_parts.append(np.where(src >= 0, n, -1).astype(np.int32))  # a joining space: -1
    return Assembled("".join(text_parts), np.concatenate(source_parts),
                     np.concatenate(line_parts), furniture, paragraphs)


def _line_text(ln: Line, page: PageChars, base: int) -> tuple[str, np.ndarray]:
    """The line's characters with a space wherever Latin words stand apart, and their sources.

    Spaces are decided here from the gaps (the library's generated spaces are left out): a gap
    wider than a quarter of the font size between two characters that are not both CJK.
    """
    chars: list[str] = []
    src: list[int] = []
    x0 = page.boxes[ln.start : ln.end, 0].tolist()
    x1 = page.boxes[ln.start : ln.end, 2].tolist()
    last = -1
    spaced = False
    for k, ch in enumerate(ln.text):
        if ch.isspace():
            spaced = True
            continue
        if last >= 0:
            apart = spaced or x0[k] - x1[last] > 0.25 * ln.size
            if apart and not (is_cjk(ln.text[last]) and is_cjk(ch)):
                chars.append(" ")
                src.append(-1)
        chars.append(ch)
        src.append(base + ln.start + k)
        last = k
        spaced = False
    return "".join(chars), np.asarray(src, np.int64)


def _right_edges(lines: Sequence[Line]) -> dict[int, float]:
    """Each column kind's right edge: the median over pages of the rightmost line end."""
    per: dict[tuple[int, int], float] = {}
    for ln in lines:
        if ln.furniture:
            continue
        key = (ln.page, ln.column)
        per[key] = max(per.get(key, 0.0), ln.x1)
    out: dict[int, float] = {}
    for column in (0, 1, 2):
        values = [v for (_, c), v in per.items() if c == column]
        if values:
            out[column] = float(statistics.median(values))
    return out


def _pitch(lines: Sequence[Line]) -> float:
    """The usual gap between a line's box and the next one's, in font sizes.

    Most consecutive lines sit in one paragraph, so the median is the gap inside a paragraph.
    """
    ratios = [(b.top - a.bottom) / a.size for a, b in zip(lines, lines[1:], strict=False)
              if a.page == b.page and a.column == b.column and b.top > a.top
              and abs(a.size - b.size) < 0.1 * a.size and a.size > 0]
    return float(statistics.median(ratios)) if ratios else 0.3


def _spaced(lines: Sequence[Line], pitch: float) -> bool:
    """Whether the document sets its paragraphs apart by space (then indents mean code or lists).

    True when at least one in forty consecutive line pairs is a gap wider than the usual one.
    """
    pairs = [(a, b) for a, b in zip(lines, lines[1:], strict=False)
             if a.page == b.page and a.column == b.column and b.top > a.top]
    wide = sum(1 for a, b in pairs if b.top - a.bottom > (pitch + 0.4) * max(a.size, b.size))
    return bool(pairs) and wide * 40 >= len(pairs)


def _first_unit(ln: Line, page_text: str, boxes: np.ndarray) -> float:
    """Width the line's first unbreakable unit needs at the end of the line before.

    Opening marks that may not end a line, then a CJK character or a Latin word, then the
    closing marks that may not start one: the printer moves them together.
    """
    chars = [i for i in range(ln.start, ln.end) if not page_text[i].isspace()]
    if not chars:
        return 0.0
    k = 0
    while k < len(chars) - 1 and page_text[chars[k]] in _NO_END:
        k += 1
    latin = not is_cjk(page_text[chars[k]])
    if latin:  # the word runs to a gap or a CJK character
        while (k + 1 < len(chars) and not is_cjk(page_text[chars[k + 1]])
               and boxes[chars[k + 1], 0] - boxes[chars[k], 2] <= 0.25 * ln.size):
            k += 1
    while k + 1 < len(chars) and page_text[chars[k + 1]] in _NO_START:
        k += 1
    width = float(boxes[chars[k], 2] - boxes[chars[0], 0])
    return width + (0.3 * ln.size if latin else 0.0)


def _separator(a: Line, b: Line, after: Line | None, rights: dict[int, float], pitch: float,
               *, indents: bool) -> str:
    """What goes between line ``a`` and the next line ``b``.

    Nothing, a space, a hyphen to drop (``-``), a line break or a paragraph break.
    """
    if a.furniture or b.furniture:
        return "\n\n"
    size = max(a.size, b.size)
    if a.page == b.page and b.x0 > a.x1 and abs(b.top - a.top) < 0.3 * size:
        return " "  # the rest of the same row after a wide gap (a table's cells, code)
    if abs(a.size - b.size) > 0.15 * size:
        return "\n\n"
    same_flow = a.page == b.page and a.column == b.column and b.top > a.top
    if same_flow and b.top - a.bottom > (pitch + 0.4) * size:
        return "\n\n"
    stripped, first = a.text.rstrip(), b.text.lstrip()[:1]
    # A hyphen between letters at a line end, a lowercase letter next: the printer hyphenated.
    if stripped[-2:-1].isalpha() and stripped.endswith("-") and first.islower():
        return "-"
    wrapped = a.x1 + b.need > rights.get(a.column, a.x1) - 0.3 * a.size
    if indents and same_flow and not wrapped and _indented(a, b, after, rights, size):
        return "\n\n"
    if not wrapped:
        return "\n" if same_flow else "\n\n"
    last = stripped[-1:]
    if not last or not first:
        return "\n"
    if is_cjk(last) or is_cjk(first):
        return ""
    return " "


def _indented(a: Line, b: Line, after: Line | None, rights: dict[int, float], size: float
              ) -> bool:
    """Whether ``b`` opens a paragraph with a first-line indent.

    It is indented, it runs to the right edge (so it is a paragraph's first line, not a line of
    indented code) and the line after it starts back at the left.
    """
    if after is None or after.page != b.page or after.column != b.column:
        return False
    left = min(a.x0, after.x0)
    full = b.x1 + after.need > rights.get(b.column, b.x1) - 0.3 * size
    return full and b.x0 - left > 0.6 * size and abs(after.x0 - left) < 0.3 * size
