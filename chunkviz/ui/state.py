"""Session state shared by every page, initialised once with ``setdefault``."""

from __future__ import annotations

import copy

import streamlit as st

DEFAULTS: dict[str, object] = {
    "lang": "en",
    "backend": "bm25",
    "doc_name": "",
    "doc_text": "",
    "qa_pairs": [],
    "explore_strategy": "fixed",
    "explore_params": {},
}


def init_session() -> None:
    """Give every shared key its default; each page calls this first (pages open directly)."""
    for key, value in DEFAULTS.items():
        # Copies, so that no session ever mutates the module's defaults.
        st.session_state.setdefault(key, copy.deepcopy(value))
