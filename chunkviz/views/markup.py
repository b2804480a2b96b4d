"""The one escaping helper: user-derived text made inert before it reaches Markdown or HTML.

The pages render Markdown (links, images, ``:color[...]`` directives, LaTeX between ``$``) in
their texts, captions, notices and table cells; a document's name, a share link's
value or a results-file field that reaches one of them unescaped can become a working link or an
image the browser fetches. Every such string goes through ``escape_markdown``; HTML built by
chunkviz (the highlight view) goes through ``escape_html``.
"""

from __future__ import annotations

import html
import re

from chunkviz.textio import BIDI_CONTROLS, neutral_bidi

# Characters that start markup anywhere in a line: emphasis, code, links and images (``[``, ``!``),
# raw HTML, table cells, strike-through, headings, LaTeX (``$``) and ``:color[...]`` directives.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]#!|<>~$:])")
# What starts a block only at the start of a line: a list item, a setext underline, a numbered item.
_BLOCK_START = re.compile(r"^(\s*\d*)([-+=.)])")
# GFM links bare URLs and e-mail addresses after escapes are resolved (a find-and-replace on
# the rendered text: "https\\://evil.example" still became a link in the browser). A word
# joiner (U+2060, invisible, no width) after the scheme, "www" or the "@" of an address
# ("@" before a dotted domain: "nDCG@10" or "Recall@5" is no address and stays as typed).
_AUTOLINK = re.compile(r"(?i)(\b(?:https?|ftp|mailto|xmpp|www)(?=\\?[:.])|@(?=[\w-]+\.\w))")
WORD_JOINER = "\u2060"
# What ``escape_html`` changes: most of a Japanese page holds none of it, and one search is
# cheaper than five replacements (the highlight view escapes every segment of a page).
_HTML_UNSAFE = re.compile(f"[&<>\"'{BIDI_CONTROLS}]")


def escape_markdown(text: str) -> str:
    """``text`` with every Markdown-special character backslash-escaped (shown literally).

    Line ends become spaces, so a value cannot start a heading, a list or a table row of its own.
    Bidi controls are shown as their codes (``<U+202E>``), never obeyed.
    Bare URLs and e-mail addresses get an invisible word joiner (``WORD_JOINER``) so that GFM
    does not turn them into links.
    """
    flat = neutral_bidi(text).replace("\r\n", " ").replace("\r", " ").replace("\n", " ")
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", flat)
    unlinked = _AUTOLINK.sub(lambda m: m.group(0) + WORD_JOINER, escaped)
    return _BLOCK_START.sub(r"\1\\\2", unlinked)


def needs_escape(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether ``escape_html`` would change ``text[start:end]`` (searched in place, no copy)."""
    return _HTML_UNSAFE.search(text, start, len(text) if end is None else end) is not None


def escape_html(text: str) -> str:
    """``text`` escaped for HTML element content and attribute values (quotes included).

    Bidi controls (U+202E and its kin) are shown as their codes: obeyed, they reverse the
    title and text around them (a file name that reads as another).
    """
    if not _HTML_UNSAFE.search(text):
        return text
    return html.escape(neutral_bidi(text), quote=True)
