"""The Benchmark dashboard's list of runs: one entry per results file, and which runs pair up.

Runs on the same questions with another backend are *backend partners* (does the best
configuration change with the retriever?); runs of the same backend on other questions are
*replication partners* (do the conclusions hold elsewhere?).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from chunkviz.eval.results import Results


@dataclass(frozen=True, slots=True)
class RunSummary:
    """One results file as the run list shows it.

    Attributes:
        path: The file.
        run_id: The runner's stable name for the run.
        created: ISO time the run finished.
        dataset: Dataset name.
        spec: Dataset spec the runner loaded (``jsquad``, ``jsquad:PATH``).
        sample: Questions sampled (0: all).
        seed: Sampling seed.
        questions: Questions evaluated.
        backend: Retrieval backend name.
        model: Model identifier.
        configs: Number of configurations.
    """

    path: Path
    run_id: str
    created: str
    dataset: str
    spec: str
    sample: int
    seed: int
    questions: int
    backend: str
    model: str
    configs: int

    @property
    def group(self) -> tuple[str, str, int, int, int]:
        """Runs with the same group evaluated the same questions (only the backend differs)."""
        return (self.dataset, self.spec, self.sample, self.seed, self.questions)


def summarize(results: Results, path: Path) -> RunSummary:
    """The run-list entry of a results file."""
    return RunSummary(
        path=path,
        run_id=results.run_id,
        created=results.created,
        dataset=results.dataset.name,
        spec=results.dataset.spec,
        sample=results.dataset.sample,
        seed=results.dataset.seed,
        questions=len(results.question_ids),
        backend=results.backend.name,
        model=results.backend.model,
        configs=len(results.configs),
    )


def backend_partners(runs: Sequence[RunSummary], run: RunSummary) -> list[RunSummary]:
    """Other runs on the same questions with a different backend (newest first)."""
    return sorted(
        (r for r in runs if r.group == run.group and r.backend != run.backend),
        key=lambda r: r.created,
        reverse=True,
    )


def replication_partners(runs: Sequence[RunSummary], run: RunSummary) -> list[RunSummary]:
    """Runs with the same backend and model on other questions (another split or sample)."""
    return sorted(
        (r for r in runs if r.backend == run.backend and r.model == run.model
         and r.group != run.group and r.configs == run.configs),
        key=lambda r: r.created,
        reverse=True,
    )
