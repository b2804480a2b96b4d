"""The one way pages and ``chunkviz.ui`` translate: ``tr(key, **fields)``.

``tr`` looks ``key`` up in the catalogues (``chunkviz/text/en.toml``, ``ja.toml``) in the
session's language. Code given a language, or run outside a script run (a ``format_func`` that
AppTest calls after the run, a figure built from values), binds it: ``tr(key, lang=lang)``.
The core (``chunkviz.views``, ``chunkviz.eval``) has no session and calls ``chunkviz.text.text``.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from chunkviz.text import DEFAULT_LANG, Lang, text
from chunkviz.ui.state import STATE_KEY


def current_lang() -> Lang:
    """The language of the session's app state (English before the state exists)."""
    state = st.session_state.get(STATE_KEY)
    return DEFAULT_LANG if state is None else state.lang


def tr(key: str, *, lang: Lang | None = None, **fields: Any) -> str:
    """The catalogue text of ``key`` in ``lang`` (the session's by default), with ``fields``."""
    return text(current_lang() if lang is None else lang, key, **fields)
