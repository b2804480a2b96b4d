"""Text out of documents: txt/md (encoding detected), html, pdf and docx.

Each format is read with a maintained library (BeautifulSoup, pypdfium2, python-docx), imported
only when needed. A PDF is read by layout, as it was printed (``chunkviz.pdf``): compatibility
ideographs folded, lines joined inside sentences, running headers, footers and page numbers left
out, and every character's page and box kept (``ExtractedText.layout``). A Word file keeps its
structure as Markdown: headings from paragraph styles, tables as tables. Whatever goes wrong
becomes an ``InputTextError`` that says what to do instead.
Line ends are normalised to LF here, once, so that offsets refer to the text the user sees.
The app's uploads and the command line (``read_document``) both come through ``extract``.

Bounded work: the file's size is checked before it is read (``chunkviz.textio``), a .docx's
document part before it is unpacked, and the characters extracted are counted as pages and
paragraphs are read, stopping at ``MAX_CHARS``. Text files lose their terminal formatting
(ANSI escapes, backspace overstrikes) unless asked to keep it; the count is reported.
"""

from __future__ import annotations

import io
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING
from zipfile import BadZipFile, ZipFile

from chunkviz.errors import InputTextError
from chunkviz.limits import (
    DOCX_XML_BYTES,
    INFLATED_BYTES,
    ZIP_ENTRIES,
    LimitError,
)
from chunkviz.pdf.reader import read_pdf
from chunkviz.textio import (
    NewlineMode,
    check_bytes,
    check_chars,
    decode_bytes,
    read_file_bytes,
    strip_terminal_formatting,
)

if TYPE_CHECKING:
    from chunkviz.pdf.pages import PageLayout
    from chunkviz.pdf.quality import ReadQuality

DOCUMENT_TYPES = ("txt", "md", "html", "htm", "pdf", "docx")
#: Largest unpacked size of a .docx's XML parts together (``chunkviz.limits``).
MAX_DOCX_XML_BYTES = DOCX_XML_BYTES.value


@dataclass(frozen=True, slots=True)
class ExtractedText:
    """The text of a document and what was done to it on the way.

    Attributes:
        text: The text, LF line ends.
        terminal_sequences: ANSI escape sequences and backspace overstrikes removed (text
            files only; 0 when they were kept).
        layout: For a PDF, each character's page and box; None for other formats.
        compat_ideographs: Compatibility ideographs (Kangxi radicals, ...) a PDF's text had,
            replaced by the unified ideographs they look like.
        furniture: Running header, footer and page-number lines left out of a PDF.
        pages: Pages of a PDF (0 for other formats).
        pages_without_text: Pages of a PDF with no text layer (scanned).
        quality: For a PDF, how well it could be read (unmapped glyphs, vertical and rotated
            pages, readings left out); None for other formats.
    """

    text: str
    terminal_sequences: int = 0
    layout: PageLayout | None = None
    compat_ideographs: int = 0
    furniture: int = 0
    pages: int = 0
    pages_without_text: int = 0
    quality: ReadQuality | None = None


def document_kind(filename: str) -> str | None:
    """The reader for ``filename`` (``txt``, ``md``, ``html``, ...), or None if unsupported."""
    ext = PurePath(filename).suffix.lower().lstrip(".")
    return ext if ext in DOCUMENT_TYPES else None


def extract(
    data: bytes,
    filename: str,
    *,
    kind: str | None = None,
    keep_terminal_formatting: bool = False,
    newlines: NewlineMode = "lf",
    keep_furniture: bool = False,
) -> ExtractedText:
    """The text of a document, read by the reader its extension (or ``kind``) names.

    Args:
        data: The file's bytes.
        filename: Its name; the extension picks the reader unless ``kind`` is given.
        kind: One of ``DOCUMENT_TYPES`` to override the extension (the command line reads a
            file of any other name as text).
        keep_terminal_formatting: Keep ANSI escapes and backspace overstrikes in text files.
        newlines: Line ends of text files: ``lf`` (default) or ``keep``; other formats are
            always LF.
        keep_furniture: Keep a PDF's running headers, footers and page numbers.

    Returns:
        The text and the number of terminal sequences removed.

    Raises:
        InputTextError: Unsupported extension, a file that is too large (bytes, unpacked size
            or characters), damaged, encrypted or empty of text (a scanned PDF), or binary data
            in a text file.
    """
    kind = kind or document_kind(filename)
    if kind not in DOCUMENT_TYPES:
        ext = PurePath(filename).suffix.lower().lstrip(".")
        raise InputTextError(
            "unsupported_type",
            file=filename,
            ext=ext or "(none)",
            types=["." + t for t in DOCUMENT_TYPES],
        )
    check_bytes(len(data), filename)
    if kind in ("txt", "md"):
        text = decode_bytes(data, name=filename, newlines=newlines)
        if keep_terminal_formatting:
            return ExtractedText(text)
        text, removed = strip_terminal_formatting(text)
        return ExtractedText(text, removed)
    if kind in ("html", "htm"):
        text = _html_text(decode_bytes(data, name=filename, newlines="lf"))
    elif kind == "pdf":
        pdf = read_pdf(data, filename, keep_furniture=keep_furniture)
        check_chars(len(pdf.text), filename)
        if not pdf.text.strip():  # every line was a running header, footer or page number
            raise InputTextError("pdf_only_furniture", file=filename)
        return ExtractedText(
            pdf.text,
            layout=pdf.layout,
            compat_ideographs=pdf.compat_ideographs,
            furniture=pdf.furniture,
            pages=pdf.pages,
            pages_without_text=pdf.pages_without_text,
            quality=pdf.quality,
        )
    else:
        text = _docx_text(data, filename)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    check_chars(len(text), filename)
    if not text.strip():
        raise InputTextError("no_text", file=filename)
    return ExtractedText(text)


def extract_text(data: bytes, filename: str) -> str:
    """``extract(data, filename).text``: the text of an uploaded document.

    Raises:
        InputTextError: See ``extract``.
    """
    return extract(data, filename).text


def read_document(
    path: str | Path,
    *,
    keep_terminal_formatting: bool = False,
    newlines: NewlineMode = "lf",
    keep_furniture: bool = False,
) -> ExtractedText:
    """A document on disk, through the same readers as an upload.

    A file whose extension is not one of ``DOCUMENT_TYPES`` is read as text.

    Raises:
        InputTextError: See ``chunkviz.textio.read_file_bytes`` and ``extract``.
    """
    name = Path(path).name
    return extract(
        read_file_bytes(path),
        name,
        kind=document_kind(name) or "txt",
        keep_terminal_formatting=keep_terminal_formatting,
        newlines=newlines,
        keep_furniture=keep_furniture,
    )


def _html_text(markup: str) -> str:
    # Optional (chunkviz[app]): only HTML input needs BeautifulSoup.
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(markup, "html.parser")
    for tag in soup(["script", "style", "noscript", "template"]):
        tag.decompose()
    lines = (line.strip() for line in soup.get_text("\n").splitlines())
    return "\n".join(line for line in lines if line)


def _looks_like_xml(head: bytes) -> bool:
    """Whether a part beginning with ``head`` would be parsed as XML.

    lxml skips a BOM and white space; UTF-16 starts with its BOM.
    """
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<") or head[:2] in (
        b"\xff\xfe",
        b"\xfe\xff",
    )


def _zip_entries(data: bytes) -> int:
    """The entry count a zip's end record declares (0 without one: ``ZipFile`` refuses it).

    A Zip64 archive writes 0xFFFF there and the count in its Zip64 end record.
    """
    at = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))  # the end record and a comment
    if at < 0 or at + 12 > len(data):
        return 0
    count = int.from_bytes(data[at + 10 : at + 12], "little")
    locator = at - 20  # the Zip64 locator sits right before the end record
    if count == 0xFFFF and locator >= 0 and data[locator : locator + 4] == b"PK\x06\x07":
        record = int.from_bytes(data[locator + 8 : locator + 16], "little")
        if data[record : record + 4] == b"PK\x06\x06":
            count = int.from_bytes(data[record + 32 : record + 40], "little")
    return count


def _check_docx_parts(data: bytes, filename: str) -> None:
    """Refuse a .docx that unpacks past ``MAX_INFLATED_BYTES`` or ``MAX_DOCX_XML_BYTES`` of XML.

    Every part counts against the first; every XML part, named anything, against the second
    (``chunkviz.limits``).

    python-docx loads every part and parses each XML part whole, whatever its name (the main
    part may be called ``word/x.bin``): a part is XML when its first bytes are. A zip's
    declared sizes bound what ``zipfile`` unpacks (it stops at the declared size), so checking
    them is checking the work python-docx will do.
    """
    ZIP_ENTRIES.check(_zip_entries(data), filename)  # before ZipFile reads them all
    try:
        with ZipFile(io.BytesIO(data)) as archive:
            unpacked = xml = 0
            for info in archive.infolist():
                unpacked += info.file_size
                INFLATED_BYTES.check(unpacked, filename)
                if info.file_size:
                    with archive.open(info) as part:
                        if _looks_like_xml(part.read(64)):
                            xml += info.file_size
                DOCX_XML_BYTES.check(xml, filename)
    except LimitError:
        raise
    except (
        BadZipFile,
        ValueError,
        OSError,
        EOFError,
        zlib.error,
        RuntimeError,
        NotImplementedError,
    ) as exc:  # an encrypted entry, an unknown method
        raise InputTextError("docx_damaged", file=filename, reason=type(exc).__name__) from None


def _docx_text(data: bytes, filename: str) -> str:
    # Optional (chunkviz[app]): only .docx input needs lxml (it comes with python-docx).
    from lxml import etree

    from chunkviz.docx_reader import docx_text

    _check_docx_parts(data, filename)
    damaged = (BadZipFile, ValueError, KeyError, OSError, etree.LxmlError, RecursionError)
    try:
        with ZipFile(io.BytesIO(data)) as archive:
            return docx_text(archive, filename)
    except InputTextError:
        raise
    except damaged as exc:
        raise InputTextError("docx_damaged", file=filename, reason=type(exc).__name__) from None
