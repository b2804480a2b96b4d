"""The paired tests of a results file: which pairs were tested, the matrix, the verdict.

Every function takes the typed results of a run (``chunkviz.eval.results.Results``) and returns
frozen values, so tests can check each number the Benchmark page shows against the file. Nothing
is re-tested here: the file's pairwise rows (Holm-corrected) are read as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chunkviz.errors import ParameterError
from chunkviz.eval.measures import pairwise_keys
from chunkviz.eval.results import Results
from chunkviz.eval.stats import PairwiseResult, Unit, permutation_floor


def comparisons(results: Results, metric: str) -> tuple[PairwiseResult, ...]:
    """Every pairwise test of ``metric`` in the file, in its order."""
    return tuple(p for p in results.pairwise if p.metric == metric)


def pairwise_metrics(results: Results) -> list[str]:
    """Metrics that have pairwise tests, in the registry's order (``measures.pairwise_keys``).

    The headline metrics (Recall@5, nDCG@10, MRR@10) come first; keys the registry does not
    test follow in the file's order.
    """
    present = list(dict.fromkeys(p.metric for p in results.pairwise))
    order = pairwise_keys()
    return [m for m in order if m in present] + [m for m in present if m not in order]


@dataclass(frozen=True, slots=True)
class Matrix:
    """Pairwise matrix of one metric.

    ``cells[i][j]`` compares ``labels[i]`` with ``labels[j]`` (oriented row minus column); None on
    the diagonal and where the file has no test.
    """

    metric: str
    labels: tuple[str, ...]
    cells: tuple[tuple[PairwiseResult | None, ...], ...]


def significance_matrix(results: Results, metric: str) -> Matrix:
    """The pairwise tests of ``metric`` laid out as a square matrix over the configurations."""
    labs = results.labels
    found: dict[tuple[str, str], PairwiseResult] = {}
    for comp in comparisons(results, metric):
        found[(comp.a, comp.b)] = comp
        found[(comp.b, comp.a)] = comp.flipped()
    cells = tuple(tuple(found.get((r, c)) if r != c else None for c in labs) for r in labs)
    return Matrix(metric, tuple(labs), cells)


def unit_of(results: Results) -> tuple[Unit, int]:
    """The unit of resampling of a file's statistics and how many units it has.

    Files written before the unit was recorded resampled questions.
    """
    unit = results.stats.unit
    count = results.stats.units or len(results.question_ids)
    return unit, count


def floor_text(results: Results) -> str:
    """The smallest p-value the file's permutation tests can give, ``1 / (1 + permutations)``."""
    return f"{permutation_floor(results.stats.permutations):.2g}"


def margin_of(results: Results, metric: str) -> float | None:
    """The equivalence margin the file's tests of ``metric`` used (None: no equivalence tests)."""
    return next((c.delta for c in comparisons(results, metric) if c.delta is not None), None)


def clear_winner(results: Results, metric: str, best: Sequence[str], among: Sequence[str]) -> bool:
    """Whether ``best`` is one configuration that beats every other of ``among`` significantly."""
    if len(best) != 1:
        return False
    tests = {frozenset((c.a, c.b)): c for c in comparisons(results, metric)}
    others = [lab for lab in among if lab != best[0]]
    return all(
        (t := tests.get(frozenset((best[0], o)))) is not None and t.significant for o in others
    )


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer of one run on one metric, for the top of the page.

    Attributes:
        backend: Backend name.
        metric: Metric key.
        best: The configuration with the highest mean (the first in file order on a tie).
        best_mean: Its mean.
        clear: Whether ``best`` beats every other configuration significantly.
        tied: Configurations whose difference from ``best`` is not significant (it cannot be
            told apart from them), in file order.
        delta: The equivalence margin of the metric (None: no equivalence tests in the file).
        unit: The unit of resampling.
        units: How many units (documents or questions).
        questions: Questions evaluated.
        alpha: Family-wise error rate.
        resamples: Bootstrap resamples of the intervals.
        permutations: Sign flips of each paired test.
    """

    backend: str
    metric: str
    best: str
    best_mean: float
    clear: bool
    tied: tuple[str, ...]
    delta: float | None
    unit: Unit
    units: int
    questions: int
    alpha: float
    resamples: int
    permutations: int


def verdict(results: Results, metric: str) -> Verdict:
    """Best configuration and the ones it cannot be told from (the main table's flags).

    What to recommend, and at what cost, is ``chunkviz.eval.verdict.choose``'s.

    Raises:
        ParameterError: ``metric`` has no pairwise tests in the file.
    """
    comps = comparisons(results, metric)
    if not comps:
        raise ParameterError("no_pairwise", metric=metric, choices=list(pairwise_metrics(results)))
    labs = list(results.labels)
    means = {lab: results.metrics[lab][metric].mean for lab in labs}
    best = max(labs, key=lambda lab: (means[lab], -labs.index(lab)))
    with_best: dict[str, PairwiseResult] = {}
    for c in comps:
        if best in (c.a, c.b):
            oriented = c if c.a == best else c.flipped()
            with_best[oriented.b] = oriented
    tied = tuple(lab for lab in labs if lab in with_best and not with_best[lab].significant)
    unit, units = unit_of(results)
    stats = results.stats
    return Verdict(
        backend=results.backend.name,
        metric=metric,
        best=best,
        best_mean=means[best],
        clear=clear_winner(results, metric, (best,), labs) and len(labs) > 1,
        tied=tied,
        delta=next((c.delta for c in comps if c.delta is not None), None),
        unit=unit,
        units=units,
        questions=len(results.question_ids),
        alpha=stats.alpha,
        resamples=stats.bootstrap,
        permutations=stats.permutations,
    )
