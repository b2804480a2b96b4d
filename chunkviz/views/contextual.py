"""Naive against contextual chunk headers on the same cuts, from one run's paired tests.

A run made with ``bench --context none,headings`` (or ``title``) holds every configuration twice:
``<label>`` with no header and ``<label>+<mode>`` with one (``chunkviz.eval.grid.with_context``).
Both have the same chunks, so the run's own paired tests (same questions, Holm-corrected with
every other pair of the run) say whether the header helped. This module pulls those pairs out.
"""

from __future__ import annotations

from dataclasses import dataclass

from chunkviz.eval.decision import Outcome
from chunkviz.eval.results import Results


@dataclass(frozen=True, slots=True)
class ContextRow:
    """One configuration without and with a contextual header, on one metric.

    Attributes:
        naive: Label of the configuration without a header.
        contextual: Label of the same cuts with the header.
        mode: The header (``title`` or ``headings``).
        naive_mean: Mean of the metric without the header.
        contextual_mean: Mean with it.
        diff: ``contextual_mean - naive_mean``.
        ci_low: Lower bound of the paired 95% interval of ``diff``.
        ci_high: Upper bound.
        p_holm: Holm-adjusted p-value of the paired test.
        outcome: ``contextual_better``, ``naive_better``, ``equivalent``, ``inconclusive`` or
            ``saturated`` (the questions cannot separate them).
    """

    naive: str
    contextual: str
    mode: str
    naive_mean: float
    contextual_mean: float
    diff: float
    ci_low: float
    ci_high: float
    p_holm: float
    outcome: str


_FLIP: dict[Outcome, str] = {
    "a_better": "contextual_better",
    "b_better": "naive_better",
    "equivalent": "equivalent",
    "inconclusive": "inconclusive",
    "saturated": "saturated",
}


def context_rows(results: Results, metric: str) -> tuple[ContextRow, ...]:
    """Every (naive, contextual) pair of ``results`` on ``metric``, in grid order.

    Empty when the run has no contextual configuration or no paired test of ``metric``.
    """
    by_label = {c.label: c for c in results.configs}
    tests = {(p.a, p.b): p for p in results.pairwise if p.metric == metric}
    rows = []
    for c in results.configs:
        naive = by_label.get(c.label.removesuffix(f"+{c.context}"))
        if c.context == "none" or naive is None or naive.context != "none":
            continue
        if (c.label, naive.label) in tests:
            p, sign = tests[(c.label, naive.label)], 1.0
        elif (naive.label, c.label) in tests:
            p, sign = tests[(naive.label, c.label)], -1.0
        else:
            continue
        outcome: Outcome = p.outcome
        if sign < 0 and outcome in ("a_better", "b_better"):
            outcome = "b_better" if outcome == "a_better" else "a_better"
        low, high = (p.ci_low, p.ci_high) if sign > 0 else (-p.ci_high, -p.ci_low)
        rows.append(
            ContextRow(
                naive=naive.label,
                contextual=c.label,
                mode=c.context,
                naive_mean=results.metrics[naive.label][metric].mean,
                contextual_mean=results.metrics[c.label][metric].mean,
                diff=sign * p.diff,
                ci_low=low,
                ci_high=high,
                p_holm=p.p_holm,
                outcome=_FLIP[outcome],
            )
        )
    return tuple(rows)
