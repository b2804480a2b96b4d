"""What the AppTest files share: the session's app state, seen from a test.

A page run alone (``AppTest.from_file("pages/x.py")``) has no sidebar; the language and the
backend are set in the app state, which is what the sidebar's widgets write.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from chunkviz.ui.state import STATE_KEY, AppState

ROOT = Path(__file__).resolve().parents[2]
#: The AppTest element kinds whose labels a reader sees (the language tests read them all).
WIDGETS = (
    "slider",
    "selectbox",
    "radio",
    "text_input",
    "number_input",
    "checkbox",
    "toggle",
    "text_area",
    "multiselect",
    "button",
    "tabs",
    "expander",
    "metric",
)


def page(
    name: str, *, timeout: int = 120, query: dict[str, str] | None = None, **state: Any
) -> AppTest:
    """``pages/<name>`` with an app state made of ``state`` (none: the page creates it), run."""
    at = AppTest.from_file(str(ROOT / "pages" / name), default_timeout=timeout)
    if query:
        at.query_params.update(query)
    if state:
        at.session_state[STATE_KEY] = AppState(**state)
    return at.run()


def app_state(at: AppTest) -> AppState:
    """The session's app state (the object the pages read and write)."""
    state = at.session_state[STATE_KEY]
    assert isinstance(state, AppState)
    return state


def set_lang(at: AppTest, lang: str) -> AppTest:
    """Switch the UI language as the sidebar does, and rerun."""
    app_state(at).lang = lang  # type: ignore[assignment]
    return at.run()


def metric(at: AppTest, label: str) -> str:
    """The value of the first metric called ``label``."""
    return next(m.value for m in at.metric if m.label == label)


def component_data(at: AppTest, key: str) -> dict[str, Any]:
    """The ``data`` a page passed to the ``st.components.v2`` component mounted with ``key``."""
    import json

    for element in at.get("bidi_component"):
        if element.proto.id.endswith(f"-{key}"):
            data = json.loads(element.proto.json)
            assert isinstance(data, dict)
            return data
    raise LookupError(f"no component with key {key!r}")


def open_tab(at: AppTest, key: str, label: str) -> AppTest:
    """Open the lazy tab labelled ``label`` of the tabs under ``key`` and rerun (issue 39)."""
    at.session_state[key] = label
    at.run()
    assert not at.exception
    return at


def bench_tab(at: AppTest, name: str) -> AppTest:
    """Open the Benchmark page's tab ``name`` (an id of ``sections.TABS``), in English."""
    from chunkviz.ui.benchmark.sections import TABS
    from chunkviz.ui.i18n import tr

    assert name in TABS
    return open_tab(at, "bench_tab", tr(f"benchmark.tab_{name}", lang="en"))
