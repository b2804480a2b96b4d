"""Documents and questions whose ground truth is a span of the document, not a chunk id."""

from __future__ import annotations

from dataclasses import dataclass, field

from chunkviz.model import Span


@dataclass(frozen=True, slots=True)
class Document:
    """A document to chunk.

    Attributes:
        doc_id: Stable identifier (e.g. the JSQuAD article id).
        title: Human-readable title.
        text: The text every offset refers to.
        paragraph_starts: Start offsets of the document's own paragraphs when it carries them
            (JSQuAD paragraphs are concatenated without separator, so they cannot be re-found).
    """

    doc_id: str
    title: str
    text: str
    paragraph_starts: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Question:
    """A question and the spans that answer it; any one contained span makes a chunk relevant.

    Attributes:
        qid: Stable identifier.
        doc_id: The document the spans refer to.
        question: The question text.
        answer: The answer text (``document.text[s.start:s.end]`` for every span).
        spans: Every span counted as the answer (all occurrences, for user QA pairs).
        alternatives: Spans of the question's other annotated answers (SQuAD/JSQuAD
            ``answers[1:]`` that lie in the document); used only by the benchmark's sensitivity
            definition "any annotated answer".
    """

    qid: str
    doc_id: str
    question: str
    answer: str
    spans: tuple[Span, ...]
    alternatives: tuple[Span, ...] = ()


@dataclass(frozen=True)
class Dataset:
    """Documents, their questions, and what was dropped while loading (never silently).

    Attributes:
        name: What to call it in reports (``jsquad``, a file name).
        documents: The documents, in a stable order.
        questions: The kept questions.
        dropped: Human-readable reasons keyed by question id, for questions that were not kept.
        notes: Facts about the loading worth showing (counts, warnings).
    """

    name: str
    documents: tuple[Document, ...]
    questions: tuple[Question, ...]
    dropped: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def document(self, doc_id: str) -> Document:
        """The document with id ``doc_id``."""
        for d in self.documents:
            if d.doc_id == doc_id:
                return d
        raise KeyError(doc_id)
