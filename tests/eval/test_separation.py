"""Which metrics separate a run's pairs, and the headline metric chosen from them."""

from __future__ import annotations

import pytest

from chunkviz.eval.results import load_results
from chunkviz.eval.runner import shipped_results_dir
from chunkviz.eval.separation import SEPARATING, Separation, headline, separation


@pytest.fixture(scope="module", params=["jsquad", "jaquad"])
def results(request):
    (path,) = shipped_results_dir().glob(f"{request.param}-bm25-all-s0-*.json")
    return load_results(path)


def test_every_pair_is_one_outcome(results):
    counts = separation(results)
    assert [s.metric for s in counts] == list(SEPARATING)
    for s in counts:
        assert s.pairs == 28
        assert s.separated + s.equivalent + s.inconclusive + s.saturated == 28


def test_recall_at_5_counts_come_from_the_files_own_tests(results):
    r5 = next(s for s in separation(results) if s.metric == "recall@5")
    own = [p for p in results.pairwise if p.metric == "recall@5"]
    assert r5.separated == sum(p.outcome in ("a_better", "b_better") for p in own)


def test_the_headline_separates_the_most_and_the_first_wins_a_tie():
    rows = (
        Separation("recall@5", 28, 24, 0, 4, 0),
        Separation("recall@1", 28, 26, 0, 2, 0),
        Separation("mrr@10", 28, 26, 0, 2, 0),
    )
    assert headline(rows).metric == "recall@1"
    assert headline(rows[::-1]).metric == "mrr@10"


def test_on_the_shipped_runs_recall_at_5_separates_less_than_the_headline(results):
    counts = separation(results)
    r5 = next(s for s in counts if s.metric == "recall@5")
    assert headline(counts).separated > r5.separated
