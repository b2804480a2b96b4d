"""The UI language of this session and the catalogue lookup in it (``chunkviz.text``)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from chunkviz.text import DEFAULT_LANG, Lang, text
from chunkviz.ui.state import STATE_KEY


def current_lang() -> Lang:
    """The language of the session's app state (English before the state exists)."""
    state = st.session_state.get(STATE_KEY)
    return DEFAULT_LANG if state is None else state.lang


def tr(key: str, **fields: Any) -> str:
    """The catalogue text of ``key`` in the session's language, formatted with ``fields``."""
    return text(current_lang(), key, **fields)
