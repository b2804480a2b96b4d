"""Every bound on the work an untrusted input can ask for, with its reason, in one place.

Documents, results files and command-line options come from users. Each reader checks its input
against these limits *before or while* it does the work (counting as it streams), never after,
and a refusal is a ``LimitError`` that names the file, the limit, the value found and the fix
(``error.limit_<key>`` in the catalogues). ``docs/reference.md`` ("Untrusted input") lists them.

The limits that predate this module (``MAX_BYTES``, ``MAX_CHARS``) are defined here and still
exported by ``chunkviz.textio``, where their checks live.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chunkviz.errors import InputTextError, Whole

_MIB = 1024 * 1024

#: Largest file accepted, in bytes (the upload limit in ``.streamlit/config.toml`` is the same).
MAX_BYTES = 64 * _MIB
#: Largest text accepted, in characters, however it was obtained: a 256 KB .docx unpacks to
#: hundreds of millions of characters, so extraction counts as it goes and stops here.
MAX_CHARS = 16_000_000


class LimitError(InputTextError):
    """An input that asks for more work than one of ``chunkviz.limits`` allows."""


@dataclass(frozen=True, slots=True)
class Limit:
    """One bound: its constant's name, value, unit and why it is what it is.

    Attributes:
        name: The constant's name (``MAX_INFLATED_BYTES``), as messages and docs name it.
        key: The catalogue key of its refusal, ``error.limit_<key>``.
        value: The largest value accepted.
        reason: Why this value (docs/reference.md quotes it).

    The refusal's words are the catalogues' ``error.limit_<key>``.
    """

    name: str
    key: str
    value: int
    reason: str

    def check(self, value: int, file: str, **params: Any) -> None:
        """Refuse ``value`` above this limit.

        Raises:
            LimitError: ``value > self.value``; the message names ``file``, the limit, the value
                and the fix.
        """
        if value > self.value:
            raise self.error(value, file, **params)

    def error(self, value: int, file: str, **params: Any) -> LimitError:
        """The refusal of ``value`` (already known to be above the limit) for ``file``."""
        return LimitError(
            f"limit_{self.key}",
            file=Whole(file),
            value=f"{value:,}",
            max=f"{self.value:,}",
            **params,
        )


#: Bytes that compressed data in one document unpacks to (a PDF's Flate streams, a .docx's zip
#: entries), counted while unpacking. A parser holds what it unpacks in memory, more than once:
#: one PDF content stream of 1.5 GiB peaked at 2.6 GB, one of 500 MiB at 1.05 GB. Images count
#: too (a stream's dictionary may lie about what it is).
INFLATED_BYTES = Limit(
    "MAX_INFLATED_BYTES",
    "inflated",
    512 * _MIB,
    "a parser holds what it unpacks in memory, more than once: one PDF stream of 1.5 GiB "
    "peaked at 2.6 GB, one of 500 MiB at 1.05 GB",
)
#: Unpacked bytes of a .docx's XML parts together, whatever the parts are named (a part is XML
#: when its first bytes are): lxml builds the whole tree of each at once (600 MB of paragraphs
#: in a part not named .xml reached 4 GB); XML carries at least a byte a character.
DOCX_XML_BYTES = Limit(
    "MAX_DOCX_XML_BYTES",
    "docx_xml",
    4 * MAX_CHARS,
    "lxml builds the whole tree of each XML part at once (600 MB of paragraphs in a part not "
    "named .xml reached 4 GB); XML carries at least one byte per character of MAX_CHARS, "
    "four allow for markup",
)
#: Characters on one PDF page, checked before the page's characters are read: a printed page
#: holds a few thousand; each costs about 40 bytes while read (20 million aborted the process).
PAGE_CHARS = Limit(
    "MAX_PAGE_CHARS",
    "page_chars",
    1_000_000,
    "a printed page holds a few thousand characters; each costs about 40 bytes while it is "
    "read, and 20 million on one page aborted the process",
)
#: Bytes one PDF content stream (a page's or a form's drawing instructions: text or paths)
#: unpacks to, counted while unpacking, before PDFium parses it: its text layer costs about 225
#: bytes per character shown (a stream shows at most one per byte), its page objects about 25
#: times the operators' bytes; a dense printed page's content is well under 1 MiB.
CONTENT_STREAM_BYTES = Limit(
    "MAX_CONTENT_STREAM_BYTES",
    "content_stream",
    4 * _MIB,
    "PDFium's text layer costs about 225 bytes per character shown (a 24 KB file drew 20 "
    "million characters on a page) and its page objects about 25 times the operators' bytes; "
    "a dense printed page's content is well under 1 MiB",
)
#: Pixels of a rendered page image (RGBA, 4 bytes each: 64 MiB): a tall, thin page is drawn
#: smaller rather than refused (a 1 x 14,400 pt page at 900 px wide asked for 47 GB).
RENDER_PIXELS = Limit(
    "MAX_RENDER_PIXELS",
    "render_pixels",
    16 * _MIB,
    "a page image costs 4 bytes a pixel; a 1 x 14,400 pt page drawn 900 px wide asked for "
    "47 GB; such a page is drawn smaller instead",
)
#: Longest side of a rendered page image, in pixels: what browsers and PNG decoders draw.
RENDER_SIDE = Limit(
    "MAX_RENDER_SIDE_PX",
    "render_side",
    16_384,
    "browsers stop drawing images past about 16,000 to 32,000 pixels a side",
)
#: Entries of a .docx's zip, read from its end record before the zip is opened: a Word file
#: has tens to hundreds of parts; each entry costs a ``ZipInfo`` and a part object (600,000
#: empty entries took 7 s and 680 MB before anything was refused).
ZIP_ENTRIES = Limit(
    "MAX_ZIP_ENTRIES",
    "zip_entries",
    10_000,
    "a Word file has tens to hundreds of parts; 600,000 empty entries took 7 s and 680 MB "
    "before anything was refused",
)
#: Columns of one table row after horizontal spans (``gridSpan``), checked before the row is
#: built: Word allows 63 columns; a span of 2,147,483,647 in 954 bytes asked for 2.8 GB.
TABLE_COLUMNS = Limit(
    "MAX_TABLE_COLUMNS",
    "table_columns",
    1_000,
    "Word tables have at most 63 columns; one gridSpan of 2,147,483,647 in a 954-byte file "
    "asked for 2.8 GB",
)
#: Cells of one document's tables after spans and merges (each merged cell repeats its text),
#: counted as rows are built: a cell costs at least 3 characters of Markdown.
TABLE_CELLS = Limit(
    "MAX_TABLE_CELLS",
    "table_cells",
    1_000_000,
    "each cell, merged or not, becomes at least 3 characters of Markdown; a million cells is "
    "more than any real document's tables",
)

#: Every document limit, in the order docs/reference.md lists them.
LIMITS: tuple[Limit, ...] = (
    INFLATED_BYTES,
    DOCX_XML_BYTES,
    CONTENT_STREAM_BYTES,
    PAGE_CHARS,
    RENDER_PIXELS,
    RENDER_SIDE,
    ZIP_ENTRIES,
    TABLE_COLUMNS,
    TABLE_CELLS,
)

# --- Results files and the options that drive work -------------------------------------------
# One value each, read by the command line's options, the pages' widgets and the results
# schema: a results file can ask for no more work than the CLI can start or a widget can show.

#: Bootstrap resamples and sign flips of the paired tests: a resample matrix of 10^9 rows took
#: 96.9 GiB (and a file asking for it made the page try to allocate 440 GiB).
MAX_RESAMPLES = 100_000
#: The context budget's bounds, in characters: the Benchmark page's budget input spans them (a
#: file's budget below it made the widget raise).
MIN_BUDGET_CHARS = 100
MAX_BUDGET_CHARS = 100_000
#: Cut-offs (``ks``) of a run's curves: each is one metric per configuration on every redraw
#: (300,000 of them kept the page busy past 150 s); the runner's are 1 to 20.
MAX_KS = 100
#: Largest cut-off: past the chunks a retriever returns a curve is flat.
MAX_K = 1_000
#: Configurations in one grid, checked before any work: pairwise tests grow with its square
#: (9,000 labels ran out of memory after 19 s); the largest named grid under every header mode
#: is 48.
MAX_GRID_CONFIGS = 100

# --- Dense encoding: per text and per run ------------------------------------------------------

#: Characters of one text a dense model embeds; the rest is left out (documented truncation,
#: counted in a run's ``over_limit``): e5-small windows a long text and embeds every window (a
#: 1,000,000-character chunk took about 1,400 CPU s; 50,000 took 71 s). 8,000 characters are
#: 16 to 32 of its windows, about 5 CPU s here, past every strategy's default size.
MAX_DENSE_TEXT_CHARS = 8_000
#: Texts and characters one run may send to a dense model, checked before it encodes any:
#: each text costs milliseconds whatever its length (100,000 one-character lines through a
#: hybrid took about 400 CPU s), each character about 1/1,600 s here.
MAX_DENSE_TEXTS = 50_000
MAX_DENSE_CHARS = MAX_CHARS
