"""Table-aware splitting: tables are cut between rows and every piece carries the header.

Seed 003: a row cut out of its table loses the column headings ("120,000" of what?). So each
table is split by rows, the header row stays in the text of the table's first chunk, and every
later chunk of the same table gets it as its ``prefix`` (embedded with the chunk, not part of
the source). Three table forms are recognised:

- Markdown pipe tables: a header line, a delimiter line (``|---|:--:|``), then rows with ``|``;
- HTML tables: ``<table>`` ... ``</table>``; rows are ``<tr>`` elements and the header row is
  the first ``<tr>`` when it holds a ``<th>`` cell;
- CSV-like blocks: at least three consecutive lines with the same number (at least one) of the
  same delimiter (comma, tab or semicolon) outside double quotes; the first line is the header.

Text outside tables is split at blank lines into pieces packed up to ``size``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from chunkviz.model import Chunk, ChunkingResult
from chunkviz.strategies.packing import Bounds, hard_split, line_spans, pack, split_blocks, trim
from chunkviz.strategies.registry import Param, Strategy, register

_MD_DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_HTML_TABLE = re.compile(r"<table\b[^>]*>.*?</table\s*>", re.IGNORECASE | re.DOTALL)
_HTML_ROW_START = re.compile(r"<tr\b[^>]*>", re.IGNORECASE)
_HTML_ROW_END = re.compile(r"</tr\s*>", re.IGNORECASE)
_HTML_ROW_STOP = re.compile(r"<tr\b|</(?:tbody|thead|tfoot|table)\s*>", re.IGNORECASE)
_HTML_HEADER_CELL = re.compile(r"<th\b", re.IGNORECASE)
_CSV_DELIMITERS = (",", "\t", ";")
_CSV_MIN_LINES = 3

SIZE = Param(
    "size",
    "int",
    800,
    min=1,
    max=100_000,
    unit="chars",
    help="Largest chunk length in characters; tables are cut between rows to stay within it.",
)
REPEAT_HEADER = Param(
    "repeat_header",
    "bool",
    True,
    help="Give every chunk of a table after the first the table's header row as its prefix.",
)


@dataclass(frozen=True, slots=True)
class Table:
    """A table found in the text.

    Attributes:
        kind: ``markdown``, ``html`` or ``csv``.
        start: Offset of the table's first character.
        end: Offset one past its last character.
        header: ``(start, end)`` of the header (with the Markdown delimiter line), or None.
        rows: ``(start, end)`` of each body row, in order.
    """

    kind: str
    start: int
    end: int
    header: Bounds | None
    rows: tuple[Bounds, ...]


def _markdown_tables(text: str, lines: list[Bounds], taken: _Taken) -> list[Table]:
    tables = []
    i = 0
    while i + 1 < len(lines):
        hs, he = lines[i]
        ds, de = lines[i + 1]
        header, delimiter = text[hs:he], text[ds:de]
        if (
            "|" in header
            and "|" in delimiter
            and _MD_DELIMITER.match(delimiter)
            and header.strip()
            and not taken.overlaps((hs, de))
        ):
            rows = []
            j = i + 2
            while j < len(lines):
                row = text[slice(*lines[j])]
                if "|" not in row or not row.strip() or taken.overlaps(lines[j]):
                    break
                rows.append(trim(text, *lines[j]))
                j += 1
            start, _ = trim(text, hs, he)
            _, header_end = trim(text, ds, de)
            end = rows[-1][1] if rows else header_end
            tables.append(Table("markdown", start, end, (start, header_end), tuple(rows)))
            i = j
        else:
            i += 1
    return tables


def _html_tables(text: str) -> list[Table]:
    tables = []
    for m in _HTML_TABLE.finditer(text):
        start, end = m.span()
        rows: list[Bounds] = []
        for rm in _HTML_ROW_START.finditer(text, start, end):
            # </tr> may be omitted in HTML: the row then stops where the next row or section does.
            stop = _HTML_ROW_STOP.search(text, rm.end(), end)
            limit = stop.start() if stop else end
            close = _HTML_ROW_END.search(text, rm.end(), limit)
            row_end = close.end() if close else trim(text, rm.start(), limit)[1]
            rows.append((rm.start(), row_end))
        header = None
        if rows and _HTML_HEADER_CELL.search(text, rows[0][0], rows[0][1]):
            header = rows[0]
            rows = rows[1:]
        tables.append(Table("html", start, end, header, tuple(rows)))
    return tables


def _count_outside_quotes(line: str, delimiter: str) -> int:
    if '"' not in line:
        return line.count(delimiter)  # the common case, without a Python loop per character
    count = 0
    quoted = False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif ch == delimiter and not quoted:
            count += 1
    return count


def _csv_tables(text: str, lines: list[Bounds], taken: _Taken) -> list[Table]:
    tables = []
    i = 0
    while i < len(lines):
        found = None
        for delimiter in _CSV_DELIMITERS:
            s, e = lines[i]
            count = _count_outside_quotes(text[s:e], delimiter)
            if count == 0 or taken.overlaps((s, e)):
                continue
            j = i + 1
            while (
                j < len(lines)
                and not taken.overlaps(lines[j])
                and _count_outside_quotes(text[lines[j][0] : lines[j][1]], delimiter) == count
            ):
                j += 1
            if j - i >= _CSV_MIN_LINES:
                found = j
                break
        if found is None:
            i += 1
            continue
        header = trim(text, *lines[i])
        rows = tuple(trim(text, *lines[k]) for k in range(i + 1, found))
        rows = tuple(r for r in rows if r[1] > r[0])
        end = rows[-1][1] if rows else header[1]
        tables.append(Table("csv", header[0], end, header, rows))
        i = found
    return tables


class _Taken:
    """Tables found earlier (disjoint spans), asked whether a line overlaps one of them.

    NOTE a binary search, not a scan: a document of many small tables asked this for each of
    its lines was quadratic (548,000 characters of Markdown tables with commas in their cells:
    6 s).
    """

    def __init__(self, spans: list[Bounds]) -> None:
        self._spans = sorted(spans)
        self._ends = [e for _, e in self._spans]

    def overlaps(self, line: Bounds) -> bool:
        """Whether ``line`` shares a character with one of the spans."""
        i = bisect_left(self._ends, line[0] + 1)  # first span ending after line[0]
        return i < len(self._spans) and self._spans[i][0] < line[1]


def find_tables(text: str) -> list[Table]:
    """Every table in ``text``, ordered by start; HTML first, then Markdown, then CSV-like."""
    tables = _html_tables(text)
    lines = line_spans(text)
    tables += _markdown_tables(text, lines, _Taken([(t.start, t.end) for t in tables]))
    tables += _csv_tables(text, lines, _Taken([(t.start, t.end) for t in tables]))
    return sorted(tables, key=lambda t: t.start)


def _table_chunks(text: str, table: Table, size: int, repeat_header: bool) -> list[Chunk]:
    """Rows packed up to ``size``.

    The table is tiled by units that start at row starts: text between rows (``</tbody>``,
    blank space) goes with the row before it, the header unit opens the first chunk and the
    table's tail (``</table>``) closes the last one, so no source character is left out.
    """
    rows = list(table.rows)
    if table.header is None and rows:
        rows = rows[1:]  # no header: the first row joins the table's opening
    cuts = [table.start, *(r[0] for r in rows), table.end]
    head_end = cuts[1] if table.header is not None and rows else table.end
    pieces: list[Bounds] = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        s, e = trim(text, a, b)
        if e > s:
            pieces.extend(hard_split(text, s, e, size) if e - s > size else [(s, e)])
    prefix = ""
    if repeat_header and table.header is not None:
        prefix = text[table.header[0] : table.header[1]] + "\n"
    return [Chunk(s, e, prefix=prefix if s >= head_end else "") for s, e in pack(pieces, size)]


def table_split(text: str, *, size: int = 800, repeat_header: bool = True) -> ChunkingResult:
    """Split ``text`` with tables cut between rows and their header repeated as a prefix.

    Args:
        text: The document (Markdown, HTML or plain text with CSV-like blocks).
        size: Largest chunk length in characters. A single row longer than ``size`` is cut
            inside (at a line break or space when there is one).
        repeat_header: Whether later chunks of a table carry its header row as ``prefix``.

    Returns:
        The chunking; each table starts a new chunk and whitespace between blocks is in no chunk.
    """
    params = {"size": size, "repeat_header": repeat_header}
    chunks: list[Chunk] = []
    pos = 0
    for table in find_tables(text):
        chunks.extend(Chunk(s, e) for s, e in split_blocks(text, pos, table.start, size))
        chunks.extend(_table_chunks(text, table, size, repeat_header))
        pos = table.end
    chunks.extend(Chunk(s, e) for s, e in split_blocks(text, pos, len(text), size))
    return ChunkingResult(text, tuple(chunks), "table", params)


register(
    Strategy(
        name="table",
        description="Table-aware: Markdown, HTML and CSV tables cut between rows, header repeated.",
        params=(SIZE, REPEAT_HEADER),
        gaps="whitespace",
        fn=table_split,
        size_param="size",
    )
)
