"""The highlight view as an ``st.components.v2`` component: inline HTML/CSS/JS, no iframe.

The markup comes from ``chunkviz.views.highlight.render_html``, which escapes every piece of
document text; the JavaScript only places that markup in the component's shadow root and scrolls the
view's own box to a chunk's number badge when asked.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import streamlit as st

from chunkviz.views.highlight import STYLE

_HTML = '<div class="hl-box" data-testid="chunkviz-highlight"></div>'

_JS = """
export default function (component) {
  const { data, parentElement } = component;
  const box = parentElement.querySelector(".hl-box");
  if (!box || !data) { return; }
  if (box.dataset.version !== String(data.version)) {
    // data.html is built by chunkviz.views.highlight.render_html: every piece of user text in it is
    // HTML-escaped on the server, so it contains only the markup chunkviz writes.
    box.innerHTML = data.html;
    box.dataset.version = String(data.version);
    box.scrollTop = 0;
  }
  if (data.scroll_to !== null && data.scroll_to !== undefined) {
    const badge = box.querySelector("#chunk-" + data.scroll_to);
    if (badge) {
      box.querySelectorAll(".cn.target").forEach((el) => el.classList.remove("target"));
      badge.classList.add("target");
      if (box.dataset.scrolled !== data.version + ":" + data.scroll_to) {
        box.scrollTop = Math.max(0, badge.offsetTop - box.offsetTop - box.clientHeight / 3);
        box.dataset.scrolled = data.version + ":" + data.scroll_to;
      }
    }
  }
}
"""


@lru_cache(maxsize=1)
def _component() -> Any:
    return st.components.v2.component("chunkviz.highlight", html=_HTML, css=STYLE, js=_JS)


def highlight_view(markup: str, *, scroll_to: int | None, key: str) -> None:
    """Mount the view with ``markup`` (escaped HTML from ``render_html``), scrolled to a chunk."""
    version = f"{len(markup)}:{hash(markup) & 0xFFFFFFFF:x}"
    _component()(key=key, data={"html": markup, "scroll_to": scroll_to, "version": version})
