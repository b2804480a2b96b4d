"""A PDF's characters with their boxes (pypdfium2), read by layout into text with page boxes.

pypdfium2 (PDFium's own bindings, Apache-2.0/BSD) is used rather than pdfplumber: one maintained
C library gives each character's code point and box and renders the page the boxes are drawn
on, quickly (pdfplumber parses with pdfminer in pure Python and itself renders with pypdfium2).
PDFium is not thread-safe and Streamlit runs sessions in threads: every call holds ``PDFIUM``.

Bounded work: the file's bytes are checked by ``chunkviz.extract`` before this runs; here a PDF
of more than ``MAX_PDF_PAGES`` pages is refused before a page is read, and the characters are
counted page by page against ``MAX_CHARS``.
"""

from __future__ import annotations

import ctypes
import threading
from dataclasses import dataclass, replace

import numpy as np

from chunkviz.errors import InputTextError
from chunkviz.limits import PAGE_CHARS
from chunkviz.pdf.bounds import check_streams
from chunkviz.pdf.compat import fold_compat
from chunkviz.pdf.layout import PageChars, Ruby, assemble
from chunkviz.pdf.pages import PageLayout
from chunkviz.pdf.quality import ReadQuality, read_quality
from chunkviz.textio import check_chars

#: Most pages read: a longer PDF is refused with the advice to split it.
MAX_PDF_PAGES = 1_000
#: One lock for every PDFium call in the process.
PDFIUM = threading.Lock()


@dataclass(frozen=True, slots=True)
class PdfText:
    """A PDF read by layout.

    Attributes:
        text: The text (LF line ends, paragraphs apart by a blank line).
        layout: Each character's page and box.
        compat_ideographs: Compatibility ideographs replaced by unified ones.
        furniture: Running header, footer and page-number lines left out (0 when kept).
        pages: Pages in the file.
        pages_without_text: Pages with no text layer (scanned pages).
        paragraphs: Paragraphs found.
        quality: How well it could be read (unmapped glyphs, vertical and rotated pages,
            readings left out).
        ruby: Readings (furigana) left out, each with its base's text offsets.
    """

    text: str
    layout: PageLayout
    compat_ideographs: int
    furniture: int
    pages: int
    pages_without_text: int
    paragraphs: int
    quality: ReadQuality | None = None
    ruby: tuple[Ruby, ...] = ()


def read_pdf(data: bytes, filename: str, *, keep_furniture: bool = False) -> PdfText:
    """The text of a PDF as printed, with the page and box of every character.

    Raises:
        InputTextError: An encrypted, damaged or too long PDF, too many characters, or no text
            layer on any page (a scanned PDF); each message names the file and the fix.
    """
    # Optional (chunkviz[app]): only PDF input needs PDFium.
    import pypdfium2 as pdfium

    check_streams(data, filename)  # before PDFium unpacks anything (chunkviz.limits)
    with PDFIUM:
        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            code = getattr(exc, "err_code", None)
            # NOTE: PDFium's last error is process-wide and a document that fails without an
            # error of its own (no pages) reports the previous one: a password error counts
            # only when the file has an /Encrypt dictionary.
            if code == pdfium.raw.FPDF_ERR_PASSWORD and b"/Encrypt" in data:
                raise InputTextError("pdf_encrypted", file=filename) from None
            if code in (pdfium.raw.FPDF_ERR_SUCCESS, pdfium.raw.FPDF_ERR_PASSWORD):
                # PDFium loads no document without a page, and reports no error for it.
                raise InputTextError("pdf_no_pages", file=filename) from None
            raise InputTextError("pdf_damaged", file=filename, reason=str(exc)) from None
        try:
            count = len(pdf)
            if count > MAX_PDF_PAGES:
                raise InputTextError("pdf_pages", file=filename, pages=count, max=MAX_PDF_PAGES)
            pages = []
            total = 0
            for i in range(count):
                pages.append(_page_chars(pdf, i, filename))
                total += len(pages[-1].text)
                check_chars(total, filename)
        finally:
            pdf.close()
    empty = sum(1 for p in pages if not p.text.strip())
    if pages and empty == len(pages):
        raise InputTextError("pdf_scanned", file=filename, pages=len(pages))
    folded, compat = fold_compat("".join(p.text for p in pages))
    pos = 0
    if compat:
        refolded = []
        for p in pages:
            refolded.append(replace(p, text=folded[pos : pos + len(p.text)]))
            pos += len(p.text)
        pages = refolded
    assembled = assemble(pages, keep_furniture=keep_furniture)
    quality = read_quality(pages, vertical=assembled.vertical, ruby=len(assembled.ruby))
    layout = PageLayout.build(data, pages, assembled.source, assembled.line, quality=quality,
                              ruby=assembled.ruby)
    return PdfText(assembled.text, layout, compat, 0 if keep_furniture else assembled.furniture,
                   len(pages), empty, assembled.paragraphs, quality, assembled.ruby)


def _page_chars(pdf: object, index: int, filename: str) -> PageChars:
    # Optional (chunkviz[app]): only PDF input needs PDFium.
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    page = pdf[index]  # type: ignore[index]
    try:
        width, height = page.get_size()  # as shown: a quarter-turned page's are swapped
        rotation = page.get_rotation() % 360
        textpage = page.get_textpage()
        try:
            handle = textpage.raw
            n = textpage.count_chars()
            PAGE_CHARS.check(n, filename, page=index + 1)  # before a list or array of n
            chars: list[str] = []
            boxes = np.zeros((n, 4), np.float32)
            sizes = np.zeros(n, np.float32)
            newline: set[int] = set()
            rect = raw.FS_RECTF()
            pending_break = False
            unmapped = 0
            low = False  # the unit at i is the low half of a pair already read
            for i in range(n):
                if low:
                    low = False
                    continue
                code = raw.FPDFText_GetUnicode(handle, i)
                if code in (0x0A, 0x0D):
                    pending_break = True
                    continue
                if 0xD800 <= code <= 0xDBFF and i + 1 < n:
                    # NOTE: PDFium gives a character outside the BMP (CJK Extension B, emoji,
                    # mathematical letters) as two UTF-16 units, one index each: join them.
                    second = raw.FPDFText_GetUnicode(handle, i + 1)
                    if 0xDC00 <= second <= 0xDFFF:
                        code = 0x10000 + ((code - 0xD800) << 10) + (second - 0xDC00)
                        low = True
                if code == 0x02:  # PDFium's mark for a hyphen that ends a line
                    code = 0x2D
                if (code in (0xFFFE, 0xFFFF) or 0xD800 <= code <= 0xDFFF
                        or (code < 0x20 and code != 0x09) or 0x7F <= code < 0xA0):
                    # A glyph without a code point: a font without a Unicode map gives none,
                    # or a control character (a glyph id read as a code). Counted, not text.
                    unmapped += 1
                    continue
                raw.FPDFText_GetLooseCharBox(handle, i, ctypes.byref(rect))
                k = len(chars)
                if pending_break:
                    newline.add(k)
                    pending_break = False
                chars.append(chr(code))
                sizes[k] = raw.FPDFText_GetFontSize(handle, i)
                boxes[k] = _upright(rect.left, rect.bottom, rect.right, rect.top, rotation,
                                    width, height)
        finally:
            textpage.close()
    except pdfium.PdfiumError:
        return PageChars(float(width), float(height), "", np.zeros((0, 4), np.float32),
                         rotation=rotation)
    finally:
        page.close()
    k = len(chars)
    return PageChars(float(width), float(height), "".join(chars), boxes[:k].copy(),
                     frozenset(newline), sizes[:k].copy(), unmapped, rotation)


def _upright(left: float, bottom: float, right: float, top: float, rotation: int,
             width: float, height: float) -> tuple[float, float, float, float]:
    """A box in PDF space (bottom-up, before ``/Rotate``) as shown: x0, top, x1, bottom.

    The layout works top-down, as the rendered image does, on the page turned as its
    ``/Rotate`` says (``width`` and ``height`` are the page's as shown): a landscape page
    stored as a portrait one turned a quarter is read upright, not one letter per line.
    """
    if rotation == 90:
        return bottom, left, top, right
    if rotation == 180:
        return width - right, bottom, width - left, top
    if rotation == 270:
        return width - top, height - right, width - bottom, height - left
    return left, height - top, right, height - bottom
