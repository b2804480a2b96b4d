"""Assertions shared by every test file (never copy these into a test module)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable

from chunkviz.model import ChunkingResult
from chunkviz.strategies import get_strategy
from chunkviz.tokenizers import Tokenizer, token_boundaries


def assert_valid_chunking(
    result: ChunkingResult,
    *,
    measure: Callable[[str], int] | None = None,
    size: int | None = None,
) -> None:
    """Bounds, order, slices, coverage outside declared gaps, and the size bound.

    Args:
        result: The chunking to check.
        measure: Length function of the size unit (``len`` for characters).
        size: The bound every chunk must respect under ``measure`` (None: not checked).
    """
    text = result.text
    n = len(text)
    spec = get_strategy(result.strategy)
    prev_start, prev_end = -1, -1
    covered = [False] * n
    for i, c in enumerate(result.chunks):
        assert 0 <= c.start < c.end <= n, f"chunk {i} {c} out of bounds for length {n}"
        assert c.start >= prev_start, f"chunk {i} starts before chunk {i - 1}"
        assert c.end >= prev_end, f"chunk {i} ends before chunk {i - 1}"
        assert result.chunk_text(i) == text[c.start : c.end]
        for j in range(c.start, c.end):
            covered[j] = True
        prev_start, prev_end = c.start, c.end
        if size is not None and measure is not None:
            assert measure(text[c.start : c.end]) <= size, (
                f"chunk {i} has {measure(text[c.start:c.end])} > {size} units: "
                f"{text[c.start:c.end]!r}"
            )
    uncovered = [j for j in range(n) if not covered[j]]
    if spec.gaps == "none":
        assert not uncovered, f"positions {uncovered[:10]} are in no chunk"
    else:
        bad = [j for j in uncovered if not text[j].isspace()]
        assert not bad, f"non-whitespace positions {bad[:10]} are in no chunk: {text[bad[0]]!r}"


def assert_token_bound(result: ChunkingResult, tokenizer: Tokenizer, size: int) -> None:
    """Each chunk overlaps at most ``size`` tokens of the document's own tokenization.

    This is how token-sized strategies count (a token cut by a chunk boundary counts on both
    sides); computed here from the tokenizer's offsets independently of the strategies' code.
    """
    bounds = token_boundaries(tokenizer, result.text)
    for i, c in enumerate(result.chunks):
        first = bisect_right(bounds, c.start) - 1
        past = bisect_left(bounds, c.end)
        assert past - first <= size, (
            f"chunk {i} overlaps {past - first} > {size} tokens: {result.chunk_text(i)!r}"
        )


def plane_to_screen(x: float, y: float, box: dict) -> tuple[float, float]:
    """Where plane point ``(x, y)`` is on the page: the inverse of ``plane.screen_to_plane``."""
    from chunkviz.views.plane import EXTENT as e

    px = box["x"] + (x + e) / (2 * e) * box["width"]
    py = box["y"] + (e - y) / (2 * e) * box["height"]
    return (px, py)
