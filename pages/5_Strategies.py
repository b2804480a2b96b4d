"""Strategies: the pictures behind semantic, perplexity and parent-child splitting."""

from __future__ import annotations

import streamlit as st

from chunkviz.ui.i18n import tr
from chunkviz.ui.page_start import page_document
from chunkviz.ui.state import app_state
from chunkviz.ui.strategies import view

state = app_state()

st.title(tr("strategies.title"))
st.caption(tr("strategies.intro"))
document = page_document(state, prefix="strategies_")

view.current_chunks(state, document)
# Only the open tab runs: parent-child ranks every child chunk with the active backend.
view.section_tabs(state, document)
