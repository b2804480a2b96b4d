from __future__ import annotations

import numpy as np

from chunkviz.retrieval.ranking import rank_order
from chunkviz.retrieval.similarity import similarity


def test_dot_prefers_the_long_vector_cosine_the_aligned_one_l2_the_near_one():
    docs = np.array([[10.0, 4.0], [1.0, 0.1], [0.5, 0.5]])  # long, aligned-short, near
    q = np.array([1.0, 0.0])
    assert rank_order(similarity(q, docs, "dot"))[0] == 0
    assert rank_order(similarity(q, docs, "cosine"))[0] == 1
    assert rank_order(similarity(q, docs, "l2"))[0] == 1
    q_near = np.array([0.6, 0.6])
    assert rank_order(similarity(q_near, docs, "l2"))[0] == 2
    assert rank_order(similarity(q_near, docs, "dot"))[0] == 0


def test_on_unit_vectors_the_three_measures_agree():
    rng = np.random.default_rng(0)
    docs = rng.normal(size=(20, 5))
    docs /= np.linalg.norm(docs, axis=1, keepdims=True)
    q = rng.normal(size=5)
    q /= np.linalg.norm(q)
    orders = [rank_order(similarity(q, docs, m)).tolist() for m in ("dot", "cosine", "l2")]
    assert orders[0] == orders[1] == orders[2]


def test_cosine_of_a_zero_vector_is_zero_not_nan():
    out = similarity(np.array([1.0, 0.0]), np.array([[0.0, 0.0]]), "cosine")
    assert out.tolist() == [0.0]
