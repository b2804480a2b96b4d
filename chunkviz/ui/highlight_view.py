"""The highlight view as an ``st.components.v2`` component: inline HTML/CSS/JS, no iframe.

The markup comes from ``chunkviz.views.highlight.render_html``, which escapes every piece of
document text; the JavaScript only places that markup in the component's shadow root, keeps the
reader's place and scrolls the view's own box when asked.

The reader's place is kept on the client: when the reader (or a jump) scrolls the box, the script
notes the character at the top of the box (the ``data-s`` of the first visible text span plus the
position inside it, in code points as Python counts them) and how far below the top it sits;
after new markup replaces the old, it finds the span that now holds that character and scrolls it
back to the same height. The place is not re-read after that restoring scroll, so a run of
reruns keeps the reader's own character at the top instead of drifting to the line's start.
Offsets do not change with the configuration, so the same character stays at the top whatever
the chunks are. A new page (its first ``data-s`` differs) starts at the top.

A jump (``scroll_to`` a chunk badge, ``focus`` a character) is applied once per request: the page
bumps ``request`` to jump again to the same place; a later rerun keeps the reader's place.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import streamlit as st

from chunkviz.document import Document
from chunkviz.model import ChunkingResult
from chunkviz.text import Lang
from chunkviz.ui.i18n import tr
from chunkviz.ui.pickers import document_label
from chunkviz.views.explore import QAResult, qa_marks
from chunkviz.views.highlight import STYLE, legend_html
from chunkviz.views.standalone import standalone_filename, standalone_html

# The legend goes under the box: the text (and its red answer) comes first on a short screen.
_HTML = (
    '<div class="hl-box" data-testid="chunkviz-highlight"></div><div class="hl-legend-slot"></div>'
)

_JS = """
function textSpans(box) { return box.querySelectorAll("[data-s]"); }

// The index of the first item for which pred holds (pred is false, then true, along the list).
function firstTrue(n, pred) {
  let lo = 0, hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pred(mid)) { hi = mid; } else { lo = mid + 1; }
  }
  return lo;
}

function charRect(node, i) {
  const range = document.createRange();
  range.setStart(node, i);
  range.setEnd(node, Math.min(i + 1, node.length));
  const rect = range.getBoundingClientRect();
  // A line break can have an empty box (all zeros): measure its span instead.
  return rect.height > 0 ? rect : node.parentElement.getBoundingClientRect();
}

// Python offsets count code points; JavaScript strings count UTF-16 units.
function codePoints(s) { let n = 0; for (const _ of s) { n += 1; } return n; }
function unitsFor(s, points) {
  let units = 0, n = 0;
  for (const ch of s) { if (n >= points) { break; } units += ch.length; n += 1; }
  return units;
}

function readingPlace(box) {
  const spans = textSpans(box);
  if (!spans.length) { return null; }
  const top = box.getBoundingClientRect().top + box.clientTop;
  const k = firstTrue(spans.length, (i) => spans[i].getBoundingClientRect().bottom > top + 1);
  if (k >= spans.length) { return null; }
  const span = spans[k];
  const node = span.firstChild;
  let units = 0;
  if (node && node.nodeType === Node.TEXT_NODE && node.length > 1) {
    units = Math.min(node.length - 1,
                     firstTrue(node.length, (i) => charRect(node, i).bottom > top + 1));
  }
  const rect = node && node.length ? charRect(node, units) : span.getBoundingClientRect();
  const offset = Number(span.dataset.s) + (node ? codePoints(node.data.slice(0, units)) : 0);
  return { first: spans[0].dataset.s, offset: offset, dy: rect.top - top };
}

// The span holding character `offset` and the UTF-16 index of the character inside it.
function locate(box, offset) {
  const spans = textSpans(box);
  if (!spans.length) { return null; }
  const k = firstTrue(spans.length, (i) => Number(spans[i].dataset.s) > offset) - 1;
  if (k < 0) { return null; }
  const span = spans[k];
  const node = span.firstChild;
  const inside = node && node.nodeType === Node.TEXT_NODE
    ? Math.min(unitsFor(node.data, offset - Number(span.dataset.s)), Math.max(node.length - 1, 0))
    : 0;
  return { span: span, node: node, index: inside };
}

function restore(box, place) {
  const spans = textSpans(box);
  if (!place || !spans.length || spans[0].dataset.s !== place.first) { return false; }
  const found = locate(box, place.offset);
  if (!found) { return false; }
  const top = box.getBoundingClientRect().top + box.clientTop;
  const rect = found.node && found.node.length ? charRect(found.node, found.index)
                                               : found.span.getBoundingClientRect();
  box.scrollTop += rect.top - top - place.dy;
  return true;
}

// Restore `place` and remember the scroll position it gave: the scroll event that follows is
// ours, so it must not re-read the place. Re-reading after every rerun let the anchor drift to
// the first character of the top line, a few characters earlier each time, until the reader's
// character wrapped onto the next line.
function keepPlace(box, place) {
  if (!restore(box, place)) { return false; }
  box.__restored = box.scrollTop;
  return true;
}

function bringIntoView(box, element) {
  const boxRect = box.getBoundingClientRect();
  const rect = element.getBoundingClientRect();
  box.scrollTop = Math.max(0, box.scrollTop + rect.top - boxRect.top - box.clientHeight / 3);
}

// A jump asked for from elsewhere on the page (a QA row, the chunk table below the view) must
// also bring the page itself to the place: scrolling the box alone shows nothing when the box
// is off screen. Only when the place is out of the window (the page's own header covers its top
// edge, so "nearest" would hide it there): then it goes to the middle.
function bringPageTo(element) {
  const rect = element.getBoundingClientRect();
  if (rect.top < 80 || rect.bottom > window.innerHeight) {
    element.scrollIntoView({ block: "center", inline: "nearest" });
  }
}

export default function (component) {
  const { data, parentElement } = component;
  const box = parentElement.querySelector(".hl-box");
  const legend = parentElement.querySelector(".hl-legend-slot");
  if (!box || !data) { return; }
  if (legend && legend.dataset.version !== String(data.legend_version)) {
    // data.legend is chunkviz.views.highlight.legend_html: catalogue text, escaped.
    legend.innerHTML = data.legend || "";
    legend.dataset.version = String(data.legend_version);
  }
  if (!box.dataset.watched) {
    // The reader's place (box.__place) is read when the reader (or a jump) scrolls, never after
    // our own restoring scroll; it survives a change of width (a sidebar folding, a rotated
    // phone: the text reflows, so the same scrollTop would show other lines) and new markup.
    // A sidebar folds with a transition, so the width changes over several frames.
    box.dataset.watched = "1";
    let width = box.clientWidth;
    box.addEventListener("scroll", () => {
      // Ours, or the browser's own on a reflow the ResizeObserver is about to restore (scroll
      // anchoring moves scrollTop while a sidebar folds): the reader's place stays.
      if (box.scrollTop === box.__restored || box.clientWidth !== width) { return; }
      box.__restored = undefined;
      box.__place = readingPlace(box);
    }, { passive: true });
    new ResizeObserver(() => {
      if (!box.__place || box.clientWidth === width) { return; }
      width = box.clientWidth;
      keepPlace(box, box.__place);
    }).observe(box);
  }
  const request = JSON.stringify([data.scroll_to, data.focus, data.request]);
  const fresh = box.dataset.request !== request;
  const asked = (data.scroll_to !== null && data.scroll_to !== undefined)
    || (data.focus !== null && data.focus !== undefined);
  if (box.dataset.version !== String(data.version)) {
    // Another document (data.text_id) starts at the top; the same one keeps the reader's place.
    const same = box.dataset.version && box.dataset.textId === String(data.text_id);
    const place = same ? (box.__place || readingPlace(box)) : null;
    box.dataset.textId = String(data.text_id);
    // data.html is built by chunkviz.views.highlight.render_html: every piece of user text in it is
    // HTML-escaped on the server, so it contains only the markup chunkviz writes.
    box.innerHTML = data.html;
    box.dataset.version = String(data.version);
    if (!keepPlace(box, place)) {
      // Another page or document: the place read from now on is the new one's.
      box.__place = null;
      box.__restored = undefined;
      box.scrollTop = 0;
      // A fresh view leads with the lesson: the first answer no chunk holds whole (red).
      const first = data.lead ? box.querySelector(".broken") : null;
      if (first && !(fresh && asked)) { bringIntoView(box, first); }
    }
  }
  box.dataset.request = request;
  box.querySelectorAll(".cn.target").forEach((el) => el.classList.remove("target"));
  box.querySelectorAll(".focus").forEach((el) => el.classList.remove("focus"));
  if (data.scroll_to !== null && data.scroll_to !== undefined) {
    const badge = box.querySelector("#chunk-" + data.scroll_to);
    if (badge) {
      badge.classList.add("target");
      if (fresh && (data.focus === null || data.focus === undefined)) {
        bringIntoView(box, badge);
        if (data.request) { bringPageTo(badge); }
      }
    }
  }
  if (data.focus !== null && data.focus !== undefined) {
    const found = locate(box, data.focus);
    if (found) {
      found.span.classList.add("focus");
      if (fresh) {
        bringIntoView(box, found.span);
        if (data.request) { bringPageTo(found.span); }
      }
    }
  }
}
"""


@lru_cache(maxsize=1)
def _component() -> Any:
    return st.components.v2.component("chunkviz.highlight", html=_HTML, css=STYLE, js=_JS)


def text_key(text: str) -> str:
    """A cheap name for a text (``str`` caches its hash), for ``highlight_view(text_id=...)``."""
    return f"{len(text)}:{hash(text) & 0xFFFFFFFF:x}"


def highlight_view(
    markup: str,
    *,
    scroll_to: int | None,
    key: str,
    focus: int | None = None,
    request: int = 0,
    legend: Lang | None = None,
    parents: bool = False,
    text_id: str = "",
    lead: bool = False,
    key_phrases: bool = False,
) -> None:
    """Mount the view with ``markup`` (escaped HTML from ``render_html``).

    Args:
        markup: ``render_html``'s output for the page shown.
        scroll_to: A chunk whose badge is highlighted and, on a new request, scrolled to.
        key: The component's widget key.
        focus: A character offset to highlight and, on a new request, scroll to (it wins over
            ``scroll_to`` for the scrolling).
        request: Bump it to scroll again to the same ``scroll_to``/``focus``; otherwise a rerun
            keeps the reader's place.
        legend: Draw the legend under the view in this language (None: no legend).
        parents: The legend explains the parent marks too.
        text_id: Names the text shown (``text_key``): when it changes the view starts at the top
            instead of keeping the reader's place.
        lead: A view that starts afresh (a new text, a cold open) opens at the first broken
            answer instead of the top, so the lesson is on the first screen.
        key_phrases: The red marks are cut key phrases, not answers (the legend says so).
    """
    legend_markup = (
        legend_html(legend, parents=parents, key_phrases=key_phrases) if legend is not None else ""
    )
    _component()(
        key=key,
        data={
            "html": markup,
            "version": text_key(markup),
            "scroll_to": scroll_to,
            "focus": focus,
            "request": request,
            "legend": legend_markup,
            "legend_version": text_key(legend_markup),
            "text_id": text_id,
            "lead": lead,
        },
    )


def save_view_button(
    document: Document,
    result: ChunkingResult,
    qa: Sequence[QAResult],
    *,
    lang: Lang,
    key: str,
) -> None:
    """A download button for the whole highlighted document as one standalone HTML file.

    The file, and the answer marks of the whole text (``qa_marks``), are built only when the
    button is pressed (a callable), so a rerun after a slider move pays for neither.
    """
    name = document_label(lang, document)

    def build() -> str:
        return standalone_html(result, qa_marks(qa, result), qa, name=name, lang=lang)

    st.download_button(
        tr("highlight.save_html", lang=lang),
        build,
        standalone_filename(name, result.strategy),
        "text/html",
        key=key,
        help=tr("highlight.save_help", lang=lang),
    )
