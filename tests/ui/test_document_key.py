"""``document_key``: one digest per document object, equal for equal documents (issue 39)."""

from __future__ import annotations

import hashlib

import pytest

from chunkviz.document import Document, locate_questions
from chunkviz.ui import resources


def _doc(text: str, answer: str) -> Document:
    doc = Document("d", "d", text, origin="paste")
    return doc.with_questions(locate_questions(text, [{"question": "q", "answer": answer}]))


def test_equal_documents_share_a_key_and_a_question_changes_it():
    a, b = _doc("梅雨は六月に来る。", "六月"), _doc("梅雨は六月に来る。", "六月")
    assert a is not b
    assert resources.document_key(a) == resources.document_key(b)
    assert resources.document_key(a) != resources.document_key(_doc("梅雨は六月に来る。", "梅雨"))


def test_the_same_document_is_digested_once(monkeypatch):
    doc = _doc("豪雨が続いた。" * 50, "豪雨")
    first = resources.document_key(doc)
    calls = []
    real = hashlib.sha256

    def counting(*args: object) -> object:
        calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(resources.hashlib, "sha256", counting)
    assert [resources.document_key(doc) for _ in range(15)] == [first] * 15
    assert calls == []  # a slider move calls it 15 times: no digest, no hash of the document
    other = _doc("豪雨が続いた。" * 50, "続いた")
    assert resources.document_key(other) != first
    assert calls == [1]


@pytest.mark.parametrize("n", [40])
def test_the_memo_stays_bounded(n):
    docs = [_doc(f"文書{i}の本文。", "本文") for i in range(n)]
    keys = [resources.document_key(d) for d in docs]
    assert len(set(keys)) == n
    assert len(resources._KEYS) <= resources._KEYS_KEPT
