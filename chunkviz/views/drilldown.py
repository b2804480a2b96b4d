"""The Benchmark dashboard's drill-down: one question under every configuration, by offsets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from chunkviz.errors import ParameterError
from chunkviz.eval.results import Results


def question_label(qid: str, texts: Mapping[str, str]) -> str:
    """What the drill-down's picker shows for a question: its text, then its id.

    Typing in the picker then finds a question by the words of its text; without the dataset
    (``texts`` empty) the id alone.
    """
    text = texts.get(qid)
    return f"{text} ({qid})" if text else qid


def _question_index(results: Results, qid: str) -> int:
    try:
        return results.question_ids.index(qid)
    except ValueError:
        raise ParameterError("unknown_question", value=qid) from None


Range = tuple[int, int]


@dataclass(frozen=True, slots=True)
class DrillRow:
    """One configuration in the drill-down of a question.

    Attributes:
        label: Configuration label.
        rank: Rank of the best chunk that contains an answer span (None: lost before retrieval).
        containing: ``(start, end)`` of each chunk of the question's document that contains an
            answer span (empty when the file carries no chunk offsets, or when the span is lost).
        cutting: When no chunk contains a span: the chunks that overlap it, i.e. cut it.
        top: ``(doc_id, start, end)`` of the top-ranked chunk (None without retrieval data).
        top_relevant: Whether that chunk contains an answer span.
    """

    label: str
    rank: int | None
    containing: tuple[Range, ...]
    cutting: tuple[Range, ...]
    top: tuple[str, int, int] | None
    top_relevant: bool | None


def drilldown_rows(
    results: Results, qid: str, doc_id: str, spans: Sequence[Range]
) -> tuple[DrillRow, ...]:
    """Rank, answer-holding chunks and top-ranked chunk of one question per configuration.

    Chunk positions come from the file's ``retrieval`` section (``chunk_offsets``: document
    index, start and end per chunk; ``topk``: chunk indices per question) and are compared with
    the answer spans by offsets only.
    """
    i = _question_index(results, qid)
    doc_ids = list(results.retrieval.document_ids)
    rows = []
    for lab in results.labels:
        rank = results.ranks[lab][i]
        offsets = results.retrieval.chunk_offsets[lab]
        containing: tuple[Range, ...] = ()
        cutting: tuple[Range, ...] = ()
        top = None
        top_relevant = None
        if doc_id in doc_ids:
            d = doc_ids.index(doc_id)
            own = [(s, e) for dd, s, e in offsets if dd == d]
            containing = tuple(c for c in own if any(c[0] <= a and b <= c[1] for a, b in spans))
            if not containing:
                cutting = tuple(c for c in own if any(c[0] < b and a < c[1] for a, b in spans))
            tops = results.retrieval.topk[lab][i]
            if tops:
                dd, start, end = offsets[tops[0]]
                top = (doc_ids[dd], start, end)
                top_relevant = top[0] == doc_id and (start, end) in set(containing)
        rows.append(DrillRow(lab, rank, containing, cutting, top, top_relevant))
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class AnswerContext:
    """The answer span with the text around it, cut from the document by offsets.

    Attributes:
        before: Text just before the span (at most the requested width).
        answer: ``text[start:end]``.
        after: Text just after the span.
        start: Span start in the document.
        end: Span end in the document.
    """

    before: str
    answer: str
    after: str
    start: int
    end: int


def answer_context(text: str, start: int, end: int, width: int = 120) -> AnswerContext:
    """``text[start:end]`` with up to ``width`` characters on each side."""
    if not 0 <= start < end <= len(text):
        raise ParameterError("span_outside", start=start, end=end, length=len(text))
    return AnswerContext(
        text[max(0, start - width) : start], text[start:end], text[end : end + width], start, end
    )
