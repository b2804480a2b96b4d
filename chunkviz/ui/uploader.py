"""``st.file_uploader`` with its button and its limits line in the reader's language.

Streamlit 1.67 lets a page word an uploader's label and help, but its frontend writes the rest
in English: the button ("Upload"), the limits line ("64MB per file • TXT, PDF") and, while a
file is dragged over it, "Drag and drop a file here". The first two are replaced here by CSS
(the page's text hidden, the catalogue's text drawn in its place), for this uploader only
(its ``st-key-<key>`` class); the drag message has no selector of its own and stays English
(``docs/reference.md``). The selectors are ``chunkviz.ui.dom``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from chunkviz.text import Lang
from chunkviz.ui.dom import KEYED, UPLOADER_BUTTON_TEXT, UPLOADER_INSTRUCTIONS, UPLOADER_LIMITS
from chunkviz.ui.i18n import tr


def css_string(value: str) -> str:
    """``value`` as a quoted CSS string: backslashes, quotes and line breaks escaped."""
    out = value.replace("\\", "\\\\").replace('"', '\\"')
    out = out.replace("\n", "\\a ").replace("<", "\\3c ").replace(">", "\\3e ")
    return f'"{out}"'


def uploader_css(key: str, types: Sequence[str], lang: Lang, size_mb: int) -> str:
    """The style that words uploader ``key``'s button and limits line in ``lang``.

    ``types`` are the accepted extensions, shown as Streamlit shows them (upper case, no dot);
    ``size_mb`` is ``server.maxUploadSize``.
    """
    shown = ", ".join(t.lstrip(".").upper() for t in types)
    button = css_string(tr("document.uploader_button", lang=lang))
    limits = css_string(tr("document.uploader_limits", size=size_mb, types=shown, lang=lang))
    scope = f"{KEYED}{key}"
    return (
        f"<style>{scope} {UPLOADER_BUTTON_TEXT}, {scope} {UPLOADER_LIMITS} "
        "{ font-size: 0; }"
        f"{scope} {UPLOADER_BUTTON_TEXT}::after {{ content: {button}; font-size: 1rem; }}"
        f"{scope} {UPLOADER_LIMITS}::after {{ content: {limits}; font-size: 0.875rem; }}"
        # The line wraps in a narrow column rather than being cut at the box's edge.
        f"{scope} {UPLOADER_INSTRUCTIONS}, {scope} {UPLOADER_INSTRUCTIONS} * "
        "{ white-space: normal; overflow: visible; text-overflow: clip; }"
        "</style>"
    )


def file_uploader(label: str, *, types: Sequence[str], key: str, lang: Lang, **kwargs: Any) -> Any:
    """``st.file_uploader(label, type=types, key=key, ...)`` worded in ``lang`` throughout."""
    size = int(st.get_option("server.maxUploadSize"))
    st.html(uploader_css(key, types, lang, size))
    return st.file_uploader(label, type=list(types), key=key, **kwargs)
