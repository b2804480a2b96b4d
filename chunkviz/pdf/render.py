"""One page of a PDF rendered to PNG, offline, by PDFium (pypdfium2).

Only the page asked for is loaded and drawn, so a 500-page PDF opens at once; the image's width
is bounded (``MAX_WIDTH_PX``), and so are its pixels and its longest side (``chunkviz.limits``:
``MAX_RENDER_PIXELS``, ``MAX_RENDER_SIDE_PX``): a page too tall or too wide for them is drawn
smaller, never refused, since the page view scales its boxes to the image whatever its size.
"""

from __future__ import annotations

import io

from chunkviz.errors import InputTextError
from chunkviz.limits import RENDER_PIXELS, RENDER_SIDE
from chunkviz.pdf.reader import PDFIUM

#: Widest image drawn, in pixels.
MAX_WIDTH_PX = 1600


def render_scale(width_pt: float, height_pt: float, width_px: int) -> float:
    """Pixels per point that draw a page ``width_px`` wide, or smaller within the limits.

    Smaller where the image would pass ``MAX_RENDER_PIXELS`` or ``MAX_RENDER_SIDE_PX`` (a
    1 x 14,400 pt page).
    """
    width_pt, height_pt = max(width_pt, 1.0), max(height_pt, 1.0)
    scale = width_px / width_pt
    side = RENDER_SIDE.value / max(width_pt, height_pt)
    area = (RENDER_PIXELS.value / (width_pt * height_pt)) ** 0.5
    return float(min(scale, side, area))


def render_page(pdf: bytes, page: int, *, width_px: int = 900, name: str = "document") -> bytes:
    """Page ``page`` (0-based) of ``pdf`` as PNG bytes, ``width_px`` wide (at most MAX_WIDTH_PX).

    Raises:
        InputTextError: The page does not exist or PDFium cannot draw it.
    """
    # Optional (chunkviz[app]): only PDF input needs PDFium.
    import pypdfium2 as pdfium

    width_px = max(100, min(width_px, MAX_WIDTH_PX))
    with PDFIUM:
        try:
            document = pdfium.PdfDocument(pdf)
        except pdfium.PdfiumError as exc:
            raise InputTextError("pdf_render", file=name, reason=str(exc)) from None
        try:
            if not 0 <= page < len(document):
                raise InputTextError("pdf_no_page", file=name, page=page + 1, pages=len(document))
            handle = document[page]
            try:
                scale = render_scale(handle.get_width(), handle.get_height(), width_px)
                image = handle.render(scale=scale).to_pil()
            finally:
                handle.close()
        finally:
            document.close()
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()
