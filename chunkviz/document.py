"""The one document type: text, name, origin, paragraph starts and questions with answer spans.

Built-in samples (``chunkviz.samples.load_sample``), a pasted text, an uploaded file and every
dataset loader (``chunkviz.datasets``) produce a ``Document``; ``chunk_document`` is the one way
to chunk one, so a strategy that can use the document's own paragraph starts always gets them
(nobody passes them by hand).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from chunkviz.answers import normalize_pairs
from chunkviz.api import chunk
from chunkviz.errors import DatasetError
from chunkviz.locate import find_all, fold
from chunkviz.model import ChunkingResult, Span
from chunkviz.strategies import get_strategy

if TYPE_CHECKING:
    from chunkviz.pdf.pages import PageLayout

Origin = Literal["sample", "paste", "upload", "dataset"]


@dataclass(frozen=True, slots=True)
class Question:
    """A question and the spans that answer it; any one contained span makes a chunk relevant.

    Attributes:
        qid: Stable identifier.
        doc_id: The document the spans refer to.
        question: The question text.
        answer: The answer text as given; ``document.text[s.start:s.end]`` for every span,
            up to character width, compatibility forms and whitespace (a user's answer is found
            as a reader finds it, ``chunkviz.locate``).
        spans: Every span counted as the answer (all occurrences, for user QA pairs); empty when
            a user's answer is not in the document.
        alternatives: Spans of the question's other annotated answers (SQuAD/JSQuAD
            ``answers[1:]`` that lie in the document); used only by the benchmark's sensitivity
            definition "any annotated answer".
        question_type: The kind of question as the dataset labels it (JaQuAD's
            ``question_type``, e.g. ``Multiple sentence reasoning``); empty when not labelled.
        answer_type: The kind of answer as the dataset labels it (JaQuAD's ``answer_type`` of
            the first answer, e.g. ``Date/Time``); empty when not labelled.
    """

    qid: str
    doc_id: str
    question: str
    answer: str
    spans: tuple[Span, ...]
    alternatives: tuple[Span, ...] = ()
    question_type: str = ""
    answer_type: str = ""


@dataclass(frozen=True, slots=True)
class Document:
    """A document to chunk, with what is known about it.

    Attributes:
        doc_id: Stable identifier: the sample name, the dataset's article id, or for a paste,
            an upload and a file on the command line ``content_id(text)``.
        title: What to call it (a file name is the user's text: escape it when rendered).
        text: The text every offset refers to.
        paragraph_starts: Start offsets of the document's own paragraphs when it carries them
            (JSQuAD paragraphs are concatenated without separator, so they cannot be re-found).
        origin: Where it came from: ``sample``, ``paste``, ``upload`` or ``dataset``.
        questions: Its questions, each with the spans of ``text`` that answer it.
        layout: For a document read from a PDF, each offset's page and box (compact arrays,
            compared by identity); None otherwise.
    """

    doc_id: str
    title: str
    text: str
    paragraph_starts: tuple[int, ...] = ()
    origin: Origin = "dataset"
    questions: tuple[Question, ...] = ()
    layout: PageLayout | None = None

    def with_questions(self, questions: Sequence[Question]) -> Document:
        """The same document with ``questions`` in place of its own."""
        return replace(self, questions=tuple(questions))

    def to_json(self) -> str:
        """The document as JSON: id, title, origin, text, paragraph starts and questions.

        Offsets count code points of ``text``; a PDF's page layout is left out.
        """

        def spans(of: Sequence[Span]) -> list[list[int]]:
            return [[s.start, s.end] for s in of]

        return json.dumps(
            {
                "doc_id": self.doc_id,
                "title": self.title,
                "origin": self.origin,
                "text": self.text,
                "paragraph_starts": list(self.paragraph_starts),
                "questions": [
                    {
                        "qid": q.qid,
                        "question": q.question,
                        "answer": q.answer,
                        "spans": spans(q.spans),
                        "alternatives": spans(q.alternatives),
                    }
                    for q in self.questions
                ],
            },
            ensure_ascii=False,
        )


def content_id(text: str) -> str:
    """The id of a document made from a user's text: ``doc-`` and 16 hex digits of its SHA-256.

    Derived from the text alone, so the same text gets the same id however it arrived (pasted,
    uploaded once or four times, a DOCX in the app or its text on the command line): the id
    seeds synthetic questions (their ids hold it) and lands in exports, and a random upload id
    there made the same file give different recommendations. The name stays the title.
    """
    return "doc-" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def locate_questions(
    text: str, pairs: Sequence[Mapping[str, Any]], doc_id: str = "doc"
) -> list[Question]:
    """Turn question/answer dicts into Questions with spans of ``text``, none dropped.

    A pair with ``start`` (a built-in sample's known answer position) is taken at that position;
    otherwise every occurrence of the answer counts, found as a reader finds it (width,
    compatibility forms and whitespace aside: ``chunkviz.locate``), as a user's answer
    may appear more than once, and an answer not in the text gets no span.

    Raises:
        DatasetError: A pair without ``question``/``answer``, an empty one, or a ``start`` that
            does not point at the answer.
    """
    items = []
    for n, (pair, clean) in enumerate(zip(pairs, normalize_pairs(pairs), strict=True), start=1):
        start = pair.get("start")
        # A known position keeps the answer exactly; a searched answer is stripped, as the
        # corpus's QA-pair loader strips it.
        question = clean["question"]
        answer = str(pair["answer"]) if start is not None else clean["answer"]
        if not question or not answer.strip():
            raise DatasetError("qa_pair_empty", row=n, question=question, answer=answer)
        if start is not None:
            s = int(start)
            if text[s : s + len(answer)] != answer:
                raise DatasetError("qa_pair_start", row=n, start=s, answer=answer)
            places = [(s, s + len(answer))]
        else:
            places = find_all(fold(text), answer)
        spans = tuple(Span(doc_id, a, b) for a, b in places)
        items.append(Question(f"q{n}", doc_id, question, answer, spans))
    return items


def chunk_document(
    document: Document,
    strategy: str,
    params: Mapping[str, Any] | None = None,
    **resources: Any,
) -> ChunkingResult:
    """Chunk ``document`` with the registered ``strategy`` and its ``params``.

    The document's own paragraph starts go to every strategy that accepts them, so
    ``paragraph`` reproduces a corpus's (or a sample's) paragraphs exactly wherever it runs.

    Args:
        document: The document.
        strategy: A registered strategy name.
        params: Strategy parameters (checked against its schema; missing ones take defaults).
        **resources: Objects the strategy may use (``tokenizer``, ``embedder``,
            ``language_model``); names the strategy does not accept are left out.

    Returns:
        The chunking of ``document.text``.

    Raises:
        UnknownStrategyError: ``strategy`` is not registered.
        ParameterError: A parameter is unknown or breaks its rule.
    """
    spec = get_strategy(strategy)
    extra = {k: v for k, v in resources.items() if k in spec.resources}
    if "paragraph_starts" in spec.resources and document.paragraph_starts:
        extra.setdefault("paragraph_starts", document.paragraph_starts)
    return chunk(document.text, strategy, **dict(params or {}), **extra)
