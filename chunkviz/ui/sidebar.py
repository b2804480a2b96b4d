"""The sidebar every page shares: UI language (and, later, the active backend)."""

from __future__ import annotations

import streamlit as st

from chunkviz.ui.i18n import LANGUAGES, tr

_T = {
    "en": {"language": "Language / 言語"},
    "ja": {"language": "言語 / Language"},
}


def render_sidebar() -> None:
    """Draw the shared controls; their values live in ``st.session_state``."""
    with st.sidebar:
        st.radio(
            tr(_T, "language"),
            options=list(LANGUAGES),
            format_func=LANGUAGES.__getitem__,
            key="lang",
            horizontal=True,
        )
