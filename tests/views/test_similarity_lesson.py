from __future__ import annotations

import numpy as np
import pytest

from chunkviz.errors import ParameterError
from chunkviz.retrieval.backends import get_backend
from chunkviz.views.similarity_lesson import (
    DEFAULT_TEXT,
    lesson_choices,
    measure_ranks,
    most_moved,
    norm_stats,
    pca_2d,
    pearson,
    rank_spread,
)

# Query along x. Doc 0 is short and exactly on topic, doc 1 long and 45° off, doc 2 has the
# tip nearest the query: dot, cosine and L2 each put a different document first.
DOCS = np.array([[0.5, 0.0, 0.0], [3.0, 3.0, 0.0], [1.0, 0.3, 0.0], [-1.0, 0.0, 0.0]])
QUERY = np.array([1.0, 0.0, 0.0])


def test_measure_ranks_are_one_based_per_document():
    ranks = measure_ranks(QUERY, DOCS)
    assert ranks["dot"].tolist() == [3, 1, 2, 4]
    assert ranks["cosine"].tolist() == [1, 3, 2, 4]
    # L2: doc 3 (distance 2) is nearer than the long doc 1 (distance 3.6).
    assert ranks["l2"].tolist() == [2, 4, 1, 3]


def test_rank_spread_and_most_moved():
    ranks = measure_ranks(QUERY, DOCS)
    assert rank_spread(ranks).tolist() == [2, 3, 1, 1]
    # Docs 2 and 3 both spread by 1; doc 2 has the better cosine rank.
    assert most_moved(ranks, n=4) == [1, 0, 2, 3]
    assert most_moved(ranks, n=2) == [1, 0]
    same = {m: np.array([1, 2, 3]) for m in ("dot", "cosine", "l2")}
    assert most_moved(same) == []
    with pytest.raises(ParameterError, match="n must be at least 1"):
        most_moved(ranks, n=0)


def test_pearson_known_values_and_undefined_cases():
    assert pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert pearson([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert pearson([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    assert pearson([1], [1]) is None
    assert pearson([1, 2, 3], [5, 5, 5]) is None
    with pytest.raises(ParameterError, match="same length"):
        pearson([1, 2], [1, 2, 3])


def test_norm_stats_raw_vectors_follow_length():
    lengths = [10, 40, 90]
    vectors = np.array([[1.0, 0.0], [1.5, 1.5], [0.0, 3.2]])
    stats = norm_stats(lengths, vectors)
    assert stats.norms.tolist() == pytest.approx([1.0, np.hypot(1.5, 1.5), 3.2])
    assert stats.pearson is not None
    assert stats.pearson > 0.9
    assert not stats.unit_vectors


def test_norm_stats_unit_vectors_have_no_correlation():
    rng = np.random.default_rng(0)
    v = rng.normal(size=(5, 8)).astype(np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    stats = norm_stats([5, 50, 500, 20, 7], v)
    assert stats.unit_vectors
    assert stats.pearson is None
    # On unit vectors the three measures give one ranking.
    ranks = measure_ranks(v[0] * 2.0, v)
    assert ranks["dot"].tolist() == ranks["cosine"].tolist() == ranks["l2"].tolist()


def test_norm_stats_rejects_mismatch():
    with pytest.raises(ParameterError, match="same chunks"):
        norm_stats([1, 2], np.ones((3, 2)))


def test_pca_2d_recovers_the_spread_axis_and_projects_the_query():
    docs = np.array([[0.0, 0.0, 1.0], [2.0, 0.0, 1.0], [4.0, 0.0, 1.0], [6.0, 0.1, 1.0]])
    proj = pca_2d(docs, np.array([3.0, 0.05, 1.0]))
    assert proj.chunks.shape == (4, 2)
    # Almost all variance lies along x: first coordinates are x minus its mean (3).
    assert proj.chunks[:, 0] == pytest.approx([-3.0, -1.0, 1.0, 3.0], abs=0.01)
    assert proj.explained[0] > 0.99
    # The query sits at the x mean and 0.025 above the y mean, along the second axis.
    assert proj.query == pytest.approx([0.0, 0.025], abs=0.005)


def test_pca_2d_single_document_and_bad_shapes():
    proj = pca_2d(np.array([[1.0, 2.0]]), np.array([0.0, 0.0]))
    assert proj.chunks.tolist() == [[0.0, 0.0]]
    assert proj.explained.tolist() == [0.0, 0.0]
    with pytest.raises(ParameterError, match="documents must be"):
        pca_2d(np.zeros((0, 2)), np.zeros(2))


def test_default_text_has_paragraphs_of_very_different_lengths():
    lengths = [len(p) for p in DEFAULT_TEXT.split("\n\n")]
    assert len(lengths) >= 4
    assert max(lengths) > 8 * min(lengths)


@pytest.mark.parametrize(("n", "dim"), [(6, 40), (40, 6)])
def test_pca_2d_matches_numpy_svd_in_both_regimes(n, dim):
    rng = np.random.default_rng(n)
    docs = rng.normal(size=(n, dim)) * np.linspace(3.0, 0.5, dim)
    query = rng.normal(size=dim)
    proj = pca_2d(docs, query)
    centred = docs - docs.mean(axis=0)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    axes = vt[:2] * np.sign(vt[:2][np.arange(2), np.argmax(np.abs(vt[:2]), axis=1)])[:, None]
    assert proj.chunks == pytest.approx(centred @ axes.T, abs=1e-8)
    assert proj.query == pytest.approx((query - docs.mean(axis=0)) @ axes.T, abs=1e-8)
    assert proj.explained == pytest.approx(s[:2] ** 2 / (s**2).sum())


def test_pca_2d_sparse_route_matches_numpy_svd():
    # Over a million cells and under 5% non-zero: the scipy sparse Gram route.
    rng = np.random.default_rng(1)
    docs = np.zeros((70, 16_000))
    for row in docs:
        cols = rng.choice(16_000, size=120, replace=False)
        row[cols] = rng.uniform(0.5, 3.0, size=120)
    query = docs[3] * 0.5
    proj = pca_2d(docs, query)
    centred = docs - docs.mean(axis=0)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    axes = vt[:2] * np.sign(vt[:2][np.arange(2), np.argmax(np.abs(vt[:2]), axis=1)])[:, None]
    assert proj.chunks == pytest.approx(centred @ axes.T, abs=1e-8)
    assert proj.query == pytest.approx((query - docs.mean(axis=0)) @ axes.T, abs=1e-8)
    assert proj.explained == pytest.approx(s[:2] ** 2 / (s**2).sum())


def test_a_backend_without_vectors_offers_the_lesson_backends_available():
    assert lesson_choices(get_backend("tfidf"), {"tfidf", "bm25"}) is None  # raw TF-IDF vectors
    # BM25 has no vectors: the available lesson backends, in the lesson's order.
    assert lesson_choices(get_backend("bm25"), {"use-m3", "bm25", "tfidf"}) == ["tfidf", "use-m3"]
    assert lesson_choices(get_backend("bm25"), {"bm25"}) == []
