"""The results file's paired tests at an equal budget, and the verdict read from them."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from chunkviz.errors import ResultsFileError
from chunkviz.eval.measures import budget_keys
from chunkviz.eval.results import (
    SCHEMA_VERSION,
    Results,
    load_results,
    results_from_dict,
    results_to_json,
)
from chunkviz.eval.runner import shipped_results_dir
from chunkviz.eval.verdict import budget_view, choose, document_means

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def shipped() -> tuple[Path, Results]:
    (path,) = shipped_results_dir().glob("jsquad-bm25-all-s0*.json")
    return path, load_results(path)


def test_the_file_stores_the_paired_tests_at_the_equal_budget(shipped) -> None:
    _path, results = shipped
    assert results.schema_version == SCHEMA_VERSION == 4
    pairs = len(results.labels) * (len(results.labels) - 1) // 2
    assert len(results.budget.pairwise) == len(budget_keys()) * pairs
    for row in results.budget.pairwise:
        means = results.budget.metrics
        assert row.diff == pytest.approx(
            means[row.a][row.metric].mean - means[row.b][row.metric].mean, abs=1e-9
        )
        assert row.delta == 0.01
        assert row.detectable is not None
        assert row.detectable > 0
        assert row.unit == "document"
    # Recomputed from the ranks at the file's own budget, the tests are the stored ones.
    again = budget_view(results, "recall", results.budget.chars + 0, 0.01)
    assert again.stored
    # The same budget with the file's tests taken away: computed from the ranks, they agree.
    bare = msgspec.structs.replace(
        results, budget=msgspec.structs.replace(results.budget, pairwise=())
    )
    fresh = budget_view(bare, "recall", results.budget.chars, 0.01)
    assert not fresh.stored
    assert fresh.k == dict(results.budget.k)
    stored = {(p.a, p.b): p for p in results.budget.pairwise if p.metric == "recall@budget"}
    for p in fresh.pairwise:
        q = stored[(p.a, p.b)]
        assert (p.p_holm, p.outcome) == (q.p_holm, q.outcome)
        assert p.ci_low == pytest.approx(q.ci_low)


def test_the_equal_budget_separates_less_than_equal_k(shipped) -> None:
    _path, results = shipped
    at_k = choose(results, "recall@5", "equal_k", 0.01)
    at_budget = choose(results, "recall@5", "budget", 0.01)
    assert at_k.best == "fixed-800-160"
    assert at_k.count("inconclusive") == 0
    assert at_budget.count("inconclusive") >= 3  # 2,000 characters each: hard to tell apart
    best = at_k.option(at_k.best)
    assert best.cost.chars == pytest.approx(5 * results.config(at_k.best).mean_chunk_chars)
    assert best.cost.tokens == pytest.approx(5 * results.config(at_k.best).mean_chunk_tokens)


def test_a_budget_row_the_rule_does_not_call_equivalent_is_refused(shipped) -> None:
    path, _results = shipped
    data = json.loads(path.read_text(encoding="utf-8"))
    row = data["budget"]["pairwise"][0]
    row["equivalent"] = True  # its interval is far outside ±0.01
    with pytest.raises(ResultsFileError, match=r"budget\.pairwise\[0\] is marked equivalent"):
        results_from_dict(data)
    data = json.loads(path.read_text(encoding="utf-8"))
    rule = data["budget"]["pairwise"][0]["outcome"]
    data["budget"]["pairwise"][0]["outcome"] = "equivalent"  # a stated outcome is not read back
    assert results_from_dict(data).budget.pairwise[0].outcome == rule != "equivalent"
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["configs"][0]["mean_chunk_tokens"]
    with pytest.raises(ResultsFileError, match="lacks mean_chunk_tokens"):
        results_from_dict(data)


def test_a_version_2_file_still_reads_and_is_written_back_as_version_2() -> None:
    results = load_results(FIXTURES / "results_small.json")
    assert results.schema_version == 2
    assert results.budget.pairwise == ()
    assert json.loads(results_to_json(results))["schema_version"] == 2
    view = budget_view(results, "recall", results.budget.chars, 0.01)
    assert not view.stored  # computed from the ranks


def test_document_weighted_means_count_each_document_once(shipped) -> None:
    _path, results = shipped
    by_doc = document_means(results, "recall@5")
    import numpy as np

    from chunkviz.eval.measures import metric_values

    docs = sorted(set(results.question_docs))
    lab = "paragraph"
    v = metric_values("recall", results.ranks[lab], 5)
    per_doc = [v[[d == doc for d in results.question_docs]].mean() for doc in docs]
    assert by_doc[lab].mean == pytest.approx(float(np.mean(per_doc)))
    assert by_doc[lab].ci_low <= by_doc[lab].mean <= by_doc[lab].ci_high
