"""The verdict of a results file: its comparisons at equal k and at an equal context budget.

Everything here reads a ``Results`` (its per-question ranks, units and statistics settings) and
hands values to ``chunkviz.eval.decision``, the one rule: ``with_margin`` retests equivalence at
another margin, ``budget_view`` gives the comparisons at any context budget (the file's own
tests at its budget, the same tests recomputed from the ranks at another), ``choose`` builds the
options with their context costs and asks ``decision.recommend``. The Benchmark page, Tune and
the CLI all go through ``choose``, so they name the same configuration for the same file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import msgspec
import numpy as np

from chunkviz.errors import ParameterError, shown
from chunkviz.eval.decision import Basis, Choice, Option, context_cost, recommend, retrievable
from chunkviz.eval.measures import BUDGET, budget_values, get_measure, parse_key
from chunkviz.eval.metrics import budget_k
from chunkviz.eval.results import Results
from chunkviz.eval.results_schema import FRACTIONAL_BUDGET_VERSION
from chunkviz.eval.stats import (
    Clusters,
    Estimate,
    PairwiseResult,
    Resampling,
    bootstrap_ci,
    equivalence_fields,
    holm,
    pairwise_tests,
    tost_paired,
)


def clusters_of(results: Results) -> Clusters:
    """The units the file's statistics resampled (files without a unit resampled questions)."""
    return Clusters.of(results.question_docs or results.question_ids, results.stats.unit)


def resampling_of(results: Results) -> Resampling:
    """The file's bootstrap of units (same seed and resamples as the runner drew)."""
    return Resampling.draw(clusters_of(results), results.stats.bootstrap, results.stats.seed)


def family(metric: str) -> str:
    """``recall@5`` -> ``recall`` (the measure, whatever the cut-off)."""
    return parse_key(metric).measure.name


# ---------------------------------------------------------------------------- margins


def retest_margin(
    rows: Sequence[PairwiseResult],
    values: dict[str, np.ndarray],
    clusters: Clusters,
    alpha: float,
    delta: float,
) -> list[PairwiseResult]:
    """``rows`` with their equivalence tests redone at ``delta`` (Holm over ``rows``).

    The TOST is analytic, so only it is recomputed; the difference tests stay as they are.

    Raises:
        ParameterError: A non-positive ``delta``.
    """
    if not delta > 0:
        raise ParameterError("margin_positive", value=shown(delta))
    tests = [
        tost_paired(values[r.a], values[r.b], delta, alpha=alpha, clusters=clusters) for r in rows
    ]
    adjusted = holm([e.p_value for e in tests])
    return [
        msgspec.structs.replace(
            r,
            delta=delta,
            p_equiv=e.p_value,
            p_equiv_holm=ph,
            eq_ci=(e.ci_low, e.ci_high),
            **equivalence_fields(values[r.a], values[r.b], e, ph, alpha),
        )
        for r, e, ph in zip(rows, tests, adjusted, strict=True)
    ]


def with_margin(results: Results, metric: str, delta: float) -> Results:
    """A copy of ``results`` whose equivalence tests of ``metric`` use the margin ``delta``.

    Recomputed from the file's ranks on the file's own units and Holm-corrected again over the
    pairs of ``metric``; nothing else changes.

    Raises:
        ParameterError: A non-positive ``delta`` or a metric that is not a rank metric.
    """
    if parse_key(metric).at_budget:
        raise ParameterError("not_rank_metric", metric=metric)
    if not delta > 0:
        raise ParameterError("margin_positive", value=shown(delta))
    values = {lab: results.values(lab, metric) for lab in results.labels}
    rows = [p for p in results.pairwise if p.metric == metric]
    new = iter(retest_margin(rows, values, clusters_of(results), results.stats.alpha, delta))
    return msgspec.structs.replace(
        results, pairwise=tuple(next(new) if p.metric == metric else p for p in results.pairwise)
    )


# ---------------------------------------------------------------------------- the budget


@dataclass(frozen=True, slots=True)
class BudgetView:
    """The comparison of one measure at an equal context budget.

    Attributes:
        chars: The budget in characters.
        metric: ``<measure>@budget``.
        k: Label -> chunks that fill it (fractional: ``metrics.budget_k``).
        estimates: Label -> mean and 95% interval at that k.
        pairwise: Every pair's paired tests at the budget.
        stored: Whether the tests are the file's own (else recomputed from the ranks).
    """

    chars: int
    metric: str
    k: dict[str, float]
    estimates: dict[str, Estimate]
    pairwise: tuple[PairwiseResult, ...]
    stored: bool


def budget_view(results: Results, measure: str, chars: int, delta: float) -> BudgetView:
    """The paired tests of ``measure`` at a budget of ``chars`` characters, every pair.

    At the file's own budget the file's tests are used (retested at ``delta`` when it differs
    from theirs); at another budget, or in a file written before the budget's k was fractional
    (schema versions 2 and 3), they are computed from the ranks exactly as the runner computes
    them (same units, resampling, permutations, seed).

    Raises:
        ParameterError: A budget below 1 character or a non-positive ``delta``.
    """
    if chars < 1:
        raise ParameterError("budget_positive", value=chars)
    key = get_measure(measure).key(BUDGET)
    ks = {
        c.label: budget_k(c.mean_chunk_chars, chars, k_max=max(1, c.chunks))
        for c in results.configs
    }
    values = {lab: budget_values(measure, results.ranks[lab], ks[lab]) for lab in results.labels}
    stored = (
        [p for p in results.budget.pairwise if p.metric == key]
        if results.schema_version >= FRACTIONAL_BUDGET_VERSION
        else []
    )
    resampling = resampling_of(results)
    alpha = results.stats.alpha
    if chars == results.budget.chars and stored:
        estimates = {lab: results.budget.metrics[lab][key] for lab in results.labels}
        rows = stored
        if any(p.delta != delta for p in rows):
            rows = retest_margin(rows, values, resampling.clusters, alpha, delta)
        return BudgetView(chars, key, ks, estimates, tuple(rows), True)
    estimates = {lab: bootstrap_ci(v, resampling=resampling) for lab, v in values.items()}
    rows = pairwise_tests(
        values,
        metric=key,
        alpha=alpha,
        permutations=results.stats.permutations,
        seed=results.stats.seed,
        resampling=resampling,
        margin=delta,
    )
    return BudgetView(chars, key, ks, estimates, tuple(rows), False)


# ---------------------------------------------------------------------------- the choice


def eligibility(results: Results, budget_chars: int) -> dict[str, bool]:
    """Whether each configuration can be retrieved at the budget (``decision.retrievable``).

    The median chunk length comes from the file's chunk offsets.
    """
    documents = max(1, results.dataset.documents)
    out = {}
    for c in results.configs:
        lengths = [end - start for _doc, start, end in results.retrieval.chunk_offsets[c.label]]
        median = float(np.median(lengths)) if lengths else 0.0
        out[c.label] = retrievable(
            chunks=c.chunks,
            documents=documents,
            median_chunk_chars=median,
            budget_chars=budget_chars,
        )
    return out


def choose(
    results: Results,
    metric: str,
    basis: Basis,
    delta: float,
    budget_chars: int | None = None,
    cut: Mapping[str, float] | None = None,
    prior: Mapping[str, float] | None = None,
) -> Choice:
    """The recommendation of ``results`` on ``metric`` at equal k or at an equal budget.

    At equal k every configuration retrieves ``k`` chunks (the metric's own cut-off) and costs
    ``k`` times its mean chunk length; at the budget each retrieves the chunks that fill
    ``budget_chars`` (default: the file's budget; ``metric``'s measure is judged there). The
    equal-k pairs are retested at ``delta`` when the file's margin differs. On both bases a
    configuration that cannot be retrieved at the budget is not eligible (``eligibility``).
    ``cut`` (default: each configuration's share of questions lost before retrieval) and
    ``prior`` (the document-blind prior's means, ``chunkviz.eval.prior``) break ties at the top
    (``decision.preference``).

    Raises:
        ParameterError: ``metric`` is not a pairwise-tested rank metric of the file.
    """
    parsed = parse_key(metric)
    by_label = {c.label: c for c in results.configs}
    n = max(1, len(results.question_ids))
    shares = dict(cut) if cut is not None else {c.label: c.broken / n for c in results.configs}
    chars = budget_chars or results.budget.chars
    eligible = eligibility(results, chars)
    priors = dict(prior or {})

    def option(label: str, kk: float, e: Estimate) -> Option:
        c = by_label[label]
        cost = context_cost(
            k=kk,
            chunks=c.chunks,
            mean_chunk_chars=c.mean_chunk_chars,
            mean_chunk_tokens=c.mean_chunk_tokens,
            index_bytes=c.index_bytes,
        )
        return Option(
            label,
            e.mean,
            e.ci_low,
            e.ci_high,
            cost,
            shares.get(label, 0.0),
            eligible[label],
            priors.get(label),
        )

    if basis == "budget":
        view = budget_view(results, parsed.measure.name, chars, delta)
        options = [option(lab, view.k[lab], e) for lab, e in view.estimates.items()]
        return recommend(options, view.pairwise, basis=basis, metric=view.metric, delta=delta)
    rows = [p for p in results.pairwise if p.metric == metric]
    if not rows or parsed.at_budget:
        tested = sorted({p.metric for p in results.pairwise})
        raise ParameterError("no_pairwise", metric=metric, choices=list(tested))
    if any(p.delta != delta for p in rows):
        rows = [p for p in with_margin(results, metric, delta).pairwise if p.metric == metric]
    options = [option(lab, parsed.cutoff, results.metrics[lab][metric]) for lab in results.labels]
    return recommend(options, rows, basis=basis, metric=metric, delta=delta)


# ---------------------------------------------------------------------------- weighting


def document_means(results: Results, metric: str) -> dict[str, Estimate]:
    """Each configuration's document-weighted mean of ``metric`` with its 95% interval.

    Every document counts once (the mean of its questions' values), whatever its number of
    questions; the interval resamples documents. Beside the question-weighted means of the file,
    it shows whether a few large documents carry the result (one JSQuAD article holds 14% of
    the questions). Without recorded documents each question is its own document.

    Raises:
        ParameterError: A metric key that is not a rank metric at a numeric k.
    """
    if parse_key(metric).at_budget:
        raise ParameterError("not_rank_metric", metric=metric)
    docs = Clusters.of(results.question_docs or results.question_ids, "document")
    sizes = docs.sizes
    per_doc = Clusters.questions(docs.count)
    resampling = Resampling.draw(per_doc, results.stats.bootstrap, results.stats.seed)
    out = {}
    for lab in results.labels:
        v = results.values(lab, metric)
        out[lab] = bootstrap_ci(docs.sums(v) / sizes, resampling=resampling)
    return out
