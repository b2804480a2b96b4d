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
from chunkviz.pdf.compat import fold_compat, fold_vertical
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
    folded, vertical_forms = fold_vertical(folded)
    pos = 0
    if compat or vertical_forms:
        refolded = []
        for p in pages:
            refolded.append(replace(p, text=folded[pos : pos + len(p.text)]))
            pos += len(p.text)
        pages = refolded
    assembled = assemble(pages, keep_furniture=keep_furniture)
    quality = read_quality(pages, vertical=assembled.vertical, ruby=len(assembled.ruby))
    layout = PageLayout.build(
        data, pages, assembled.source, assembled.line, quality=quality, ruby=assembled.ruby
    )
    return PdfText(
        assembled.text,
        layout,
        compat,
        0 if keep_furniture else assembled.furniture,
        len(pages),
        empty,
        assembled.paragraphs,
        quality,
        assembled.ruby,
    )


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
            codes = _codes(handle, n)
            keep, newline, unmapped = _kept(codes)
            m = len(keep)
            # NOTE: one C call per character for its box and one for its size (PDFium has no
            # call for a page's boxes); each box is written straight into one array.
            rects = (raw.FS_RECTF * m)()
            box, size, byref = raw.FPDFText_GetLooseCharBox, raw.FPDFText_GetFontSize, ctypes.byref
            index_of = keep.tolist()
            for k, i in enumerate(index_of):
                box(handle, i, byref(rects[k]))
            sizes = np.fromiter((size(handle, i) for i in index_of), np.float32, m)
        finally:
            textpage.close()
    except pdfium.PdfiumError:
        return PageChars(
            float(width), float(height), "", np.zeros((0, 4), np.float32), rotation=rotation
        )
    finally:
        page.close()
    raw_boxes = np.frombuffer(rects, np.float32).reshape(m, 4)  # left, top, right, bottom
    boxes = _upright(raw_boxes, rotation, width, height)
    text = "".join(map(chr, codes[keep].tolist()))
    return PageChars(float(width), float(height), text, boxes, newline, sizes, unmapped, rotation)


def _codes(handle: object, n: int) -> np.ndarray:
    """The code PDFium gives each of a text page's ``n`` characters (int64)."""
    import pypdfium2.raw as raw

    get = raw.FPDFText_GetUnicode
    codes = np.fromiter((get(handle, i) for i in range(n)), np.int64, n)
    for i in np.flatnonzero(codes > 0x10FFFF).tolist():
        codes[i] = _packed(int(codes[i]))
    return codes


def _packed(code: int) -> int:
    """A code point for a code above U+10FFFF, or -1.

    NOTE: where a font's ToUnicode map gives a character as its UTF-8 bytes (``<F0A8A780>``
    for 𨧀, pdf.js issue 18117), PDFium returns those bytes packed into one integer; its page
    text then holds wrong BMP characters. Read the bytes as UTF-8, else as one UTF-16 pair.
    """
    data = code.to_bytes(4, "big").lstrip(b"\0")
    for encoding in ("utf-8", "utf-16-be"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if len(text) == 1:
            return ord(text)
    return -1


def _kept(codes: np.ndarray) -> tuple[np.ndarray, frozenset[int], int]:
    """Which characters are text, where PDFium saw line ends, and how many have no code.

    Returns the indices kept (``codes`` is rewritten in place: surrogate pairs joined into the
    high unit, PDFium's line-end hyphen mark made a hyphen), the positions in the kept
    characters before which a line ended, and the glyphs without a code point.
    """
    n = len(codes)
    # NOTE: PDFium gives a character outside the BMP (CJK Extension B, emoji, mathematical
    # letters) as two UTF-16 units, one index each: join them.
    high = (codes >= 0xD800) & (codes <= 0xDBFF)
    pair = np.zeros(n, bool)
    if n > 1:
        pair[:-1] = high[:-1] & (codes[1:] >= 0xDC00) & (codes[1:] <= 0xDFFF)
    lows = np.flatnonzero(pair) + 1
    if len(lows):
        first = np.flatnonzero(pair)
        codes[first] = 0x10000 + ((codes[first] - 0xD800) << 10) + (codes[lows] - 0xDC00)
    low = np.zeros(n, bool)
    low[lows] = True
    codes[codes == 0x02] = 0x2D  # PDFium's mark for a hyphen that ends a line
    brk = (codes == 0x0A) | (codes == 0x0D)
    # A glyph without a code point: a font without a Unicode map gives none, or a control
    # character (a glyph id read as a code). Counted, not text.
    bad = (
        (codes == 0xFFFE)
        | (codes == 0xFFFF)
        | ((codes >= 0xD800) & (codes <= 0xDFFF))
        | ((codes < 0x20) & (codes != 0x09))
        | ((codes >= 0x7F) & (codes < 0xA0))
        | (codes > 0x10FFFF)
        | (codes < 0)
    )
    bad &= ~brk & ~low
    keep_mask = ~(brk | bad | low)
    keep = np.flatnonzero(keep_mask)
    # A line end counts before the next kept character.
    kept_before = np.cumsum(keep_mask) - keep_mask  # kept characters before each index
    newline = frozenset(int(k) for k in np.unique(kept_before[brk]) if k < len(keep))
    return keep, newline, int(bad.sum())


def _upright(rects: np.ndarray, rotation: int, width: float, height: float) -> np.ndarray:
    """Boxes in PDF space (left, top, right, bottom; bottom-up, before ``/Rotate``) as shown.

    The layout works top-down (x0, top, x1, bottom), as the rendered image does, on the page
    turned as its ``/Rotate`` says (``width`` and ``height`` are the page's as shown): a
    landscape page stored as a portrait one turned a quarter is read upright, not one letter
    per line.
    """
    left, top, right, bottom = rects[:, 0], rects[:, 1], rects[:, 2], rects[:, 3]
    if rotation == 90:
        cols = (bottom, left, top, right)
    elif rotation == 180:
        cols = (width - right, bottom, width - left, top)
    elif rotation == 270:
        cols = (width - top, height - right, width - bottom, height - left)
    else:
        cols = (left, height - top, right, height - bottom)
    return np.stack(cols, axis=1).astype(np.float32)
