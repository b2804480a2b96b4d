"""Datasets: documents and their questions, whose ground truth is a span of the text.

``Document`` and ``Question`` are the core's own (``chunkviz.document``); they are re-exported
here for the loaders.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chunkviz.document import Document, Question

__all__ = ["Dataset", "Document", "Question"]


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
