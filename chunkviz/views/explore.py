"""What the Explore page computes about one chunking: QA spans, their fate, lengths and costs.

Pure functions over a ``ChunkingResult``; the page only lays the results out.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from chunkviz.cost import overlap_cost_factor, predicted_chunk_count
from chunkviz.document import Question
from chunkviz.errors import ChunkvizError
from chunkviz.eval.spans import SpanStatus, analyze_spans
from chunkviz.model import ChunkingResult
from chunkviz.retrieval.headers import contextual_texts
from chunkviz.tokenizers import Tokenizer, count_tokens, token_boundaries
from chunkviz.views.highlight import Mark

QAStatus = Literal["contained", "broken", "not found"]

# Answers this short occur all over a text ("2", "南海"): a pair that gives no position cannot say
# which occurrence it means.
AMBIGUOUS_LENGTH = 2


def is_ambiguous(item: Question) -> bool:
    """Whether the pair does not pin its answer down to one place.

    True when the answer was located by its text and found more than once (a recorded position
    gives exactly one span), or when it is one or two characters long. An answer that is not in
    the text is "not found", not ambiguous.
    """
    count = len(item.spans)
    return count >= 2 or (count == 1 and len(item.answer) <= AMBIGUOUS_LENGTH)


@dataclass(frozen=True, slots=True)
class QAResult:
    """How one question fares under a chunking.

    Attributes:
        item: The question and its spans.
        status: ``contained`` when some chunk holds one of its spans whole, ``broken`` when every
            span is cut, ``not found`` when the answer is not in the document.
        containing: Chunks that hold a whole span.
        cutting: Chunks that cut a span (for broken questions).
        ambiguous: The answer occurs more than once with no recorded position, or is one or two
            characters long (``is_ambiguous``): where it was asked about is a guess.
    """

    item: Question
    status: QAStatus
    containing: tuple[int, ...]
    cutting: tuple[int, ...]
    ambiguous: bool = False


def assess_qa(result: ChunkingResult, items: Sequence[Question]) -> list[QAResult]:
    """The status of every question under ``result``."""
    return qa_report(result, items)[0]


def qa_marks(results: Sequence[QAResult], result: ChunkingResult) -> list[Mark]:
    """Highlight marks of the questions' answers (``qa_report``'s rule)."""
    return qa_report(result, [r.item for r in results])[1]


def qa_report(
    result: ChunkingResult, items: Sequence[Question]
) -> tuple[list[QAResult], list[Mark]]:
    """Question statuses and the highlight marks of their spans, from one span analysis.

    One rule for both: a question is ``broken`` when no chunk holds any of its spans whole, and
    only a broken question's spans are red (``Mark.broken``). For a contained question, a whole
    span is an ``answer`` mark, or ``ambiguous`` when the pair gave no position and the answer
    occurs more than once; a cut span is a ``cut_copy`` (another copy is whole). A one- or
    two-character answer found more than once is not marked unless broken: its copies are noise.
    """
    flat = [span for item in items for span in item.spans]
    statuses = analyze_spans(result, flat).statuses
    results: list[QAResult] = []
    marks: list[Mark] = []
    pos = 0
    for item in items:
        count = len(item.spans)
        mine = statuses[pos : pos + count]
        pos += count
        if count == 1:  # the common case, without the set arithmetic
            containing, cutting = mine[0].containing, mine[0].cutting
        else:
            containing = tuple(sorted({c for s in mine for c in s.containing}))
            cutting = tuple(sorted({c for s in mine for c in s.cutting}))
        status: QAStatus
        if not count:
            status = "not found"
        elif containing:
            status = "contained"
        else:
            status = "broken"
        ambiguous = is_ambiguous(item)
        results.append(QAResult(item, status, containing, cutting, ambiguous))
        marks.extend(_marks(item, status, mine, containing))
    return results, marks


def _marks(item: Question, status: QAStatus, mine: Sequence[SpanStatus],
           containing: tuple[int, ...]) -> list[Mark]:
    label = item.question
    if status == "broken":
        return [Mark(s.span.start, s.span.end, label, True, s.cutting) for s in mine]
    if len(mine) > 1 and len(item.answer) <= AMBIGUOUS_LENGTH:
        return []
    several = len(mine) > 1
    out = []
    for s in mine:
        if s.broken:
            out.append(Mark(s.span.start, s.span.end, label, False, s.cutting, "cut_copy",
                            containing))
        else:
            out.append(Mark(s.span.start, s.span.end, label, False, (),
                            "ambiguous" if several else "answer"))
    return out


@dataclass(frozen=True, slots=True)
class ChunkStats:
    """Lengths and costs of one chunking.

    Attributes:
        count: Number of chunks.
        doc_chars: Length of the document in characters.
        char_lengths: Length of every chunk in characters.
        token_lengths: Tokens of every chunk (prefix included: what the model reads), or None.
        doc_tokens: Tokens of the whole document, or None.
        max_input_tokens: The model's input limit, or None when it has none.
        over_limit: Chunks with more tokens than the limit (the model silently truncates them).
        predicted: The fixed-window formula's count for the strategy's size and overlap in its
            unit, or None when the strategy has no size.
        cost_factor: 1 / (1 - overlap/size), or None without size and overlap.
        embedded_chars: Characters embedded in total (prefixes included).
    """

    count: int
    doc_chars: int
    char_lengths: tuple[int, ...]
    token_lengths: tuple[int, ...] | None
    doc_tokens: int | None
    max_input_tokens: int | None
    over_limit: tuple[int, ...]
    predicted: int | None
    cost_factor: float | None
    embedded_chars: int

    @property
    def actual_factor(self) -> float | None:
        """Embedded characters over document characters (the measured cost of overlap)."""
        return self.embedded_chars / self.doc_chars if self.doc_chars else None


def summary(values: Sequence[int]) -> tuple[int, float, int] | None:
    """``(min, median, max)`` of ``values``, or None when empty."""
    if not values:
        return None
    return min(values), float(statistics.median(values)), max(values)


def chunk_token_counts(
    result: ChunkingResult,
    tokenizer: Tokenizer,
    document_prefix: str = "",
    *,
    title: str = "",
    context: str = "none",
) -> tuple[int, ...]:
    """Tokens of each chunk as the model reads it, tokenized alone.

    That is the backend's ``document_prefix`` (``検索文書: `` for ruri), the contextual header
    of ``context`` (``chunkviz.retrieval.headers``: the document ``title`` and its heading
    breadcrumb), the chunk's own prefix and its text: the same count
    ``chunkviz.retrieval.backends.over_limit`` uses on what the benchmark embeds.
    """
    texts = contextual_texts(result, title, context)
    return tuple(count_tokens(tokenizer, document_prefix + t) for t in texts)


def chunk_stats(
    result: ChunkingResult,
    *,
    token_lengths: Sequence[int] | None = None,
    doc_tokens: int | None = None,
    max_input_tokens: int | None = None,
) -> ChunkStats:
    """Lengths, the formula's prediction, the overlap cost and the chunks over the input limit.

    Args:
        result: The chunking.
        token_lengths: Tokens of each chunk (``chunk_token_counts``), if a tokenizer is active.
        doc_tokens: Tokens of the whole document, needed for the prediction in tokens.
        max_input_tokens: The active model's input limit (None: no limit).
    """
    chars = tuple(c.length for c in result.chunks)
    tokens = tuple(token_lengths) if token_lengths is not None else None
    over: tuple[int, ...] = ()
    if tokens is not None and max_input_tokens is not None:
        over = tuple(i for i, n in enumerate(tokens) if n > max_input_tokens)
    params = result.params
    predicted = None
    factor = None
    if "size" in params:
        size = int(params["size"])
        overlap = int(params.get("overlap", 0) or 0)
        unit = params.get("unit", "chars")
        length = len(result.text) if unit == "chars" else doc_tokens
        try:
            factor = overlap_cost_factor(size, overlap)
            if length is not None:
                predicted = predicted_chunk_count(length, size, overlap)
        except ChunkvizError:
            factor = None
    embedded = sum(len(c.prefix) + c.length for c in result.chunks)
    return ChunkStats(
        count=len(result.chunks),
        doc_chars=len(result.text),
        char_lengths=chars,
        token_lengths=tokens,
        doc_tokens=doc_tokens,
        max_input_tokens=max_input_tokens,
        over_limit=over,
        predicted=predicted,
        cost_factor=factor,
        embedded_chars=embedded,
    )


def document_tokens(text: str, tokenizer: Tokenizer) -> int:
    """Tokens of the whole document as the boundaries a token window uses."""
    return len(token_boundaries(tokenizer, text)) - 1 if text else 0


CHUNK_COLUMNS = ("index", "start", "end", "chars", "tokens", "prefix", "preview")


def chunk_rows(
    result: ChunkingResult,
    token_lengths: Sequence[int] | None,
    preview: int = 80,
    words: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Rows of the chunk table: index, offsets, lengths, prefix and a text preview.

    ``words`` names the columns (``CHUNK_COLUMNS``) in the UI language.
    """
    name = {c: (words or {}).get(c, c) for c in CHUNK_COLUMNS}
    rows = []
    text = result.text
    for i, c in enumerate(result.chunks):
        body = text[c.start : c.end]
        short = body if len(body) <= preview else body[:preview] + "…"
        rows.append(
            {
                name["index"]: i,
                name["start"]: c.start,
                name["end"]: c.end,
                name["chars"]: c.length,
                name["tokens"]: token_lengths[i] if token_lengths is not None else None,
                name["prefix"]: c.prefix,
                name["preview"]: short.replace("\n", "⏎"),
            }
        )
    return rows
