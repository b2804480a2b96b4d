"""How often a recommendation stays the recommendation when the questions are resampled.

A pick made from a few hundred questions can hang on a handful of them: on JSQuAD articles the
synthetic pick changed between seeds 0 and 1 in 9 of 20 (issue 22). ``pick_stability`` draws
``resamples`` bootstrap samples of the questions (seeded), decides again on each with the one
rule (``chunkviz.eval.decision.recommend``: same margin, alpha, costs and probe cuts) and counts
how often the pick stays the pick.

Re-running the runner's Monte Carlo tests on every resample would cost minutes, so each resample
uses the limits those tests estimate, computed at once for every resample and pair from the
discordant counts of a binary metric (Recall@k) on question units (Tune's units: one document):

- the sign-flip p-value is its exact value, the two-sided sign test ``2 P(X >= max(n+, n-))``
  with ``X ~ Bin(n+ + n-, 1/2)`` (every sign pattern of the discordant questions equally likely);
- the interval of a difference is ``diff +- t_{0.975, n-1} se`` instead of the percentile
  bootstrap's;
- the TOST, its Holm correction, the detectable margin and saturation are the runner's own
  formulas (``stats.tost_paired``, ``decision.is_saturated``, ``decision.is_equivalent``).

**Stable** means picked in at least ``STABLE_SHARE`` (half) of the resamples: below that, another
sample of questions of the same kind would more likely than not pick something else (a pick
kept in a share ``s`` of resamples is picked again by a second sample with probability about
``s``), which is what "unstable" has to mean for a user about to act on it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import combinations

import numpy as np

from chunkviz.errors import ParameterError
from chunkviz.eval.decision import Choice, Outcome, min_discordant, recommend
from chunkviz.eval.measures import parse_key
from chunkviz.eval.results import Results
from chunkviz.eval.stats import Clusters, Resampling

RESAMPLES = 200
STABLE_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Stability:
    """How often ``pick`` was the pick over ``resamples`` bootstrap samples of the questions.

    Attributes:
        pick: The recommendation on all the questions.
        kept: Resamples in which it stayed the pick.
        resamples: Bootstrap resamples of the questions.
        seed: Their seed.
        picks: Every configuration picked at least once, with its count, most first.
    """

    pick: str
    kept: int
    resamples: int
    seed: int
    picks: tuple[tuple[str, int], ...]

    @property
    def share(self) -> float:
        """The share of resamples in which ``pick`` stayed the pick."""
        return self.kept / self.resamples

    @property
    def stable(self) -> bool:
        """Picked in at least ``STABLE_SHARE`` of the resamples."""
        return self.share >= STABLE_SHARE


@dataclass(frozen=True, slots=True)
class _Pair:
    """One resample's comparison, in the shape ``decision.recommend`` reads."""

    a: str
    b: str
    diff: float
    ci_low: float
    ci_high: float
    outcome: Outcome
    detectable: float | None


def _holm_rows(p: np.ndarray) -> np.ndarray:
    """Holm-adjusted p-values of each row (``stats.holm`` on every row at once)."""
    order = np.argsort(p, axis=1, kind="stable")
    ranked = np.take_along_axis(p, order, axis=1)
    factor = p.shape[1] - np.arange(p.shape[1], dtype=np.float64)
    adjusted = np.maximum.accumulate(np.minimum(1.0, factor * ranked), axis=1)
    out = np.empty_like(p)
    np.put_along_axis(out, order, adjusted, axis=1)
    return out


def sign_test_p(plus: np.ndarray, minus: np.ndarray) -> np.ndarray:
    """The exact two-sided sign-flip p-value of paired 0/1 values, from the discordant counts.

    With ``n+`` questions won by ``a`` and ``n-`` by ``b``, every sign pattern of the ``m = n+ +
    n-`` discordant questions is equally likely under the null, so ``p = P(|2X - m| >= |n+ -
    n-|) = min(1, 2 P(X >= max(n+, n-)))`` with ``X ~ Bin(m, 1/2)``: the value the runner's
    Monte Carlo test (``stats.sign_flip_p_values``) estimates. 1 when ``n+ = n-``.
    """
    from scipy.special import bdtrc

    plus, minus = np.rint(plus).astype(np.int64), np.rint(minus).astype(np.int64)
    top = np.maximum(plus, minus)
    tail = bdtrc(np.maximum(top - 1, 0), plus + minus, 0.5)  # P(X > top - 1)
    return np.where(plus == minus, 1.0, np.minimum(1.0, 2.0 * tail))


def pick_stability(
    results: Results,
    choice: Choice,
    *,
    cut: Mapping[str, float] | None = None,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> Stability | None:
    """How often ``choice.pick`` stays the pick over bootstrap resamples of the questions.

    The per-question values are the choice's metric at its cut-off, or at the run's budget
    (``recall@budget``: a fractional k gives the last, partial chunk a share of a hit, so the
    values are not only 0 and 1; the tests below take the squared differences, not their count).

    Args:
        results: The run whose questions are resampled (its per-question ranks).
        choice: Its recommendation (``verdict.choose``) on recall at k or at the run's budget.
        cut: The shares of probe spans each configuration cuts (``tune.recommend``'s ties);
            default: the options' own.
        resamples: Bootstrap resamples.
        seed: Their seed.

    Returns:
        The stability, or None with fewer than two questions (nothing to resample).

    Raises:
        ParameterError: A metric that is not recall, or fewer than one resample.
    """
    if resamples < 1:
        raise ParameterError("at_least", name="resamples", value=resamples, min=1)
    from scipy.special import stdtr, stdtrit

    if parse_key(choice.metric).measure.name != "recall":
        raise ParameterError("stability_metric", metric=choice.metric)
    labels = list(results.labels)
    hits = np.stack([results.values(lab, choice.metric) for lab in labels])
    n = hits.shape[1]
    if n < 2 or len(labels) < 2:
        return None
    alpha, delta, df = results.stats.alpha, choice.delta, n - 1
    counts = Resampling.draw(Clusters.questions(n), resamples, seed).counts  # (B, n)
    means = counts @ hits.T / n  # (B, configs)
    misses = counts @ (hits < 1.0).T
    ia, ib = (
        np.array(x, dtype=np.int64) for x in zip(*combinations(range(len(labels)), 2), strict=True)
    )
    d = hits[ia] - hits[ib]  # (pairs, n)
    plus, minus = counts @ (d > 0).T, counts @ (d < 0).T  # (B, pairs)
    squares = counts @ (d**2).T
    dbar = counts @ d.T / n
    se = np.sqrt(n / (n - 1) * np.maximum(squares - n * dbar**2, 0.0)) / n
    significant = _holm_rows(sign_test_p(plus, minus)) < alpha
    live = se > 0
    safe = np.where(live, se, 1.0)
    p_low = np.where(live, stdtr(df, -((dbar + delta) / safe)), (dbar <= -delta) * 1.0)
    p_high = np.where(live, stdtr(df, (dbar - delta) / safe), (dbar >= delta) * 1.0)
    p_equiv = _holm_rows(np.maximum(p_low, p_high))
    half_eq = stdtrit(df, 1.0 - alpha) * se
    detectable = half_eq
    saturated = ~live | (misses[:, ia] + misses[:, ib] < min_discordant(alpha))
    equivalent = (
        ~saturated
        & (delta >= detectable)
        & (p_equiv < alpha)
        & (-delta < dbar - half_eq)
        & (dbar + half_eq < delta)
    )
    half_ci = stdtrit(df, 0.975) * se
    base = {o.label: o for o in choice.options}
    shares = dict(cut) if cut is not None else {o.label: o.cut for o in choice.options}
    picked: Counter[str] = Counter()
    for r in range(resamples):
        options = [
            replace(base[lab], mean=float(means[r, c]), cut=shares.get(lab, 0.0))
            for c, lab in enumerate(labels)
        ]
        pairs = []
        for j, (a, b) in enumerate(zip(ia.tolist(), ib.tolist(), strict=True)):
            outcome: Outcome
            if significant[r, j]:
                outcome = "a_better" if dbar[r, j] > 0 else "b_better"
            elif saturated[r, j]:
                outcome = "saturated"
            else:
                outcome = "equivalent" if equivalent[r, j] else "inconclusive"
            x, h = float(dbar[r, j]), float(half_ci[r, j])
            pairs.append(
                _Pair(labels[a], labels[b], x, x - h, x + h, outcome, float(detectable[r, j]))
            )
        picked[
            recommend(options, pairs, basis=choice.basis, metric=choice.metric, delta=delta).pick
        ] += 1
    ordered = tuple(sorted(picked.items(), key=lambda kv: (-kv[1], labels.index(kv[0]))))
    return Stability(choice.pick, picked[choice.pick], resamples, seed, ordered)
