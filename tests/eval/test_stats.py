from __future__ import annotations

import msgspec
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkviz.errors import ParameterError
from chunkviz.eval.measures import key_values
from chunkviz.eval.pairwise import NO_DIFFERENCE
from chunkviz.eval.results import load_results
from chunkviz.eval.runner import shipped_results_dir
from chunkviz.eval.stats import (
    Clusters,
    PairwiseResult,
    Resampling,
    bootstrap_ci,
    bootstrap_indices,
    default_margin,
    format_p,
    holm,
    holm_bounds,
    paired_permutation_test,
    pairwise_tests,
    permutation_floor,
    replicate,
    sign_codes,
    sign_flip_p_values,
    tost_paired,
)
from chunkviz.eval.verdict import resampling_of


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
    other = int(np.flatnonzero(base != base[0])[0])
    same[[0, other]] = 1 - same[[0, other]]  # one question each way: not identical or saturated
    results = pairwise_tests(
        {"good": better, "base": base, "copy": same}, metric="recall@5", permutations=2000
    )
    by_pair = {(r.a, r.b): r for r in results}
    assert [(r.a, r.b) for r in results] == [("good", "base"), ("good", "copy"), ("base", "copy")]
    assert by_pair[("good", "base")].significant
    assert by_pair[("good", "base")].verdict == "good better"
    assert by_pair[("good", "base")].ci_low > 0
    assert not by_pair[("base", "copy")].significant
    assert by_pair[("base", "copy")].verdict == "equivalent within ±0.01"
    assert by_pair[("base", "copy")].detectable < 0.01
    untested = pairwise_tests({"base": base, "copy": same}, metric="recall@5", equivalence=False)
    assert (untested[0].verdict, untested[0].delta) == (NO_DIFFERENCE, None)
    identical = pairwise_tests({"base": base, "copy": base.copy()}, metric="recall@5")[0]
    assert (identical.outcome, identical.equivalent) == ("saturated", False)
    assert all(r.p_holm >= r.p_value for r in results)
    good = msgspec.to_builtins(by_pair[("good", "base")], enc_hook=float)
    assert (good["verdict"], good["outcome"]) == ("good better", "a_better")


def test_pairwise_tests_need_the_same_questions():
    with pytest.raises(ParameterError, match="same questions"):
        pairwise_tests({"a": [1.0, 0.0], "b": [1.0]}, metric="recall@5")


# ------------------------------------------------------------------ the unit of resampling


def _clustered(groups: int, per_group: int, rho: float, seed: int) -> tuple[np.ndarray, list[str]]:
    """y = u_doc + e with var(u) = rho, var(e) = 1 - rho: intra-document correlation rho."""
    rng = np.random.default_rng(seed)
    u = rng.normal(0.0, np.sqrt(rho), groups)
    y = np.repeat(u, per_group) + rng.normal(0.0, np.sqrt(1.0 - rho), groups * per_group)
    docs = [f"doc{g}" for g in range(groups) for _ in range(per_group)]
    return y, docs


def test_document_ci_is_wider_by_the_design_effect():
    groups, m, rho = 300, 8, 0.3
    y, docs = _clustered(groups, m, rho, seed=11)
    doc = Clusters.of(docs)
    assert (doc.unit, doc.count, doc.n) == ("document", groups, groups * m)
    wide = bootstrap_ci(y, resampling=Resampling.draw(doc, 4000, seed=1))
    narrow = bootstrap_ci(y, resampling=Resampling.draw(Clusters.questions(y.size), 4000, seed=1))
    ratio = (wide.ci_high - wide.ci_low) / (narrow.ci_high - narrow.ci_low)
    # The bootstrap variance of a mean of G equal-sized documents is (1/G^2) sum (ybar_g - ybar)^2;
    # of n independent questions (1/n^2) sum (y_i - ybar)^2: the width ratio is the root of their
    # quotient, whose expectation is Kish's design effect 1 + (m - 1) rho.
    doc_means = y.reshape(groups, m).mean(axis=1)
    plug_in = np.sqrt(
        ((doc_means - y.mean()) ** 2).sum() / groups**2 / (((y - y.mean()) ** 2).sum() / y.size**2)
    )
    assert ratio == pytest.approx(plug_in, rel=0.06)
    assert ratio == pytest.approx(np.sqrt(1 + (m - 1) * rho), rel=0.15)
    assert wide.mean == narrow.mean


def test_one_question_per_document_gives_the_question_level_interval():
    y = np.random.default_rng(4).random(250)
    doc = Clusters.of([f"d{i}" for i in range(y.size)])
    a = bootstrap_ci(y, resampling=Resampling.draw(doc, 1000, seed=9))
    b = bootstrap_ci(y, resampling=Resampling.draw(Clusters.questions(y.size), 1000, seed=9))
    assert a == b
    # ...and the same draws as the question-level bootstrap of the index matrix.
    idx = bootstrap_indices(y.size, 1000, 9)
    low, high = np.percentile(y[idx].mean(axis=1), [2.5, 97.5])
    assert (b.ci_low, b.ci_high) == pytest.approx((low, high), abs=1e-12)
    assert bootstrap_ci(y, indices=idx) == pytest.approx(b)


def test_clusters_number_documents_in_order_of_appearance():
    c = Clusters.of(["b", "a", "b", "c", "a"])
    assert c.groups.tolist() == [0, 1, 0, 2, 1]
    assert c.sizes.tolist() == [2.0, 2.0, 1.0]
    assert c.sums(np.array([1.0, 2.0, 3.0, 4.0, 5.0])).tolist() == [4.0, 7.0, 4.0]
    assert Clusters.of(["b", "a", "b"], unit="question").groups.tolist() == [0, 1, 2]
    with pytest.raises(ParameterError, match="unit must be one of"):
        Clusters.of(["a"], unit="article")  # type: ignore[arg-type]


def test_document_sign_flips_count_documents_not_questions():
    # 6 of 20 documents gain on all 30 of their questions, the rest are unchanged: at document
    # level only 2 of the 2^6 sign patterns of the gaining documents are as extreme (p = 1/32).
    docs = [f"d{g}" for g in range(20) for _ in range(30)]
    b = np.zeros(600)
    a = b.copy()
    a[:180] = 1.0
    p_doc = paired_permutation_test(a, b, permutations=20000, seed=3, clusters=Clusters.of(docs))
    p_question = paired_permutation_test(a, b, permutations=20000, seed=3)
    assert p_doc == pytest.approx(2 / 64, abs=0.005)
    assert p_question == permutation_floor(20000)
    singletons = Clusters.of([f"d{i}" for i in range(600)])
    assert paired_permutation_test(a, b, permutations=500, seed=3, clusters=singletons) == (
        paired_permutation_test(a, b, permutations=500, seed=3)
    )


@pytest.mark.parametrize("unit", ["question", "document"])
def test_batched_sign_flips_give_each_pair_its_own_tests_p_value(unit):
    # One sign matrix for all pairs (pairwise_tests) must give what each pair's own test gives
    # with the same seed, fractional values (MRR-like) and all-zero differences included.
    rng = np.random.default_rng(7)
    values = {f"c{i}": rng.integers(0, 11, 90) / 10.0 for i in range(5)}
    values["copy"] = values["c0"].copy()
    clusters = (
        Clusters.of([f"d{i % 13}" for i in range(90)])
        if unit == "document"
        else Clusters.questions(90)
    )
    rows = pairwise_tests(values, metric="mrr@10", permutations=1234, seed=5, clusters=clusters)
    alone = [
        paired_permutation_test(
            values[r.a], values[r.b], permutations=1234, seed=5, clusters=clusters
        )
        for r in rows
    ]
    assert [r.p_value for r in rows] == alone
    assert next(r.p_value for r in rows if {r.a, r.b} == {"c0", "copy"}) == 1.0
    assert min(alone) < 0.5  # the check is not trivially comparing ones


def test_sign_flip_p_values_do_not_depend_on_the_other_columns():
    rng = np.random.default_rng(3)
    totals = rng.normal(size=(40, 6))
    together = sign_flip_p_values(totals, permutations=999, seed=2)
    apart = [sign_flip_p_values(totals[:, [j]], permutations=999, seed=2)[0] for j in range(6)]
    assert together.tolist() == apart
    assert sign_flip_p_values(np.zeros((40, 2)), permutations=9, seed=0).tolist() == [1.0, 1.0]
    with pytest.raises(ParameterError, match="totals must be"):
        sign_flip_p_values(np.zeros(4), permutations=9, seed=0)


# Extreme counts of sign_flip_p_values from the BLAS product it used before the lookup tables
# (commit ae4ee7a): same seeds, same p-values.
GOLDEN_EXTREMES = {
    "normal13": [1168, 760, 310, 210, 398],
    "binary59": [2510, 4391, 2594, 242, 93, 5000],
    "mrr300": [0, 610, 0, 102],
}


def _golden_cases():
    rng = np.random.default_rng(11)
    # fractional totals on 13 units (not a multiple of 8), flips not a multiple of the batch
    yield "normal13", rng.normal(size=(13, 5)), 1234, 4
    # binary-metric differences summed per document (ties), 59 units, a column of zeros
    d = rng.integers(-1, 2, size=(600, 6)).astype(float)
    d[:, 5] = 0.0
    d[:7, 4] = 1.0
    d[7:, 4] = 0.0
    docs = Clusters.of([i % 59 for i in range(600)])
    yield "binary59", np.stack([docs.sums(d[:, j]) for j in range(6)], axis=1), 5000, 0
    # MRR-like values on 300 question units
    a = rng.integers(0, 11, size=(300, 4)) / 10.0
    yield "mrr300", a - a[:, [0]] * 0.9, 2000, 9


@pytest.mark.parametrize(("name", "totals", "permutations", "seed"), list(_golden_cases()))
def test_sign_flips_keep_the_p_values_of_the_blas_product(name, totals, permutations, seed):
    p = sign_flip_p_values(totals, permutations=permutations, seed=seed)
    extremes = np.rint(p * (1 + permutations)).astype(int) - 1
    assert extremes.tolist() == GOLDEN_EXTREMES[name]


def _signs(units: int, permutations: int, seed: int) -> np.ndarray:
    """The +-1 sign matrix of the tests, drawn as it always was."""
    rng = np.random.default_rng(seed)
    rows = []
    for lo in range(0, permutations, 500):
        m = min(500, permutations - lo)
        rows.append(rng.integers(0, 2, size=(m, units), dtype=np.int8) * 2 - 1)
    return np.concatenate(rows).astype(np.float64)


@given(
    units=st.integers(1, 40),
    permutations=st.integers(1, 1200),
    seed=st.integers(0, 2**32),
    cols=st.integers(1, 4),
    data=st.data(),
)
@settings(max_examples=40, deadline=None)
def test_sign_flip_sums_are_the_sign_matrix_product(units, permutations, seed, cols, data):
    # The lookup tables give the signed sums of the drawn sign matrix, so the counts match a
    # direct product (ties at the observed total included: integer totals).
    raw = data.draw(st.lists(st.integers(-3, 3), min_size=units * cols, max_size=units * cols))
    totals = np.asarray(raw, dtype=np.float64).reshape(units, cols)
    signs = _signs(units, permutations, seed)
    codes = sign_codes(units, permutations, seed)
    assert np.array_equal(np.unpackbits(codes, axis=1)[:, :units].astype(int) * 2 - 1, signs)
    observed = np.abs(totals.sum(axis=0))
    direct = np.count_nonzero(np.abs(signs @ totals) >= observed - 1e-9, axis=0)
    expected = np.where(np.any(totals != 0, axis=0), (1 + direct) / (1 + permutations), 1.0)
    assert sign_flip_p_values(totals, permutations=permutations, seed=seed).tolist() == (
        expected.tolist()
    )
    assert not codes.flags.writeable


def test_the_shipped_bm25_run_keeps_its_p_values():
    # The main tests and one sensitivity definition of a shipped run, recomputed from its ranks
    # with its seed, permutations and units, give the p-values the file holds.
    (path,) = shipped_results_dir().glob("jsquad-bm25-all-s0-*.json")
    results = load_results(path)
    resampling = resampling_of(results)
    sensitivity = results.sensitivity
    assert sensitivity is not None
    checked = 0
    for ranks, rows in (
        (results.ranks, results.pairwise),
        (sensitivity.ranks["ties_optimistic"], sensitivity.pairwise["ties_optimistic"]),
    ):
        for key in ("recall@5", "ndcg@10", "mrr@10"):
            values = {lab: key_values(key, ranks[lab]) for lab in results.labels}
            stored = [r for r in rows if r.metric == key]
            again = pairwise_tests(
                values,
                metric=key,
                alpha=results.stats.alpha,
                permutations=results.stats.permutations,
                seed=results.stats.seed,
                resampling=resampling,
                margin=stored[0].delta,
            )
            assert [(r.a, r.b, r.p_value, r.p_holm) for r in again] == [
                (r.a, r.b, r.p_value, r.p_holm) for r in stored
            ]
            checked += sum(
                r.p_value > permutation_floor(results.stats.permutations) for r in stored
            )
    assert checked >= 10  # not only p-values at the floor


# ------------------------------------------------------------------ equivalence


@pytest.mark.parametrize(
    ("seed", "shift", "delta"),
    [(0, 0.0, 0.1), (1, 0.02, 0.05), (2, 0.08, 0.1), (3, -0.05, 0.2), (4, 0.0, 0.01)],
)
def test_tost_matches_statsmodels_ttost_paired(seed, shift, delta):
    from statsmodels.stats.weightstats import ttost_paired

    rng = np.random.default_rng(seed)
    b = rng.random(120)
    a = np.clip(b + shift + rng.normal(0, 0.15, 120), 0, 1)
    ours = tost_paired(a, b, delta)
    p, (_, p_low, _), (_, p_up, _) = ttost_paired(a, b, -delta, delta)
    assert ours.p_value == pytest.approx(p, rel=1e-9, abs=1e-15)
    assert (ours.p_lower, ours.p_upper) == pytest.approx((p_low, p_up), rel=1e-9, abs=1e-15)
    assert ours.df == 119


def test_tost_document_standard_error_is_the_cluster_robust_one():
    import statsmodels.api as sm

    y, docs = _clustered(40, 6, 0.4, seed=2)
    c = Clusters.of(docs)
    ours = tost_paired(y, np.zeros_like(y), 0.5, clusters=c)
    fit = sm.OLS(y, np.ones_like(y)).fit(cov_type="cluster", cov_kwds={"groups": c.groups})
    assert ours.se == pytest.approx(float(fit.bse[0]), rel=1e-9)
    assert ours.df == 39
    assert ours.se > tost_paired(y, np.zeros_like(y), 0.5).se  # clustering widens it


def test_tost_agrees_with_the_interval_inclusion_rule():
    from scipy import stats as sps

    rng = np.random.default_rng(8)
    for trial in range(40):
        b = (rng.random(200) < 0.6).astype(float)
        a = np.where(rng.random(200) < 0.1, 1 - b, b)
        delta, alpha = float(rng.choice([0.02, 0.05, 0.1])), 0.05
        t = tost_paired(a, b, delta, alpha=alpha)
        d = a - b
        half = sps.t.ppf(1 - alpha, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size)
        inside = -delta < d.mean() - half and d.mean() + half < delta
        assert (t.ci_low, t.ci_high) == pytest.approx((d.mean() - half, d.mean() + half))
        assert (t.p_value < alpha) == inside, trial


def test_tost_rejects_bad_input():
    with pytest.raises(ParameterError, match="delta must be positive"):
        tost_paired([1.0, 0.0], [1.0, 1.0], 0.0)
    with pytest.raises(ParameterError, match="at least 2 documents"):
        tost_paired([1.0, 0.0], [1.0, 1.0], 0.1, clusters=Clusters.of(["x", "x"]))


def test_identical_configurations_are_equivalent_and_a_real_gap_is_not():
    x = (np.random.default_rng(0).random(300) < 0.5).astype(float)
    assert tost_paired(x, x, 0.01).p_value == 0.0
    y = x.copy()
    y[:30] = 1.0 - y[:30]  # a 10% disagreement cannot be equivalent within 0.01
    assert tost_paired(x, y, 0.01).p_value > 0.5


def test_pairwise_outcomes_and_the_equivalence_guard():
    rng = np.random.default_rng(2)
    base = (rng.random(500) < 0.5).astype(float)
    better = np.maximum(base, (rng.random(500) < 0.4).astype(float))
    close = base.copy()
    close[rng.choice(500, 4, replace=False)] = 1 - close[rng.choice(500, 4, replace=False)]
    noisy = np.where(rng.random(500) < 0.2, 1 - base, base)
    results = pairwise_tests(
        {"good": better, "base": base, "close": close, "noisy": noisy},
        metric="recall@5",
        permutations=2000,
        margin=0.05,
    )
    by_pair = {(r.a, r.b): r for r in results}
    assert by_pair[("good", "base")].outcome == "a_better"
    assert by_pair[("good", "base")].flipped().outcome == "b_better"
    assert by_pair[("base", "close")].outcome == "equivalent"
    assert by_pair[("base", "close")].verdict == "equivalent within ±0.05"
    assert by_pair[("base", "noisy")].outcome == "inconclusive"
    for r in results:
        assert r.delta == 0.05
        assert r.p_equiv_holm >= r.p_equiv
        if r.equivalent:
            assert r.eq_ci_low > -0.05
            assert r.eq_ci_high < 0.05
        if r.eq_ci_low <= -0.05 or r.eq_ci_high >= 0.05:
            assert not r.equivalent
    assert pairwise_tests({"a": base, "b": close}, metric="recall@5")[0].delta == 0.01


def test_discordant_counts_are_the_wins_of_each_side():
    a = np.array([1, 1, 0, 0, 1, 0], dtype=float)
    b = np.array([0, 1, 1, 0, 0, 0], dtype=float)
    (r,) = pairwise_tests({"a": a, "b": b}, metric="recall@5", permutations=100)
    assert (r.a_wins, r.b_wins) == (2, 1)
    assert (r.flipped().a_wins, r.flipped().b_wins) == (1, 2)
    assert r.wins == (2, 1)
    assert msgspec.json.decode(msgspec.json.encode(r, enc_hook=float))["wins"] == [2, 1]


def test_default_margins_are_per_metric():
    assert default_margin("recall@5") == 0.01
    assert default_margin("span_iou@5") == 0.02
    with pytest.raises(ParameterError, match="unknown metric map; known: mrr, ndcg, recall"):
        default_margin("map@10")


# ------------------------------------------------------------------ p-values at the floor


def test_format_p_marks_the_floor_as_a_bound():
    assert format_p(28 / 5001, bound=True) == "p ≤ 0.0056"
    assert format_p(1 / 5001, bound=True) == "p ≤ 0.0002"
    assert format_p(0.0034, bound=True) == "p ≤ 0.0034"
    assert format_p(0.00341, bound=True) == "p ≤ 0.00341"
    assert format_p(0.003411, bound=True) == "p ≤ 0.00342"  # rounded up: a bound stays a bound
    assert format_p(0.0341) == "p = 0.0341"
    assert format_p(1e-7) == "p < 0.0001"
    assert format_p(1.0, bound=True) == "p ≤ 1"


def test_holm_bounds_follow_the_term_that_attains_the_maximum():
    floor = 1 / 5001
    # sorted: floor*3 (bound) ; 0.01*2 = 0.02 (exact) ; 0.5 (exact)
    assert holm_bounds([0.5, floor, 0.01], [False, True, False]) == [False, True, False]
    # an exact p whose adjusted value is the running maximum of a bound is a bound too
    assert holm_bounds([floor, floor * 1.2], [True, False]) == [True, True]
    assert holm([floor, floor * 1.2]) == pytest.approx([2 * floor, 2 * floor])


def test_pairwise_tests_flag_floor_p_values():
    rng = np.random.default_rng(0)
    b = (rng.random(400) < 0.4).astype(float)
    a = np.maximum(b, (rng.random(400) < 0.5).astype(float))
    (r,) = pairwise_tests({"a": a, "b": b}, metric="recall@5", permutations=999)
    assert r.p_value == permutation_floor(999) == 0.001
    assert r.p_bound
    assert r.p_holm_bound


# ------------------------------------------------------------------ the file rows


def test_a_pair_flipped_twice_is_itself():
    x = np.random.default_rng(3).random(60)
    y = x + np.random.default_rng(4).normal(0, 0.05, 60)
    docs = [f"d{i // 6}" for i in range(60)]
    (r,) = pairwise_tests(
        {"a": x, "b": y}, metric="ndcg@10", permutations=200, clusters=Clusters.of(docs)
    )
    assert r.unit == "document"
    assert r.flipped().flipped() == r
    assert r.flipped().a_wins == r.b_wins


# ------------------------------------------------------------------ replication


def _row(a: str, b: str, diff: float, significant: bool, equivalent: bool = False):
    return PairwiseResult(
        metric="recall@5",
        a=a,
        b=b,
        diff=diff,
        ci_low=diff - 0.01,
        ci_high=diff + 0.01,
        p_value=0.01,
        p_holm=0.01,
        significant=significant,
        delta=0.01,
        equivalent=equivalent,
    )


def test_replication_statuses():
    first = [
        _row("x", "y", 0.05, True),
        _row("x", "z", 0.0, False, True),
        _row("y", "z", 0.01, False),
        _row("w", "x", 0.02, True),
        _row("w", "y", 0.0, False),
    ]
    second = [
        _row("y", "x", -0.04, True),  # the same conclusion, other orientation
        _row("x", "z", 0.01, False),
        _row("y", "z", 0.0, False),
        _row("w", "x", -0.03, True),
        _row("w", "y", 0.0, False),
    ]
    got = {(r.a, r.b): r.status for r in replicate(first, second)}
    assert got == {
        ("x", "y"): "holds",
        ("x", "z"): "one_only",
        ("y", "z"): "neither",
        ("w", "x"): "contradicts",
        ("w", "y"): "neither",
    }
    with pytest.raises(ParameterError, match="same configurations"):
        replicate(first, second[:2])


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
