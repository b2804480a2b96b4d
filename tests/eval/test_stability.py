"""The pick's stability over resamples of the questions, at the budget and at equal k."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from msgspec.structs import replace
from scipy.stats import binomtest

from chunkviz.eval import stability as stab
from chunkviz.eval.grid import tune_grid
from chunkviz.eval.stats import holm, paired_permutation_test
from chunkviz.eval.tune import decide, tune
from chunkviz.samples import load_sample
from chunkviz.views.tune_report import decision_lines, format_tune


def test_holm_rows_is_holm_on_every_row() -> None:
    p = np.random.default_rng(0).random((7, 11)) ** 3
    p[2, :4] = p[2, 0]  # ties
    assert np.allclose(stab._holm_rows(p), [holm(row) for row in p.tolist()], rtol=0, atol=1e-15)


@pytest.mark.parametrize(("plus", "minus"), [(9, 1), (3, 3), (0, 5), (12, 4), (0, 0), (30, 14)])
def test_the_exact_sign_test_is_the_binomial_one_and_the_monte_carlo_limit(plus, minus) -> None:
    got = float(stab.sign_test_p(np.array([plus]), np.array([minus]))[0])
    m = plus + minus
    assert got == pytest.approx(binomtest(plus, m, 0.5).pvalue if m else 1.0, abs=1e-12)
    a = np.r_[np.ones(plus), np.zeros(minus), np.ones(5)]
    b = np.r_[np.zeros(plus), np.ones(minus), np.ones(5)]
    assert paired_permutation_test(a, b, permutations=20000, seed=1) == pytest.approx(
        got, abs=0.015
    )


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return tune(
        load_sample("tech_en"),
        synthetic=60,
        configs=tune_grid()[:8],
        bootstrap=200,
        permutations=1000,
        cache_dir=tmp_path_factory.mktemp("c"),
    )


def test_stability_counts_every_resample_and_is_seeded(run) -> None:  # type: ignore[no-untyped-def]
    s = run.stability
    assert s is not None
    assert s.resamples == stab.RESAMPLES
    assert s.seed == 0
    assert s.pick == run.recommendation.pick
    assert sum(n for _, n in s.picks) == s.resamples
    assert dict(s.picks).get(s.pick, 0) == s.kept
    again = stab.pick_stability(run.results, run.recommendation, seed=0)
    assert again == s
    assert stab.pick_stability(run.results, run.recommendation, seed=1, resamples=50) != s


def test_a_clear_winner_is_stable_and_a_coin_toss_is_not() -> None:
    # Resampling identical values always gives the same data: the same pick every time.
    run = tune(
        load_sample("tech_en"),
        synthetic=40,
        configs=tune_grid()[:3],
        bootstrap=100,
        permutations=200,
    )
    results = run.results
    first = results.labels[0]
    same = replace(results, ranks={lab: results.ranks[first] for lab in results.labels})
    _rec, _at_k, s = decide(same, run.points, run.probes)
    assert s is not None
    assert s.share == 1.0
    assert s.stable


def test_stability_reads_the_fractional_budget_values(run) -> None:  # type: ignore[no-untyped-def]
    # At the budget the last chunk counts by the share of it sent: values between 0 and 1.
    rec = run.recommendation
    assert rec.basis == "budget"
    ks = [run.results.budget.k[lab] for lab in run.results.labels]
    assert any(k != int(k) for k in ks)
    s = stab.pick_stability(run.results, rec, seed=0)
    assert s is not None
    assert s.pick == rec.pick


def test_an_unstable_pick_says_so(run, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(stab, "STABLE_SHARE", 1.01)  # no pick can reach it
    rec, at_k, s = decide(run.results, run.points, run.probes)
    assert s is not None
    assert not s.stable
    from dataclasses import replace

    shaky = replace(run, recommendation=rec, at_k=at_k, stability=s)
    assert shaky.pick == rec.pick
    out = format_tune(shaky)
    assert f"Recommended at {run.budget:,} characters: {rec.pick}\n" in out
    assert "Unstable: " in out
    ja = " ".join(decision_lines("ja", shaky))
    assert "不安定" in ja


def test_stability_needs_recall(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from chunkviz.errors import ParameterError

    mrr = replace(run.recommendation, metric="mrr@10")
    with pytest.raises(ParameterError, match="needs recall"):
        stab.pick_stability(run.results, mrr)
    with pytest.raises(ParameterError, match="resamples must be at least 1"):
        stab.pick_stability(run.results, run.recommendation, resamples=0)
