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
                f"chunk {i} has {measure(text[c.start : c.end])} > {size} units: "
                f"{text[c.start : c.end]!r}"
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


def one_page_pdf(
    content: bytes,
    *,
    flate: bool = False,
    width: float = 612,
    height: float = 792,
    rotate: int = 0,
    level: int = 9,
    deflated: bool = False,
) -> bytes:
    """A one-page PDF whose content stream is ``content`` (Helvetica as /F1), compressed with
    Flate (at ``level``) when ``flate``, or already Flate data when ``deflated``: the smallest
    carrier of a hostile page (``bench/adversarial.py --documents`` builds its bombs with it)."""
    import zlib

    body = zlib.compress(content, level) if flate else content
    filters = b"/Filter /FlateDecode " if flate or deflated else b""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Rotate %d /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>" % (width, height, rotate),
        b"<< " + filters + b"/Length %d >>\nstream\n" % len(body) + body + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    return pdf_of(objects)


def pdf_of(objects: list[bytes]) -> bytes:
    """A PDF file of ``objects`` (numbered from 1, the first the catalog), with its xref."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)
