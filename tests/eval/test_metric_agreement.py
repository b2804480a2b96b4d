"""One metric module: every figure the dashboard, Compare and the CLI show equals the recomputation.

Each test recomputes a results file's metrics from its per-question ranks through
``chunkviz.eval.metrics`` and checks the file, the dashboard's table, curves and budget rows,
Compare's Recall@k and the command line's printed table against it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkviz.document import Question
from chunkviz.eval.measures import (
    budget_values,
    metric_values,
    pairwise_keys,
    parse_key,
    rank_keys,
)
from chunkviz.eval.results import Results, load_results
from chunkviz.eval.runner import shipped_results_dir
from chunkviz.model import Chunk, ChunkingResult, Span
from chunkviz.views.benchmark_tables import main_table_markdown
from chunkviz.views.compare import Outcome
from chunkviz.views.curves import curve_measures, curves, mode_rows
from chunkviz.views.explore import QAResult
from chunkviz.views.main_table import main_table

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FILES = [
    FIXTURES / "results_small.json",
    FIXTURES / "results_small_dense.json",
    *sorted(shipped_results_dir().glob("*.json")),
]


def _recompute(results: Results, label: str, key: str) -> float:
    """The mean straight from the ranks, by the metric module."""
    parsed = parse_key(key)
    name = parsed.measure.name
    if parsed.at_budget:
        return float(budget_values(name, results.ranks[label], results.budget.k[label]).mean())
    return float(metric_values(name, results.ranks[label], parsed.cutoff).mean())


@pytest.fixture(scope="module", params=FILES, ids=lambda p: p.name)
def results(request) -> Results:
    return load_results(request.param)


def test_the_file_stores_what_the_ranks_give(results):
    for label in results.labels:
        for key, est in results.metrics[label].items():
            if parse_key(key).measure.values is not None:
                assert est.mean == _recompute(results, label, key)
        for key, est in results.budget.metrics[label].items():
            assert est.mean == _recompute(results, label, key)


def test_the_dashboard_shows_the_recomputed_figures(results):
    for row in main_table(results):
        for key, cell in row.cells.items():
            assert cell.mean == _recompute(results, row.label, key)
    for metric in curve_measures():
        for label, values in curves(results, metric).items():
            assert values == [_recompute(results, label, f"{metric}@{k}") for k in results.ks]
    for row in mode_rows(results, "budget"):
        assert row.mean == _recompute(results, row.label, "recall@budget")
    for row in mode_rows(results, "equal_k", k=5):
        assert row.mean == _recompute(results, row.label, "recall@5")


def test_compare_computes_recall_as_the_metric_module_does(results):
    doc = ChunkingResult("x" * 10, (Chunk(0, 10),), "fixed", {})
    item = Question("q1", "doc", "q", "x", (Span("doc", 0, 1),))
    for label in results.labels:
        ranks = results.ranks[label]
        qa = tuple(QAResult(item, "broken" if r is None else "contained", (), ()) for r in ranks)
        outcome = Outcome(label, doc, qa, tuple(ranks))
        for k in (1, 5, 10, 20):
            assert outcome.recall_at(k) == _recompute(results, label, f"recall@{k}")


def test_the_cli_prints_the_pages_table_with_the_recomputed_means(results, capsys):
    from chunkviz.commands.bench_cmd import format_report

    report = format_report(results)
    encode = "col_index_build" if results.backend.kind == "lexical" else "col_encode"
    assert main_table_markdown(main_table(results), "en", encode) in report
    for line in report.splitlines()[2 : 2 + len(results.labels)]:
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        for cell, key in zip(cells[1:4], pairwise_keys(), strict=True):
            shown = float(cell.split(" ")[0].replace("**", ""))
            assert shown == round(_recompute(results, cells[0], key), 3)


def test_every_rank_metric_of_the_runner_is_in_the_shipped_files():
    for path in sorted(shipped_results_dir().glob("*.json")):
        results = load_results(path)
        for label in results.labels:
            assert set(rank_keys()) <= set(results.metrics[label])
