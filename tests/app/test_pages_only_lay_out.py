"""Pages only lay out: their size in all, and the one way they translate (issue 29)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "pages").glob("*.py"))
#: The Streamlit layer translates like the pages; only ``chunkviz/ui/i18n.py`` defines ``tr``.
UI = sorted(p for p in (ROOT / "chunkviz" / "ui").glob("*.py") if p.name != "i18n.py")

#: Issue 29's bound on the page scripts in all; logic goes to chunkviz/ui or chunkviz/views.
MAX_PAGE_LINES = 984


def test_the_pages_stay_within_their_line_budget():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in PAGES}
    assert len(sizes) >= 6
    assert sum(sizes.values()) <= MAX_PAGE_LINES, sizes


@pytest.mark.parametrize("page", PAGES + UI, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_page_translates_with_tr_only(page: Path):
    tree = ast.parse(page.read_text(encoding="utf-8"))
    # No catalogue lookup of its own: no chunkviz.text.text, no t/fmt helpers.
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "chunkviz.text":
            assert "text" not in {a.name for a in node.names}, page.name
        if isinstance(node, ast.FunctionDef):
            assert node.name not in {"t", "fmt", "_t", "words"}, (page.name, node.name)
