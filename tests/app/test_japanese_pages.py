"""In Japanese, no page shows a catalogue string in English (labels, options, text, tabs)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from chunkviz.text import catalogue
from chunkviz.ui.state import STATE_KEY, AppState
from tests.app.helpers import ROOT

PAGES = ["app.py", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))]
WIDGETS = ("slider", "selectbox", "radio", "text_input", "number_input", "checkbox", "toggle",
           "text_area", "multiselect", "button", "tabs", "expander", "metric")
TEXTS = ("title", "header", "subheader", "markdown", "caption", "info", "warning", "success")


def _english() -> tuple[set[str], list[str]]:
    """English catalogue strings that Japanese says differently: whole texts and long pieces."""
    en, ja = catalogue("en"), catalogue("ja")
    whole, pieces = set(), []
    for key, value in en.items():
        if value == ja[key]:
            continue
        for part in re.split(r"\{[^}]*\}", value):
            part = part.strip(" .:()—-")
            if len(part) >= 4 and not part.isdigit():
                whole.add(part)
                if len(part) >= 16:
                    pieces.append(part)
    return whole, pieces


def _shown(at: AppTest) -> Iterator[str]:
    for kind in TEXTS:
        for el in at.get(kind):
            yield str(el.value)
    for kind in WIDGETS:
        for el in getattr(at, kind):
            yield str(el.label)
            yield from (str(o) for o in getattr(el, "options", ()) or ())
    for frame in at.dataframe:
        yield from (str(c) for c in frame.value.columns)


@pytest.mark.parametrize("path", PAGES)
def test_no_english_catalogue_text_on_a_japanese_page(path):
    at = AppTest.from_file(str(ROOT / path), default_timeout=180)
    at.session_state[STATE_KEY] = AppState(lang="ja")
    at.run()
    assert not at.exception
    whole, pieces = _english()
    shown = [s for s in _shown(at) if s]
    assert len(shown) > 10
    leaks = sorted({s for s in shown if s.strip(" .:()—-*") in whole}
                   | {p for s in shown for p in pieces if p in s})
    assert leaks == []
