from __future__ import annotations

import numpy as np
import pytest

from chunkviz.errors import ParameterError
from chunkviz.eval.stats import (
    NO_DIFFERENCE,
    bootstrap_ci,
    holm,
    paired_permutation_test,
    pairwise_tests,
)


def test_holm_hand_computed():
    # sorted: 0.01*4=0.04, 0.02*3=0.06, 0.03*2=0.06 (monotone), 0.5*1=0.5
    assert holm([0.03, 0.01, 0.5, 0.02]) == pytest.approx([0.06, 0.04, 0.5, 0.06])
    assert holm([0.4, 0.9]) == pytest.approx([0.8, 0.9])
    assert holm([0.6, 0.7]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []
    with pytest.raises(ParameterError, match="p-values"):
        holm([1.5])


def test_bootstrap_ci_is_seeded_and_covers_the_mean():
    values = np.random.default_rng(1).random(300)
    a = bootstrap_ci(values, seed=3)
    b = bootstrap_ci(values, seed=3)
    assert a == b
    assert a.ci_low < a.mean < a.ci_high
    assert a.mean == pytest.approx(values.mean())


def test_bootstrap_ci_of_constant_values_is_a_point():
    est = bootstrap_ci(np.ones(50))
    assert (est.mean, est.ci_low, est.ci_high) == (1.0, 1.0, 1.0)


def test_permutation_detects_a_real_difference():
    rng = np.random.default_rng(0)
    b = (rng.random(400) < 0.5).astype(float)
    a = np.maximum(b, (rng.random(400) < 0.3).astype(float))  # a wins on ~15% of questions
    assert paired_permutation_test(a, b, permutations=2000) < 0.001


def test_permutation_finds_no_difference_in_noise():
    rng = np.random.default_rng(5)
    a = (rng.random(200) < 0.6).astype(float)
    b = a.copy()
    flip = rng.choice(200, size=20, replace=False)
    b[flip[:10]] = 1 - b[flip[:10]]  # symmetric noise: 10 flips each way on average
    b[flip[10:]] = 1 - b[flip[10:]]
    p = paired_permutation_test(a, b, permutations=2000)
    assert p > 0.05


def test_identical_configurations_give_p_one():
    x = np.arange(10, dtype=float)
    assert paired_permutation_test(x, x) == 1.0


def test_permutation_rejects_unpaired_lengths():
    with pytest.raises(ParameterError, match="same questions"):
        paired_permutation_test([1.0, 0.0], [1.0])


def test_pairwise_tests_verdicts():
    rng = np.random.default_rng(2)
    base = (rng.random(500) < 0.5).astype(float)
    better = np.maximum(base, (rng.random(500) < 0.4).astype(float))
    same = base.copy()
    results = pairwise_tests(
        {"good": better, "base": base, "copy": same}, metric="recall@5", permutations=2000
    )
    by_pair = {(r.a, r.b): r for r in results}
    assert [(r.a, r.b) for r in results] == [("good", "base"), ("good", "copy"), ("base", "copy")]
    assert by_pair[("good", "base")].significant
    assert by_pair[("good", "base")].verdict == "good better"
    assert by_pair[("good", "base")].ci_low > 0
    assert not by_pair[("base", "copy")].significant
    assert by_pair[("base", "copy")].verdict == NO_DIFFERENCE
    assert all(r.p_holm >= r.p_value for r in results)
    assert by_pair[("good", "base")].as_dict()["verdict"] == "good better"


def test_pairwise_tests_need_the_same_questions():
    with pytest.raises(ParameterError, match="same questions"):
        pairwise_tests({"a": [1.0, 0.0], "b": [1.0]}, metric="recall@5")


def test_spearman_rho_hand_computed_and_against_scipy() -> None:
    import math

    from scipy.stats import spearmanr

    from chunkviz.eval.stats import spearman_rho

    assert spearman_rho([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman_rho([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # Ties get their average rank: ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4).
    assert spearman_rho([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(0.9486832980505138)
    a, b = [0.82, 0.9, 0.9, 0.94, 0.95, 0.97, 0.98, 0.95], [3, 1, 2, 5, 4, 7, 8, 6]
    assert spearman_rho(a, b) == pytest.approx(spearmanr(a, b).statistic)
    assert math.isnan(spearman_rho([1, 1, 1], [1, 2, 3]))
    with pytest.raises(ParameterError, match="same length"):
        spearman_rho([1, 2], [1, 2, 3])
