"""Text out of uploaded files: txt/md (encoding detected), html, pdf and docx.

Each format is read with a maintained library (BeautifulSoup, pypdf, python-docx), imported only
when needed. Whatever goes wrong becomes an ``InputTextError`` that says what to do instead.
Line ends are normalised to LF here, once, so that offsets refer to the text the user sees.
"""

from __future__ import annotations

import io
from pathlib import PurePath

from chunkviz.errors import InputTextError
from chunkviz.textio import MAX_BYTES, decode_bytes

DOCUMENT_TYPES = ("txt", "md", "html", "htm", "pdf", "docx")


def extract_text(data: bytes, filename: str) -> str:
    """The text of an uploaded document, chosen by the file's extension.

    Args:
        data: The file's bytes.
        filename: Its name; the extension picks the reader.

    Returns:
        The text with LF line ends.

    Raises:
        InputTextError: Unsupported extension, a file that is too large, damaged or empty of
            text (a scanned PDF), or binary data in a text file.
    """
    ext = PurePath(filename).suffix.lower().lstrip(".")
    if ext not in DOCUMENT_TYPES:
        raise InputTextError(
            f"cannot read {filename!r}: files of type .{ext or '(none)'} are not supported; "
            f"upload one of {', '.join('.' + t for t in DOCUMENT_TYPES)}"
        )
    if len(data) > MAX_BYTES:
        raise InputTextError(
            f"{filename} is {len(data) / 1e6:.1f} MB; files up to {MAX_BYTES // (1024 * 1024)} "
            "MiB are accepted; split the file or upload a part of it"
        )
    if ext in ("txt", "md"):
        return decode_bytes(data, name=filename, newlines="lf")
    if ext in ("html", "htm"):
        text = _html_text(decode_bytes(data, name=filename, newlines="lf"))
    elif ext == "pdf":
        text = _pdf_text(data, filename)
    else:
        text = _docx_text(data, filename)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise InputTextError(
            f"{filename} contains no extractable text (a scanned PDF or an empty document?); "
            "paste the text or upload a text-based file"
        )
    return text


def _html_text(markup: str) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(markup, "html.parser")
    for tag in soup(["script", "style", "noscript", "template"]):
        tag.decompose()
    lines = (line.strip() for line in soup.get_text("\n").splitlines())
    return "\n".join(line for line in lines if line)


def _pdf_text(data: bytes, filename: str) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise InputTextError(
                f"{filename} is an encrypted PDF; remove the password and upload it again"
            )
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise InputTextError(
            f"cannot read {filename} as a PDF ({type(exc).__name__}: {exc}); check that the file "
            "is a valid PDF, or paste its text"
        ) from None
    return "\n\n".join(p.strip("\n") for p in pages if p.strip())


def _docx_text(data: bytes, filename: str) -> str:
    from zipfile import BadZipFile

    import docx

    try:
        document = docx.Document(io.BytesIO(data))
    except (BadZipFile, ValueError, KeyError, OSError) as exc:
        raise InputTextError(
            f"cannot read {filename} as a Word document ({type(exc).__name__}); save it as .docx "
            "(not .doc) or paste its text"
        ) from None
    from docx.table import Table

    blocks: list[str] = []
    for item in document.iter_inner_content():  # paragraphs and tables in document order
        if isinstance(item, Table):
            blocks.extend(" | ".join(cell.text for cell in row.cells) for row in item.rows)
        else:
            blocks.append(item.text)
    return "\n\n".join(b for b in blocks if b.strip())
