from __future__ import annotations

import math

import numpy as np
import pytest

from chunkviz.errors import ParameterError
from chunkviz.eval.measures import display_name, metric_values
from chunkviz.eval.metrics import (
    budget_k,
    mrr_at_k,
    ndcg_at_k,
    recall_at_k,
    span_scores,
    union_ranges,
)
from chunkviz.retrieval.ranking import best_relevant_rank

RANKS = [1, 3, None, 12, 2]


def test_recall_hand_computed():
    assert recall_at_k(RANKS, 1).tolist() == [1, 0, 0, 0, 0]
    assert recall_at_k(RANKS, 3).tolist() == [1, 1, 0, 0, 1]
    assert recall_at_k(RANKS, 5).mean() == pytest.approx(3 / 5)


def test_ndcg_hand_computed():
    values = ndcg_at_k(RANKS, 10)
    expected = [1.0, 1 / math.log2(4), 0.0, 0.0, 1 / math.log2(3)]
    np.testing.assert_allclose(values, expected)


def test_mrr_hand_computed():
    np.testing.assert_allclose(mrr_at_k(RANKS, 10), [1.0, 1 / 3, 0.0, 0.0, 0.5])
    np.testing.assert_allclose(mrr_at_k(RANKS, 2), [1.0, 0.0, 0.0, 0.0, 0.5])


def test_no_relevant_chunk_scores_zero_everywhere():
    for fn in (recall_at_k, ndcg_at_k, mrr_at_k):
        assert fn([None, None], 20).tolist() == [0.0, 0.0]


def test_k_beyond_the_list_is_fine():
    # rank 12 counts at k=100 although most indexes in tests are smaller
    assert recall_at_k([12], 100).tolist() == [1.0]
    assert mrr_at_k([12], 100).tolist() == [pytest.approx(1 / 12)]


@pytest.mark.parametrize("k", [0, -1, 2.5, True])
def test_bad_k_is_rejected(k):
    with pytest.raises(ParameterError, match="k must be a positive integer"):
        recall_at_k([1], k)


def test_bad_rank_is_rejected():
    with pytest.raises(ParameterError, match="1-based"):
        ndcg_at_k([0], 5)


def test_display_names():
    assert display_name("recall@5") == "Recall@5"
    assert display_name("ndcg@10") == "nDCG@10"
    assert display_name("mrr@10") == "MRR@10"
    assert display_name("span_iou@5") == "Span IoU@5"
    with pytest.raises(ParameterError, match="unknown metric"):
        display_name("map@5")
    with pytest.raises(ParameterError, match="name@k"):
        display_name("recall")


def test_union_ranges_merges_overlaps_and_touching():
    assert union_ranges([(5, 8), (0, 3), (2, 4), (8, 9)]) == [(0, 4), (5, 9)]


def test_span_scores_hand_computed():
    # retrieved [0,10) and [8,20) of doc a -> union [0,20) = 20 chars; answer [15,25) = 10 chars
    p, r, iou = span_scores([("a", 0, 10), ("a", 8, 20)], [("a", 15, 25)])
    assert (p, r, iou) == (pytest.approx(5 / 20), pytest.approx(5 / 10), pytest.approx(5 / 25))


def test_span_scores_other_document_adds_retrieved_text_only():
    p, r, iou = span_scores([("a", 0, 10), ("b", 0, 10)], [("a", 2, 4)])
    assert (p, r, iou) == (pytest.approx(2 / 20), pytest.approx(1.0), pytest.approx(2 / 20))


def test_span_scores_best_alternative_span_and_empty_cases():
    p, r, iou = span_scores([("a", 0, 10)], [("a", 50, 55), ("a", 2, 7)])
    assert (p, r, iou) == (pytest.approx(0.5), pytest.approx(1.0), pytest.approx(0.5))
    assert span_scores([], [("a", 0, 3)]) == (0.0, 0.0, 0.0)
    assert span_scores([("a", 0, 3)], []) == (0.0, 0.0, 0.0)


def test_budget_k_half_the_size_twice_the_k():
    assert budget_k(400, 2000) == 5
    assert budget_k(200, 2000) == 10
    assert budget_k(100, 2000) == 20
    assert budget_k(5000, 2000) == pytest.approx(0.4)  # a part of one chunk
    assert budget_k(383, 1000) == pytest.approx(1000 / 383)  # never rounded up to 3
    assert budget_k(100, 2000, k_max=7) == 7
    with pytest.raises(ParameterError, match="budget_chars"):
        budget_k(100, 0)


def test_the_partial_last_chunk_counts_by_the_share_of_it_sent():
    from chunkviz.eval.measures import budget_values

    ranks = [1, 2, 3, None]
    assert budget_values("recall", ranks, 2.0).tolist() == [1.0, 1.0, 0.0, 0.0]
    assert budget_values("recall", ranks, 2.25).tolist() == [1.0, 1.0, 0.25, 0.0]
    assert budget_values("recall", ranks, 0.5).tolist() == [0.5, 0.0, 0.0, 0.0]
    mrr = budget_values("mrr", ranks, 2.5).tolist()
    assert mrr == pytest.approx([1.0, 0.5, 0.5 / 3, 0.0])
    # Whole k: the rank metric itself; an array of ranks gives the same values as a list.
    assert budget_values("ndcg", ranks, 3.0).tolist() == metric_values("ndcg", ranks, 3).tolist()
    arr = np.array([1.0, 2.0, 3.0, np.inf])
    assert budget_values("recall", arr, 2.25).tolist() == [1.0, 1.0, 0.25, 0.0]
    with pytest.raises(ParameterError, match="k must be positive"):
        budget_values("recall", ranks, 0.0)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaTypeSafetyWarning")
def test_cross_check_against_ranx():
    import ranx  # a test requirement (the dev extra, in requirements.lock)

    rng = np.random.default_rng(7)
    n_q, n_d = 40, 30
    qrels, run, ranks = {}, {}, []
    for q in range(n_q):
        scores = rng.permutation(n_d).astype(float)  # distinct scores: no ties
        rel = int(rng.integers(0, n_d))
        qrels[f"q{q}"] = {f"d{rel}": 1}
        run[f"q{q}"] = {f"d{d}": float(scores[d]) for d in range(n_d)}
        mask = np.zeros(n_d, dtype=bool)
        mask[rel] = True
        ranks.append(best_relevant_rank(scores, mask))
    got = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), ["ndcg@10", "mrr@10", "recall@5"])
    assert ndcg_at_k(ranks, 10).mean() == pytest.approx(got["ndcg@10"])
    assert mrr_at_k(ranks, 10).mean() == pytest.approx(got["mrr@10"])
    assert recall_at_k(ranks, 5).mean() == pytest.approx(got["recall@5"])


def test_ndcg_over_all_relevant_chunks_hand_computed_and_against_ranx():
    import ranx

    from chunkviz.eval.metrics import ndcg_all_at_k
    from chunkviz.retrieval.ranking import relevant_places

    # Two relevant chunks at places 1 and 3: (1 + 1/log2 4) / (1 + 1/log2 3).
    got = ndcg_all_at_k([[1, 3], [2], []], [2, 1, 0], 10)
    assert got == pytest.approx([(1 + 0.5) / (1 + 1 / np.log2(3)), 1 / np.log2(3), 0.0])
    assert ndcg_all_at_k([[4]], [1], 10) == pytest.approx(ndcg_at_k([4], 10))
    with pytest.raises(ParameterError, match="relevant places"):
        ndcg_all_at_k([[1, 2]], [1], 10)
    rng = np.random.default_rng(3)
    n_q, n_d = 30, 25
    qrels, run, scores, rel_sets = {}, {}, [], []
    for q in range(n_q):
        s = rng.permutation(n_d).astype(float)
        rel = sorted(rng.choice(n_d, size=int(rng.integers(1, 4)), replace=False).tolist())
        qrels[f"q{q}"] = {f"d{d}": 1 for d in rel}
        run[f"q{q}"] = {f"d{d}": float(s[d]) for d in range(n_d)}
        scores.append(s)
        rel_sets.append(rel)
    places = relevant_places(np.array(scores), rel_sets, 10)
    ours = ndcg_all_at_k(places, [len(r) for r in rel_sets], 10).mean()
    assert ours == pytest.approx(ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), "ndcg@10"))


def test_ranks_converted_once_give_the_same_values_and_are_checked_the_same():
    ranks = [1, None, 3, 12, 2]
    converted = np.array([math.inf if r is None else r for r in ranks], np.float64)
    for name in ("recall", "ndcg", "mrr"):
        assert metric_values(name, converted, 5).tolist() == metric_values(name, ranks, 5).tolist()
    for bad in (0.0, 1.5, -math.inf, math.nan):
        with pytest.raises(ParameterError, match="ranks must be 1-based integers"):
            metric_values("recall", np.array([1.0, bad]), 5)
