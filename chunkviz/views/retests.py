"""Conclusions re-tested: under alternative definitions, and on another question set.

*Sensitivity*: the file's own pairs re-tested under other definitions of relevance or margin;
*replication*: the same grid run by the same backend on other questions. Both compare
outcomes pair by pair through ``chunkviz.eval.stats.replicate``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from chunkviz.errors import ParameterError
from chunkviz.eval.decision import Outcome
from chunkviz.eval.results import Results
from chunkviz.eval.stats import Replication, replicate
from chunkviz.views.significance import comparisons


@dataclass(frozen=True, slots=True)
class SensitivityRow:
    """A pair whose outcome changes under at least one alternative definition.

    Attributes:
        a: First configuration.
        b: Second configuration.
        main: The outcome under the main definitions.
        under: Definition -> the outcome under it (every tested definition, changed or not).
        delta: The equivalence margin.
    """

    a: str
    b: str
    main: Outcome
    under: Mapping[str, Outcome]
    delta: float | None

    @property
    def changed(self) -> tuple[str, ...]:
        """The definitions under which the outcome differs from the main one."""
        return tuple(name for name, o in self.under.items() if o != self.main)


def sensitivity_definitions(results: Results, metric: str) -> tuple[str, ...]:
    """The alternative definitions retested on ``metric`` (empty for files without them)."""
    if results.sensitivity is None:
        return ()
    return tuple(
        name
        for name, rows in results.sensitivity.pairwise.items()
        if any(r.metric == metric for r in rows)
    )


def sensitivity_rows(results: Results, metric: str) -> tuple[SensitivityRow, ...]:
    """The pairs of ``metric`` whose conclusion depends on a definition, in the file's order."""
    names = sensitivity_definitions(results, metric)
    if not names or results.sensitivity is None:
        return ()
    main = comparisons(results, metric)
    under: dict[tuple[str, str], dict[str, Outcome]] = {(c.a, c.b): {} for c in main}
    for name in names:
        alt = [r for r in results.sensitivity.pairwise[name] if r.metric == metric]
        for rep in replicate(main, alt):
            under[(rep.a, rep.b)][name] = rep.second
    rows = (SensitivityRow(c.a, c.b, c.outcome, under[(c.a, c.b)], c.delta) for c in main)
    return tuple(r for r in rows if r.changed)


def replication(a: Results, b: Results, metric: str) -> tuple[Replication, ...]:
    """Which conclusions of run ``a`` on ``metric`` hold on run ``b`` (same grid, same backend).

    Raises:
        ParameterError: Different backends, or the runs do not hold the same pairs.
    """
    if a.backend.name != b.backend.name:
        raise ParameterError("replication_backends", first=a.backend.name, second=b.backend.name)
    return tuple(replicate(comparisons(a, metric), comparisons(b, metric)))
