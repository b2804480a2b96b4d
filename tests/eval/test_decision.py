"""The one decision rule: saturation, detectable margins, equivalence and the recommendation."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from chunkviz.errors import ParameterError
from chunkviz.eval.decision import (
    Cost,
    Option,
    detectable_margin,
    is_equivalent,
    is_saturated,
    min_discordant,
    outcome,
    preference,
    recommend,
    retrievable,
    units_needed,
)
from chunkviz.eval.stats import pairwise_tests, tost_paired


def test_identical_or_ceiling_values_are_saturated_never_equivalent() -> None:
    ones = np.ones(12)
    eq = tost_paired(ones, ones, 0.01)
    assert (eq.se, eq.p_value) == (0.0, 0.0)  # TOST alone would call them equivalent
    assert is_saturated(ones, ones, eq.se, 0.05)
    (row,) = pairwise_tests({"a": ones, "b": ones}, metric="recall@5", permutations=200)
    assert (row.outcome, row.equivalent, row.saturated) == ("saturated", False, True)
    # Both at the ceiling: four misses between them, fewer than a sign test could ever use.
    a, b = np.ones(400), np.ones(400)
    a[:2], b[2:4] = 0, 0
    assert min_discordant(0.05) == 5
    assert is_saturated(a, b, 0.005, 0.05)
    a[:10] = 0  # ten misses: the questions can now separate them
    assert not is_saturated(a, b, 0.005, 0.05)


def test_saturation_counts_the_two_sides_misses_summed() -> None:
    # What the docstrings say: a's misses plus b's misses, not each side's on its own.
    a, b = np.ones(400), np.ones(400)
    a[:3], b[3:6] = 0, 0  # three misses each, six in all: the questions can separate them
    assert not is_saturated(a, b, 0.005, 0.05)
    # A graded metric: both miss the same two questions with different values. Two discordant
    # questions, counted four times, still fewer than the five a sign test needs.
    a, b = np.ones(400), np.ones(400)
    a[:2], b[:2] = 0.5, 1 / 3
    assert is_saturated(a, b, 0.005, 0.05)


def test_the_detectable_margin_is_the_tost_half_width_and_scales_with_n() -> None:
    rng = np.random.default_rng(0)
    a = (rng.random(400) < 0.8).astype(float)
    b = a.copy()
    flip = rng.choice(400, 40, replace=False)
    b[flip] = 1 - b[flip]
    eq = tost_paired(a, b, 0.05)
    margin = detectable_margin(eq.se, eq.df, 0.05)
    assert margin == pytest.approx((eq.ci_high - eq.ci_low) / 2)
    assert units_needed(400, margin, margin / 2) == 1600  # half the margin: four times the n
    assert units_needed(400, 0.01, 0.02) == 400
    with pytest.raises(ParameterError, match="df must be at least 1"):
        detectable_margin(0.1, 0, 0.05)


def test_equivalence_needs_a_margin_at_or_above_the_detectable_one() -> None:
    kw = {"p_equiv_holm": 0.001, "eq_ci_low": -0.004, "eq_ci_high": 0.004, "alpha": 0.05}
    assert is_equivalent(delta=0.01, detectable=0.004, saturated=False, **kw)
    assert not is_equivalent(delta=0.01, detectable=0.02, saturated=False, **kw)
    assert not is_equivalent(delta=0.01, detectable=0.004, saturated=True, **kw)
    assert not is_equivalent(delta=None, detectable=0.004, saturated=False, **kw)
    assert outcome(significant=True, diff=-0.1, equivalent=False, saturated=False) == "b_better"
    assert outcome(significant=False, diff=0.0, equivalent=True, saturated=True) == "saturated"


@dataclass(frozen=True)
class _Pair:
    a: str
    b: str
    diff: float
    ci_low: float
    ci_high: float
    outcome: str
    detectable: float | None = 0.005


def _option(label: str, mean: float, chars: float, index_bytes: int = 100) -> Option:
    return Option(label, mean, mean - 0.01, mean + 0.01, Cost(5, chars, None, index_bytes))


def test_the_cheapest_equivalent_is_picked_by_context_not_by_chunks() -> None:
    options = [_option("big", 0.97, 3664), _option("mid", 0.965, 1915), _option("small", 0.90, 980)]
    pairs = [
        _Pair("big", "mid", 0.005, -0.002, 0.012, "equivalent"),
        _Pair("small", "big", -0.07, -0.09, -0.05, "b_better"),
    ]
    choice = recommend(options, pairs, basis="equal_k", metric="recall@5", delta=0.01)
    assert (choice.best, choice.pick, choice.rule) == ("big", "mid", "equivalent")
    assert [v.label for v in choice.alternatives] == ["small"]
    small = choice.alternatives[0]
    assert small.saving == pytest.approx(1 - 980 / 3664)
    assert (small.diff, small.outcome) == (-0.07, "b_better")


def test_without_an_equivalent_the_best_is_named_with_priced_alternatives() -> None:
    options = [_option("big", 0.97, 3664), _option("mid", 0.96, 1915)]
    # Equivalent by the test, but its interval lies below zero: never the headline.
    pairs = [_Pair("mid", "big", -0.004, -0.006, -0.002, "equivalent")]
    choice = recommend(options, pairs, basis="equal_k", metric="recall@5", delta=0.01)
    assert (choice.pick, choice.rule) == ("big", "best")
    assert choice.alternatives[0].worse_by_interval
    with pytest.raises(ParameterError, match="no comparison of mid"):
        recommend(options, [], basis="equal_k", metric="recall@5", delta=0.01)


def test_at_an_equal_budget_the_index_size_orders_costs() -> None:
    options = [_option("a", 0.9, 2000, index_bytes=500), _option("b", 0.9, 1990, 900)]
    pairs = [_Pair("a", "b", 0.0, -0.001, 0.001, "equivalent")]
    choice = recommend(options, pairs, basis="budget", metric="recall@budget", delta=0.01)
    assert choice.pick == "a"  # 10 characters less context does not decide at equal budget


# ---------------------------------------------------------------------------- at the budget


def _at_budget(
    label: str,
    mean: float,
    *,
    prior: float | None = None,
    cut: float = 0.0,
    index_bytes: int = 100,
    chars: float = 2000.0,
    eligible: bool = True,
) -> Option:
    return Option(
        label,
        mean,
        mean - 0.01,
        mean + 0.01,
        Cost(5, chars, None, index_bytes),
        cut,
        eligible,
        prior,
    )


def _tied(labels: list[str], outcome: str = "saturated") -> list[_Pair]:
    return [
        _Pair(a, b, 0.0, -0.01, 0.01, outcome)
        for i, a in enumerate(labels)
        for b in labels[i + 1 :]
    ]


def test_what_the_questions_cannot_separate_goes_to_the_prior_never_to_more_context() -> None:
    options = [
        _at_budget("big", 1.0, prior=0.95, chars=2400),
        _at_budget("avg", 0.99, prior=0.97, chars=1900),
        _at_budget("small", 0.98, prior=0.96, chars=2000),
    ]
    choice = recommend(
        options, _tied(["big", "avg", "small"]), basis="budget", metric="recall@budget", delta=0.01
    )
    assert (choice.top, choice.best, choice.pick) == ("big", "avg", "avg")
    assert choice.prior_pick == "avg"
    assert choice.driver == "prior"


def test_without_a_prior_ties_go_to_fewer_cut_then_the_smaller_index_then_less_context() -> None:
    cut = [_at_budget("a", 1.0, cut=0.2), _at_budget("b", 0.99, cut=0.1)]
    assert (
        recommend(cut, _tied(["a", "b"]), basis="budget", metric="recall@budget", delta=0.01).pick
        == "b"
    )
    size = [_at_budget("a", 1.0, index_bytes=900), _at_budget("b", 0.99, index_bytes=300)]
    assert (
        recommend(size, _tied(["a", "b"]), basis="budget", metric="recall@budget", delta=0.01).pick
        == "b"
    )
    context = [_at_budget("a", 1.0, chars=2400), _at_budget("b", 0.99, chars=1600)]
    choice = recommend(
        context, _tied(["a", "b"], "inconclusive"), basis="equal_k", metric="recall@5", delta=0.01
    )
    assert choice.pick == "b"  # at equal k too: a tie never goes to more context
    assert choice.driver == "none"


def test_questions_that_show_the_prior_pick_worse_overrule_the_prior() -> None:
    options = [_at_budget("avg", 0.90, prior=0.99), _at_budget("mine", 0.99, prior=0.95)]
    pairs = [_Pair("avg", "mine", -0.09, -0.12, -0.06, "b_better")]
    choice = recommend(options, pairs, basis="budget", metric="recall@budget", delta=0.01)
    assert (choice.pick, choice.prior_pick, choice.driver) == ("mine", "avg", "questions")
    assert choice.versus_of("avg") is not None
    assert choice.versus_of("avg").outcome == "b_better"  # type: ignore[union-attr]
    assert choice.versus_of("mine") is None


def test_a_configuration_that_cannot_be_retrieved_is_never_picked() -> None:
    options = [
        _at_budget("whole", 1.0, prior=0.999, eligible=False),
        _at_budget("fixed", 0.97, prior=0.98),
    ]
    choice = recommend(
        options, _tied(["whole", "fixed"]), basis="budget", metric="recall@budget", delta=0.01
    )
    assert (choice.top, choice.pick, choice.prior_pick) == ("fixed", "fixed", "fixed")
    assert choice.ineligible == ("whole",)
    assert all(v.label != "whole" for v in choice.alternatives)
    with pytest.raises(ParameterError, match="no configuration can be retrieved"):
        recommend([options[0]], [], basis="budget", metric="recall@budget", delta=0.01)


def test_retrievable_refuses_whole_documents_and_chunks_longer_than_the_budget() -> None:
    assert retrievable(chunks=12, documents=1, median_chunk_chars=380, budget_chars=2000)
    assert not retrievable(chunks=1, documents=1, median_chunk_chars=300, budget_chars=2000)
    assert not retrievable(chunks=59, documents=59, median_chunk_chars=300, budget_chars=2000)
    assert not retrievable(chunks=40, documents=1, median_chunk_chars=2001, budget_chars=2000)
    assert retrievable(chunks=40, documents=1, median_chunk_chars=2000, budget_chars=2000)


def test_preference_orders_prior_then_cut_then_index_then_context() -> None:
    base = _at_budget("x", 0.9, prior=0.9, cut=0.1, index_bytes=500, chars=2000)
    assert preference(base) == (-0.9, 0.1, 500.0, 2000.0)
    assert preference(_at_budget("y", 0.9)) == (-0.0, 0.0, 100.0, 2000.0)
