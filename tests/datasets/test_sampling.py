"""Seeded question samples: reproducible, nested, order-independent."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.datasets.sampling import sample_questions
from chunkviz.errors import ParameterError
from chunkviz.model import Span


def _dataset(count=200):
    doc = Document("d", "d", "x" * count)
    qs = tuple(Question(f"q{i}", "d", "?", "x", (Span("d", i, i + 1),)) for i in range(count))
    return Dataset("toy", (doc,), qs)


def _ids(ds):
    return [q.qid for q in ds.questions]


def test_same_seed_same_sample_and_pinned_across_versions():
    ds = _dataset()
    a, b = sample_questions(ds, 5, seed=0), sample_questions(ds, 5, seed=0)
    assert _ids(a) == _ids(b)
    # Pinned: sha256-ranked, so no Python or NumPy upgrade may change it.
    assert _ids(a) == ["q16", "q48", "q133", "q136", "q165"]
    assert _ids(sample_questions(ds, 5, seed=1)) != _ids(a)


def test_sample_keeps_order_documents_and_notes():
    ds = _dataset()
    s = sample_questions(ds, 50, seed=7)
    assert len(s.questions) == 50
    idx = [int(q[1:]) for q in _ids(s)]
    assert idx == sorted(idx)
    assert s.documents == ds.documents
    assert s.notes[-1] == "sample of 50 of 200 questions (seed 7)"


def test_samples_are_nested_and_do_not_depend_on_question_order():
    ds = _dataset()
    small, large = sample_questions(ds, 20, seed=3), sample_questions(ds, 60, seed=3)
    assert set(_ids(small)) <= set(_ids(large))
    shuffled = replace(ds, questions=tuple(reversed(ds.questions)))
    assert set(_ids(sample_questions(shuffled, 20, seed=3))) == set(_ids(small))


def test_zero_means_all():
    ds = _dataset()
    assert sample_questions(ds, 0, seed=5) is ds


@pytest.mark.parametrize("n", [-1, 201])
def test_out_of_range_sample_names_the_parameter(n):
    with pytest.raises(ParameterError, match=f"sample={n}"):
        sample_questions(_dataset(), n)
