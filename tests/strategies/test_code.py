from __future__ import annotations

import ast
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkviz
from chunkviz.strategies.code import definition_starts, detect_language, fenced_blocks
from tests.helpers import assert_valid_chunking
from tests.strategies import structured_text

MODULE = '''import os

# Helper used by both.
@cache
def load(path):
    """Read a file."""
    with open(path) as f:

        return f.read()


class 設定:
    name = "é😀"

    def get(self, key):
        return os.environ[key]

TIMEOUT = 30

async def fetch():
    return await load("x")
'''


def _top_level_starts(source: str) -> set[int]:
    """Offsets of every top-level statement's first line (decorators and comments above
    included), computed independently from the strategy, via the line table."""
    line_starts = [0]
    for i, ch in enumerate(source):
        if ch == "\n":
            line_starts.append(i + 1)
    starts = set()
    for node in ast.parse(source).body:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        starts.add(line_starts[first - 1])
    starts.add(source.index("# Helper"))
    return starts


@pytest.mark.parametrize("size", [120, 150, 200, 400])
def test_python_is_cut_only_between_top_level_statements(size):
    result = chunkviz.chunk(MODULE, "code", size=size)
    allowed = _top_level_starts(MODULE)
    assert len(result.chunks) > 1 or size == 400
    for c in result.chunks:
        assert c.start in allowed, (c, result.text[c.start : c.start + 20])
    assert_valid_chunking(result, measure=len, size=size)


def test_python_golden_definitions_stay_whole():
    result = chunkviz.chunk(MODULE, "code", size=120)
    texts = result.chunk_texts()
    assert texts[0] == "import os"
    assert texts[1].startswith("# Helper used by both.\n@cache\ndef load(path):")
    assert texts[1].endswith("return f.read()")  # the blank line inside the function is kept
    # Module code after a definition is its own unit, packed with a neighbour when it fits.
    assert texts[2].startswith("class 設定:")
    assert texts[2].endswith("]\n\nTIMEOUT = 30")
    assert texts[3] == 'async def fetch():\n    return await load("x")'


def test_definition_offsets_are_code_points_not_bytes():
    source = 'x = "日本語"; y = 1\r\nclass A:\r\n    pass\r\n'
    (offset,) = definition_starts(source)
    assert source[offset:].startswith("class A:")


def test_an_overlong_definition_is_cut_at_blank_lines_inside_it():
    result = chunkviz.chunk(MODULE, "code", size=40)
    assert_valid_chunking(result, measure=len, size=40)
    assert "with open(path) as f:" in result.chunk_texts()[2]


def test_fenced_code_block_is_never_cut_when_it_fits():
    fence = "```python\ndef a():\n    return 1\n\n\ndef b():\n    return 2\n```"
    text = "# Title\n\nProse before.\n\n" + fence + "\n\nProse after."
    result = chunkviz.chunk(text, "code", size=len(fence))
    assert fence in result.chunk_texts()
    assert detect_language(text) == "markdown"


def test_an_overlong_python_fence_is_cut_at_its_definitions():
    fence = "```py\ndef a():\n    return 1\n\ndef b():\n    return 2\n```"
    result = chunkviz.chunk(fence, "code", size=30)
    assert result.chunk_texts() == ["```py\ndef a():\n    return 1", "def b():\n    return 2\n```"]


def test_unclosed_fence_runs_to_the_end():
    (block,) = fenced_blocks("intro\n~~~\ncode\n\nmore code")
    assert (block.start, block.end, block.info) == (6, 25, "")


def test_other_code_is_split_at_blank_lines():
    js = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n"
    result = chunkviz.chunk(js, "code", size=30)
    assert result.chunk_texts() == [
        "function a() {\n  return 1;\n}",
        "function b() {\n  return 2;\n}",
    ]


def test_language_python_on_invalid_source_names_the_parameter():
    with pytest.raises(chunkviz.InputTextError, match="language='python'"):
        chunkviz.chunk("def (:", "code", language="python")


def test_invalid_escape_sequences_do_not_warn():
    result = chunkviz.chunk('import re\nP = "\\d+"\ndef f():\n    pass\n', "code", size=20)
    assert result.chunk_texts() == ['import re\nP = "\\d+"', "def f():\n    pass"]


@pytest.mark.parametrize("size", [1, 11, 60])
@given(text=structured_text)
def test_code_invariants_on_structured_text(size, text):
    result = chunkviz.chunk(text, "code", size=size)
    assert_valid_chunking(result, measure=len, size=size)


def _detect_by_parsing(text: str) -> str:
    """detect_language without its pre-check: the rule it must agree with."""
    from chunkviz.strategies.code import _DEFINITIONS, parse_python

    if fenced_blocks(text):
        return "markdown"
    tree = parse_python(text)
    if tree is not None and any(
        isinstance(n, (*_DEFINITIONS, ast.Import, ast.ImportFrom)) for n in tree.body
    ):
        return "python"
    return "text"


_PYTHONISH = st.lists(
    st.sampled_from(
        [
            "import os",
            "from x import y",
            "def f():\n    return 1",
            "class A:\n    pass",
            "async def g():\n    pass",
            "x = 1; import sys",
            "x = 1",
            "1,2,3",
            "k,v,w",
            "# def no",
            "@dec\ndef h(): pass",
            "s = 'import os'",
            "if x:\n    import os",
            "\\\n",
            "  ",
            "\t",
            "from",
            "classy = 2",
            "print(1)",
            "日本語",
            ";",
            "\n",
        ]
    ),
    max_size=8,
).map("\n".join)


@given(_PYTHONISH)
def test_detect_language_agrees_with_parsing_everything(text: str) -> None:
    assert detect_language(text) == _detect_by_parsing(text)


def test_csv_is_not_parsed_as_python(monkeypatch: pytest.MonkeyPatch) -> None:
    # A CSV block is a valid Python expression: parsing a megabyte of it took 7 s (issue 14).
    def refuse(source: str) -> None:
        raise AssertionError("parsed a text with no top-level definition or import")

    # sys.modules: the package's attribute ``code`` is shadowed by a function of that name.
    monkeypatch.setattr(sys.modules["chunkviz.strategies.code"], "parse_python", refuse)
    assert detect_language("k,v,w\n1,2,3\n4,5,6\n" * 1000) == "text"
