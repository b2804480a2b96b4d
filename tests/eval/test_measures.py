"""The measure registry: one record per measure, one parser of its keys."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from chunkviz.errors import ParameterError
from chunkviz.eval import runner
from chunkviz.eval.decision import default_margin
from chunkviz.eval.measures import (
    BUDGET,
    Measure,
    budget_keys,
    get_measure,
    key_values,
    metric_label,
    pairwise_keys,
    parse_key,
    rank_keys,
    register,
    required_keys,
    span_measures,
)
from chunkviz.eval.metrics import recall_at_k


def test_the_built_in_keys_come_from_the_records():
    assert rank_keys() == (
        "recall@1",
        "recall@5",
        "recall@10",
        "recall@20",
        "ndcg@5",
        "ndcg@10",
        "mrr@5",
        "mrr@10",
    )
    assert pairwise_keys() == required_keys() == ("recall@5", "ndcg@10", "mrr@10")
    assert budget_keys() == ("recall@budget", "ndcg@budget", "mrr@budget")
    assert [m.name for m in span_measures()] == ["span_precision", "span_recall", "span_iou"]
    assert default_margin("ndcg@budget") == get_measure("ndcg").margin == 0.01
    assert default_margin("span_iou@5") == 0.02


@pytest.mark.parametrize(
    ("key", "name", "k"),
    [
        ("recall@5", "recall", 5),
        ("ndcg@10", "ndcg", 10),
        ("mrr@budget", "mrr", BUDGET),
        ("span_iou@5", "span_iou", 5),
    ],
)
def test_a_key_parses_into_its_record_and_cut_off(key, name, k):
    parsed = parse_key(key)
    assert (parsed.measure.name, parsed.k, parsed.text) == (name, k, key)
    assert parsed.at_budget == (k == BUDGET)


@pytest.mark.parametrize(
    "key", ["recall", "recall@", "@5", "recall@0", "recall@-1", "recall@x", "recall@５", "map@5"]
)
def test_a_bad_key_is_refused_with_the_rule(key):
    with pytest.raises(ParameterError, match="name@k|unknown metric"):
        parse_key(key)


def test_a_budget_key_has_no_numeric_cut_off_and_needs_the_configurations_k():
    with pytest.raises(ParameterError, match="context budget"):
        _ = parse_key("recall@budget").cutoff
    with pytest.raises(ParameterError, match="budget k"):
        key_values("recall@budget", [1, 2])
    assert key_values("recall@budget", [1, 2, None], 1.5).tolist() == [1.0, 0.5, 0.0]


def test_display_names_come_from_the_records():
    assert metric_label("ndcg@10") == "nDCG@10"
    assert metric_label("mrr@budget") == "MRR@budget"
    assert metric_label("span_recall") == "Span recall"
    assert metric_label("unknown") == "unknown"


def test_register_refuses_a_duplicate_and_a_record_without_one_way_to_score(monkeypatch):
    from chunkviz.eval import measures

    monkeypatch.setattr(measures, "_REGISTRY", dict(measures._REGISTRY))
    with pytest.raises(ParameterError, match="already registered"):
        register(Measure("recall", "Recall", 0.01, recall_at_k))
    with pytest.raises(ParameterError, match="exactly one of"):
        register(Measure("odd", "Odd", 0.01))
    with pytest.raises(ParameterError, match="exactly one of"):
        register(Measure("odd", "Odd", 0.01, recall_at_k, span=0))


def test_the_runner_takes_what_to_compute_from_the_registry_not_the_file_checker():
    tree = ast.parse(Path(runner.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "chunkviz.eval.measures" in imported
    assert "chunkviz.eval.results_checks" not in imported
