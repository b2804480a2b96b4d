"""Fixed window: a sliding window of ``size`` characters or tokens, moved by size − overlap."""

from __future__ import annotations

from chunkviz.model import ChunkingResult, ChunkSequence, ClippedRange
from chunkviz.strategies.common import OVERLAP, SIZE, UNIT, Unit, resolve_tokenizer
from chunkviz.strategies.registry import Strategy, register
from chunkviz.strategies.snap import MAX_SHIFT, SNAP, Snap, allowed_offsets, snapped_windows
from chunkviz.text_boundaries import text_boundaries
from chunkviz.tokenizers import Tokenizer, token_boundaries


def window_starts(length: int, size: int, overlap: int) -> range:
    """Start positions of the windows over ``length`` units.

    Windows start every ``size - overlap`` units and stop once a window reaches the end, so the
    count is ceil((L - o) / (c - o)) for L > c and 1 for 0 < L <= c (seed 000's loop).
    """
    if length == 0:
        return range(0)
    stride = size - overlap
    if length <= size:
        return range(0, 1)
    count = -(-(length - overlap) // stride)
    return range(0, count * stride, stride)


def fixed_window(
    text: str,
    *,
    size: int,
    overlap: int = 0,
    unit: Unit = "chars",
    snap: Snap = "none",
    max_shift: int = 10,
    tokenizer: Tokenizer | None = None,
) -> ChunkingResult:
    """Cut ``text`` into windows of ``size`` units whose starts are ``size - overlap`` apart.

    Args:
        text: The document.
        size: Window length in ``unit``.
        overlap: Units shared by consecutive windows; must be smaller than ``size``.
        unit: ``chars`` (code points) or ``tokens`` of ``tokenizer``.
        snap: ``none``, or ``word``/``phrase``: move each cut to a boundary of that kind within
            ``max_shift`` units, never making a chunk longer than ``size`` nor an overlap
            longer than ``overlap`` (``chunkviz.strategies.snap``).
        max_shift: Furthest a snapped cut moves, in ``unit``.
        tokenizer: Tokenizer for ``unit="tokens"``; the bundled SentencePiece model by default.

    Returns:
        The chunking; the last window may be shorter than ``size``.
    """
    params: dict[str, object] = {"size": size, "overlap": overlap, "unit": unit}
    tok = resolve_tokenizer(unit, tokenizer)
    if snap != "none":
        # Recorded only when on, so that unsnapped chunkings keep their parameters (and the
        # shipped results their configurations).
        params.update(snap=snap, max_shift=max_shift)
        boundaries = text_boundaries(text, snap)
        if tok is None:
            starts_, ends_ = snapped_windows(
                len(text), size, overlap, max_shift, boundaries.positions.tolist()
            )
            return ChunkingResult(text, ChunkSequence(starts_, ends_), "fixed", params)
        bounds = token_boundaries(tok, text)
        unit_starts, unit_ends = snapped_windows(
            len(bounds) - 1, size, overlap, max_shift, allowed_offsets(boundaries, bounds)
        )
        return ChunkingResult(
            text,
            ChunkSequence([bounds[s] for s in unit_starts], [bounds[e] for e in unit_ends]),
            "fixed",
            params,
        )
    if tok is None:
        n = len(text)
        starts = window_starts(n, size, overlap)
        # Every window but the last ends inside the text (see window_starts), so the ends are
        # an arithmetic range clipped at the text's end: no per-chunk Python work at all.
        ends = ClippedRange(range(size, size + len(starts) * starts.step, starts.step), n)
        return ChunkingResult(text, ChunkSequence(starts, ends), "fixed", params)
    # Token windows are cut on token boundaries that partition the text, so they leave no gaps.
    bounds = token_boundaries(tok, text)
    count = len(bounds) - 1
    token_starts = window_starts(count, size, overlap)
    return ChunkingResult(
        text,
        ChunkSequence(
            [bounds[s] for s in token_starts], [bounds[min(s + size, count)] for s in token_starts]
        ),
        "fixed",
        params,
    )


register(
    Strategy(
        name="fixed",
        description="Sliding window of a fixed length; consecutive windows share the overlap.",
        params=(SIZE, OVERLAP, UNIT, SNAP, MAX_SHIFT),
        gaps="none",
        fn=fixed_window,
        size_param="size",
        resources=frozenset({"tokenizer"}),
    )
)
