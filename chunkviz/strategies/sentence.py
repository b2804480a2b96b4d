"""Sentence packing: whole sentences, up to ``size`` and at most ``max_sentences`` per chunk.

Sentences come from ``chunkviz.segment.sentence_spans`` (Japanese ``。！？`` with closing
brackets, English ``. ! ?`` before whitespace, not after ``Mr.``/``e.g.``/``3.14``; line breaks).
Consecutive sentences are packed greedily; a chunk runs from its first sentence's start to its
last sentence's end, so the whitespace between chunks belongs to none (``gaps="whitespace"``).

``overlap`` repeats whole trailing sentences (at most ``overlap`` units in all, the same rule as
``recursive``). A sentence longer than ``size`` is cut on its own with ``recursive``'s lower
levels: at ``、`` and commas, then at whitespace, then between characters (or tokens), so the
size bound always holds; no overlap is carried across such a sentence.
"""

from __future__ import annotations

from chunkviz.model import ChunkingResult, ChunkSequence
from chunkviz.segment import sentence_spans
from chunkviz.strategies.common import (
    MAX_SIZE,
    OVERLAP,
    SIZE,
    UNIT,
    Unit,
    resolve_tokenizer,
)
from chunkviz.strategies.recursive import CLAUSE_LEVEL, Ruler, pack_columns, recursive_spans
from chunkviz.strategies.registry import Param, Strategy, register
from chunkviz.tokenizers import Tokenizer

MAX_SENTENCES = Param(
    "max_sentences",
    "int",
    None,
    min=1,
    max=MAX_SIZE,
    unit="sentences",
    optional=True,
    help="At most this many sentences per chunk (empty: only size limits a chunk).",
)


def sentence_split(
    text: str,
    *,
    size: int,
    overlap: int = 0,
    unit: Unit = "chars",
    max_sentences: int | None = None,
    tokenizer: Tokenizer | None = None,
) -> ChunkingResult:
    """Pack whole sentences into chunks of at most ``size`` units and ``max_sentences``.

    Args:
        text: The document.
        size: Largest chunk size in ``unit``.
        overlap: Largest size of whole trailing sentences repeated in the next chunk.
        unit: ``chars`` (code points) or ``tokens`` of ``tokenizer``.
        max_sentences: Largest number of sentences per chunk, or None for no limit.
        tokenizer: Tokenizer for ``unit="tokens"``; the bundled SentencePiece model by default.

    Returns:
        Chunks made of whole sentences, except where one sentence alone exceeds ``size``.
    """
    params = {"size": size, "overlap": overlap, "unit": unit, "max_sentences": max_sentences}
    measure = Ruler(text, resolve_tokenizer(unit, tokenizer))
    spans: list[tuple[int, int]] = []
    run_starts: list[int] = []
    run_ends: list[int] = []

    def flush() -> None:
        packed = pack_columns(run_starts, run_ends, size, overlap, measure, max_sentences)
        spans.extend(zip(*packed, strict=True))
        run_starts.clear()
        run_ends.clear()

    for s, e in sentence_spans(text):
        if measure.cost(s, e) <= size:
            run_starts.append(s)
            run_ends.append(e)
            continue
        flush()
        spans.extend(
            recursive_spans(
                text, s, e, size=size, overlap=overlap, measure=measure, level=CLAUSE_LEVEL
            )
        )
    flush()
    return ChunkingResult(text, ChunkSequence.from_spans(spans), "sentence", params)


register(
    Strategy(
        name="sentence",
        description="Whole sentences (。！？ and . ! ?) packed up to size and max_sentences; "
        "an over-long sentence is cut at 、/commas, spaces, then characters.",
        params=(SIZE, OVERLAP, UNIT, MAX_SENTENCES),
        gaps="whitespace",
        fn=sentence_split,
        size_param="size",
        resources=frozenset({"tokenizer"}),
    )
)
