"""Compare's panels as one ``st.components.v2`` component, so one script owns their scrolling.

Every panel shows the same range of the document, drawn by ``chunkviz.views.highlight.render_html``
(escaped; every text span carries ``data-s``, the offset of its first character) with the one
highlight stylesheet. The panels line up: the same height, a caption row of fixed height whose
text is cut with an ellipsis (the whole caption is its tooltip), and synced scrolling by
character: when the reader scrolls one panel, every other panel brings the same character to its
top. A rerun that changes the markup (another configuration) keeps that character at the top.
Lookups are scoped to each panel's box: the chunk badge ids (``chunk-<i>``) repeat across panels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import streamlit as st

from chunkviz.views.highlight import STYLE


@dataclass(frozen=True, slots=True)
class Panel:
    """One configuration's panel.

    Attributes:
        caption: The configuration's label (shown as text, never as markup).
        markup: Escaped HTML from ``render_html`` (plus ``chunkviz.views.compare.mark_cuts``).
    """

    caption: str
    markup: str


_HTML = '<div class="cmp-grid" data-testid="chunkviz-compare"></div>'

# Layout of the panels and the boundary-difference markers (``bd``: the highlight has its own
# ``.cut`` markers); the highlight's own look is STYLE.
_CSS = (
    STYLE
    + """
.cmp-grid {
  display: grid; gap: 0.75rem;
  grid-template-columns: repeat(var(--cmp-n, 2), minmax(0, 1fr));
}
.cmp-col { min-width: 0; }
.cmp-caption {
  height: 1.75rem; line-height: 1.75rem; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; font: 600 0.85rem/1.75rem system-ui, sans-serif; color: #1f2328;
}
.cmp-panel { height: 65vh; max-height: none; box-sizing: border-box; }
/* A phone: side by side, each panel was ~170 px (7 kanji a line); stacked, each is readable. */
@media (max-width: 640px) {
  .cmp-grid { grid-template-columns: minmax(0, 1fr); }
  .cmp-panel { height: 45vh; }
}
.bd {
  display: inline-block; width: 0; height: 1.3em; vertical-align: -0.3em; margin: 0 1px;
}
.bd-here { border-left: 3px solid #7c3aed; }
.bd-there { border-left: 2px dashed #64748b; }
"""
)

_JS = """
// The top of a panel's text area, in viewport pixels.
function viewTop(box) {
  const style = getComputedStyle(box);
  return box.getBoundingClientRect().top + box.clientTop + parseFloat(style.paddingTop || "0");
}

function spansOf(box) { return box.querySelectorAll("[data-s]"); }

// Python counts code points; a JS string index counts UTF-16 units.
function codePoints(s) { let n = 0; for (const _ of s) { n += 1; } return n; }
function unitsFor(s, points) {
  let units = 0; let n = 0;
  for (const ch of s) { if (n >= points) { break; } units += ch.length; n += 1; }
  return units;
}

function charRect(node, k) {
  const range = document.createRange();
  range.setStart(node, k);
  range.setEnd(node, Math.min(k + 1, node.data.length));
  return range.getBoundingClientRect();
}

// The offset of the first character whose line reaches below the panel's top.
function topOffset(box) {
  const spans = spansOf(box);
  if (!spans.length) { return null; }
  const top = viewTop(box) + 1;
  let lo = 0; let hi = spans.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].getBoundingClientRect().bottom > top) { hi = mid; } else { lo = mid + 1; }
  }
  const span = spans[lo];
  const start = Number(span.dataset.s);
  const node = span.firstChild;
  if (!node || node.nodeType !== Node.TEXT_NODE || !node.data.length) { return start; }
  let a = 0; let b = node.data.length - 1;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (charRect(node, mid).bottom > top) { b = mid; } else { a = mid + 1; }
  }
  return start + codePoints(node.data.slice(0, a));
}

// Scroll ``box`` so that character ``offset`` is at its top; remember where, to ignore the echo.
function align(box, offset) {
  const spans = spansOf(box);
  if (!spans.length) { return; }
  let lo = 0; let hi = spans.length - 1;
  while (lo < hi) {  // the last span starting at or before offset
    const mid = (lo + hi + 1) >> 1;
    if (Number(spans[mid].dataset.s) <= offset) { lo = mid; } else { hi = mid - 1; }
  }
  const span = spans[lo];
  const node = span.firstChild;
  let rect = span.getClientRects()[0] || span.getBoundingClientRect();
  if (node && node.nodeType === Node.TEXT_NODE && node.data.length) {
    const k = Math.min(unitsFor(node.data, offset - Number(span.dataset.s)), node.data.length - 1);
    const r = charRect(node, k);
    if (r.height > 0) { rect = r; }
  }
  const before = box.scrollTop;
  box.scrollTop = Math.max(0, before + rect.top - viewTop(box));
  if (box.scrollTop !== before) { box._synced = box.scrollTop; }
}

function onScroll(grid, box) {
  if (box._synced !== undefined) {
    const expected = box._synced;
    box._synced = undefined;
    if (Math.abs(box.scrollTop - expected) <= 1) { return; }  // our own alignment
  }
  grid.dataset.leader = box.dataset.panel;
  if (grid._frame) { return; }
  grid._frame = requestAnimationFrame(() => {
    grid._frame = 0;
    const offset = topOffset(box);
    if (offset === null) { return; }
    grid.dataset.top = String(offset);
    grid.querySelectorAll(".cmp-panel").forEach((other) => {
      if (other !== box) { align(other, offset); }
    });
  });
}

function build(grid, n) {
  grid.innerHTML = "";
  grid.style.setProperty("--cmp-n", String(n));
  for (let i = 0; i < n; i += 1) {
    const col = document.createElement("div");
    col.className = "cmp-col";
    const caption = document.createElement("div");
    caption.className = "cmp-caption";
    const box = document.createElement("div");
    box.className = "hl-box cmp-panel";
    box.dataset.panel = String(i);
    box.setAttribute("data-testid", "chunkviz-compare-panel");
    box.tabIndex = 0;  // arrow keys and Page Down scroll a focused panel (and the others follow)
    box.addEventListener("scroll", () => onScroll(grid, box), { passive: true });
    col.append(caption, box);
    grid.append(col);
  }
}

export default function (component) {
  const { data, parentElement } = component;
  const grid = parentElement.querySelector(".cmp-grid");
  if (!grid || !data) { return; }
  const panels = data.panels;
  if (grid.children.length !== panels.length) { build(grid, panels.length); }
  const boxes = [...grid.querySelectorAll(".cmp-panel")];
  const changed = panels.some((p, i) => boxes[i].dataset.version !== p.version);
  if (!changed) { return; }
  const leader = boxes[Number(grid.dataset.leader || 0)] || boxes[0];
  const kept = leader && leader.dataset.version ? topOffset(leader) : null;
  panels.forEach((p, i) => {
    const caption = grid.children[i].querySelector(".cmp-caption");
    caption.textContent = p.caption;  // text, never markup
    caption.title = p.caption;
    boxes[i].setAttribute("aria-label", p.caption);
    if (boxes[i].dataset.version !== p.version) {
      // p.html comes from chunkviz.views.highlight.render_html: every piece of user text in it is
      // HTML-escaped on the server, so it holds only the markup chunkviz writes.
      boxes[i].innerHTML = p.html;
      boxes[i].dataset.version = p.version;
    }
  });
  // The reader's place survives new markup when it is still on the shown part of the text.
  const keep = kept !== null && kept >= data.start && kept < data.end;
  boxes.forEach((box) => { if (keep) { align(box, kept); } else { box.scrollTop = 0; } });
}
"""


@lru_cache(maxsize=1)
def _component() -> Any:
    return st.components.v2.component("chunkviz.compare", html=_HTML, css=_CSS, js=_JS)


def _version(markup: str) -> str:
    return f"{len(markup)}:{hash(markup) & 0xFFFFFFFF:x}"


def compare_view(panels: Sequence[Panel], *, start: int, end: int, key: str) -> None:
    """Mount the panels side by side; they show characters ``start`` to ``end`` of the text."""
    data = {
        "start": start,
        "end": end,
        "panels": [
            {"caption": p.caption, "html": p.markup, "version": _version(p.markup)} for p in panels
        ],
    }
    _component()(key=key, data=data)
