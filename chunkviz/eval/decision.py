"""The one place a comparison is decided and a configuration recommended.

Every outcome of a paired comparison (``a_better``, ``b_better``, ``equivalent`` within
``+-delta``, ``inconclusive``, ``saturated``), every equivalence margin default and every
recommendation comes from this module; the statistics (``chunkviz.eval.stats``), the runner, the
results-file validation, Tune, the Benchmark verdict and the CLI call it. It holds values and
rules, never sentences: ``chunkviz.views.verdict`` turns them into words through the catalogues.

**Saturated.** Questions that every configuration answers cannot separate configurations. A
comparison is *saturated* when its paired differences carry no information: every difference is
zero, their standard error is zero, or both sides sit at the ceiling, i.e. the misses of the two
sides added up (questions with a value below the metric's maximum 1, counted once per side that
misses them) are fewer than ``min_discordant(alpha)`` -- the fewest discordant questions on which
even a one-sided exact sign test could reject at ``alpha``. A discordant question (one whose
paired difference is not zero) is missed by at least one side -- by both where a graded metric
such as MRR gives the two sides different values below 1 -- so the sum bounds their number from
above, and below that minimum no test of these questions could ever tell the two apart. A
saturated comparison is never "equivalent": a TOST on zero variance returns p = 0 and would call
anything equivalent.

**Detectable margin.** For a comparison with paired standard error ``se`` on ``G`` units, the
detectable margin is ``t_{1-alpha, G-1} * se``: the smallest ``delta`` at which the TOST at level
``alpha`` would pass *were the observed mean difference exactly 0*. It is chosen over the margin
given the observed difference (``|diff| + t se``, which the TOST interval already shows) because it
is a property of the design -- this n and this variance -- not of the luck of this sample, so it
answers "which margin could these data have shown" and scales as ``1 / sqrt(n)``, which gives
``units_needed``. Any TOST that passes has ``delta > |diff| + t se >= detectable``; "equivalent
within +-delta" is claimed only when ``delta`` is at or above it (with Holm's correction the
needed margin can only be larger: this is a lower bound).

**Cost is context.** A configuration's cost is what it sends a generator: at ``k`` chunks,
``k * mean chunk length`` characters (and tokens of the backend's tokenizer), then its index size.
At an equal context budget every configuration sends about the same, so there the index size
decides. Never the number of chunks.

**The recommendation** (``recommend``) is made at a context budget (``basis="budget"``: every
configuration retrieves the chunks that fill the budget); equal k is shown beside it but, since
more context always wins there, it never decides. A configuration that cannot be retrieved at
the budget (``retrievable``: its chunks are whole documents, or its median chunk is longer than
the budget) is never recommended. Among the rest, *the best* is not simply the highest mean:
the group is the eligible configuration with the highest mean (``Choice.top``) and the eligible
configurations the questions cannot separate from it (saturated or inconclusive, interval not
wholly below zero), and the best is the first of that group by ``preference``: the
document-blind prior, then answers cut, then index size, then context -- never more context --
then grid order. The pick is then the cheapest
configuration shown equivalent to the best, else the best itself, followed by the cheaper
alternatives, each with its saving and its loss with its interval. A configuration whose
interval of the difference lies below zero is never headlined.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np

from chunkviz.errors import ParameterError
from chunkviz.eval.measures import parse_key

Outcome = Literal["a_better", "b_better", "equivalent", "inconclusive", "saturated"]
Basis = Literal["equal_k", "budget"]
Rule = Literal["equivalent", "best"]


def default_margin(metric: str) -> float:
    """The default equivalence margin delta of a metric key (``recall@5`` -> 0.01).

    The margin is the measure's record's (``chunkviz.eval.measures.Measure.margin``), whatever
    the cut-off. Recall@k, nDCG@k and MRR@k (also at ``@budget``): delta = 0.01, one question in
    a hundred gaining or losing a relevant chunk in the top k (Recall), or the equivalent mass of
    rank movements (nDCG, MRR: e.g. 2% of questions moving between ranks 1 and 2 change MRR by
    0.01). It is about what the alternative definitions of ties and relevance move the means by
    on JSQuAD, so a pair proven equivalent at this margin differs by less than the benchmark's
    own definitional uncertainty. Span precision / recall / IoU: delta = 0.02, because their
    per-question values are continuous character ratios whose means move more between
    neighbouring chunk sizes. Whether the data can show equivalence at this margin at all is the
    comparison's ``detectable_margin``.

    Args:
        metric: A metric key ``name@k`` (``ndcg@10``, ``span_iou@5``, ``recall@budget``).

    Returns:
        The margin, in the metric's units.

    Raises:
        ParameterError: A key that does not parse (``measures.parse_key``).
    """
    return parse_key(metric).measure.margin


def margins_for(
    metrics: Sequence[str], given: Mapping[str, float] | None = None
) -> dict[str, float]:
    """The margin of each metric key: ``given`` where it names one, else ``default_margin``."""
    return {key: float((given or {}).get(key, default_margin(key))) for key in metrics}


# ---------------------------------------------------------------------------- one comparison


def min_discordant(alpha: float) -> int:
    """The fewest discordant questions on which an exact one-sided sign test can reject at alpha.

    With ``m`` discordant questions all won by one side, the one-sided sign test's p-value is
    ``0.5^m``; it falls to ``alpha`` first at ``m = ceil(log2(1 / alpha))`` (5 at 0.05). Fewer
    discordant questions than that can never separate two configurations.
    """
    if not 0.0 < alpha < 1.0:
        raise ParameterError("alpha_range", value=alpha)
    return max(1, math.ceil(math.log2(1.0 / alpha) - 1e-12))


def is_saturated(a: np.ndarray, b: np.ndarray, se: float, alpha: float) -> bool:
    """Whether these questions cannot separate ``a`` from ``b`` (see the module docstring).

    True when there is no question, every paired difference is 0, ``se`` is 0, or the questions
    ``a`` misses plus the questions ``b`` misses (values below 1, a question both miss counted
    twice) are fewer than ``min_discordant(alpha)``.

    Args:
        a: Per-question values of one configuration (metric in [0, 1]).
        b: The other's, on the same questions.
        se: The standard error of the mean paired difference.
        alpha: The level of the tests.
    """
    d = a - b
    if d.size == 0 or not np.any(d) or se == 0.0:
        return True
    # The sum bounds the discordant questions (nonzero differences) from above: each has at
    # least one side below 1, and a question both sides miss counts twice whether or not it is
    # discordant; so below the sign test's minimum nothing can separate them.
    misses = int(np.count_nonzero(a < 1.0)) + int(np.count_nonzero(b < 1.0))
    return misses < min_discordant(alpha)


def detectable_margin(se: float, df: int, alpha: float) -> float:
    """``t_{1-alpha, df} * se``: the smallest margin a TOST could pass at were the difference 0.

    Raises:
        ParameterError: ``df`` < 1 or a bad ``alpha``.
    """
    # scipy.special alone, as ``stats.tost_paired``: importing scipy.stats cost 2.5 s of a
    # 17 s tune run.
    from scipy.special import stdtrit

    if df < 1:
        raise ParameterError("df_too_small", value=df)
    if not 0.0 < alpha < 1.0:
        raise ParameterError("alpha_range", value=alpha)
    return float(stdtrit(df, 1.0 - alpha)) * se


def units_needed(units: int, detectable: float, delta: float) -> int:
    """Roughly how many units (documents or questions) equivalence within ``delta`` would need.

    The standard error shrinks as ``1 / sqrt(n)``: with the same per-unit variance and a true
    difference of 0, ``n * (detectable / delta)^2`` units bring the detectable margin down to
    ``delta``. Returns ``units`` when it already is.
    """
    if not delta > 0:
        raise ParameterError("positive", name="delta", value=delta)
    if detectable <= delta:
        return units
    return math.ceil(units * (detectable / delta) ** 2)


def is_equivalent(
    *,
    p_equiv_holm: float,
    eq_ci_low: float,
    eq_ci_high: float,
    delta: float | None,
    detectable: float | None,
    saturated: bool,
    alpha: float,
) -> bool:
    """Whether a comparison shows equivalence within ``+-delta``.

    The Holm-adjusted TOST p-value is below ``alpha``, its ``1 - 2 alpha`` interval lies inside
    ``(-delta, delta)``, ``delta`` is at or above the detectable margin (when known: files of
    schema version 2 did not record it) and the comparison is not saturated.
    """
    if delta is None or saturated or not math.isfinite(eq_ci_low) or not math.isfinite(eq_ci_high):
        return False
    if detectable is not None and delta < detectable:
        return False
    return bool(p_equiv_holm < alpha and -delta < eq_ci_low and eq_ci_high < delta)


def outcome(*, significant: bool, diff: float, equivalent: bool, saturated: bool) -> Outcome:
    """The one outcome of a comparison of ``a`` with ``b`` (``diff = mean(a - b)``).

    A significant difference first (it can also lie within the margin); then saturated (the
    questions cannot separate them, so no equivalence is claimed); then equivalence; else
    inconclusive: no detectable difference, which is not equality. A computed test cannot be
    significant on a saturated pair (with fewer than ``min_discordant`` discordant questions
    the sign-flip p-value is at least ``2^(1-m)`` > alpha), so the order matters only for
    p-values a file states without its data.
    """
    if significant:
        return "a_better" if diff > 0 else "b_better"
    if saturated:
        return "saturated"
    return "equivalent" if equivalent else "inconclusive"


# ---------------------------------------------------------------------------- costs


@dataclass(frozen=True, slots=True)
class Cost:
    """What a configuration costs at ``k`` retrieved chunks.

    Attributes:
        k: Chunks retrieved (at most the index's chunks; fractional at a budget, whose last
            chunk is sent in part: ``metrics.budget_k``).
        chars: Characters of context handed to a generator: ``k * mean chunk length``.
        tokens: The same in tokens of the backend's tokenizer (None: not recorded).
        index_bytes: Size of the index.
    """

    k: float
    chars: float
    tokens: float | None
    index_bytes: int


def context_cost(
    *,
    k: float,
    chunks: int,
    mean_chunk_chars: float,
    mean_chunk_tokens: float | None,
    index_bytes: int,
) -> Cost:
    """The cost of retrieving ``k`` chunks (never more than the index holds)."""
    kk = max(0, min(k, chunks))
    return Cost(
        kk,
        kk * mean_chunk_chars,
        None if mean_chunk_tokens is None else kk * mean_chunk_tokens,
        index_bytes,
    )


def cost_key(cost: Cost, basis: Basis) -> tuple[float, float]:
    """How costs order: by context, then index size; at an equal budget by index size first.

    At an equal budget every configuration sends about the budget, so the small differences of
    rounding k must not decide.
    """
    if basis == "budget":
        return (float(cost.index_bytes), cost.chars)
    return (cost.chars, float(cost.index_bytes))


# ---------------------------------------------------------------------------- recommendation


class Compared(Protocol):
    """A paired comparison of ``a`` with ``b`` (``chunkviz.eval.stats.PairwiseResult``)."""

    @property
    def a(self) -> str: ...  # noqa: D102

    @property
    def b(self) -> str: ...  # noqa: D102

    @property
    def diff(self) -> float: ...  # noqa: D102

    @property
    def ci_low(self) -> float: ...  # noqa: D102

    @property
    def ci_high(self) -> float: ...  # noqa: D102

    @property
    def outcome(self) -> Outcome: ...  # noqa: D102

    @property
    def detectable(self) -> float | None: ...  # noqa: D102


#: The context budget a recommendation is made at unless the user sets another: the seed
#: study's five chunks of 400 characters.
DEFAULT_BUDGET_CHARS = 2000


def retrievable(
    *, chunks: int, documents: int, median_chunk_chars: float, budget_chars: int
) -> bool:
    """Whether a configuration's chunks can be retrieved at all at a context budget.

    Not when its chunks are whole documents (at most one chunk per document: retrieving one
    sends the document itself, so its recall measures nothing but cutting), nor when its median
    chunk is longer than the budget (most of its chunks could never be sent whole). Such a
    configuration is shown as "not retrieval at this budget" and never recommended: a document
    without a blank line is one ``paragraph`` chunk whose Recall@k is 1 by construction.
    """
    return chunks > documents and median_chunk_chars <= budget_chars


@dataclass(frozen=True, slots=True)
class Option:
    """A configuration as the recommendation sees it.

    Attributes:
        label: The configuration.
        mean: Its mean of the metric.
        ci_low: Lower bound of its 95% interval.
        ci_high: Upper bound.
        cost: What it costs under the basis.
        cut: Share of answers (or, in Tune, of the document's probe spans) that no chunk holds
            whole.
        eligible: Whether it can be retrieved at the budget (``retrievable``).
        prior: Its document-blind prior: the mean real score at the budget over the bundled
            corpora (``chunkviz.eval.prior``); None without one.
    """

    label: str
    mean: float
    ci_low: float
    ci_high: float
    cost: Cost
    cut: float = 0.0
    eligible: bool = True
    prior: float | None = None


def preference(option: Option) -> tuple[float, float, float, float]:
    """The one tie-break among configurations the questions cannot separate: smaller is better.

    1. The higher document-blind prior: each configuration's mean real score at the budget over
       the bundled corpora's documents. When a document's own questions cannot separate two
       configurations, what real questions on other documents showed is the best evidence
       left; on held-out halves of JSQuAD and JaQuAD documents this tie-break never scored
       below any always-X fixed configuration at 1,000, 2,000 or 4,000 characters
       (``bench/verdict_holdout.py``, docs/benchmarks.md), where "the most context" lost.
    2. Fewer answers (or, in Tune, key phrases) cut: what no retriever can recover.
    3. The smaller index: fewer bytes to store and chunks to embed.
    4. Less context: a tie is never broken towards sending more.
    """
    prior = option.prior if option.prior is not None else 0.0
    return (-prior, option.cut, float(option.cost.index_bytes), option.cost.chars)


_FLIP: Mapping[Outcome, Outcome] = {
    "a_better": "b_better",
    "b_better": "a_better",
    "equivalent": "equivalent",
    "inconclusive": "inconclusive",
    "saturated": "saturated",
}


@dataclass(frozen=True, slots=True)
class Versus:
    """One configuration against the best, oriented ``label - best``.

    Attributes:
        label: The configuration.
        diff: Its mean minus the best's.
        ci_low: Lower bound of the 95% interval of ``diff`` (not adjusted for the other pairs;
            ``outcome`` is Holm-corrected over every pair).
        ci_high: Upper bound.
        outcome: ``a_better`` (better than the best), ``b_better`` (worse), ``equivalent``,
            ``inconclusive`` or ``saturated``.
        detectable: The comparison's detectable margin (None: not recorded).
        saving: Share of the best's cost it saves (negative: it costs more): its context at
            equal k, its index size at an equal budget (what orders costs there).
    """

    label: str
    diff: float
    ci_low: float
    ci_high: float
    outcome: Outcome
    detectable: float | None
    saving: float

    @property
    def worse_by_interval(self) -> bool:
        """The interval of the difference lies wholly below zero."""
        return self.ci_high < 0


@dataclass(frozen=True, slots=True)
class Choice:
    """The recommendation on one basis: values, never sentences.

    Attributes:
        basis: ``equal_k`` or ``budget``.
        metric: The metric key judged.
        delta: The equivalence margin.
        best: The configuration the rule names best, which need not have the highest mean:
            of ``top`` and the eligible configurations whose comparison with ``top`` is
            saturated or inconclusive with an interval not wholly below zero, the first by
            ``preference``, then grid order.
        pick: The recommended configuration.
        rule: ``equivalent`` (a cheaper configuration shown equivalent to the best) or ``best``.
        options: Every configuration, cheapest first.
        versus: Every other configuration against the best, cheapest first.
        alternatives: Of ``versus``, eligible and cheaper than ``pick`` (what one would give
            up).
        top: The eligible configuration with the highest mean (ties by ``preference``, then
            grid order).
        ineligible: Configurations that cannot be retrieved at the budget (never picked).
        prior_pick: The eligible configuration with the highest prior ("" without a prior).
    """

    basis: Basis
    metric: str
    delta: float
    best: str
    pick: str
    rule: Rule
    options: tuple[Option, ...]
    versus: tuple[Versus, ...]
    alternatives: tuple[Versus, ...]
    top: str = ""
    ineligible: tuple[str, ...] = ()
    prior_pick: str = ""

    def option(self, label: str) -> Option:
        """The option called ``label``."""
        return next(o for o in self.options if o.label == label)

    def versus_of(self, label: str) -> Versus | None:
        """``label`` against the best (None for the best itself)."""
        return next((v for v in self.versus if v.label == label), None)

    @property
    def saturated(self) -> bool:
        """Every comparison with the best is saturated: the questions separate nothing."""
        return bool(self.versus) and all(v.outcome == "saturated" for v in self.versus)

    def count(self, outcome: Outcome) -> int:
        """How many comparisons with the best have ``outcome``."""
        return sum(1 for v in self.versus if v.outcome == outcome)

    @property
    def driver(self) -> Literal["prior", "questions", "none"]:
        """What named the pick: the prior (the pick is the prior's), the questions, or no prior.

        ``questions`` means the questions showed the prior's pick worse than the best, or a
        configuration better than it, so the document's own evidence overruled the average.
        """
        if not self.prior_pick:
            return "none"
        return "prior" if self.pick == self.prior_pick else "questions"


def recommend(
    options: Sequence[Option],
    pairs: Sequence[Compared],
    *,
    basis: Basis,
    metric: str,
    delta: float,
) -> Choice:
    """The cheapest configuration shown equivalent to the best; else the best, alternatives priced.

    Args:
        options: The configurations with their means, costs, eligibility and priors.
        pairs: Paired comparisons covering every configuration against the best (any
            orientation; more pairs may be given).
        basis: What the costs were measured under.
        metric: The metric judged.
        delta: The equivalence margin the pairs were tested at.

    Returns:
        The choice; ``pick`` is never an ineligible configuration nor one whose interval says
        it is worse.

    Raises:
        ParameterError: No options, none eligible, or a configuration without a comparison
            with the best.
    """
    if not options:
        raise ParameterError("recommend_no_options")
    eligible = [o for o in options if o.eligible]
    if not eligible:
        raise ParameterError("recommend_none_eligible", count=len(options))
    order = {o.label: i for i, o in enumerate(options)}

    def key(o: Option) -> tuple[float, float, int]:
        return (*cost_key(o.cost, basis), order[o.label])

    top = min(eligible, key=lambda o: (-o.mean, *preference(o), order[o.label]))
    against_top = _versus(options, pairs, top, basis)
    # NOTE: the questions cannot tell the top from these, so the noisiest mean must not decide:
    # the one rule (``preference``) does, and never by sending more context.
    group = [top] + [
        o
        for o in eligible
        if o.label in against_top
        and against_top[o.label].outcome in ("saturated", "inconclusive")
        and not against_top[o.label].worse_by_interval
    ]
    best = min(group, key=lambda o: (*preference(o), order[o.label]))
    found = against_top if best is top else _versus(options, pairs, best, basis)
    missing = [o.label for o in options if o.label != best.label and o.label not in found]
    if missing:
        raise ParameterError("recommend_no_comparison", missing=missing, best=best.label)
    ranked = sorted(options, key=key)
    candidates = [best] + [
        o
        for o in ranked
        if o.label != best.label
        and o.eligible
        and found[o.label].outcome == "equivalent"
        and not found[o.label].worse_by_interval
    ]
    pick = min(candidates, key=key)
    versus = tuple(found[o.label] for o in ranked if o.label != best.label)
    by_label = {o.label: o for o in options}
    cheaper = tuple(
        v for v in versus if by_label[v.label].eligible and key(by_label[v.label]) < key(pick)
    )
    return Choice(
        basis,
        metric,
        delta,
        best.label,
        pick.label,
        "best" if pick.label == best.label else "equivalent",
        tuple(ranked),
        versus,
        cheaper,
        top.label,
        tuple(o.label for o in ranked if not o.eligible),
        prior_pick(options),
    )


def prior_pick(options: Sequence[Option]) -> str:
    """The eligible configuration the prior puts first, by ``preference`` ("" without a prior).

    What the document-blind prior alone would recommend: ``Choice.prior_pick`` and the held-out
    check's prior baseline (``bench/verdict_holdout.py``) are this one function.
    """
    order = {o.label: i for i, o in enumerate(options)}
    with_prior = [o for o in options if o.eligible and o.prior is not None]
    if not with_prior:
        return ""
    return min(with_prior, key=lambda o: (*preference(o), order[o.label])).label


def _versus(
    options: Sequence[Option], pairs: Sequence[Compared], best: Option, basis: Basis
) -> dict[str, Versus]:
    """Every option's comparison with ``best``, oriented ``option - best``."""
    found: dict[str, Versus] = {}
    for p in pairs:
        if best.label not in (p.a, p.b) or p.a == p.b:
            continue
        other = p.b if p.a == best.label else p.a
        sign = 1.0 if p.a == other else -1.0
        o = next((x for x in options if x.label == other), None)
        if o is None:
            continue
        oc = p.outcome if sign > 0 else _FLIP[p.outcome]
        lo, hi = (p.ci_low, p.ci_high) if sign > 0 else (-p.ci_high, -p.ci_low)
        mine, theirs = cost_key(o.cost, basis)[0], cost_key(best.cost, basis)[0]
        saving = 1.0 - mine / theirs if theirs else 0.0
        found[other] = Versus(other, sign * p.diff, lo, hi, oc, p.detectable, saving)
    return found
