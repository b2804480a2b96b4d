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
    state: AppState,
    *,
    prefix: str,
    heading: str | None = None,
    key: str | None = None,
    stop: bool = True,
) -> Document:
    """The document expander (``document.heading`` unless ``heading``); stop if it is empty.

    Args:
        state: The app state whose document the picker shows and sets.
        prefix: The page's widget key prefix (``explore_``).
        heading: The expander's label.
        key: The expander's widget key.
        stop: Stop the page's run at an empty document. A page whose configuration widgets
            come after the document passes False and calls ``empty_notice`` after them:
            Streamlit forgets a widget that a full run does not draw, and the browser then
            sends it back at its first option (Explore's strategy came back as ``code`` after
            the empty paste box of "Paste text").

    Returns:
        The document; with ``stop``, never empty: for an empty one the page says so and its
        run stops here.
    """
    with st.expander(heading or tr("document.heading"), key=key):
        document = document_picker(state, prefix=prefix)
    if stop and empty_notice(document):
        st.stop()
    return document


def empty_notice(document: Document) -> bool:
    """Whether ``document`` is empty (``is_empty``); if so the page says so where it stands."""
    if not is_empty(document.text):
        return False
    st.info(tr("document.empty"))
    return True
