"""Code-aware splitting: Python at top-level definitions, other code at blank lines.

Seed 003: a fixed window cuts a function away from its ``def`` line, leaving a fragment nobody
can identify. This strategy cuts where a reader would:

- **Python** (``ast``): before each top-level ``def``/``class`` (its decorators and the comment
  lines right above it go with it). ``ast`` reports line numbers and UTF-8 *byte* columns; both
  are turned into code-point offsets through the line table, never by searching the text.
- **Markdown**: a fenced code block (````` or ``~~~``) is one unit that is never cut unless it
  alone exceeds ``size``; then a Python fence is cut at its top-level definitions, any other at
  blank lines. Prose between fences is split at blank lines.
- **Other code or text**: blocks separated by blank lines.

Units are packed greedily up to ``size`` characters; a unit longer than ``size`` is cut at blank
lines, then line breaks, then spaces, then exactly at ``size``.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass
from typing import Literal

from chunkviz.errors import InputTextError
from chunkviz.model import ChunkingResult, ChunkSequence
from chunkviz.strategies.packing import (
    Bounds,
    gaps_between,
    line_spans,
    pack,
    split_blocks,
    trim,
)
from chunkviz.strategies.registry import Param, Strategy, register

Language = Literal["auto", "python", "markdown", "text"]

# Used with pattern.match(text, line_start, line_end): match() anchors at line_start, where
# "^" would not (it only matches at the real start of the string).
_FENCE_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})([^`\r\n]*)$")
_PYTHON_INFO = {"python", "py", "python3", "py3"}

SIZE = Param(
    "size",
    "int",
    1200,
    min=1,
    max=100_000,
    unit="chars",
    help="Largest chunk length in characters; definitions and fenced blocks are kept whole "
    "when they fit.",
)
LANGUAGE = Param(
    "language",
    "choice",
    "auto",
    choices=("auto", "python", "markdown", "text"),
    help="How to read the text: auto-detect, Python source, Markdown with fenced code, or "
    "blank-line blocks.",
)


def parse_python(source: str) -> ast.Module | None:
    """``ast`` of ``source``, or None when it is not Python (no warning escapes)."""
    with warnings.catch_warnings():
        # Invalid escape sequences and the like warn at parse time; they do not matter here.
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None


def _byte_col_to_chars(line: str, col: int) -> int:
    """Code points in the first ``col`` UTF-8 bytes of ``line`` (``ast`` columns are bytes)."""
    return len(line.encode("utf-8")[:col].decode("utf-8", errors="ignore"))


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def definition_starts(text: str, start: int = 0, end: int | None = None) -> list[int] | None:
    """Offsets in ``text[start:end]`` where a cut may go: before each top-level definition.

    A top-level ``def``/``class`` begins at its first decorator, or at the comment lines
    directly above it. The first statement after a definition also begins a unit, so that
    module code between two definitions is not glued to the definition above it.

    Returns:
        Increasing offsets into ``text``, or None when the span does not parse as Python.
    """
    stop = len(text) if end is None else end
    tree = parse_python(text[start:stop])
    if tree is None:
        return None
    lines = line_spans(text, start, stop)
    starts: list[int] = []
    after_definition = False
    previous_end = 0  # lines before this index belong to earlier statements
    for node in tree.body:
        first = node.lineno - 1
        if first >= len(lines):
            break
        if isinstance(node, _DEFINITIONS):
            first = min([first, *(d.lineno - 1 for d in node.decorator_list)])
            while first > previous_end and text[slice(*lines[first - 1])].lstrip().startswith("#"):
                first -= 1
        is_cut = isinstance(node, _DEFINITIONS) or after_definition
        after_definition = isinstance(node, _DEFINITIONS)
        previous_end = node.end_lineno or node.lineno
        if not is_cut:
            continue
        line_start, line_end = lines[first]
        col = node.col_offset if first == node.lineno - 1 else 0
        offset = line_start + _byte_col_to_chars(text[line_start:line_end], col)
        if not starts or offset > starts[-1]:
            starts.append(offset)
    return starts


def _definition_units(
    text: str, start: int, end: int, size: int, body: Bounds | None = None
) -> list[Bounds] | None:
    """Units of ``text[start:end]`` cut before each top-level definition in ``body``.

    ``body`` is the part that is Python: all of the span, or a fence's inside. Over-long units
    are cut at blank lines. Returns None when ``body`` does not parse as Python.
    """
    cuts = definition_starts(text, *(body or (start, end)))
    if cuts is None:
        return None
    units: list[Bounds] = []
    for a, b in zip([start, *cuts], [*cuts, end], strict=False):
        s, e = trim(text, a, b)
        if e > s:
            units.extend(split_blocks(text, s, e, size) if e - s > size else [(s, e)])
    return units


@dataclass(frozen=True, slots=True)
class Fence:
    """A Markdown fenced code block.

    Attributes:
        start: Offset of the opening fence line.
        end: End of the closing fence line (or of the text when the fence is never closed).
        body: ``(start, end)`` of the code between the fence lines.
        info: The info string after the opening fence, lower-cased (``python``, ``js`` ...).
    """

    start: int
    end: int
    body: Bounds
    info: str


def fenced_blocks(text: str) -> list[Fence]:
    """Every Markdown fenced code block of ``text``, fence lines included.

    A fence closes at the next line of at least as many of the same character; an unclosed
    fence runs to the end of the text (CommonMark).
    """
    lines = line_spans(text)
    blocks = []
    i = 0
    while i < len(lines):
        s, e = lines[i]
        m = _FENCE_OPEN.match(text, s, e)
        if m is None:
            i += 1
            continue
        fence = m.group(1)
        close = re.compile(rf" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        j = i + 1
        while j < len(lines) and not close.match(text, *lines[j]):
            j += 1
        closed = j < len(lines)
        last = j if closed else len(lines) - 1
        body_end = lines[j - 1][1] if closed and j > i + 1 else lines[last][1]
        body_start = lines[i + 1][0] if i + 1 < len(lines) else e
        body = (min(body_start, body_end), body_end)
        blocks.append(Fence(s, lines[last][1], body, m.group(2).strip().lower()))
        i = last + 1
    return blocks


# Where a top-level definition or import can begin: a line start (indented only after a line
# continuation) or after a semicolon. A text without one cannot be detected as Python, so it is
# not parsed: a megabyte of CSV is a valid Python expression and took 7 s and a large syntax tree.
_TOP_LEVEL_KEYWORD = re.compile(
    r"(?:^|;)[ \t\f]*(?:async[ \t]+def|def|class|import|from)\b", re.MULTILINE
)


def detect_language(text: str) -> Literal["python", "markdown", "text"]:
    """Guess how to read ``text``.

    Returns:
        ``markdown`` when it has a fenced block, ``python`` when it parses as Python and defines
        or imports something at top level, else ``text``.
    """
    if fenced_blocks(text):
        return "markdown"
    if not _TOP_LEVEL_KEYWORD.search(text):
        return "text"
    tree = parse_python(text)
    if tree is not None and any(
        isinstance(n, (*_DEFINITIONS, ast.Import, ast.ImportFrom)) for n in tree.body
    ):
        return "python"
    return "text"


def _split_markdown(text: str, size: int) -> list[Bounds]:
    fences = fenced_blocks(text)
    # (start, units) per region: prose between fences, and each fence.
    regions: list[tuple[int, list[Bounds]]] = [
        (s, split_blocks(text, s, e, size))
        for s, e in gaps_between([(f.start, f.end) for f in fences], 0, len(text))
    ]
    for f in fences:
        units: list[Bounds] | None = [(f.start, f.end)]
        if f.end - f.start > size:
            units = None
            if f.info.split(" ")[0] in _PYTHON_INFO:
                units = _definition_units(text, f.start, f.end, size, f.body)
        regions.append((f.start, units or split_blocks(text, f.start, f.end, size)))
    return pack([u for _, units in sorted(regions) for u in units], size)


def code_split(text: str, *, size: int = 1200, language: Language = "auto") -> ChunkingResult:
    """Split ``text`` at code structure: top-level definitions, fenced blocks, blank lines.

    Args:
        text: Python source, Markdown with fenced code, or any other code or text.
        size: Largest chunk length in characters.
        language: ``auto`` (detect), ``python``, ``markdown`` or ``text``.

    Returns:
        The chunking; whitespace between units is in no chunk.

    Raises:
        InputTextError: ``language="python"`` but the text does not parse as Python.
    """
    params = {"size": size, "language": language}
    lang = detect_language(text) if language == "auto" else language
    if lang == "python":
        units = _definition_units(text, 0, len(text), size)
        if units is None:
            raise InputTextError("code_not_python")
        spans = pack(units, size)
    elif lang == "markdown":
        spans = _split_markdown(text, size)
    else:
        spans = split_blocks(text, 0, len(text), size)
    return ChunkingResult(text, ChunkSequence.from_spans(spans), "code", params)


register(
    Strategy(
        name="code",
        description="Code-aware: Python at top-level def/class, fenced blocks kept whole, "
        "other code at blank lines.",
        params=(SIZE, LANGUAGE),
        gaps="whitespace",
        fn=code_split,
        size_param="size",
    )
)
