"""Natural paragraphs: blank lines separate paragraphs (single newlines when there are none).

With ``max_size`` set, a paragraph longer than ``max_size`` (in ``unit``) is cut inside with
``recursive`` (lines, sentence ends, 、 and commas, spaces, characters; no overlap); the other
paragraphs stay whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from chunkviz.errors import ParameterError
from chunkviz.model import ChunkingResult, ChunkSequence
from chunkviz.segment import BLANK_LINE, LINE_BREAK
from chunkviz.strategies.common import MAX_SIZE, UNIT, Unit, resolve_tokenizer
from chunkviz.strategies.packing import trim
from chunkviz.strategies.recursive import Ruler, recursive_spans
from chunkviz.strategies.registry import Param, Strategy, register
from chunkviz.tokenizers import Tokenizer

PARAGRAPH_MAX_SIZE = Param(
    "max_size",
    "int",
    None,
    min=1,
    max=MAX_SIZE,
    unit="chars/tokens",
    optional=True,
    help="Cut paragraphs longer than this (in unit) with the recursive splitter; empty: never.",
)

_LINE_BREAK = re.compile(LINE_BREAK + r"\s*")


def paragraph_spans(text: str) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each paragraph, whitespace around it left out."""
    separator = BLANK_LINE if BLANK_LINE.search(text) else _LINE_BREAK
    pos = 0
    for m in separator.finditer(text):
        s, e = trim(text, pos, m.start())
        if e > s:
            yield s, e
        pos = m.end()
    s, e = trim(text, pos, len(text))
    if e > s:
        yield s, e


def _spans_from_starts(text: str, starts: Sequence[int]) -> Iterator[tuple[int, int]]:
    n = len(text)
    bounds = list(starts)
    if any(b < 0 or b > n for b in bounds) or bounds != sorted(set(bounds)):
        raise ParameterError("paragraph_starts", length=n, value=str(bounds[:5]))
    edges = [0, *(b for b in bounds if 0 < b < n), n] if n else []
    for s, e in zip(edges, edges[1:], strict=False):
        if e > s:
            yield s, e


def natural_paragraphs(
    text: str, paragraph_starts: Sequence[int] | None = None
) -> list[tuple[int, int]]:
    """The paragraphs ``paragraph`` keeps whole: at ``paragraph_starts`` if given, else blank lines.

    Raises:
        ParameterError: ``paragraph_starts`` are not increasing offsets into ``text``.
    """
    if paragraph_starts is not None:
        return list(_spans_from_starts(text, paragraph_starts))
    return list(paragraph_spans(text))


def paragraph_split(
    text: str,
    *,
    max_size: int | None = None,
    unit: Unit = "chars",
    paragraph_starts: Sequence[int] | None = None,
    tokenizer: Tokenizer | None = None,
) -> ChunkingResult:
    """One chunk per natural paragraph, over-long ones cut recursively when ``max_size`` is set.

    Args:
        text: The document.
        max_size: Largest chunk size in ``unit``; None keeps every paragraph whole.
        unit: ``chars`` (code points) or ``tokens`` of ``tokenizer`` (used with ``max_size``).
        paragraph_starts: Known paragraph start offsets (from a document's own structure, e.g.
            the JSQuAD corpus, whose paragraphs are concatenated without separator). When given,
            they are used as they are and the chunks tile the text.
        tokenizer: Tokenizer for ``unit="tokens"``; the bundled SentencePiece model by default.

    Returns:
        The chunking; whitespace between paragraphs is not part of any chunk.
    """
    params = {"max_size": max_size, "unit": unit}
    spans = natural_paragraphs(text, paragraph_starts)
    if max_size is not None:
        measure = Ruler(text, resolve_tokenizer(unit, tokenizer))
        spans = [
            piece
            for s, e in spans
            for piece in recursive_spans(text, s, e, size=max_size, overlap=0, measure=measure)
        ]
    return ChunkingResult(text, ChunkSequence.from_spans(spans), "paragraph", params)


register(
    Strategy(
        name="paragraph",
        description="Natural paragraphs: split at blank lines (or at line breaks if none).",
        params=(PARAGRAPH_MAX_SIZE, UNIT),
        gaps="whitespace",
        fn=paragraph_split,
        size_param="max_size",
        resources=frozenset({"paragraph_starts", "tokenizer"}),
    )
)
