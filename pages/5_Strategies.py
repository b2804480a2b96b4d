"""Strategies: the pictures behind semantic, perplexity and parent-child splitting."""

from __future__ import annotations

import streamlit as st

from chunkviz.ui.guard import show_error
from chunkviz.ui.i18n import tr
from chunkviz.ui.lazy import lazy_tabs
from chunkviz.ui.pickers import document_picker
from chunkviz.ui.resources import chunk_cached
from chunkviz.ui.state import app_state
from chunkviz.ui.strategies import view
from chunkviz.views.compare import config_text
from chunkviz.views.markup import escape_markdown

state = app_state()

st.title(tr("strategies.title"))
st.caption(tr("strategies.intro"))
with st.expander(tr("document.heading")):
    document = document_picker(state, prefix="strategies_")
if not document.text.strip():
    st.info(tr("document.empty"))
    st.stop()

strategy, params = state.configuration()
try:
    current = chunk_cached(document, strategy, params, state.backend, state.imported)
except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
    show_error(exc)
else:
    st.metric(tr("strategies.chunks_current"), f"{len(current.chunks):,}",
              help=tr("strategies.chunks_current_help",
                      label=escape_markdown(config_text(state.lang, strategy, params))))

# Only the open tab runs: parent-child ranks every child chunk with the active backend.
for name, tab in lazy_tabs({name: tr(f"strategies.tab_{name}") for name in view.SECTIONS},
                           "strategies_tab"):
    with tab:
        view.SECTIONS[name](state, document)
