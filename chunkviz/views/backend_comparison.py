"""Two runs on the same questions under two backends: does the best configuration change?"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from chunkviz.errors import ParameterError
from chunkviz.eval.results import Results
from chunkviz.views.significance import clear_winner


@dataclass(frozen=True, slots=True)
class BackendRow:
    """One configuration under two backends: mean and place (1 = best) under each."""

    label: str
    mean_a: float
    place_a: int
    mean_b: float
    place_b: int


@dataclass(frozen=True, slots=True)
class BackendComparison:
    """Does the best configuration change with the retriever?

    Attributes:
        metric: Metric key compared.
        backend_a: Name of the first backend.
        backend_b: Name of the second backend.
        rows: Configurations both runs evaluated, in the first run's order.
        best_a: Best configurations under the first backend (several on a tie).
        best_b: Best configurations under the second backend.
        clear_a: Whether the first backend's best beats every other configuration significantly.
        clear_b: The same for the second backend.
    """

    metric: str
    backend_a: str
    backend_b: str
    rows: tuple[BackendRow, ...]
    best_a: tuple[str, ...]
    best_b: tuple[str, ...]
    clear_a: bool
    clear_b: bool

    @property
    def same_best(self) -> bool:
        """Whether some configuration is best under both backends."""
        return bool(set(self.best_a) & set(self.best_b))


def _places(means: Mapping[str, float]) -> dict[str, int]:
    # Competition ranking: ties share a place ("1, 1, 3").
    return {lab: 1 + sum(other > m for other in means.values()) for lab, m in means.items()}


def compare_backends(a: Results, b: Results, metric: str) -> BackendComparison:
    """Put two runs on the same questions side by side for ``metric``."""
    shared = [lab for lab in a.labels if lab in set(b.labels)]
    if not shared:
        raise ParameterError("runs_share_nothing")
    means_a = {lab: a.metrics[lab][metric].mean for lab in shared}
    means_b = {lab: b.metrics[lab][metric].mean for lab in shared}
    place_a, place_b = _places(means_a), _places(means_b)
    rows = tuple(
        BackendRow(lab, means_a[lab], place_a[lab], means_b[lab], place_b[lab]) for lab in shared
    )
    best_a = tuple(lab for lab in shared if place_a[lab] == 1)
    best_b = tuple(lab for lab in shared if place_b[lab] == 1)
    return BackendComparison(
        metric=metric,
        backend_a=a.backend.name,
        backend_b=b.backend.name,
        rows=rows,
        best_a=best_a,
        best_b=best_b,
        clear_a=clear_winner(a, metric, best_a, shared),
        clear_b=clear_winner(b, metric, best_b, shared),
    )
