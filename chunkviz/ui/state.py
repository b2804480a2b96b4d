"""Session state shared by every page, initialised once with ``setdefault``."""

from __future__ import annotations

import streamlit as st

DEFAULTS: dict[str, object] = {
    "lang": "en",
}


def init_session() -> None:
    """Give every shared key its default; each page calls this first (pages open directly)."""
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)
