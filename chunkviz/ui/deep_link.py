"""The one private Streamlit API in chunkviz: a first deep link runs under ``st.navigation``.

NOTE: Streamlit starts an app whose entrypoint has a ``pages/`` folder beside it in its legacy
multipage mode (``PagesManager.uses_pages_directory``). In that mode a URL such as ``/Explore``
runs the page file alone (no sidebar, English titles, a home page called "app"), and the app
leaves the mode only when a session's entrypoint calls ``st.navigation``, which a shared link
opened on a fresh server never reaches. Streamlit documents the switch ("as soon as any session
of your app executes the st.navigation command, your app will ignore the pages/ directory") and
offers no public way to make it before the first run; its advice is to name the folder anything
but ``pages/``, which the project's layout keeps. Upstream: streamlit/streamlit#10276 (review of
"Default to MPAv2": with a ``pages`` folder, a direct URL gives "Page not found" or falls back
to the old mode) and streamlit/streamlit#9624 (deep links on first load).

``tests/app/test_deep_link.py`` pins both halves: Streamlit still starts such an app in the old
mode (when that fails, Streamlit changed: drop this module), and with this switch a first deep
link runs its page under the entrypoint.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def leave_pages_directory_mode() -> None:
    """Leave the legacy ``pages/`` mode on a server's first run, and rerun the entrypoint.

    The rerun runs ``app.py``, whose ``st.navigation`` resolves the same page: a page's
    identity is its URL path in both modes.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
