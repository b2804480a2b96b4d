"""Offset helpers shared by the structure-aware strategies (table, code, semantic, perplexity).

They work on ``(start, end)`` offsets only: lines are found with their terminators
(CRLF, CR and LF, the same three Python's own parser counts), trimming moves offsets
and never edits text, and over-long spans are cut into pieces that respect a hard cap.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from chunkviz.segment import BLANK_LINE

#: A half-open range ``(start, end)`` of a text (``chunkviz.model.Span`` is an answer span).
Bounds = tuple[int, int]

_LINE_END = re.compile(r"\r\n|\r|\n")


def line_spans(text: str, start: int = 0, end: int | None = None) -> list[Bounds]:
    """``(start, end)`` of each line of ``text[start:end]``, line terminators excluded.

    A final line terminator does not start an empty line; empty lines in between are kept
    (as zero-length spans) so that line numbers stay aligned with Python's ``ast``.
    """
    stop = len(text) if end is None else end
    spans: list[Bounds] = []
    pos = start
    for m in _LINE_END.finditer(text, start, stop):
        spans.append((pos, m.start()))
        pos = m.end()
    if pos < stop:
        spans.append((pos, stop))
    return spans


def trim(text: str, start: int, end: int) -> Bounds:
    """Offsets of ``text[start:end]`` without the whitespace around it."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def blank_line_blocks(text: str, start: int, end: int) -> list[Bounds]:
    """Blocks of ``text[start:end]`` separated by blank lines, each trimmed, none empty."""
    blocks: list[Bounds] = []
    pos = start
    for m in BLANK_LINE.finditer(text, start, end):
        s, e = trim(text, pos, m.start())
        if e > s:
            blocks.append((s, e))
        pos = m.end()
    s, e = trim(text, pos, end)
    if e > s:
        blocks.append((s, e))
    return blocks


def hard_split(text: str, start: int, end: int, cap: int) -> list[Bounds]:
    """Cut ``text[start:end]`` into trimmed pieces of at most ``cap`` characters.

    Each cut goes at the last line break inside the window, else at the last whitespace, else
    exactly at ``cap`` characters (a run with no whitespace, such as Japanese prose without
    line breaks, has no better place).
    """
    pieces: list[Bounds] = []
    s, e = trim(text, start, end)
    while e - s > cap:
        window = text[s : s + cap + 1]
        cut = max(window.rfind("\n", 1), window.rfind("\r", 1))
        if cut <= 0:
            cut = max((i for i in range(len(window) - 1, 0, -1) if window[i].isspace()), default=0)
        piece_end = s + cut if cut > 0 else s + cap
        ps, pe = trim(text, s, piece_end)
        if pe > ps:
            pieces.append((ps, pe))
        s, _ = trim(text, piece_end, e)
    if e > s:
        pieces.append((s, e))
    return pieces


def pack(units: Sequence[Bounds], cap: int) -> list[Bounds]:
    """Merge consecutive ``units`` greedily while a merged span stays within ``cap``.

    Units are ordered, non-overlapping and each already at most ``cap`` long; a merged span
    runs from its first unit's start to its last unit's end, so the text between them (only
    whitespace for the callers here) joins the chunk.
    """
    merged: list[Bounds] = []
    for s, e in units:
        if merged and e - merged[-1][0] <= cap:
            merged[-1] = (merged[-1][0], e)
        else:
            merged.append((s, e))
    return merged


def split_blocks(text: str, start: int, end: int, cap: int) -> list[Bounds]:
    """Blank-line blocks of ``text[start:end]``, over-long ones cut, packed up to ``cap``."""
    units: list[Bounds] = []
    for s, e in blank_line_blocks(text, start, end):
        units.extend(hard_split(text, s, e, cap) if e - s > cap else [(s, e)])
    return pack(units, cap)


def gaps_between(spans: Sequence[Bounds], start: int, end: int) -> Iterator[Bounds]:
    """The parts of ``[start, end)`` that no span of the ordered ``spans`` touches."""
    pos = start
    for s, e in spans:
        if s > pos:
            yield pos, s
        pos = max(pos, e)
    if end > pos:
        yield pos, end


@dataclass(frozen=True, slots=True)
class Grouping:
    """Consecutive units grouped into chunks at chosen boundaries.

    Boundary ``i`` lies between unit ``i`` and unit ``i + 1``.

    Attributes:
        spans: ``(start, end)`` of each chunk (first unit's start to last unit's end).
        cuts: Boundaries where a chunk ends, in order.
        forced: The cuts made because the next unit would break ``max_size``.
        suppressed: Wanted boundaries skipped because the chunk was still below ``min_size``.
    """

    spans: tuple[Bounds, ...]
    cuts: tuple[int, ...]
    forced: tuple[int, ...]
    suppressed: tuple[int, ...]


def group_units(
    units: Sequence[Bounds], wanted: Sequence[bool], *, min_size: int, max_size: int
) -> Grouping:
    """Group ``units`` into chunks, cutting at wanted boundaries and where size forces it.

    A chunk ends at boundary ``i`` when adding unit ``i + 1`` would make it longer than
    ``max_size`` characters, or when ``wanted[i]`` holds and the chunk is already at least
    ``min_size`` characters long. Units are each at most ``max_size`` long, so every chunk is.

    Args:
        units: Ordered, non-overlapping spans (sentences).
        wanted: One flag per boundary (``len(units) - 1`` of them).
        min_size: Shortest chunk a wanted boundary may end.
        max_size: Longest chunk.

    Returns:
        The chunks and which boundaries were cut, forced or suppressed.
    """
    spans: list[Bounds] = []
    cuts: list[int] = []
    forced: list[int] = []
    suppressed: list[int] = []
    if not units:
        return Grouping((), (), (), ())
    first = units[0][0]
    for i in range(len(units) - 1):
        if units[i + 1][1] - first > max_size:
            forced.append(i)
        elif wanted[i] and units[i][1] - first < min_size:
            suppressed.append(i)
            continue
        elif not wanted[i]:
            continue
        cuts.append(i)
        spans.append((first, units[i][1]))
        first = units[i + 1][0]
    spans.append((first, units[-1][1]))
    return Grouping(tuple(spans), tuple(cuts), tuple(forced), tuple(suppressed))
