"""Every page that shows a document starts the same way and stops at an empty one (issue 40).

One rule (``chunkviz.ui.page_start.is_empty``): nothing but whitespace is empty. Explore used to
test only ``not text`` and drew a blank chunk for a document of spaces.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from chunkviz.text import text
from chunkviz.ui.page_start import is_empty
from tests.app.helpers import ROOT, page

EMPTY = text("en", "document.empty")
PAGES = ["1_Explore.py", "2_Compare.py", "3_Similarity.py", "5_Strategies.py", "6_Tune.py"]
#: Pages that draw their configuration before the emptiness check (``page_document(stop=False)``
#: then ``empty_notice``): a run that skipped the configuration's widgets made the browser send
#: the strategy back at its first option after the empty "Paste text" box
#: (tests/browser/test_highlight_browser.py, test_compare_browser.py).
CONFIGURED_FIRST = {"1_Explore.py", "2_Compare.py"}


@pytest.mark.parametrize(
    ("value", "empty"),
    [
        ("", True),
        (" ", True),
        ("\n\n\t", True),
        ("\u3000\u3000", True),
        ("。", False),
        (" a ", False),
    ],
)
def test_nothing_but_whitespace_is_empty(value, empty):
    assert is_empty(value) is empty


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("pasted", ["", " \n\u3000 \n"], ids=["empty", "blank"])
def test_a_page_stops_at_an_empty_document(name, pasted):
    at = page(name, timeout=180, source="paste", pasted=pasted)
    assert not at.exception
    assert [i.value for i in at.info].count(EMPTY) == 1
    # Nothing after the start ran: no chunk counted; a configuration only where it comes first.
    assert not at.metric
    drawn = [s for s in at.selectbox if s.key and "strategy" in s.key]
    assert bool(drawn) == (name in CONFIGURED_FIRST)


def test_the_same_page_goes_on_with_a_document():
    at = page("2_Compare.py", timeout=180, source="paste", pasted="一文目。二文目。")
    assert not at.exception
    assert EMPTY not in [i.value for i in at.info]
    assert at.metric


def _calls(path: Path, name: str) -> int:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", None)) == name
    )


def test_one_page_start_and_no_page_checks_emptiness_itself():
    ui = ROOT / "chunkviz" / "ui"
    users = [
        p
        for p in sorted([*ui.rglob("*.py"), *(ROOT / "pages").glob("*.py")])
        if _calls(p, "page_document")
    ]
    assert len(users) == len(PAGES), users
    pickers = [
        p.relative_to(ROOT)
        for p in sorted([*ui.rglob("*.py"), *(ROOT / "pages").glob("*.py")])
        if _calls(p, "document_picker") and p.name != "page_start.py"
    ]
    # The picker is drawn by the page start only.
    assert pickers == [], pickers
    for path in (ROOT / "pages").glob("*.py"):
        assert "document.empty" not in path.read_text(encoding="utf-8"), path.name
