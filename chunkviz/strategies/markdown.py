"""Markdown sections: split at ATX headings, cap the size, prefix each chunk with its breadcrumb.

A section runs from a heading line (``#`` to ``######``, up to three spaces of indent, then a
space or the end of the line) to the next heading line; text before the first heading is a
section of its own. Lines inside fenced code blocks (````` ``` ````` or ``~~~``) are never
headings. Setext headings (underlined with ``===``/``---``) are not recognised.

Each section, without the whitespace around it, is one chunk; a section longer than ``size``
is cut with ``recursive`` (its blank lines, lines, sentences ... with ``overlap``). Every chunk
of a section gets ``prefix`` = the heading breadcrumb joined with `` > `` plus a line break
(``就業規則 > 第5章 休暇 > 第21条``): it is embedded with the chunk but is not part of its offsets,
and the size bound counts the offsets only.
"""

from __future__ import annotations

import re

from chunkviz.model import ChunkingResult, ChunkSequence
from chunkviz.strategies.common import OVERLAP, SIZE, UNIT, Unit, resolve_tokenizer
from chunkviz.strategies.packing import trim
from chunkviz.strategies.recursive import Ruler, recursive_columns
from chunkviz.strategies.registry import Strategy, register
from chunkviz.tokenizers import Tokenizer

_LINE = re.compile(
    r"^ {0,3}(?:(?P<fence>`{3,}|~{3,})|(?P<hashes>#{1,6})(?=[ \t\r\n]|\Z))(?P<rest>[^\r\n]*)",
    re.MULTILINE,
)
_CLOSING_HASHES = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")

BREADCRUMB_SEPARATOR = " > "


def heading_sections(text: str) -> list[tuple[int, int, tuple[str, ...]]]:
    """``(start, end, breadcrumb)`` of each section, whitespace around it left out.

    The breadcrumb lists the titles of the enclosing headings, outermost first, ending with the
    section's own heading; it is empty for text before the first heading.
    """
    heads: list[tuple[int, int, str]] = []  # (line start, level, title)
    fence: str | None = None
    for m in _LINE.finditer(text):
        marker = m.group("fence")
        if marker is not None:
            if fence is None:
                fence = marker[0]
            elif marker[0] == fence and not m.group("rest").strip():
                fence = None
            continue
        if fence is None:
            title = _CLOSING_HASHES.sub("", m.group("rest").strip()).strip()
            heads.append((m.start(), len(m.group("hashes")), title))
    sections: list[tuple[int, int, tuple[str, ...]]] = []
    stack: list[tuple[int, str]] = []
    edges = [(0, 0, ""), *heads]
    for n, (start, level, title) in enumerate(edges):
        if n > 0:
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, title))
        end = edges[n + 1][0] if n + 1 < len(edges) else len(text)
        s, e = trim(text, start, end)
        if e > s:
            sections.append((s, e, tuple(t for _, t in stack if t)))
    return sections


def markdown_split(
    text: str,
    *,
    size: int,
    overlap: int = 0,
    unit: Unit = "chars",
    tokenizer: Tokenizer | None = None,
) -> ChunkingResult:
    """One chunk per heading section, over-long sections cut recursively; breadcrumb prefixes.

    Args:
        text: The Markdown document.
        size: Largest chunk size in ``unit`` (the prefix is not counted).
        overlap: Overlap inside an over-long section (whole trailing pieces, as ``recursive``).
        unit: ``chars`` (code points) or ``tokens`` of ``tokenizer``.
        tokenizer: Tokenizer for ``unit="tokens"``; the bundled SentencePiece model by default.

    Returns:
        The chunking; whitespace between sections is in no chunk.
    """
    params = {"size": size, "overlap": overlap, "unit": unit}
    measure = Ruler(text, resolve_tokenizer(unit, tokenizer))
    # Offset and prefix columns rather than a Chunk per piece (see ChunkSequence.from_spans).
    starts: list[int] = []
    ends: list[int] = []
    prefixes: list[str] = []
    for start, end, crumbs in heading_sections(text):
        prefix = BREADCRUMB_SEPARATOR.join(crumbs) + "\n" if crumbs else ""
        chunk_starts, chunk_ends = recursive_columns(
            text, start, end, size=size, overlap=overlap, measure=measure
        )
        starts += chunk_starts
        ends += chunk_ends
        prefixes += [prefix] * len(chunk_starts)
    return ChunkingResult(text, ChunkSequence(starts, ends, prefixes=prefixes), "markdown", params)


register(
    Strategy(
        name="markdown",
        description="Markdown sections split at # headings (not inside code fences), capped at "
        "size; each chunk is prefixed with its heading breadcrumb (A > B > C).",
        params=(SIZE, OVERLAP, UNIT),
        gaps="whitespace",
        fn=markdown_split,
        size_param="size",
        resources=frozenset({"tokenizer"}),
    )
)
