"""No import cycle among chunkviz modules, not even one hidden by an import inside a function.

The graph is read from the source with ``ast``: every ``import`` of a chunkviz module, at the top
of a module or inside a function (an import inside a function still runs, and is the usual way a
cycle is hidden), except those under ``if TYPE_CHECKING:``, which never run.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import chunkviz

Graph = dict[str, set[str]]


def _modules(root: Path, package: str) -> dict[str, Path]:
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking(child):
            yield from _imports_of_else(child)
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        yield from _imports(child)


def _imports_of_else(node: ast.If) -> Iterator[ast.Import | ast.ImportFrom]:
    for child in node.orelse:
        yield from _imports(ast.Module(body=[child], type_ignores=[]))


def import_graph(root: Path, package: str) -> Graph:
    """Module -> the package's modules it imports (a submodule where one is named)."""
    modules = _modules(root, package)
    graph: Graph = {}
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name in modules}
                continue
            base = node.module or ""
            if node.level:
                parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            if base not in modules:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.add(sub if sub in modules else base)
        graph[name] = targets - {name}
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while (w := stack.pop()) != v:
                component.append(w)
            if component:
                found.append(sorted([v, *component]))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, source in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")


def test_chunkviz_has_no_import_cycle():
    root = Path(chunkviz.__file__).parent
    graph = import_graph(root, "chunkviz")
    assert len(graph) > 100  # the whole package was read
    assert "chunkviz.ui.state" in graph["chunkviz.ui.controls"]  # edges are found
    assert cycles(graph) == []


def test_a_cycle_hidden_in_a_function_is_found_and_type_checking_is_not(tmp_path):
    _write(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "ui/__init__.py": "",
            "ui/state.py": "from pkg.ui.controls import bind\n",
            "ui/controls.py": "def bind():\n    from pkg.ui import resources\n",
            "ui/resources.py": "def read():\n    from .state import x\n",
            "typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from pkg.other import y\n",
            "other.py": "import pkg.typed\n",
        },
    )
    graph = import_graph(tmp_path / "pkg", "pkg")
    assert cycles(graph) == [["pkg.ui.controls", "pkg.ui.resources", "pkg.ui.state"]]


def forbidden_arrows(graph: Graph, source: str, target: str) -> list[tuple[str, str]]:
    """Every edge from a module under ``source`` to one under ``target`` (dotted prefixes)."""

    def under(module: str, package: str) -> bool:
        return module == package or module.startswith(package + ".")

    return sorted(
        (a, b)
        for a, targets in graph.items()
        if under(a, source)
        for b in targets
        if under(b, target)
    )


def test_strategies_never_import_retrieval():
    # A strategy receives what it needs (an embedder, a tokenizer) from its caller: the one
    # arrow that ran back up the house (semantic -> retrieval.backends) must not come back.
    graph = import_graph(Path(chunkviz.__file__).parent, "chunkviz")
    assert "chunkviz.strategies.semantic" in graph  # the strategies were read
    assert forbidden_arrows(graph, "chunkviz.strategies", "chunkviz.retrieval") == []


def test_a_forbidden_arrow_is_found_even_inside_a_function(tmp_path):
    _write(
        tmp_path / "pkg",
        {
            "__init__.py": "",
            "strategies/__init__.py": "",
            "strategies/semantic.py": "def f():\n    from pkg.retrieval.backends import get\n",
            "strategies/fixed.py": "import pkg.retrieval\n",
            "retrieval/__init__.py": "",
            "retrieval/backends.py": "from pkg.strategies import fixed\n",
        },
    )
    graph = import_graph(tmp_path / "pkg", "pkg")
    assert forbidden_arrows(graph, "pkg.strategies", "pkg.retrieval") == [
        ("pkg.strategies.fixed", "pkg.retrieval"),
        ("pkg.strategies.semantic", "pkg.retrieval.backends"),
    ]


# --- issue 40: chunkviz/views/ is Streamlit-free -------------------------------------------------

#: A mention of Streamlit: its name (an import says it), its test ids (``data-testid`` and the
#: ``stMarkdownContainer``-style names it gives them) and its CSS classes (``.st-key-…``,
#: ``.stPlotlyChart``). The DOM selectors live in ``chunkviz/ui/dom.py``.
STREAMLIT_MENTION = re.compile(r"(?i:streamlit)|data-testid|\bst[A-Z][A-Za-z]+|\.st-[a-z]")


def streamlit_mentions(root: Path) -> list[str]:
    """``path:line: text`` of every line under ``root`` that mentions Streamlit."""
    found = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".pyc"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if STREAMLIT_MENTION.search(line):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_views_never_mention_streamlit():
    views = Path(chunkviz.__file__).parent / "views"
    assert len(list(views.glob("*.py"))) > 20  # the whole package was read
    assert streamlit_mentions(views) == []


@pytest.mark.parametrize(
    "line",
    [
        "import streamlit as st",
        "from streamlit.testing.v1 import AppTest",
        '"""Drawn by Streamlit."""',
        "CSS = \"[data-testid='stMarkdownContainer'] table {}\"",
        "# the stMetricValue of a tile",
        ".st-key-explore_numbers { color: red; }",
        ".stPlotlyChart { display: none; }",
    ],
)
def test_each_kind_of_streamlit_mention_is_found(tmp_path, line):
    (tmp_path / "view.py").write_text(f"x = 1\n{line}\n", encoding="utf-8")
    assert streamlit_mentions(tmp_path) == [f"view.py:2: {line}"]


@pytest.mark.parametrize(
    "line",
    [
        "best-ranked chunk",
        "the first stage",
        "a list of strings",
        "stats.mean",
        "self.start",
    ],
)
def test_ordinary_words_are_not_streamlit_mentions(tmp_path, line):
    (tmp_path / "view.py").write_text(f"{line}\n", encoding="utf-8")
    assert streamlit_mentions(tmp_path) == []
