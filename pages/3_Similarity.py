"""Similarity: drag a query and watch dot product, cosine and L2 disagree (seed 003's lesson)."""

from __future__ import annotations

import streamlit as st

from chunkviz.ui.i18n import tr
from chunkviz.ui.similarity import view
from chunkviz.ui.similarity.sections import plane_section, real_section
from chunkviz.ui.state import app_state

state = app_state()
view.init_plane()

st.title(tr("similarity.title"))
st.markdown(tr("similarity.intro"))

# --- the plane: dragging the query reruns this section only, not the embeddings below ---------
plane_section(state)
# --- real embeddings ---------------------------------------------------------------------------
real_section(state)
