"""The sidebar, drawn once by the entrypoint for every page: the UI language and the backend."""

from __future__ import annotations

import streamlit as st

from chunkviz.text import LANGUAGES, as_lang
from chunkviz.ui.chrome import app_css
from chunkviz.ui.i18n import tr
from chunkviz.ui.narrow import fold_sidebar_when_narrow
from chunkviz.ui.pickers import backend_picker
from chunkviz.ui.state import STATE_KEY, AppState, bind, publish_link

LANG_KEY = "lang"


def _on_lang() -> None:
    # A callback runs before the script: the whole run, sidebar included, is in the new language.
    # (The state exists: the radio was drawn by a run that created it.)
    state = st.session_state[STATE_KEY]
    state.lang = as_lang(st.session_state[LANG_KEY])


def render_sidebar(state: AppState) -> None:
    """Draw the shared controls; their values live in the app state."""
    bind(LANG_KEY, state.lang)
    with st.sidebar:
        st.radio(
            tr("sidebar.language", lang=state.lang),
            options=list(LANGUAGES),
            format_func=LANGUAGES.__getitem__,
            key=LANG_KEY,
            horizontal=True,
            on_change=_on_lang,
            help=tr("sidebar.language_help", lang=state.lang),
        )
        backend_picker(state)
        fold_sidebar_when_narrow()
        app_css()
    publish_link(state)
