"""The deep-link workaround (chunkviz.ui.deep_link) and the Streamlit behaviour it answers.

Upstream: streamlit/streamlit#10276 and #9624. When Streamlit stops starting an app beside a
``pages/`` folder in its legacy mode, the first and third tests fail: the workaround can go.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from chunkviz.ui import state

ROOT = Path(__file__).resolve().parents[2]


def _first_run_on(page: str) -> AppTest:
    # Before the first run AppTest names the page by its file, as a shared link does.
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.switch_page(page)
    return at.run()


def test_streamlit_starts_an_app_beside_pages_in_the_legacy_mode():
    before = PagesManager.uses_pages_directory
    try:
        PagesManager.uses_pages_directory = None
        PagesManager(str(ROOT / "app.py"))
        assert PagesManager.uses_pages_directory is True, (
            "Streamlit no longer starts an app with a pages/ folder in its legacy mode: "
            "remove chunkviz.ui.deep_link"
        )
    finally:
        PagesManager.uses_pages_directory = before


def test_a_first_deep_link_runs_its_page_under_the_entrypoint():
    at = _first_run_on("pages/1_Explore.py")
    assert not at.exception
    assert [t.value for t in at.title] == ["Explore"]
    assert at.sidebar.radio(key="lang").value == "en"  # the entrypoint's sidebar is drawn


def test_without_the_switch_a_first_deep_link_runs_the_page_alone(monkeypatch):
    monkeypatch.setattr(state, "leave_pages_directory_mode", lambda: None)
    at = _first_run_on("pages/1_Explore.py")
    assert not at.exception
    assert [t.value for t in at.title] == ["Explore"]
    with pytest.raises(KeyError):
        at.sidebar.radio(key="lang")  # no entrypoint, no sidebar: the reason for the switch
