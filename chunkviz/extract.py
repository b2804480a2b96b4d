"""Text out of documents: txt/md (encoding detected), html, pdf and docx.

Each format is read with a maintained library (BeautifulSoup, pypdf, python-docx), imported only
when needed. Whatever goes wrong becomes an ``InputTextError`` that says what to do instead.
Line ends are normalised to LF here, once, so that offsets refer to the text the user sees.
The app's uploads and the command line (``read_document``) both come through ``extract``.

Bounded work: the file's size is checked before it is read (``chunkviz.textio``), a .docx's
document part before it is unpacked, and the characters extracted are counted as pages and
paragraphs are read, stopping at ``MAX_CHARS``. Text files lose their terminal formatting
(ANSI escapes, backspace overstrikes) unless asked to keep it; the count is reported.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path, PurePath

from chunkviz.errors import InputTextError
from chunkviz.textio import (
    MAX_CHARS,
    NewlineMode,
    check_bytes,
    check_chars,
    decode_bytes,
    read_file_bytes,
    strip_terminal_formatting,
)

DOCUMENT_TYPES = ("txt", "md", "html", "htm", "pdf", "docx")
#: Largest unpacked size of a .docx's main document part (XML), checked before it is parsed:
#: XML carries at least one byte per character of text, and parsing holds all of it in memory.
MAX_DOCX_XML_BYTES = 4 * MAX_CHARS


@dataclass(frozen=True, slots=True)
class ExtractedText:
    """The text of a document and what was done to it on the way.

    Attributes:
        text: The text, LF line ends.
        terminal_sequences: ANSI escape sequences and backspace overstrikes removed (text
            files only; 0 when they were kept).
    """

    text: str
    terminal_sequences: int = 0


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
            f"cannot read {filename!r}: files of type .{ext or '(none)'} are not supported; "
            f"upload one of {', '.join('.' + t for t in DOCUMENT_TYPES)}"
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
        text = _pdf_text(data, filename)
    else:
        text = _docx_text(data, filename)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    check_chars(len(text), filename)
    if not text.strip():
        raise InputTextError(
            f"{filename} contains no extractable text (a scanned PDF or an empty document?); "
            "paste the text or upload a text-based file"
        )
    return ExtractedText(text)


def extract_text(data: bytes, filename: str) -> str:
    """``extract(data, filename).text``: the text of an uploaded document.

    Raises:
        InputTextError: See ``extract``.
    """
    return extract(data, filename).text


def read_document(
    path: str | Path, *, keep_terminal_formatting: bool = False, newlines: NewlineMode = "lf"
) -> ExtractedText:
    """A document on disk, through the same readers as an upload.

    A file whose extension is not one of ``DOCUMENT_TYPES`` is read as text.

    Raises:
        InputTextError: See ``chunkviz.textio.read_file_bytes`` and ``extract``.
    """
    name = Path(path).name
    return extract(
        read_file_bytes(path), name, kind=document_kind(name) or "txt",
        keep_terminal_formatting=keep_terminal_formatting, newlines=newlines,
    )


def _html_text(markup: str) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(markup, "html.parser")
    for tag in soup(["script", "style", "noscript", "template"]):
        tag.decompose()
    lines = (line.strip() for line in soup.get_text("\n").splitlines())
    return "\n".join(line for line in lines if line)


def _pdf_text(data: bytes, filename: str) -> str:
    from pypdf import PdfReader
    from pypdf.errors import FileNotDecryptedError, PdfReadError

    encrypted = InputTextError(
        f"{filename} is an encrypted PDF; remove the password and upload it again"
    )
    pages: list[str] = []
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise encrypted
        count = 0
        for page in reader.pages:
            text = (page.extract_text() or "").strip("\n")
            if text.strip():
                pages.append(text)
                count += len(text) + 2
                check_chars(count, filename)
    except InputTextError:
        raise
    except FileNotDecryptedError:
        raise encrypted from None
    except (PdfReadError, ValueError, KeyError, TypeError, OSError, RecursionError) as exc:
        raise InputTextError(
            f"cannot read {filename} as a PDF ({type(exc).__name__}); check that the file "
            "is a valid PDF, or paste its text"
        ) from None
    return "\n\n".join(pages)


def _check_docx_parts(data: bytes, filename: str) -> None:
    """Refuse a .docx whose document part unpacks to more than ``MAX_DOCX_XML_BYTES``.

    A zip's declared sizes bound what ``zipfile`` unpacks (it stops at the declared size), so
    checking them is checking the work python-docx will do.
    """
    from zipfile import BadZipFile, ZipFile

    try:
        with ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(i.file_size for i in archive.infolist() if i.filename.endswith(".xml"))
    except (BadZipFile, ValueError, OSError) as exc:
        raise InputTextError(
            f"cannot read {filename} as a Word document ({type(exc).__name__}); save it as .docx "
            "(not .doc) or paste its text"
        ) from None
    if unpacked > MAX_DOCX_XML_BYTES:
        raise InputTextError(
            f"{filename} unpacks to {unpacked / 1e6:.0f} MB of XML; Word documents that unpack "
            f"to up to {MAX_DOCX_XML_BYTES / 1e6:.0f} MB are accepted (MAX_DOCX_XML_BYTES); "
            "split the document or paste a part of its text"
        )


def _docx_text(data: bytes, filename: str) -> str:
    from zipfile import BadZipFile

    import docx
    from lxml import etree

    _check_docx_parts(data, filename)
    damaged = (BadZipFile, ValueError, KeyError, OSError, etree.LxmlError, RecursionError)
    try:
        document = docx.Document(io.BytesIO(data))
        from docx.table import Table

        blocks: list[str] = []
        count = 0
        for item in document.iter_inner_content():  # paragraphs and tables in document order
            if isinstance(item, Table):
                found = [" | ".join(cell.text for cell in row.cells) for row in item.rows]
            else:
                found = [item.text]
            for block in found:
                if block.strip():
                    blocks.append(block)
                    count += len(block) + 2
                    check_chars(count, filename)  # merged cells repeat: count what is built
    except InputTextError:
        raise
    except damaged as exc:
        raise InputTextError(
            f"cannot read {filename} as a Word document ({type(exc).__name__}); save it as .docx "
            "(not .doc) or paste its text"
        ) from None
    return "\n\n".join(blocks)
