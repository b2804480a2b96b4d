"""Positioned characters to text as a reader reads it: lines, columns, paragraphs, no furniture.

Input is each page's characters in content order with their boxes (top-down PDF points) and
where the PDF library saw a line end. Output is the text and, for every character of it, the
index of the source character it came from (-1 for what was inserted: a joining space, a line or
paragraph break) and the line it sits on, so every offset keeps its page and box.

The rules, each measured on the page rather than assumed:

- A line is a run of characters between the library's line ends, also cut where the next
  character jumps back leftwards, to another baseline or across a gutter (three font sizes).
- Running headers, footers and page numbers are lines in the top or bottom band of the page
  whose text, digits aside, recurs on at least half of the pages (and on two or more), or on
  three or more pages each at most two after the one before (heads that alternate between odd
  and even pages or change per chapter); a lone page number in those bands is one too. They
  are left out and counted (``keep_furniture`` keeps them, each as its own paragraph).
- Columns: a vertical gutter near the middle of the page that no line crosses, with lines
  on both sides; the left column is read before the right, lines spanning both cut the page
  into bands. Each side is split again at a gutter of its own (three or more columns).
- A printed line that reached the column's right edge (the next line's first word, or first
  character with its kinsoku neighbour, would not have fitted) was wrapped by the printer: it
  is joined to the next with nothing between CJK characters, a space between Latin words, and a
  line-end hyphen between letters removed. A line that stopped short ends with a line break.
- A paragraph starts where the gap to the previous line is wider than the document's usual gap
  between lines, and where the font size changes; in a document that does not set paragraphs
  apart by space, also at a first-line indent (a line that is indented, runs to the right edge
  and is followed by one that starts back at the left).
- A paragraph that seems to end at the foot of a page or column (its last line stops short)
  ends there: what follows on the next page starts a new one. So does one on a page whose text
  stops three lines above the document's usual bottom (a slide).
- A line that starts with a bullet ("•", "・", "※", "- ") starts a line of its own.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

#: Share of the page height at the top and at the bottom where running headers and footers sit.
BAND = 0.12
_PAGE_NUMBER = re.compile(
    r"^[-–—\s(]*(page|p\.|ページ)?\s*(\d{1,5}|[ivxlcdm]{1,7})\s*((/|of|／)\s*\d{1,5})?"
    r"\s*(ページ|頁)?[-–—\s)]*$",
    re.IGNORECASE,
)
# Characters that may not start a line (closing marks, small kana) or end one (opening marks):
# the printer moves a neighbour with them, so a wrapped line can stop one character short.
_NO_START = set(
    "、。，．・：；？！」』）］｝〕〉》】〙〗ー’”"
    "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々ゝゞヽヾ"
    ",.:;!?)]}\"'"
)
_NO_END = set("「『（［｛〔〈《【〘〖‘“([{")


def is_cjk(ch: str) -> bool:
    """Whether ``ch`` is written without spaces around it (CJK, kana, fullwidth forms).

    Hangul is not: Korean puts spaces between words, as Latin does.
    """
    o = ord(ch)
    return (
        o >= 0x2E80
        and not (0xFE70 <= o <= 0xFEFF)
        and not (0x1F000 <= o <= 0x1FAFF)
        and not (0xAC00 <= o <= 0xD7FF)
        and not (0x3130 <= o <= 0x318F)
        and not (0xA960 <= o <= 0xA97F)
    )


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
    column: int = 0  # 0 single or spanning, else 1, 2, ... from the left
    furniture: bool = False
    ruby: Line | None = None  # for a reading (furigana): the line of its base
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
        unmapped: Glyphs the PDF gives no code point for (left out of ``text``).
        rotation: The page's ``/Rotate`` (degrees clockwise); the boxes are already upright.

    Spaces in ``text`` (the library's own, between words) have boxes too but never make a
    line's extent.
    """

    width: float
    height: float
    text: str
    boxes: np.ndarray
    newline: frozenset[int] = field(default_factory=frozenset)
    sizes: np.ndarray | None = None
    unmapped: int = 0
    rotation: int = 0


class Ruby(NamedTuple):
    """A reading (furigana) left out of the text: its base is ``text[start:end]``."""

    start: int
    end: int
    reading: str


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
        vertical: Pages (0-based) whose text is mostly set in vertical lines.
        ruby: Readings (furigana) left out of the text, each with the text offsets of its
            base.
    """

    text: str
    source: np.ndarray
    line: np.ndarray
    furniture: int
    paragraphs: int
    vertical: tuple[int, ...] = ()
    ruby: tuple[Ruby, ...] = ()


def page_lines(page_no: int, page: PageChars) -> list[Line]:
    """The printed lines of one page, in content order."""
    text, boxes = page.text, page.boxes
    n = len(text)
    if not n:
        return []
    heights = boxes[:, 3] - boxes[:, 1]
    sizes = page.sizes if page.sizes is not None else heights
    mid = (boxes[:, 1] + boxes[:, 3]) / 2
    # NOTE: a glyph's box can be far smaller than its font ("・" is a dot in a full-width cell):
    # measured by its box alone, the gap after "党員・" looked like a gutter and cut the line.
    scale = np.maximum(heights, sizes)
    h = np.maximum(np.maximum(scale[1:], scale[:-1]), 1.0)
    # Another baseline is measured by the smaller of the two: ruby half the size of its base
    # sits closer above it than a line of the base's size would.
    # (A space, PDFium's generated one with its 1-point font, takes its neighbour's.)
    spaces = np.array([ch.isspace() for ch in text], bool)
    solid = np.where(spaces, np.inf, scale)
    low = np.minimum(solid[1:], solid[:-1])
    low = np.maximum(np.where(np.isinf(low), h, low), 1.0)
    cut = (
        (np.abs(mid[1:] - mid[:-1]) > 0.6 * low)
        | (boxes[1:, 0] < boxes[:-1, 0] - 2 * h)
        | (boxes[1:, 0] - boxes[:-1, 2] > 3 * h)
    )  # a gutter: the next column's line
    starts = sorted({0, *(int(i) + 1 for i in np.flatnonzero(cut)), *page.newline} - {n})
    visible = ~spaces
    # Each line's extent over its visible characters, all lines at once.
    at = np.asarray(starts, np.intp)

    def least(values: np.ndarray) -> np.ndarray:
        return np.minimum.reduceat(np.where(visible, values, np.inf), at)

    def most(values: np.ndarray) -> np.ndarray:
        return np.maximum.reduceat(np.where(visible, values, -np.inf), at)

    x0, x1 = least(boxes[:, 0]).tolist(), most(boxes[:, 2]).tolist()
    top, bottom = least(boxes[:, 1]).tolist(), most(boxes[:, 3]).tolist()
    small, large = least(sizes).tolist(), most(sizes).tolist()
    shown = (np.add.reduceat(visible.astype(np.intp), at) > 0).tolist()
    lines: list[Line] = []
    for k, (a, b) in enumerate(zip(starts, [*starts[1:], n], strict=True)):
        if not shown[k]:
            continue
        # Most lines are set in one size: the median is then that size.
        size = small[k] if small[k] == large[k] else float(np.median(sizes[a:b][visible[a:b]]))
        lines.append(Line(page_no, a, b, x0[k], x1[k], top[k], bottom[k], size, text[a:b]))
    return lines


_SPACE = re.compile(r"\s")
_KANA = re.compile(r"^[\u3041-\u309f\u30a0-\u30ff]+$")


def mark_ruby(lines: Sequence[Line]) -> None:
    """Flag readings (ruby, furigana): kana at most 0.7 times the size of the line they sit on.

    A reading sits just above its base (beside it in vertical text, above once the page is
    turned), over some of the base line; ``Line.ruby`` is set to the base's line.
    """
    for r in lines:
        if not _KANA.match("".join(r.text.split())):
            continue
        for b in lines:
            if (
                b is not r
                and r.size <= 0.7 * b.size
                and r.x0 < b.x1
                and r.x1 > b.x0
                and r.bottom < b.top + 0.3 * b.size
                and b.top - r.bottom < 0.5 * b.size
                and b.ruby is None
            ):
                r.ruby = b
                break


def _readings(
    per_page: Sequence[list[Line]],
    pages: Sequence[PageChars],
    offsets: np.ndarray,
    source: np.ndarray,
) -> tuple[Ruby, ...]:
    """Each reading left out, with the text offsets of the base characters below it."""
    where = np.full(int(offsets[-1]), -1, np.int64)
    real = source >= 0
    where[source[real]] = np.flatnonzero(real)
    out = []
    for lines in per_page:
        for r in lines:
            b = r.ruby
            if b is None:
                continue
            base = int(offsets[b.page])
            box = pages[b.page].boxes
            under = [
                where[base + k]
                for k in range(b.start, b.end)
                if box[k, 2] > r.x0 and box[k, 0] < r.x1 and where[base + k] >= 0
            ]
            if under:
                out.append(Ruby(int(min(under)), int(max(under)) + 1, "".join(r.text.split())))
    return tuple(sorted(out))


def _furniture_key(line: Line) -> str:
    return re.sub(r"\d+", "#", "".join(line.text.split()))


def mark_furniture(
    pages: Sequence[list[Line]], heights: Sequence[float], numbers: Sequence[int] | None = None
) -> None:
    """Flag running headers, footers and page numbers (``Line.furniture``) across ``pages``.

    A line in the top or bottom band is one when its text, digits aside, recurs on half of the
    pages (two or more), or on three or more pages each at most two pages after the one before:
    running heads that alternate between odd and even pages, or change with each chapter.
    ``numbers`` gives each of ``pages`` its page in the file (a page read in two directions is
    two of ``pages``).
    """
    numbers = list(range(len(pages))) if numbers is None else list(numbers)
    in_band: list[list[Line]] = []
    for lines, h in zip(pages, heights, strict=True):
        in_band.append([ln for ln in lines if ln.top < BAND * h or ln.bottom > (1 - BAND) * h])
    seen: dict[str, set[int]] = {}
    for band, number in zip(in_band, numbers, strict=True):
        for ln in band:
            seen.setdefault(_furniture_key(ln), set()).add(number)
    with_text = len({number for lines, number in zip(pages, numbers, strict=True) if lines})
    need = max(2, (with_text + 1) // 2)
    running = {key for key, on in seen.items() if len(on) >= need or _run(sorted(on)) >= 3}
    for band in in_band:
        for ln in band:
            if _furniture_key(ln) in running or _PAGE_NUMBER.match(ln.text.strip()):
                ln.furniture = True


def _run(pages: Sequence[int]) -> int:
    """The longest run of ``pages`` (sorted) each at most two after the one before."""
    best = length = 0
    for k, page in enumerate(pages):
        length = length + 1 if k and page - pages[k - 1] <= 2 else 1
        best = max(best, length)
    return best


def order_columns(lines: list[Line], width: float, *, usual: float | None = None) -> list[Line]:
    """``lines`` in reading order: top to bottom, a two-column band left column first.

    ``usual`` is the gutter the document's other pages have: a page too short to show its
    own (the end of an article, a short second tier) is read by it if no line crosses it.
    """
    body = sorted(lines, key=lambda ln: (ln.top, ln.x0))
    gutter = _gutter(body, width)
    if gutter is None and usual is not None and not any(ln.x0 < usual < ln.x1 for ln in body):
        gutter = usual
    if gutter is None:
        return body
    out: list[Line] = []
    left: list[Line] = []
    right: list[Line] = []
    for ln in body:
        if ln.x1 <= gutter:
            left.append(ln)
        elif ln.x0 >= gutter:
            right.append(ln)
        else:  # spans the gutter: a title or a figure caption across both columns
            out += _columns(left, right)
            left, right = [], []
            out.append(ln)
    return out + _columns(left, right)


def _columns(left: list[Line], right: list[Line]) -> list[Line]:
    """The lines of a band left and right of its gutter, column by column, left to right.

    Each side is split again where it has a gutter of its own (three or more columns), and
    each column is numbered from the left (``Line.column``, 1 first).
    """
    columns = _split(left) + _split(right)
    out: list[Line] = []
    for number, column in enumerate(columns, start=1):
        for ln in column:
            ln.column = number
        out += column
    return out


def _split(lines: list[Line]) -> list[list[Line]]:
    """``lines`` as columns, left to right: split at a gutter no line crosses, recursively."""
    body = sorted(lines, key=lambda ln: (ln.top, ln.x0))
    if not body:
        return []
    lo, hi = min(ln.x0 for ln in body), max(ln.x1 for ln in body)
    gutter = _gutter(body, hi - lo, lo)
    if gutter is None or any(ln.x0 < gutter < ln.x1 for ln in body):
        return [body]
    return _split([ln for ln in body if ln.x1 <= gutter]) + _split(
        [ln for ln in body if ln.x0 >= gutter]
    )


def _gutter(lines: Sequence[Line], width: float, start: float = 0.0) -> float | None:
    """A gutter in the middle 40% of ``[start, start + width]`` that few lines cross."""
    if len(lines) < 6:
        return None
    x0 = np.fromiter((ln.x0 for ln in lines), np.float64, len(lines))
    x1 = np.fromiter((ln.x1 for ln in lines), np.float64, len(lines))
    xs = [start + width * k / 100 for k in range(30, 71)]
    at = np.asarray(xs)
    crossings = ((x0[:, None] < at) & (at < x1[:, None])).sum(axis=0)
    best = int(np.argmin(crossings))  # the first of the fewest, left to right
    crossing, x = int(crossings[best]), xs[best]
    left = int(np.count_nonzero(x1 <= x))
    right = int(np.count_nonzero(x0 >= x))
    floor = max(3, int(0.2 * len(lines)))
    if crossing > 0.1 * len(lines) or left < floor or right < floor:
        return None
    return x


#: Directions of a line: rows (left to right), down (vertical text, 縦書き, or text turned a
#: quarter clockwise), up (text turned a quarter counter-clockwise, read bottom to top).
ROWS, DOWN, UP = 0, 1, 2


def directions(page: PageChars) -> np.ndarray:
    """The direction (``ROWS``, ``DOWN``, ``UP``) of the line each character is set in.

    A character is in a column when it is in a run of three or more that step down (or up) the
    page at the same horizontal position, one cell or letter at a time; one in no run (the last
    one or two of a column, a short reading) goes with its neighbours, or where they disagree
    with most of the page. A space goes with the character before it.
    """
    n = len(page.text)
    out = np.zeros(n, np.int8)
    vis = np.array([i for i, ch in enumerate(page.text) if not ch.isspace()], np.int64)
    if len(vis) < 3:
        return out
    b = page.boxes[vis]
    xc, yc = (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2
    cell = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])
    s = np.maximum(np.maximum(cell[1:], cell[:-1]), 1.0)
    dx, dy = xc[1:] - xc[:-1], yc[1:] - yc[:-1]
    still, moves = np.abs(dx) < 0.45 * s, (np.abs(dy) > 0.15 * s) & (np.abs(dy) < 2.5 * s)
    steps = {
        DOWN: still & moves & (dy > 0),
        UP: still & moves & (dy < 0),
        ROWS: (np.abs(dy) < 0.45 * s) & (dx > 0.15 * s) & (dx < 2.5 * s),
    }

    def runs(step: np.ndarray) -> np.ndarray:
        pair = step & (np.r_[False, step[:-1]] | np.r_[step[1:], False])
        member = np.zeros(len(vis), bool)
        member[:-1] |= pair
        member[1:] |= pair
        return member

    member = {d: runs(step) for d, step in steps.items()}
    if not (member[DOWN].any() or member[UP].any()):
        return out
    found = np.full(len(vis), -1, np.int8)
    for d in (ROWS, UP, DOWN):  # a character in two runs (a corner) goes with the column
        found[member[d]] = d
    counts = np.bincount(found[found >= 0], minlength=3)
    most = int(np.argmax(counts))
    for i in np.flatnonzero(found < 0):
        before = np.flatnonzero(found[:i] >= 0)
        after = np.flatnonzero(found[i + 1 :] >= 0)
        sides = ({int(found[before[-1]])} if len(before) else set()) | (
            {int(found[i + 1 + after[0]])} if len(after) else set()
        )
        found[i] = sides.pop() if len(sides) == 1 else most
    out[vis] = found
    # Spaces and line ends between characters go with the character before them.
    idx = np.zeros(n, np.int64)
    idx[vis] = vis
    np.maximum.accumulate(idx, out=idx)
    return out[idx]


def by_direction(
    pages: Sequence[PageChars],
) -> tuple[list[PageChars], np.ndarray, tuple[int, ...], list[int]]:
    """Each page's columns as a page of their own, turned so that they read as rows.

    A page with columns (``directions``) becomes up to three: its rows (running heads, page
    numbers, a horizontal title), then its ``DOWN`` characters turned a quarter clockwise (a
    column read top to bottom becomes a row read left to right, columns read right to left
    become rows read top to bottom, tiers, 段, become columns), then its ``UP`` characters
    turned a quarter counter-clockwise (a table turned on a portrait page). The rules for rows
    then read them. PDFium's line ends on such a page (it sees one after every character of
    vertical text, and of a running head beside it) are dropped: the boxes say where a line
    ends.

    Returns:
        The pages to read, for each of their characters its index in ``pages``' characters
        laid end to end, the pages (of ``pages``) mostly set in ``DOWN`` columns (vertical
        text), and for each page to read the page of ``pages`` it comes from.
    """
    out: list[PageChars] = []
    real: list[np.ndarray] = []
    vertical: list[int] = []
    origin: list[int] = []
    base = 0
    for p, page in enumerate(pages):
        n = len(page.text)
        flags = directions(page)
        if not flags.any():
            origin.append(p)
            out.append(page)
            real.append(np.arange(base, base + n, dtype=np.int64))
            base += n
            continue
        visible = np.array([not ch.isspace() for ch in page.text], bool)
        if (flags[visible] == DOWN).sum() * 2 > visible.sum():
            vertical.append(p)
        for d in (ROWS, DOWN, UP):
            # NOTE: PDFium generates spaces from horizontal gaps; in vertical lines they fall
            # between a sideways digit and the next character ("5 月"): only boxes count there.
            idx = np.flatnonzero((flags == d) & (visible | (d == ROWS)))
            if not len(idx) and d != ROWS:
                continue
            text = "".join(page.text[i] for i in idx)
            boxes = page.boxes[idx]
            sizes = page.sizes[idx] if page.sizes is not None else None
            x0, top, x1, bottom = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
            if d == DOWN:
                boxes = np.stack([top, page.width - x1, bottom, page.width - x0], axis=1)
            elif d == UP:
                boxes = np.stack([page.height - bottom, x0, page.height - top, x1], axis=1)
            if d == ROWS:
                newline = frozenset(j for j, i in enumerate(idx) if j and i - idx[j - 1] > 1)
                out.append(
                    PageChars(page.width, page.height, text, boxes, newline, sizes, page.unmapped)
                )
            else:
                out.append(
                    PageChars(
                        page.height, page.width, text, boxes.astype(np.float32), frozenset(), sizes
                    )
                )
            real.append(idx + base)
            origin.append(p)
        base += n
    merged = np.concatenate(real) if real else np.zeros(0, np.int64)
    return out, merged, tuple(vertical), origin


def assemble(pages: Sequence[PageChars], *, keep_furniture: bool = False) -> Assembled:
    """The text of ``pages`` read by layout (see the module docstring)."""
    pages, real, vertical, origin = by_direction(pages)
    per_page = [page_lines(p, page) for p, page in enumerate(pages)]
    for lines in per_page:
        mark_ruby(lines)
    mark_furniture(per_page, [p.height for p in pages], origin)
    offsets = np.cumsum([0] + [len(p.text) for p in pages])
    ordered: list[Line] = []
    furniture = sum(1 for lines in per_page for ln in lines if ln.furniture)
    kept = [
        [ln for ln in lines if (keep_furniture or not ln.furniture) and not ln.ruby]
        for lines in per_page
    ]
    found = Counter(
        g
        for p, lines in enumerate(kept)
        if (g := _gutter(sorted(lines, key=lambda ln: (ln.top, ln.x0)), pages[p].width)) is not None
    )
    usual = found.most_common(1)[0][0] if found and found.most_common(1)[0][1] >= 2 else None
    for p, lines in enumerate(kept):
        ordered += order_columns(lines, pages[p].width, usual=usual)
    if not ordered:
        return Assembled("", np.zeros(0, np.int64), np.zeros(0, np.int32), furniture, 0, vertical)
    for ln in ordered:
        ln.need = _first_unit(ln, pages[ln.page].text, pages[ln.page].boxes)
    rights = _right_edges(ordered)
    pitch = _pitch(ordered)
    indents = not _spaced(ordered, pitch)
    early = _ended_early(ordered)
    text_parts: list[str] = []
    source_parts: list[np.ndarray] = []
    line_parts: list[np.ndarray] = []
    paragraphs = 1
    for n, ln in enumerate(ordered):
        if n:
            prev = ordered[n - 1]
            sep = _separator(
                prev,
                ln,
                ordered[n + 1] if n + 1 < len(ordered) else None,
                rights,
                pitch,
                indents=indents,
            )
            if prev.page != ln.page and prev.page in early and sep in ("", " ", "-"):
                sep = "\n\n"  # the page ended early: its last paragraph (a slide's) ended
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
    source = np.concatenate(source_parts)
    ruby = _readings(per_page, pages, offsets, source)
    source = np.where(source >= 0, real[np.maximum(source, 0)], -1)
    return Assembled(
        "".join(text_parts),
        source,
        np.concatenate(line_parts),
        furniture,
        paragraphs,
        vertical,
        ruby,
    )


def _ended_early(lines: Sequence[Line]) -> set[int]:
    """Pages whose text stops well above where the document's pages usually end.

    A page's text usually runs to the same bottom margin; one that stops three lines short of
    it (a slide, the end of a chapter) ends its last paragraph there, even when that paragraph's
    last line reached the right edge, so a slide's title is not joined to the slide before.
    """
    bottom: dict[int, float] = {}
    size: dict[int, float] = {}
    for ln in lines:
        if ln.bottom >= bottom.get(ln.page, -1.0):
            bottom[ln.page], size[ln.page] = ln.bottom, ln.size
    if len(bottom) < 3:
        return set()
    usual = float(statistics.median(bottom.values()))
    return {p for p, b in bottom.items() if b < usual - 3 * size[p]}


def _line_text(ln: Line, page: PageChars, base: int) -> tuple[str, np.ndarray]:
    """The line's characters with a space wherever words stand apart, and their sources.

    Spaces are decided here. Between two characters that are not CJK (Latin, Hangul): the PDF's
    own or PDFium's generated space, or a gap wider than a quarter of the font size. Next to a
    CJK character only the PDF's or PDFium's space counts: a full-width glyph's box can be much
    narrower than its cell ("・", "。"), so the gap between boxes says nothing there. Between two
    CJK characters a space about one character wide is an ideographic space (U+3000, one per
    em), a narrower one a real ASCII space ("東京 大阪"). Letter-spaced capitals are one word
    (``_letter_spaced``).
    """
    cjk = list(map(is_cjk, ln.text))
    if all(cjk) and not _SPACE.search(ln.text):
        # Nothing is ever put between two CJK characters with no space between them.
        return ln.text, np.arange(base + ln.start, base + ln.end, dtype=np.int64)
    chars: list[str] = []
    src: list[int] = []
    box = page.boxes[ln.start : ln.end]
    x0 = box[:, 0].tolist()
    x1 = box[:, 2].tolist()
    visible = [k for k, ch in enumerate(ln.text) if not ch.isspace()]
    # One em: the height of the line's glyph cells (PDFium's loose boxes are cells; some
    # glyphs', "。" and "・" in Chromium's PDFs, are only as large as the glyph).
    tallest = float(np.max(box[visible, 3] - box[visible, 1])) if visible else 0.0
    em = max(tallest, 0.75 * ln.size)
    spaced_out = _letter_spaced(ln.text, visible, x0, x1, em)
    last = -1
    space = -1  # the PDF's (or PDFium's) space since the last character, if any
    for k, ch in enumerate(ln.text):
        if ch.isspace():
            if space < 0 or ch == "\u3000":
                space = k
            continue
        if last >= 0:
            gap = x0[k] - x1[last]
            if space >= 0 and ln.text[space] == "\u3000":
                chars.append("\u3000")  # the PDF's own ideographic space
                src.append(base + ln.start + space)
            elif cjk[last] and cjk[k]:
                if space >= 0:
                    # A glyph narrower than its cell ("・") is taken as centred in a cell of
                    # one em, so the gap is the one between cells.
                    gap = _cell(x0[k], x1[k], em)[0] - _cell(x0[last], x1[last], em)[1]
                    # A space glyph the PDF kerned away (the glyphs' boxes touch: "关 于" set
                    # as "关于", seen in the corpus) takes no room on the page: none is printed.
                    if x0[k] - x1[last] >= 0.1 * em:
                        wide = gap >= 0.75 * em > 0
                        run = max(1, min(4, round(gap / em))) if wide else 1
                        chars.extend("\u3000" * run if wide else " ")
                        src.extend([-1] * run)
            elif k in spaced_out:
                pass  # letter spacing inside a word: "C H A P T E R" is "CHAPTER"
            elif space >= 0 or (not (cjk[last] or cjk[k]) and gap > 0.25 * ln.size):
                chars.append(" ")
                src.append(-1)
        chars.append(ch)
        src.append(base + ln.start + k)
        last = k
        space = -1
    return "".join(chars), np.asarray(src, np.int64)


def _letter_spaced(
    text: str, visible: list[int], x0: list[float], x1: list[float], em: float
) -> set[int]:
    """Characters of ``text`` set apart from the one before only by letter spacing.

    Six or more capitals (Latin, Greek, Cyrillic) in a row, each standing apart from the next
    ("C H A P T E R  O N E"), whose usual gap is under half an em: that gap is letter spacing,
    and a gap more than 1.6 times it is a word space and stays one. Letters of a word set
    normally touch, so ordinary text makes such a run only with six one-capital words in a
    row, which are read as one word (geometry cannot tell them apart).
    """
    out: set[int] = set()
    run: list[int] = []

    def close() -> None:
        if len(run) >= 6:
            gaps = [x0[b] - x1[a] for a, b in zip(run, run[1:], strict=False)]
            usual = statistics.median(gaps)
            if usual < 0.5 * em:
                out.update(b for b, g in zip(run[1:], gaps, strict=True) if g <= 1.6 * usual)
        run.clear()

    for a, b in zip(visible, visible[1:], strict=False):
        # Latin, Greek and Cyrillic letters only: a Hangul syllable is often a word alone.
        if (
            x0[b] - x1[a] > 0.12 * em
            and text[a].isupper()
            and text[b].isupper()
            and ord(text[a]) < 0x530
            and ord(text[b]) < 0x530
        ):
            if not run:
                run.append(a)
            run.append(b)
        elif run:
            close()
    close()
    return out


def _cell(x0: float, x1: float, em: float) -> tuple[float, float]:
    """A full-width glyph's cell: its box, or one em around its centre where it is narrower."""
    if x1 - x0 >= 0.6 * em:
        return x0, x1
    centre = (x0 + x1) / 2
    return centre - em / 2, centre + em / 2


def _right_edges(lines: Sequence[Line]) -> dict[int, float]:
    """Each column kind's right edge: the median over pages of the rightmost line end."""
    per: dict[tuple[int, int], float] = {}
    for ln in lines:
        if ln.furniture:
            continue
        key = (ln.page, ln.column)
        per[key] = max(per.get(key, 0.0), ln.x1)
    out: dict[int, float] = {}
    for column in sorted({c for _, c in per}):
        values = [v for (_, c), v in per.items() if c == column]
        if values:
            out[column] = float(statistics.median(values))
    return out


def _pitch(lines: Sequence[Line]) -> float:
    """The usual gap between a line's box and the next one's, in font sizes.

    Most consecutive lines sit in one paragraph, so the median is the gap inside a paragraph.
    """
    ratios = [
        (b.top - a.bottom) / a.size
        for a, b in zip(lines, lines[1:], strict=False)
        if a.page == b.page
        and a.column == b.column
        and b.top > a.top
        and abs(a.size - b.size) < 0.1 * a.size
        and a.size > 0
    ]
    return float(statistics.median(ratios)) if ratios else 0.3


def _spaced(lines: Sequence[Line], pitch: float) -> bool:
    """Whether the document sets its paragraphs apart by space (then indents mean code or lists).

    True when at least one in forty consecutive line pairs is a gap wider than the usual one.
    """
    pairs = [
        (a, b)
        for a, b in zip(lines, lines[1:], strict=False)
        if a.page == b.page and a.column == b.column and b.top > a.top
    ]
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
        while (
            k + 1 < len(chars)
            and not is_cjk(page_text[chars[k + 1]])
            and boxes[chars[k + 1], 0] - boxes[chars[k], 2] <= 0.25 * ln.size
        ):
            k += 1
    while k + 1 < len(chars) and page_text[chars[k + 1]] in _NO_START:
        k += 1
    width = float(boxes[chars[k], 2] - boxes[chars[0], 0])
    return width + (0.3 * ln.size if latin else 0.0)


def _separator(
    a: Line, b: Line, after: Line | None, rights: dict[int, float], pitch: float, *, indents: bool
) -> str:
    """What goes between line ``a`` and the next line ``b``.

    Nothing, a space, a hyphen to drop (``-``), a line break or a paragraph break.
    """
    if a.furniture or b.furniture:
        return "\n\n"
    size = max(a.size, b.size)
    if a.page == b.page and b.x0 > a.x1 - 0.1 * size and abs(b.top - a.top) < 0.3 * size:
        # The rest of the same row: after a wide gap (a table's cells, code), or a line that
        # other text drawn in between had cut (a heading's characters between a paragraph's).
        last, first = a.text.rstrip()[-1:] or " ", b.text.lstrip()[:1] or " "
        return "" if b.x0 - a.x1 < 0.8 * size and is_cjk(last) and is_cjk(first) else " "
    if abs(a.size - b.size) > 0.15 * size:
        return "\n\n"
    same_flow = a.page == b.page and a.column == b.column and b.top > a.top
    if same_flow and b.top - a.bottom > (pitch + 0.4) * size:
        return "\n\n"
    stripped, first = a.text.rstrip(), b.text.lstrip()[:1]
    if _is_bullet(b.text.lstrip()):
        return "\n"  # a list item starts its own line, whatever the line before reached
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


#: Marks that start a list item. "・" and "※" may not start a wrapped line (kinsoku), so a
#: line starting with one starts an item; "-", "*" and "–" do when a space follows.
_BULLETS = set("•◦▪▫■□●○◆◇▶►▸・※")


def _is_bullet(text: str) -> bool:
    return bool(text) and (
        text[0] in _BULLETS or (text[:1] in ("-", "*", "–") and text[1:2] == " ")
    )


def _indented(a: Line, b: Line, after: Line | None, rights: dict[int, float], size: float) -> bool:
    """Whether ``b`` opens a paragraph with a first-line indent.

    It is indented, it runs to the right edge (so it is a paragraph's first line, not a line of
    indented code) and the line after it starts back at the left.
    """
    if after is None or after.page != b.page or after.column != b.column:
        return False
    left = min(a.x0, after.x0)
    full = b.x1 + after.need > rights.get(b.column, b.x1) - 0.3 * size
    return full and b.x0 - left > 0.6 * size and abs(after.x0 - left) < 0.3 * size
