"""Streamlit's DOM is reached only through ``chunkviz.ui.dom`` (issue 40).

The browser test (``tests/browser/test_dom_browser.py``) proves each selector still matches; these
tests keep the list whole: no selector written anywhere else, none unused, each documented.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from chunkviz.ui import dom

ROOT = Path(__file__).resolve().parents[2]
DOM = ROOT / "chunkviz" / "ui" / "dom.py"
#: Where Streamlit is drawn: the ui package, the pages and the entrypoint.
SOURCES = sorted(
    p
    for p in [
        *(ROOT / "chunkviz" / "ui").rglob("*"),
        *(ROOT / "pages").glob("*.py"),
        ROOT / "app.py",
    ]
    if p.is_file() and p.suffix in {".py", ".js", ".css", ".html"} and p != DOM
)

#: A selector of Streamlit's DOM: its test ids (``stMarkdownContainer``), its classes
#: (``.stPlotlyChart``, ``.st-key-…``) and the Plotly.js markup it renders.
SELECTOR = re.compile(r"\bst[A-Z][A-Za-z]+|\.st-[a-z]|\.js-plotly|\.modebar")


def selector_lines(path: Path) -> list[str]:
    """``line: text`` of each line of ``path`` that writes a Streamlit DOM selector itself."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [
        f"{n}: {line.strip()}" for n, line in enumerate(lines, start=1) if SELECTOR.search(line)
    ]


def constants() -> dict[str, str]:
    """The selectors ``chunkviz.ui.dom`` declares, by name."""
    return {
        name: value
        for name, value in vars(dom).items()
        if name.isupper() and isinstance(value, str)
    }


def test_no_module_writes_a_streamlit_selector_of_its_own():
    assert len(SOURCES) > 40  # the whole ui package was read
    found = {str(p.relative_to(ROOT)): selector_lines(p) for p in SOURCES}
    assert {path: lines for path, lines in found.items() if lines} == {}


@pytest.mark.parametrize(
    "line",
    [
        "CSS = '[data-testid=\"stSidebar\"] { width: 1px; }'",
        "button = document.querySelector('.st-key-explore_run button');",
        ".stPlotlyChart .js-plotly-plot .modebar { display: none; }",
    ],
)
def test_a_selector_written_outside_dom_is_found(tmp_path, line):
    path = tmp_path / "x.py"
    path.write_text(f"x = 1\n{line}\n", encoding="utf-8")
    assert selector_lines(path) == [f"2: {line}"]


def test_every_selector_is_used_somewhere():
    used = "\n".join(p.read_text(encoding="utf-8") for p in SOURCES if p.suffix == ".py")
    names = constants()
    assert len(names) >= 9
    assert [n for n in names if not re.search(rf"\b{n}\b", used)] == []


def test_dom_is_a_plain_list_of_documented_constants():
    source = DOM.read_text(encoding="utf-8")
    lines = source.splitlines()
    body = ast.parse(source).body
    assigned = [node for node in body if isinstance(node, ast.Assign)]
    others = [node for node in body if not isinstance(node, ast.Assign)]
    # A docstring and the future import, nothing else but the constants.
    assert len(others) == 2, [ast.dump(n) for n in others]
    assert {t.id for node in assigned for t in node.targets if isinstance(t, ast.Name)} == set(
        constants()
    )
    for node in assigned:
        comment = []
        for line in reversed(lines[: node.lineno - 1]):
            if not line.startswith("#:"):
                break
            comment.append(line)
        words = " ".join(reversed(comment))
        # What it targets, and the Streamlit version it was checked on.
        assert re.search(r"Checked on\s+(#:\s*)?Streamlit\s+(#:\s*)?\d+\.\d+\.\d+", words), (
            node.lineno,
            words,
        )
