"""Confidence intervals and paired significance tests for comparing chunking configurations.

Every configuration is evaluated on the same questions, so differences are tested *paired*:
per question, ``d_i = a_i - b_i``. The test is a paired (sign-flip) permutation test of the
mean difference: under the null hypothesis that the two configurations are exchangeable on each
question, each ``d_i`` is equally likely to have either sign (Fisher 1935; Smucker, Allan &
Carterette 2007 recommend it for IR evaluation). Confidence intervals are percentile bootstrap
intervals over questions (Efron & Tibshirani 1993), seeded so a run is reproducible. Comparing
all pairs of configurations makes many tests at once; Holm's step-down procedure (Holm 1979)
keeps the family-wise error rate at ``alpha``.

A test that does not reject says "no detectable difference" at this sample size, never that two
configurations are equal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from chunkviz.errors import ParameterError

NO_DIFFERENCE = "no detectable difference"
_BATCH = 500  # resamples per matrix product: bounds memory at _BATCH x questions floats


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its bootstrap confidence interval.

    Attributes:
        mean: The sample mean.
        ci_low: Lower bound of the interval.
        ci_high: Upper bound of the interval.
    """

    mean: float
    ci_low: float
    ci_high: float

    def as_dict(self) -> dict[str, float]:
        """``{"mean", "ci_low", "ci_high"}`` as in the results file."""
        return {"mean": self.mean, "ci_low": self.ci_low, "ci_high": self.ci_high}


@dataclass(frozen=True, slots=True)
class PairwiseResult:
    """The paired comparison of configurations ``a`` and ``b`` on one metric.

    Attributes:
        metric: Metric key (``ndcg@10``).
        a: Label of the first configuration.
        b: Label of the second configuration.
        diff: mean(a) - mean(b) over the same questions.
        ci_low: Lower bound of the paired bootstrap interval of ``diff``.
        ci_high: Upper bound.
        p_value: Two-sided paired permutation p-value.
        p_holm: Holm-adjusted p-value over all pairs of this metric.
        significant: ``p_holm < alpha``.
    """

    metric: str
    a: str
    b: str
    diff: float
    ci_low: float
    ci_high: float
    p_value: float
    p_holm: float
    significant: bool

    @property
    def verdict(self) -> str:
        """``"<a> better"``, ``"<b> better"`` or ``"no detectable difference"``."""
        if not self.significant:
            return NO_DIFFERENCE
        return f"{self.a} better" if self.diff > 0 else f"{self.b} better"

    def flipped(self) -> PairwiseResult:
        """The same test oriented as ``b - a``."""
        return PairwiseResult(self.metric, self.b, self.a, -self.diff, -self.ci_high,
                              -self.ci_low, self.p_value, self.p_holm, self.significant)

    @classmethod
    def from_dict(cls, row: Mapping[str, Any]) -> PairwiseResult:
        """A row of a results file's ``pairwise`` table (the inverse of ``as_dict``)."""
        return cls(
            metric=str(row["metric"]),
            a=str(row["a"]),
            b=str(row["b"]),
            diff=float(row["diff"]),
            ci_low=float(row["ci_low"]),
            ci_high=float(row["ci_high"]),
            p_value=float(row["p_value"]),
            p_holm=float(row["p_holm"]),
            significant=bool(row["significant"]),
        )

    def as_dict(self) -> dict[str, object]:
        """The row of the results file's ``pairwise`` table (plus ``verdict``)."""
        return {
            "metric": self.metric,
            "a": self.a,
            "b": self.b,
            "diff": self.diff,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "p_value": self.p_value,
            "p_holm": self.p_holm,
            "significant": self.significant,
            "verdict": self.verdict,
        }


def _values(values: Sequence[float] | np.ndarray, name: str = "values") -> np.ndarray:
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1:
        raise ParameterError(f"{name} must be one value per question (got shape {v.shape})")
    return v


def _check_alpha(alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise ParameterError(f"alpha must be between 0 and 1 (got alpha={alpha})")


def _check_resamples(n: int, name: str) -> None:
    if n < 1:
        raise ParameterError(f"{name} must be at least 1 (got {name}={n})")


def bootstrap_indices(n: int, resamples: int, seed: int) -> np.ndarray:
    """Resampled question indices, shape ``(resamples, n)``, reproducible from ``seed``.

    Sharing one index matrix between configurations keeps their intervals paired.
    """
    _check_resamples(resamples, "resamples")
    rng = np.random.default_rng(seed)
    return rng.integers(0, n, size=(resamples, n), dtype=np.int64) if n else np.zeros(
        (resamples, 0), dtype=np.int64
    )


def bootstrap_ci(
    values: Sequence[float] | np.ndarray,
    *,
    resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
    indices: np.ndarray | None = None,
) -> Estimate:
    """Mean of ``values`` with a percentile bootstrap confidence interval.

    Args:
        values: One value per question.
        resamples: Number of bootstrap resamples.
        confidence: Coverage of the interval (0.95: the 2.5th and 97.5th percentiles).
        seed: Seed of the resampling, for reproducible files.
        indices: Precomputed ``bootstrap_indices`` (shared across configurations).

    Returns:
        The estimate; an empty input gives NaNs.

    Raises:
        ParameterError: Bad ``confidence`` or ``resamples``.
    """
    v = _values(values)
    _check_alpha(1.0 - confidence)
    if v.size == 0:
        return Estimate(float("nan"), float("nan"), float("nan"))
    idx = bootstrap_indices(v.size, resamples, seed) if indices is None else indices
    means = np.concatenate(
        [v[idx[i : i + _BATCH]].mean(axis=1) for i in range(0, len(idx), _BATCH)]
    )
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(means, [tail, 100.0 - tail])
    return Estimate(float(v.mean()), float(low), float(high))


def paired_permutation_test(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    *,
    permutations: int = 5000,
    seed: int = 0,
) -> float:
    """Two-sided p-value of a paired sign-flip permutation test of mean(a - b).

    ``p = (1 + #{|mean(s * d)| >= |mean(d)|}) / (1 + permutations)`` over random sign vectors
    ``s`` (the ``+1`` counts the observed assignment, so p is never 0; Phipson & Smyth 2010).

    Args:
        a: Per-question values of the first configuration.
        b: Per-question values of the second, on the same questions.
        permutations: Number of random sign flips.
        seed: Seed of the sign flips.

    Returns:
        The p-value in (0, 1]; 1.0 when every difference is zero.

    Raises:
        ParameterError: Different lengths or ``permutations`` < 1.
    """
    x, y = _values(a, "a"), _values(b, "b")
    if x.shape != y.shape:
        raise ParameterError(
            f"a and b must hold the same questions (got {x.size} and {y.size} values)"
        )
    _check_resamples(permutations, "permutations")
    d = x - y
    if d.size == 0 or not np.any(d):
        return 1.0
    observed = abs(d.mean())
    # NOTE: a small tolerance so that permuted means equal to the observed one up to float
    # rounding count as "at least as extreme" (otherwise ties would depend on summation order).
    tol = 1e-12 * max(1.0, observed)
    rng = np.random.default_rng(seed)
    extreme = 0
    done = 0
    while done < permutations:
        m = min(_BATCH, permutations - done)
        signs = rng.integers(0, 2, size=(m, d.size), dtype=np.int8) * 2 - 1
        extreme += int(np.count_nonzero(np.abs(signs @ d) / d.size >= observed - tol))
        done += m
    return (1 + extreme) / (1 + permutations)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values, in the input order.

    Sorted ascending, ``p_(i)`` becomes ``max_{j <= i} min(1, (m - j + 1) p_(j))`` (Holm 1979);
    rejecting where the adjusted value is below ``alpha`` controls the family-wise error rate.

    Args:
        p_values: Unadjusted p-values.

    Returns:
        Adjusted p-values, aligned with the input.

    Raises:
        ParameterError: A p-value outside [0, 1].
    """
    p = np.asarray(list(p_values), dtype=np.float64)
    if p.size and (np.any(p < 0) or np.any(p > 1) or np.any(np.isnan(p))):
        raise ParameterError(f"p-values must lie in [0, 1] (got {p.tolist()})")
    m = p.size
    order = np.argsort(p, kind="stable")
    adjusted = np.empty(m, dtype=np.float64)
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[j]))
        adjusted[j] = running
    return adjusted.tolist()


def pairwise_tests(
    per_question: Mapping[str, Sequence[float] | np.ndarray],
    *,
    metric: str,
    alpha: float = 0.05,
    resamples: int = 2000,
    permutations: int = 5000,
    seed: int = 0,
    indices: np.ndarray | None = None,
) -> list[PairwiseResult]:
    """Paired tests of every pair of configurations on one metric, Holm-corrected.

    Args:
        per_question: Configuration label -> per-question values (same questions, same order).
        metric: Metric key recorded in each result.
        alpha: Family-wise error rate.
        resamples: Bootstrap resamples for the interval of each difference.
        permutations: Sign flips per permutation test.
        seed: Seed for both (each pair uses the same streams, so the table is reproducible).
        indices: Precomputed ``bootstrap_indices`` shared with the per-configuration intervals.

    Returns:
        One result per unordered pair, in the order of ``itertools.combinations`` of the labels.

    Raises:
        ParameterError: Configurations with different numbers of questions or a bad alpha.
    """
    _check_alpha(alpha)
    labels = list(per_question)
    arrays = {k: _values(v, k) for k, v in per_question.items()}
    sizes = {a.size for a in arrays.values()}
    if len(sizes) > 1:
        raise ParameterError(
            f"every configuration must be scored on the same questions (got sizes {sorted(sizes)})"
        )
    n = sizes.pop() if sizes else 0
    idx = indices if indices is not None else bootstrap_indices(n, resamples, seed)
    raw = []
    for a, b in combinations(labels, 2):
        d = arrays[a] - arrays[b]
        est = bootstrap_ci(d, indices=idx)
        p = paired_permutation_test(arrays[a], arrays[b], permutations=permutations, seed=seed)
        raw.append((a, b, est, p))
    adjusted = holm([r[3] for r in raw])
    return [
        PairwiseResult(
            metric=metric,
            a=a,
            b=b,
            diff=est.mean,
            ci_low=est.ci_low,
            ci_high=est.ci_high,
            p_value=p,
            p_holm=ph,
            significant=bool(ph < alpha),
        )
        for (a, b, est, p), ph in zip(raw, adjusted, strict=True)
    ]


def spearman_rho(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rank correlation of two paired sequences (ties get their average rank).

    rho is Pearson's correlation of the two rank vectors (Spearman 1904; ``scipy.stats.spearmanr``
    computes the same). Used to ask whether two measurements rank configurations alike.

    Returns:
        rho in [-1, 1], or NaN when either sequence is constant (no ranking to compare).

    Raises:
        ParameterError: Sequences of different lengths or with fewer than two items.
    """
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1 or len(x) < 2:
        raise ParameterError(
            f"spearman_rho needs two sequences of the same length >= 2 (got {len(x)} and {len(y)})"
        )
    if np.all(x == x[0]) or np.all(y == y[0]):
        return float("nan")

    def ranks(v: np.ndarray) -> np.ndarray:
        order = np.argsort(v, kind="stable")
        r = np.empty(len(v), dtype=np.float64)
        r[order] = np.arange(1, len(v) + 1)
        for value in np.unique(v):  # average rank for ties
            tied = v == value
            r[tied] = r[tied].mean()
        return r

    rx, ry = ranks(x), ranks(y)
    rx -= rx.mean()
    ry -= ry.mean()
    return float((rx @ ry) / np.sqrt((rx @ rx) * (ry @ ry)))
