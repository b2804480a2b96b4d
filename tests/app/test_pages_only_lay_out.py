"""Pages only lay out: no logic of their own, and one way to translate (issues 29 and 40).

Issue 29 bounded the pages' lines; issue 40 replaces the bound with what it stood for, read from
the syntax tree: a page defines no function or class and runs no loop, comprehension or ``try``.
What a page may do is call, assign, branch (``if``) and open blocks (``with`` a column, a tab);
the one allowance is a ``lambda`` handed to a widget (``format_func``, ``on_change``), a single
expression that has no loop or comprehension in it either. Anything more goes to
``chunkviz/ui/<page>/`` (or ``chunkviz/ui/`` when pages share it), where it can be tested.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "pages").glob("*.py"))
#: The Streamlit layer translates like the pages; only ``chunkviz/ui/i18n.py`` defines ``tr``.
UI = sorted(p for p in (ROOT / "chunkviz" / "ui").rglob("*.py") if p.name != "i18n.py")

#: Logic a page may not hold, by syntax node: definitions, loops, comprehensions, handlers.
LOGIC: dict[type[ast.AST], str] = {
    ast.FunctionDef: "def",
    ast.AsyncFunctionDef: "async def",
    ast.ClassDef: "class",
    ast.For: "for",
    ast.AsyncFor: "async for",
    ast.While: "while",
    ast.ListComp: "list comprehension",
    ast.SetComp: "set comprehension",
    ast.DictComp: "dict comprehension",
    ast.GeneratorExp: "generator expression",
    ast.Try: "try",
    ast.TryStar: "try",
    ast.Global: "global",
    ast.Nonlocal: "nonlocal",
}


def logic(source: str) -> list[str]:
    """``line: what`` for each piece of logic in a page's ``source``."""
    return [
        f"{node.lineno}: {LOGIC[type(node)]}"
        for node in ast.walk(ast.parse(source))
        if type(node) in LOGIC
    ]


def test_pages_define_no_logic():
    assert len(PAGES) >= 6
    found = {p.name: logic(p.read_text(encoding="utf-8")) for p in PAGES}
    assert {name: lines for name, lines in found.items() if lines} == {}


@pytest.mark.parametrize(
    "source",
    [
        "def f():\n    pass\n",
        "@st.fragment\ndef part() -> None:\n    st.write(1)\n",
        "class A:\n    pass\n",
        "for x in xs:\n    st.write(x)\n",
        "while True:\n    break\n",
        "rows = [r for r in runs]\n",
        "by = {r.path: r for r in runs}\n",
        "st.write(', '.join(str(d) for d in dirs))\n",
        "try:\n    x = 1\nexcept Exception:\n    pass\n",
        "st.selectbox('a', xs, format_func=lambda x: [y for y in x])\n",
    ],
)
def test_each_kind_of_logic_is_found(source):
    assert logic(source)


@pytest.mark.parametrize(
    "source",
    [
        "import streamlit as st\nst.title('x')\n",
        "left, right = st.columns(2)\nwith left:\n    st.write(1)\n",
        "if not runs:\n    st.info('none')\nelse:\n    st.write(runs[0])\n",
        "st.selectbox('a', xs, format_func=lambda x: label(lang, x))\n",
        "page = st.pagination(3) if pages > 1 else 1\n",
    ],
)
def test_layout_is_not_logic(source):
    assert logic(source) == []


@pytest.mark.parametrize("page", PAGES + UI, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_page_translates_with_tr_only(page: Path):
    tree = ast.parse(page.read_text(encoding="utf-8"))
    # No catalogue lookup of its own: no chunkviz.text.text, no t/fmt helpers.
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "chunkviz.text":
            assert "text" not in {a.name for a in node.names}, page.name
        if isinstance(node, ast.FunctionDef):
            assert node.name not in {"t", "fmt", "_t", "words"}, (page.name, node.name)
