"""One page of a PDF rendered to PNG, offline, by PDFium (pypdfium2).

Only the page asked for is loaded and drawn, so a 500-page PDF opens at once; the image's width
is bounded (``MAX_WIDTH_PX``), so is its memory.
"""

from __future__ import annotations

import io

from chunkviz.errors import InputTextError
from chunkviz.pdf.reader import PDFIUM

#: Widest image drawn, in pixels.
MAX_WIDTH_PX = 1600


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
            raise InputTextError(f"cannot render {name} ({exc}); upload it again",
                                 code="pdf_render", params={"file": name, "reason": str(exc)},
                                 ) from None
        try:
            if not 0 <= page < len(document):
                raise InputTextError(
                    f"{name} has no page {page + 1} (it has {len(document)}); pick another page",
                    code="pdf_no_page", params={"file": name, "page": page + 1,
                                                "pages": len(document)})
            handle = document[page]
            try:
                scale = width_px / handle.get_width()
                image = handle.render(scale=scale).to_pil()
            finally:
                handle.close()
        finally:
            document.close()
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()
