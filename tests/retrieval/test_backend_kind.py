"""Which backends encode with a model: pages ask before that work (issue 39)."""

from __future__ import annotations

import pytest

from chunkviz.retrieval.backends import backend_kind, list_backends


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("bm25", "lexical"),
        ("tfidf", "lexical"),
        ("use-m3", "dense"),
        ("e5-small", "dense"),
        ("hybrid", "hybrid"),
        ("hybrid:bm25+use-m3", "hybrid"),
        ("st:/some/model", "dense"),
        (" bm25 ", "lexical"),
    ],
)
def test_backend_kind(name, kind):
    assert backend_kind(name) == kind


def test_backend_kind_agrees_with_the_listed_backends():
    for info in list_backends():
        assert backend_kind(info.name) == info.kind
