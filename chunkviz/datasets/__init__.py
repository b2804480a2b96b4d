"""Question sets with answers as spans of documents (JSQuAD long documents, SQuAD, user QA)."""

from chunkviz.datasets.base import Dataset, Document, Question

__all__ = ["Dataset", "Document", "Question"]
