"""Which metrics separate a run's configurations, and the headline metric that follows.

Where Recall@5 saturates (most configurations find almost every answer in the top 5), its paired
tests separate few pairs; Recall@1, MRR@10 and recall at the context budget may separate more.
``separation`` counts, for each metric of ``SEPARATING``, how many of the run's pairs each outcome
is (by the one decision rule); ``headline`` picks the metric that separates the most pairs.
A metric the runner did not test (``recall@1``) is tested from the ranks exactly as the runner
tests its own (``chunkviz.eval.by_type.retest_pairs``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from chunkviz.eval.by_type import retest_pairs
from chunkviz.eval.results import Results
from chunkviz.eval.stats import PairwiseResult

#: The metrics compared, equal k first, then the budget's; the first wins a tie.
SEPARATING = ("recall@1", "recall@5", "mrr@10", "ndcg@10", "recall@budget", "mrr@budget")


def tests_of(results: Results, metric: str) -> tuple[PairwiseResult, ...]:
    """The file's own tests of ``metric`` (equal k or budget), else retested from the ranks."""
    own = [p for p in (*results.pairwise, *results.budget.pairwise) if p.metric == metric]
    return tuple(own) if own else retest_pairs(results, metric)


@dataclass(frozen=True, slots=True)
class Separation:
    """How one metric's pairs came out.

    Attributes:
        metric: The metric key.
        pairs: Pairs tested.
        separated: Pairs with a significant difference (one better).
        equivalent: Pairs shown equivalent within the margin.
        inconclusive: Pairs neither separated nor shown equivalent.
        saturated: Pairs the questions cannot separate.
    """

    metric: str
    pairs: int
    separated: int
    equivalent: int
    inconclusive: int
    saturated: int


def separation(results: Results, metrics: Sequence[str] = SEPARATING) -> tuple[Separation, ...]:
    """Per metric: how many pairs each outcome is, in ``metrics`` order."""
    out = []
    for metric in metrics:
        rows = tests_of(results, metric)
        c = Counter(p.outcome for p in rows)
        out.append(
            Separation(
                metric,
                len(rows),
                c["a_better"] + c["b_better"],
                c["equivalent"],
                c["inconclusive"],
                c["saturated"],
            )
        )
    return tuple(out)


def headline(counts: Sequence[Separation]) -> Separation:
    """The metric that separates the most pairs (the earliest in ``counts`` on a tie).

    Raises:
        ValueError: ``counts`` is empty.
    """
    return max(counts, key=lambda s: (s.separated, -counts.index(s)))
