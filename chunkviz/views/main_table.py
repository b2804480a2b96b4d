"""The Benchmark dashboard's main table: one row per configuration, best and tied flagged.

Means and intervals come from the results file; a best is flagged only where the file's paired
tests say it beats every other configuration (``chunkviz.views.significance.verdict``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chunkviz.eval.results import Results
from chunkviz.views.significance import pairwise_metrics, verdict


@dataclass(frozen=True, slots=True)
class Cell:
    """A metric's mean with its 95% confidence interval.

    Attributes:
        mean: The mean.
        ci_low: Lower bound of the 95% interval.
        ci_high: Upper bound.
        best: The column's best, and it beats every other configuration significantly.
        tied: No clear best: this configuration is the best or cannot be told apart from it
            (the tied group at the top).
    """

    mean: float
    ci_low: float
    ci_high: float
    best: bool
    tied: bool = False


@dataclass(frozen=True, slots=True)
class TableRow:
    """One configuration in the main table.

    Attributes:
        label: Configuration label.
        strategy: Strategy name.
        params: Strategy parameters.
        cells: Metric key -> cell, for each of the table's metrics.
        chunks: Chunks in the index.
        predicted_chunks: The formula's prediction (None for non-fixed strategies).
        index_bytes: Size of the index in bytes.
        encode_seconds: Time spent encoding the chunks.
        broken: Questions lost before retrieval (no chunk contains an answer span).
        questions: Questions evaluated.
    """

    label: str
    strategy: str
    params: Mapping[str, Any]
    cells: Mapping[str, Cell]
    chunks: int
    predicted_chunks: int | None
    index_bytes: int
    encode_seconds: float
    broken: int
    questions: int

    @property
    def broken_share(self) -> float:
        """Share of questions lost before retrieval."""
        return self.broken / self.questions if self.questions else 0.0


def best_labels(results: Results, metric: str) -> tuple[str, ...]:
    """Labels whose mean ``metric`` is the maximum (several on a tie)."""
    means = {lab: results.metrics[lab][metric].mean for lab in results.labels}
    top = max(means.values())
    return tuple(lab for lab, m in means.items() if m == top)


def main_table(results: Results, metrics: Sequence[str] | None = None) -> tuple[TableRow, ...]:
    """One row per configuration, the best of each metric flagged only where it is clear.

    A best is flagged (``Cell.best``) only when it beats every other configuration
    significantly; otherwise the best and every configuration it cannot be told apart from are
    flagged as the tied group (``Cell.tied``). A metric without pairwise tests flags nothing.

    Args:
        results: A results file.
        metrics: Metric keys to show (each must be in ``results.metrics``); default: every
            metric the file tests pairwise (``significance.pairwise_metrics``).

    Returns:
        Rows in the file's configuration order.
    """
    tested = set(pairwise_metrics(results))
    if metrics is None:
        metrics = pairwise_metrics(results)
    best: dict[str, set[str]] = {}
    tied: dict[str, set[str]] = {}
    for m in metrics:
        v = verdict(results, m) if m in tested else None
        best[m] = {v.best} if v is not None and v.clear else set()
        tied[m] = {v.best, *v.tied} if v is not None and not v.clear else set()
    questions = len(results.question_ids)
    rows = []
    for c in results.configs:
        stats = results.metrics[c.label]
        cells = {
            m: Cell(
                stats[m].mean,
                stats[m].ci_low,
                stats[m].ci_high,
                c.label in best[m],
                c.label in tied[m],
            )
            for m in metrics
        }
        rows.append(
            TableRow(
                label=c.label,
                strategy=c.strategy,
                params=dict(c.params),
                cells=cells,
                chunks=c.chunks,
                predicted_chunks=c.predicted_chunks,
                index_bytes=c.index_bytes,
                encode_seconds=c.encode_seconds,
                broken=c.broken,
                questions=questions,
            )
        )
    return tuple(rows)
