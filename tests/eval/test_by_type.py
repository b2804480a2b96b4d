"""Metrics and paired comparisons by question type, on the shipped JaQuAD run."""

from __future__ import annotations

from collections import Counter

import msgspec
import numpy as np
import pytest

from chunkviz.errors import ParameterError
from chunkviz.eval.by_type import (
    MIN_QUESTIONS,
    compare_by_type,
    has_types,
    losses_by_type,
    metric_by_type,
    retest_pairs,
    type_counts,
)
from chunkviz.eval.measures import budget_values, metric_values
from chunkviz.eval.results import load_results
from chunkviz.eval.runner import shipped_results_dir
from chunkviz.eval.stats import holm


@pytest.fixture(scope="module")
def jaquad():
    (path,) = shipped_results_dir().glob("jaquad-bm25-all-s0-*.json")
    return load_results(path)


@pytest.fixture(scope="module")
def by_question_type(jaquad):
    return compare_by_type(jaquad, "recall@5", "question")


def test_types_are_counted_from_the_file(jaquad):
    counts = dict(type_counts(jaquad, "question"))
    assert counts == Counter(jaquad.question_types)
    assert sum(counts.values()) == len(jaquad.question_ids) == 3939
    assert [n for _, n in type_counts(jaquad, "answer")] == sorted(
        Counter(jaquad.answer_types).values(), reverse=True
    )
    assert has_types(jaquad)


def test_a_file_without_types_has_no_breakdown():
    (path,) = shipped_results_dir().glob("jsquad-bm25-all-s0-*.json")
    jsquad = load_results(path)
    assert not has_types(jsquad)
    assert metric_by_type(jsquad, "recall@5", "question") == ()
    assert compare_by_type(jsquad, "recall@5", "answer") == {}


def test_each_types_mean_is_the_mean_over_its_questions(jaquad):
    rows = metric_by_type(jaquad, "mrr@10", "question")
    types = np.asarray(jaquad.question_types, dtype=object)
    for row in rows:
        for label in jaquad.labels:
            values = metric_values("mrr", jaquad.ranks[label], 10)[types == row.type]
            est = row.estimates[label]
            assert est.mean == pytest.approx(values.mean())
            assert est.ci_low <= est.mean <= est.ci_high
            assert row.lost[label] == sum(
                1
                for r, t in zip(jaquad.ranks[label], types, strict=True)
                if t == row.type and r is None
            )
    for label in jaquad.labels:
        assert sum(row.lost[label] for row in rows) == jaquad.config(label).broken


def test_budget_metrics_use_each_configurations_budget_k(jaquad):
    (row, *_) = metric_by_type(jaquad, "recall@budget", "question")
    types = np.asarray(jaquad.question_types, dtype=object)
    k = jaquad.budget.k["fixed-100-0"]
    assert k != 5
    expected = budget_values("recall", jaquad.ranks["fixed-100-0"], k)[types == row.type].mean()
    assert row.estimates["fixed-100-0"].mean == pytest.approx(expected)


def test_one_type_reproduces_the_files_own_tests(jaquad):
    one = msgspec.structs.replace(jaquad, question_types=("X",) * len(jaquad.question_ids))
    found = compare_by_type(one, "recall@5", "question")
    rows = {(p.a, p.b): p for p in jaquad.pairwise if p.metric == "recall@5"}
    assert set(found) == set(rows)
    for pair, (item,) in found.items():
        got, want = item.result, rows[pair]
        assert (got.diff, got.ci_low, got.ci_high, got.p_value, got.a_wins, got.b_wins) == (
            want.diff,
            want.ci_low,
            want.ci_high,
            want.p_value,
            want.a_wins,
            want.b_wins,
        )
        assert got.p_holm == got.p_value  # Holm over one type changes nothing


def test_retesting_a_metric_the_file_tested_gives_its_rows(jaquad):
    assert retest_pairs(jaquad, "mrr@10") == tuple(
        p for p in jaquad.pairwise if p.metric == "mrr@10"
    )
    assert retest_pairs(jaquad, "recall@budget") == tuple(
        p for p in jaquad.budget.pairwise if p.metric == "recall@budget"
    )
    recall_1 = retest_pairs(jaquad, "recall@1")
    assert len(recall_1) == 28
    assert {p.metric for p in recall_1} == {"recall@1"}


def test_holm_runs_across_the_types_of_each_pair(jaquad, by_question_type):
    assert len(by_question_type) == len(jaquad.labels) * (len(jaquad.labels) - 1) // 2
    for items in by_question_type.values():
        assert [i.type for i in items] == [t for t, _ in type_counts(jaquad, "question")]
        raw = [i.result.p_value for i in items]
        assert [i.result.p_holm for i in items] == pytest.approx(holm(raw))
        for i in items:
            assert i.result.significant == (i.result.p_holm < jaquad.stats.alpha)
            assert i.result.ci_low <= i.result.diff <= i.result.ci_high


def test_small_windows_lose_multiple_sentence_reasoning_most(jaquad, by_question_type):
    items = by_question_type[("fixed-100-0", "paragraph")]
    worst = min(items, key=lambda i: i.result.diff)
    assert worst.type == "Multiple sentence reasoning"
    assert worst.result.outcome == "b_better"
    losses = losses_by_type(jaquad, "recall@5", "question", "fixed-100-0", by_question_type)
    assert ("Multiple sentence reasoning", "paragraph") in {(t, o) for t, o, _ in losses}
    assert all(r.diff < 0 and r.a == "fixed-100-0" for _, _, r in losses)
    assert [r.diff for _, _, r in losses] == sorted(r.diff for _, _, r in losses)


def test_rare_types_are_counted_but_not_tested(jaquad):
    rare = [t for t, n in type_counts(jaquad, "answer") if n < MIN_QUESTIONS]
    assert rare == ["Manner"]  # 17 questions
    row = next(r for r in metric_by_type(jaquad, "recall@5", "answer") if r.type == "Manner")
    assert (row.questions, row.estimates) == (17, {})
    found = compare_by_type(jaquad, "recall@5", "answer")
    assert all("Manner" not in {i.type for i in items} for items in found.values())


def test_bad_arguments_name_the_fix(jaquad):
    with pytest.raises(ParameterError, match="kind must be one of question, answer"):
        type_counts(jaquad, "topic")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="not in the file"):
        losses_by_type(jaquad, "recall@5", "question", "fixed-999-0", {})
