"""Metric against k, and recall under equal k or an equal context budget.

Computed from the per-question ranks that the results file stores, through the one metric
module (``chunkviz.eval.metrics``); nothing is re-ranked or re-embedded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from chunkviz.eval.measures import budget_values, get_measure, metric_values, rank_measures
from chunkviz.eval.metrics import ranks_array
from chunkviz.eval.results import Results


def curve_measures() -> tuple[str, ...]:
    """Measures drawn against k (the curves), computed from the ranks: every rank measure."""
    return tuple(m.name for m in rank_measures())


def curve(ranks: Sequence[int | None], metric: str, ks: Sequence[int]) -> list[float]:
    """Mean ``metric@k`` for every k in ``ks`` (``chunkviz.eval.metrics``; a lost rank scores 0)."""
    if not ranks:
        return [0.0 for _ in ks]
    # Converted once (float64, inf for a lost rank: the form ``metric_values`` takes as it is);
    # converting the list again for each of 20 cut-offs was most of Benchmark's rerun.
    values = ranks_array(ranks)
    return [float(metric_values(metric, values, k).mean()) for k in ks]


def curves(results: Results, metric: str) -> dict[str, list[float]]:
    """``metric@k`` for k in the file's ``ks`` (1..20), per configuration, from its ranks."""
    return {lab: curve(results.ranks[lab], metric, results.ks) for lab in results.labels}


RetrievalRule = Literal["equal_k", "budget"]


@dataclass(frozen=True, slots=True)
class ModeRow:
    """Recall of one configuration under a retrieval rule (same k, or same context budget).

    Attributes:
        label: Configuration label.
        k: Chunks retrieved per question (fractional at a budget: ``metrics.budget_k``).
        chars: Characters that k chunks of mean length hand to the generator.
        mean: Recall@k.
        ci_low: Lower 95% bound (None when the file gives no interval for it).
        ci_high: Upper 95% bound (None likewise).
    """

    label: str
    k: float
    chars: float
    mean: float
    ci_low: float | None
    ci_high: float | None


def mode_rows(results: Results, mode: RetrievalRule, k: int = 5) -> tuple[ModeRow, ...]:
    """Recall per configuration under one retrieval rule.

    ``equal_k``: every configuration retrieves ``k`` chunks; ``budget``: each retrieves as many
    as fit the file's character budget (``budget.k``).

    Means come from the per-question ranks; intervals come from the file (``metrics`` for
    ``recall@k``, ``budget.metrics`` for ``recall@budget``) where it has them.
    """
    rows = []
    recall = get_measure("recall")
    for c in results.configs:
        lab = c.label
        if mode == "budget":
            kk = results.budget.k[lab]
            interval = results.budget.metrics[lab].get(recall.key("budget"))
        else:
            kk = k
            interval = results.metrics[lab].get(recall.key(k))
        mean = float(budget_values(recall.name, results.ranks[lab], kk).mean())
        lo = None if interval is None else interval.ci_low
        hi = None if interval is None else interval.ci_high
        rows.append(ModeRow(lab, kk, kk * c.mean_chunk_chars, mean, lo, hi))
    return tuple(rows)
