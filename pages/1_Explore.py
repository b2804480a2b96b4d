"""Explore: where a strategy cuts a document, which answers it breaks, and what it costs."""

from __future__ import annotations

import streamlit as st

from chunkviz.ui.explore.layout import EXPLORE_CSS, document_heading
from chunkviz.ui.explore.lesson import configured, link_warnings
from chunkviz.ui.i18n import tr
from chunkviz.ui.import_view import chunks_importer
from chunkviz.ui.page_start import page_document
from chunkviz.ui.state import app_state

state = app_state()

st.html(EXPLORE_CSS)
st.title(tr("explore.title"))
st.caption(tr("explore.intro"))
link_warnings(state)

# The lesson on one screen: settings and numbers on the left, the document beside them (a phone
# stacks them: numbers first, the highlight one swipe below). Further views go in the tabs below.
settings, view = st.columns([5, 7], gap="medium")
with settings:
    # The configuration is drawn even for an empty document, so its widgets keep their values.
    document = page_document(
        state,
        prefix="explore_",
        heading=document_heading(state),
        key="explore_document",
        stop=False,
    )
    with st.expander(tr("import.heading")):
        chunks_importer(state, prefix="explore_")

# Everything the configuration decides, in a fragment: a slider move reruns it alone.
configured(state, document, settings, view)
