"""The highlight view as an ``st.components.v2`` component: inline HTML/CSS/JS, no iframe.

The markup comes from ``chunkviz.views.highlight.render_html``, which escapes every piece of
document text; the JavaScript only places that markup in the component's shadow root and scrolls the
view's own box to a chunk's number badge when asked.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import streamlit as st

_CSS = """
.hl-box {
  max-height: 65vh; overflow-y: auto; padding: 0.75rem 1rem;
  border: 1px solid #d0d7de; border-radius: 0.5rem; background: #ffffff;
  font-family: "Noto Sans JP", "Hiragino Sans", "Yu Gothic", system-ui, sans-serif;
  font-size: 0.95rem; line-height: 1.9; white-space: pre-wrap; overflow-wrap: anywhere;
  color: #1f2328;
}
.c0 { background: #dbeafe; }
.c1 { background: #fef3c7; }
.ov { background: repeating-linear-gradient(135deg, #93c5fd 0 5px, #fcd34d 5px 10px); }
.gap { background: transparent; }
.ans { box-shadow: inset 0 -3px 0 #16a34a; font-weight: 600; }
.broken {
  color: #ffffff; background: #dc2626; font-weight: 700;
  outline: 2px solid #991b1b; border-radius: 2px;
}
.cn {
  display: inline-block; margin: 0 2px; padding: 0 4px; border-radius: 4px;
  background: #334155; color: #ffffff; font: 600 0.65rem/1.4 ui-monospace, monospace;
  vertical-align: 0.35em; white-space: nowrap; user-select: none;
}
.cn.target { background: #7c3aed; box-shadow: 0 0 0 3px #c4b5fd; }
"""

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
    return st.components.v2.component("chunkviz.highlight", html=_HTML, css=_CSS, js=_JS)


def highlight_view(markup: str, *, scroll_to: int | None, key: str) -> None:
    """Mount the view with ``markup`` (escaped HTML from ``render_html``), scrolled to a chunk."""
    version = f"{len(markup)}:{hash(markup) & 0xFFFFFFFF:x}"
    _component()(key=key, data={"html": markup, "scroll_to": scroll_to, "version": version})
