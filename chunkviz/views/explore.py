"""What the Explore page computes about one chunking: QA spans, their fate, lengths and costs.

Pure functions over a ``ChunkingResult``; the page only lays the results out.
"""

from __future__ import annotations

import operator
import statistics
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, overload

import numpy as np

from chunkviz.cost import overlap_cost_factor, predicted_chunk_count
from chunkviz.document import Question
from chunkviz.errors import ChunkvizError
from chunkviz.eval.spans import SpanStatus, chunk_ranges, cut_and_held
from chunkviz.model import ChunkingResult
from chunkviz.retrieval.headers import contextual_texts
from chunkviz.text import Lang, text
from chunkviz.text_boundaries import WordCuts, word_cuts
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


_STATUS_NAMES: tuple[QAStatus, ...] = ("contained", "broken", "not found")


def first_broken(qa: Sequence[QAResult]) -> QAResult | None:
    """The broken question whose answer comes first in the text (None if none is broken)."""
    broken = (
        [qa[i] for i in qa.with_status("broken")]
        if isinstance(qa, QAReport)
        else [r for r in qa if r.status == "broken"]
    )
    broken = [r for r in broken if r.item.spans]
    return min(broken, key=lambda r: r.item.spans[0].start, default=None)


def lesson_line(lang: Lang, qa: Sequence[QAResult]) -> str:
    """The sentence above the highlight: how many answers the chunking cuts, and the first one.

    It leads with the lesson (the view opens at the first red answer), in the chunk numbering of
    every page (``#0`` is the first chunk). Markdown; the only document text in it is none.
    """
    if not qa:
        return text(lang, "lesson.no_questions")
    broken = qa_counts(qa).broken
    if not broken:
        return text(lang, "lesson.none_cut", total=len(qa))
    first = first_broken(qa)
    chunks = first.cutting if first is not None and first.cutting else (0,)
    return text(lang, "lesson.cut", n=broken, total=len(qa), chunk=chunks[0])


@dataclass(frozen=True, slots=True)
class QACounts:
    """How the questions fare, with answers not in the document counted apart.

    A question whose answer is not found cannot be broken or contained: it is never in the
    broken total, whose base is the questions found.

    Attributes:
        contained: Found, and some chunk holds an answer span whole.
        broken: Found, and every span is cut.
        not_found: The answer is not in the document.
    """

    contained: int
    broken: int
    not_found: int

    @property
    def found(self) -> int:
        """Questions whose answer is in the document."""
        return self.contained + self.broken

    @property
    def total(self) -> int:
        """Every question."""
        return self.found + self.not_found


def qa_counts(qa: Sequence[QAResult]) -> QACounts:
    """Contained, broken and not found questions of ``qa`` (a ``QAReport`` counts its columns)."""
    if isinstance(qa, QAReport):
        broken, missing = qa.status_count("broken"), qa.status_count("not found")
    else:
        broken = sum(1 for r in qa if r.status == "broken")
        missing = sum(1 for r in qa if r.status == "not found")
    return QACounts(len(qa) - broken - missing, broken, missing)


class QuestionSpans:
    """The answer spans of a list of questions as flat arrays (they do not depend on chunking).

    Attributes:
        items: The questions.
        counts: Spans of each question.
        offsets: Question ``i``'s spans are flat spans ``offsets[i]`` to ``offsets[i + 1]``.
        owner: The question of each flat span.
        starts: Start offset of each flat span.
        ends: End offset of each flat span.
        ambiguous: ``is_ambiguous`` of each question.
    """

    __slots__ = ("ambiguous", "counts", "ends", "items", "offsets", "owner", "starts")

    def __init__(self, items: Sequence[Question]) -> None:
        """Flatten the spans of ``items``, questions in order and their spans in order."""
        self.items = tuple(items)
        n = len(self.items)
        self.counts = np.fromiter((len(item.spans) for item in self.items), np.int64, n)
        self.offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(self.counts, out=self.offsets[1:])
        flat = [(s.start, s.end) for item in self.items for s in item.spans]
        pairs = np.array(flat, dtype=np.int64).reshape(-1, 2)
        self.starts, self.ends = pairs[:, 0].copy(), pairs[:, 1].copy()
        self.owner = np.repeat(np.arange(n), self.counts)
        short = np.fromiter((len(item.answer) <= AMBIGUOUS_LENGTH for item in self.items), bool, n)
        self.ambiguous = (self.counts >= 2) | ((self.counts == 1) & short)


class QAReport(Sequence[QAResult]):
    """Every question's ``QAResult`` under one chunking, as columns until one is asked for.

    The statuses of all questions are arrays from one vectorised search (``chunk_ranges``); a
    ``QAResult`` is built when it is indexed or iterated. A 200,000-character document holds
    thousands of answers and a slider move needs only their counts (``status_count``) and the
    marks of the page drawn (``qa_marks``), not an object per answer.
    """

    __slots__ = (
        "_first",
        "_hi",
        "_items",
        "_lo",
        "_offsets",
        "_owner",
        "_stop",
        "ambiguous",
        "codes",
        "span_ends",
        "span_starts",
    )

    def __init__(self, result: ChunkingResult, items: Sequence[Question] | QuestionSpans) -> None:
        """Search the chunks around every span of every question in ``items``.

        ``items`` may come as ``QuestionSpans`` made once per document: they do not change
        with the chunking.
        """
        spans = items if isinstance(items, QuestionSpans) else QuestionSpans(items)
        self._items = spans.items
        self._offsets = spans.offsets
        self._owner = spans.owner
        #: Start and end offset of every span, questions in order and their spans in order.
        self.span_starts = spans.starts
        self.span_ends = spans.ends
        self._first, self._stop, self._lo, self._hi = chunk_ranges(result, spans.starts, spans.ends)
        held = np.zeros(len(self._items), dtype=np.int64)
        np.add.at(held, self._owner, (self._hi > self._lo).astype(np.int64))
        #: Status of each question: 0 contained, 1 broken, 2 not found (``_STATUS_NAMES``).
        self.codes = np.where(spans.counts == 0, 2, np.where(held > 0, 0, 1))
        #: ``is_ambiguous`` of each question.
        self.ambiguous = spans.ambiguous

    def status_count(self, status: QAStatus) -> int:
        """How many questions have ``status``."""
        return int(np.count_nonzero(self.codes == _STATUS_NAMES.index(status)))

    def with_status(self, status: QAStatus) -> list[int]:
        """Indices of the questions that have ``status``, in order."""
        return np.flatnonzero(self.codes == _STATUS_NAMES.index(status)).tolist()

    def marks(self, start: int, stop: int) -> list[Mark]:
        """``qa_marks`` of the questions with a span that touches ``[start, stop)``."""
        touching = (self.span_ends > start) & (self.span_starts < stop)
        chosen = np.zeros(len(self._items), dtype=bool)
        chosen[self._owner[touching]] = True
        spans = np.flatnonzero(chosen[self._owner])  # every span of those questions, in order
        owner = self._owner[spans].tolist()
        ranges = zip(
            *(a[spans].tolist() for a in (self._first, self._stop, self._lo, self._hi)), strict=True
        )
        counts = np.diff(self._offsets).tolist()
        statuses: dict[int, list[SpanStatus]] = {}
        for i, (first, stop_, lo, hi) in zip(owner, ranges, strict=True):
            if hi > lo and counts[i] == 1:
                # Most marks: a question's only span, held whole. Its mark needs no statuses.
                statuses[i] = []
                continue
            mine = statuses.setdefault(i, [])
            mine.append(
                SpanStatus(self._items[i].spans[len(mine)], *cut_and_held(first, stop_, lo, hi))
            )
        out: list[Mark] = []
        for i, mine in statuses.items():
            if not mine:
                span = self._items[i].spans[0]
                out.append(Mark(span.start, span.end, self._items[i].question))
                continue
            code = int(self.codes[i])
            containing = (
                mine[0].containing
                if len(mine) == 1
                else tuple(sorted({c for st in mine for c in st.containing}))
            )
            out.extend(_marks(self._items[i], _STATUS_NAMES[code], mine, containing))
        return out

    def spans_of(self, i: int) -> range:
        """Flat indices of question ``i``'s spans."""
        return range(int(self._offsets[i]), int(self._offsets[i + 1]))

    def _result(self, i: int) -> QAResult:
        item = self._items[i]
        spans = self.spans_of(i)
        if len(spans) == 1:
            j = spans.start
            containing, cutting = cut_and_held(
                int(self._first[j]), int(self._stop[j]), int(self._lo[j]), int(self._hi[j])
            )
        else:
            held: set[int] = set()
            cut: set[int] = set()
            for j in spans:
                whole, part = cut_and_held(
                    int(self._first[j]), int(self._stop[j]), int(self._lo[j]), int(self._hi[j])
                )
                held.update(whole)
                cut.update(part)
            containing, cutting = tuple(sorted(held)), tuple(sorted(cut))
        return QAResult(
            item, _STATUS_NAMES[int(self.codes[i])], containing, cutting, bool(self.ambiguous[i])
        )

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> QAResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[QAResult]: ...

    def __getitem__(self, index: int | slice) -> QAResult | list[QAResult]:
        if isinstance(index, slice):
            return [self._result(i) for i in range(len(self))[index]]
        if not -len(self) <= index < len(self):
            raise IndexError(f"question {index} of {len(self)}")
        return self._result(index % len(self))

    def __iter__(self) -> Iterator[QAResult]:
        return map(self._result, range(len(self)))

    def __repr__(self) -> str:
        return f"QAReport({len(self)} questions)"


def assess_qa(result: ChunkingResult, items: Sequence[Question] | QuestionSpans) -> QAReport:
    """The status of every question under ``result`` (``items`` as questions or their spans).

    A question is ``broken`` when no chunk holds any of its spans whole, ``not found`` when it
    has no span. The chunks around all spans are found at once (``chunk_ranges``); each
    ``QAResult`` is built when it is read.
    """
    return QAReport(result, items)


def qa_marks(
    results: Sequence[QAResult], result: ChunkingResult, *, start: int = 0, end: int | None = None
) -> list[Mark]:
    """Highlight marks of the answers that touch ``[start, end)`` (the whole text by default).

    ``results`` are ``assess_qa``'s for ``result`` (any other sequence of them is assessed
    again). Only a broken question's spans are red (``Mark.broken``). For a contained question,
    a whole span is an ``answer`` mark, or ``ambiguous`` when the pair gave no position and the
    answer occurs more than once; a cut span is a ``cut_copy`` (another copy is whole). A one-
    or two-character answer found more than once is not marked unless broken: its copies are
    noise. Marks come in question order, so a page's marks are those of the whole text that
    touch it, in the same order (and so drawn alike).
    """
    report = (
        results if isinstance(results, QAReport) else assess_qa(result, [r.item for r in results])
    )
    return report.marks(start, len(result.text) if end is None else end)


def qa_report(
    result: ChunkingResult, items: Sequence[Question], *, start: int = 0, end: int | None = None
) -> tuple[QAReport, list[Mark]]:
    """``assess_qa`` of every question and ``qa_marks`` of the answers in ``[start, end)``."""
    results = assess_qa(result, items)
    return results, qa_marks(results, result, start=start, end=end)


def _marks(
    item: Question, status: QAStatus, mine: Sequence[SpanStatus], containing: tuple[int, ...]
) -> list[Mark]:
    label = item.question
    if status == "broken":
        return [Mark(s.span.start, s.span.end, label, True, s.cutting) for s in mine]
    if len(mine) > 1 and len(item.answer) <= AMBIGUOUS_LENGTH:
        return []
    several = len(mine) > 1
    out = []
    for s in mine:
        if s.broken:
            out.append(
                Mark(s.span.start, s.span.end, label, False, s.cutting, "cut_copy", containing)
            )
        else:
            out.append(
                Mark(
                    s.span.start, s.span.end, label, False, (), "ambiguous" if several else "answer"
                )
            )
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
        word_cuts: The cuts and those inside a word (``chunkviz.text_boundaries.word_cuts``).
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
    word_cuts: WordCuts | None = None

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
    if document_prefix:
        texts = [document_prefix + t for t in texts]
    count = getattr(tokenizer, "count", None)  # count_tokens' fast path, looked up once
    if count is not None:
        return tuple(count(t) if t else 0 for t in texts)
    return tuple(count_tokens(tokenizer, t) for t in texts)


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
    columns = result.columns  # lengths from the offset columns, without a Chunk per chunk
    chars = tuple(map(operator.sub, columns.ends, columns.starts))
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
    embedded = sum(chars) + sum(map(len, columns.prefixes or ()))
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
        word_cuts=word_cuts(result),
    )


def words_at_cuts(
    source: str, cuts: WordCuts | None, start: int = 0, end: int | None = None
) -> dict[int, str]:
    """Each cut inside a word in ``[start, end]``, with the word it cuts (the hover text).

    Only the page shown is looked at, so a long document costs what its page costs.
    """
    if cuts is None:
        return {}
    return {at: source[a:b] for at, (a, b) in cuts.words(source, start, end).items()}


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
