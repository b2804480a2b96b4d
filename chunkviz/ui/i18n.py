"""UI language: each page keeps its own ``{"en": {...}, "ja": {...}}`` table and calls ``tr``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

LANGUAGES = {"en": "English", "ja": "日本語"}

Table = Mapping[str, Mapping[str, str]]


def current_lang() -> str:
    """The language chosen in the sidebar (``en`` or ``ja``)."""
    lang = st.session_state.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


def tr(table: Table, key: str, **fmt: Any) -> str:
    """``table[lang][key]`` formatted with ``fmt``; English when the translation is missing."""
    lang = current_lang()
    text = table.get(lang, {}).get(key) or table["en"][key]
    return text.format(**fmt) if fmt else text
