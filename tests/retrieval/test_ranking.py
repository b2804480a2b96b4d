from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkviz.errors import ParameterError
from chunkviz.retrieval.ranking import best_relevant_rank, best_relevant_ranks, rank_order, top_k


def test_best_relevant_rank_ties_count_against_the_relevant_chunk():
    scores = np.array([0.9, 0.5, 0.5, 0.5, 0.1])
    relevant = np.array([False, False, True, False, False])
    # one strictly higher, two irrelevant chunks tie with the relevant one
    assert best_relevant_rank(scores, relevant) == 4
    # two relevant chunks tied: the pair shares the best position after the irrelevant ties
    relevant2 = np.array([False, True, True, False, False])
    assert best_relevant_rank(scores, relevant2) == 3
    assert best_relevant_rank(scores, [1, 2]) == 3  # indices work as a mask does


def test_best_relevant_rank_without_ties_and_without_relevant():
    scores = np.array([0.3, 0.9, 0.1])
    assert best_relevant_rank(scores, np.array([True, False, False])) == 2
    assert best_relevant_rank(scores, np.array([False, False, False])) is None
    assert best_relevant_rank(scores, []) is None


def test_all_zero_scores_give_the_worst_rank():
    assert best_relevant_rank(np.zeros(5), np.array([True, False, False, False, False])) == 5


def test_a_mask_of_the_wrong_length_is_rejected():
    with pytest.raises(ParameterError, match="same length"):
        best_relevant_rank(np.zeros(3), np.array([True, False]))


def test_top_k_puts_irrelevant_ties_first_then_the_lower_index():
    scores = np.array([[0.5, 0.9, 0.5, 0.5, 0.1]])
    assert top_k(scores, 3).tolist() == [[1, 0, 2]]
    assert top_k(scores, 3, relevant=[[0]]).tolist() == [[1, 2, 3]]
    assert top_k(scores, 9).shape == (1, 5)
    with pytest.raises(ParameterError, match="k must be at least 1"):
        top_k(scores, 0)


@given(
    st.lists(st.integers(0, 3), min_size=1, max_size=12).flatmap(
        lambda row: st.tuples(
            st.just(row), st.sets(st.integers(0, len(row) - 1)), st.integers(1, len(row) + 1)
        )
    )
)
def test_rank_top_k_and_order_agree(case):
    row, rel, k = case
    scores = np.asarray([row], dtype=float)  # few distinct values: many ties
    order = rank_order(scores[0], sorted(rel)).tolist()
    assert top_k(scores, k, relevant=[sorted(rel)])[0].tolist() == order[:k]
    rank = best_relevant_ranks(scores, [sorted(rel)])[0]
    if rel:
        assert rank == 1 + min(order.index(i) for i in rel)
    else:
        assert rank is None
    assert rank_order(scores[0]).tolist() == top_k(scores, len(row))[0].tolist()


def test_optimistic_ties_let_the_relevant_document_win_every_tie():
    from chunkviz.retrieval.ranking import best_relevant_ranks

    scores = np.array([[0.5, 0.5, 0.5, 0.9], [0.0, 0.0, 0.0, 0.0]])
    assert best_relevant_ranks(scores, [[1], [2]]) == [4, 4]
    assert best_relevant_ranks(scores, [[1], [2]], ties="optimistic") == [2, 1]
    with pytest.raises(ParameterError, match="ties must be"):
        best_relevant_ranks(scores, [[1], [2]], ties="random")  # type: ignore[arg-type]


def test_relevant_places_follow_the_top_k_order():
    from chunkviz.retrieval.ranking import relevant_places

    scores = np.array([[0.9, 0.1, 0.5, 0.5, 0.7]])
    # order: 0 (0.9), 4 (0.7), then the tie 2/3 with irrelevant 3 first, then 1
    assert relevant_places(scores, [[0, 2]], 5) == [[1, 4]]
    assert relevant_places(scores, [[0, 2]], 3) == [[1]]


@given(
    st.integers(1, 4).flatmap(
        lambda q: st.integers(1, 10).flatmap(
            lambda n: st.tuples(
                st.lists(
                    st.lists(st.integers(0, 2), min_size=n, max_size=n), min_size=q, max_size=q
                ),
                st.lists(st.sets(st.integers(0, n - 1)), min_size=q, max_size=q),
                st.integers(1, n + 2),
            )
        )
    )
)
def test_rank_batch_agrees_with_the_order_of_each_row(case):
    """The vectorised batch (all rows at once) against rank_order row by row, ties everywhere."""
    from chunkviz.retrieval.ranking import rank_batch

    rows, rels, k = case
    scores = np.asarray(rows, dtype=float)
    batch = rank_batch(scores, [sorted(r) for r in rels], k)
    for i, (row, rel) in enumerate(zip(scores, rels, strict=True)):
        order = rank_order(row, sorted(rel)).tolist()
        assert batch.top[i].tolist() == order[:k]
        assert batch.places[i] == [p + 1 for p, j in enumerate(order[:k]) if j in rel]
        if rel:
            assert batch.pessimistic[i] == 1 + min(order.index(j) for j in rel)
            best = max(row[j] for j in rel)
            assert batch.optimistic[i] == 1 + int(np.sum(row > best))
        else:
            assert batch.pessimistic[i] is None
            assert batch.optimistic[i] is None
    masks = [np.isin(np.arange(scores.shape[1]), sorted(r)) for r in rels]
    assert best_relevant_ranks(scores, masks) == batch.pessimistic
    assert best_relevant_ranks(scores, masks, ties="optimistic") == batch.optimistic
    assert top_k(scores, k, relevant=masks).tolist() == batch.top.tolist()


def test_duplicate_relevant_indices_count_once():
    scores = np.array([[0.5, 0.5, 0.9]])
    assert best_relevant_ranks(scores, [[1, 1, 1]]) == [3]
    assert best_relevant_ranks(scores, [[0, 1, 0]]) == [2]


def test_a_list_of_booleans_is_a_mask_not_indices():
    scores = np.array([[0.9, 0.5, 0.1]])
    assert best_relevant_ranks(scores, [[False, False, True]]) == [3]
    assert best_relevant_ranks(scores, [[2]]) == [3]
