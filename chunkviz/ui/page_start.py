"""A page's start: the document expander, and the page stops there while the document is empty.

Explore, Compare, Similarity, Strategies and Tune start the same way. One emptiness rule serves
them all: a document is empty when its text holds nothing but whitespace (``str.strip``, which
also takes line breaks and the ideographic space U+3000). Such a text has nothing to cut and no
answer to find: ``paragraph``, ``sentence`` and ``markdown`` return no chunk for it while
``fixed`` and ``recursive`` return one chunk of blanks, so a page that tested only ``not text``
(Explore did) drew a lone blank chunk and its numbers where every other page said the document
was empty.
"""

from __future__ import annotations

import streamlit as st

from chunkviz.document import Document
from chunkviz.ui.i18n import tr
from chunkviz.ui.pickers import document_picker
from chunkviz.ui.state import AppState


def is_empty(text: str) -> bool:
    """The one emptiness rule: nothing but whitespace (see the module docstring)."""
    return not text.strip()


def page_document(
    state: AppState, *, prefix: str, heading: str | None = None, key: str | None = None
) -> Document:
    """The document expander (``document.heading`` unless ``heading``); stop if it is empty.

    Args:
        state: The app state whose document the picker shows and sets.
        prefix: The page's widget key prefix (``explore_``).
        heading: The expander's label.
        key: The expander's widget key.

    Returns:
        The document, never empty: for an empty one the page says so and its run stops here
        (inside a fragment, the fragment's run).
    """
    with st.expander(heading or tr("document.heading"), key=key):
        document = document_picker(state, prefix=prefix)
    if is_empty(document.text):
        st.info(tr("document.empty"))
        st.stop()
    return document
