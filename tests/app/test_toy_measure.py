"""A measure added as one record reaches the results file, the decision and the Benchmark page.

The toy is Precision@k with one relevant chunk (``1/k`` when the best relevant chunk is in the
top k): one ``register(Measure(...))`` and nothing else, the registry restored afterwards.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from chunkviz.eval import measures
from chunkviz.eval.measures import Measure, register
from chunkviz.eval.metrics import recall_at_k
from chunkviz.eval.results import load_results, save_results
from chunkviz.eval.runner import run_benchmark
from chunkviz.eval.verdict import choose
from chunkviz.views.results_dirs import RECOMPUTE_DIR_ENV, RESULTS_DIRS_ENV
from tests.eval.test_benchmark import CONFIGS, make_dataset

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "4_Benchmark.py")


def precision_at_k(ranks, k: int) -> np.ndarray:
    """Precision@k with one relevant chunk per question: 1/k when it is in the top k."""
    out: np.ndarray = recall_at_k(ranks, k) / k
    return out


TOY = Measure(
    "toy_precision", "Toy precision", 0.05, precision_at_k, cutoffs=(3,), tested=(3,), budget=True
)


@pytest.fixture
def toy(monkeypatch):
    """The registry with the toy measure added as one record (restored after the test)."""
    monkeypatch.setattr(measures, "_REGISTRY", dict(measures._REGISTRY))
    register(TOY)
    return TOY


def test_a_measure_added_as_one_record_reaches_the_file_the_decision_and_the_page(
    toy, tmp_path, monkeypatch
):
    results = run_benchmark(make_dataset(), CONFIGS, "bm25", bootstrap=200, permutations=200)
    # The results file: stored at its cut-off and at the budget, tested pairwise with its margin.
    path = save_results(results, tmp_path / "runs")
    loaded = load_results(path)  # the file's checks know the new key
    pairs = len(CONFIGS) * (len(CONFIGS) - 1) // 2
    for label in loaded.labels:
        expected = recall_at_k(loaded.ranks[label], 3).mean() / 3
        assert loaded.metrics[label]["toy_precision@3"].mean == pytest.approx(expected)
        assert "toy_precision@budget" in loaded.budget.metrics[label]
    assert [p.metric for p in loaded.pairwise].count("toy_precision@3") == pairs
    assert [p.metric for p in loaded.budget.pairwise].count("toy_precision@budget") == pairs
    assert loaded.stats.margins["toy_precision@3"] == 0.05
    assert all(p.delta == 0.05 for p in loaded.pairwise if p.metric == "toy_precision@3")

    # The decision: a metric it can decide on, at equal k and at the budget.
    at_k = choose(loaded, "toy_precision@3", "equal_k", 0.05)
    assert (at_k.metric, at_k.delta, at_k.pick in loaded.labels) == ("toy_precision@3", 0.05, True)
    assert all(o.cost.k == 3 for o in at_k.options)
    at_budget = choose(loaded, "toy_precision@3", "budget", 0.05)
    assert at_budget.metric == "toy_precision@budget"

    # The page: offered as a verdict metric under its display name, a column of the main table.
    monkeypatch.setenv(RESULTS_DIRS_ENV, str(tmp_path / "runs"))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path / "recomputed"))
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.run()
    assert not at.exception
    picker = at.selectbox(key="bench_sig_metric")
    assert "Toy precision@3" in picker.options
    picker.set_value("toy_precision@3").run()
    assert not at.exception
    assert at.number_input(key="bench_margin_toy_precision@3").value == 0.05
    table = next(m.value for m in at.markdown if m.value.startswith("| Configuration"))
    assert "Toy precision@3 [95% CI]" in table.splitlines()[0]
    assert any("Toy precision@3" in m.value for m in at.markdown if m.value.startswith("- "))
