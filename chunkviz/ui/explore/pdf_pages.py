"""Explore's page view of a PDF: the rendered page with every chunk's boxes drawn over it.

The image comes from ``chunkviz.pdf.render`` (one page at a time, cached), the overlay from
``chunkviz.views.page_view`` (escaped SVG). The page shown follows the selected chunk (the one
the text view, the chunk table or the jump box selected); a click on a chunk's box on the page
selects that chunk (``on_select``), so the text view follows the page too.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import streamlit as st

from chunkviz.document import Document
from chunkviz.model import ChunkingResult
from chunkviz.pdf.render import render_page
from chunkviz.ui.i18n import tr
from chunkviz.views.highlight import Mark
from chunkviz.views.page_view import chunk_pages, page_shapes, page_svg

_HTML = '<div class="pv-box" data-testid="chunkviz-page"><img class="pv-img" alt=""/></div>'
_CSS = """
.pv-box { position: relative; width: 100%; max-width: 900px; border: 1px solid #d0d7de; }
.pv-img { display: block; width: 100%; height: auto; }
.pv-svg { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
.pv-chunk { cursor: pointer; }
.pv-chunk.pv-sel { stroke: #1f2328; stroke-width: 2.5; fill-opacity: 0.45; }
"""
_JS = """
export default function(component) {
  const { data, parentElement, setTriggerValue } = component;
  const box = parentElement.querySelector(".pv-box");
  const img = box.querySelector(".pv-img");
  if (img.dataset.version !== data.version) {
    img.src = data.image;
    img.dataset.version = data.version;
  }
  box.querySelectorAll(".pv-svg").forEach((el) => el.remove());
  box.insertAdjacentHTML("beforeend", data.svg);
  box.dataset.page = String(data.page);
  box.querySelectorAll(".pv-chunk").forEach((el) => {
    el.addEventListener("click", () => setTriggerValue("chunk", Number(el.dataset.chunk)));
  });
}
"""

#: Pages' images kept in memory (each a PNG of about 0.5 MB).
IMAGES_KEPT = 24


@lru_cache(maxsize=1)
def _component() -> Any:
    return st.components.v2.component("chunkviz.pages", html=_HTML, css=_CSS, js=_JS)


@st.cache_data(max_entries=IMAGES_KEPT, show_spinner=False)
def _page_image(digest: str, page: int, _pdf: bytes) -> str:
    """A page as a PNG data URL (keyed by the PDF's digest, the bytes ride along unhashed)."""
    png = render_page(_pdf, page)
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


@lru_cache(maxsize=4)
def _digest(pdf: bytes) -> str:
    return hashlib.sha256(pdf).hexdigest()


def page_view(
    document: Document,
    result: ChunkingResult,
    marks: Sequence[Mark],
    *,
    selected: int | None,
    on_select: Callable[[int], None],
    key: str,
) -> None:
    """The page of the selected chunk (or one the reader picks), its chunks drawn on it.

    Args:
        document: A document read from a PDF (``document.layout`` is set).
        result: The chunking drawn.
        marks: The answer marks (broken ones are drawn red with their cuts).
        selected: The selected chunk: its page is shown and its boxes outlined.
        on_select: Called with a chunk index when the reader clicks its box on the page.
        key: Widget key prefix.
    """
    layout = document.layout
    if layout is None:
        return
    pages = layout.page_count
    chunks = result.chunks
    on_page: tuple[int, ...] = ()
    if selected is not None and 0 <= selected < len(chunks):
        on_page = chunk_pages(layout, chunks[selected])
    page_key = f"{key}_page"
    follow = (selected, on_page)
    if on_page and st.session_state.get(f"{key}_followed") != follow:
        # A newly selected chunk brings its first page; the reader may then turn pages.
        st.session_state[f"{key}_followed"] = follow
        st.session_state[page_key] = on_page[0] + 1
    number = int(
        st.number_input(
            tr("pdfview.page", pages=pages),
            min_value=1,
            max_value=pages,
            step=1,
            key=page_key,
            help=tr("pdfview.page_help"),
        )
    )
    page = number - 1
    if len(on_page) > 1:
        st.caption(
            tr("pdfview.spans", chunk=selected, pages=", ".join(str(p + 1) for p in on_page))
        )
    shapes = page_shapes(layout, chunks, marks, page)
    image = _page_image(_digest(layout.pdf), page, layout.pdf)

    def clicked() -> None:
        chosen = st.session_state[key].chunk
        if isinstance(chosen, int) and 0 <= chosen < len(chunks):
            on_select(chosen)

    _component()(
        key=key,
        data={
            "image": image,
            "version": f"{page}:{_digest(layout.pdf)}",
            "svg": page_svg(shapes, selected),
            "page": page,
        },
        on_chunk_change=clicked,
    )
