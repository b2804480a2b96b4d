"""The Benchmark dashboard's list of runs: one entry per results file, and which runs pair up.

Runs on the same questions with another backend are *backend partners* (does the best
configuration change with the retriever?); runs of the same backend on other questions are
*replication partners* (do the conclusions hold elsewhere?).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec

from chunkviz.errors import ChunkvizError
from chunkviz.eval.results import READABLE_VERSIONS, SCHEMA, Results
from chunkviz.eval.results_schema import BackendRecord, DatasetRecord
from chunkviz.textio import read_file_bytes


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


class _Listed(msgspec.Struct, frozen=True):
    """The fields of a results file that the run list shows; msgspec skips the rest unbuilt."""

    schema: str
    schema_version: int
    run_id: str
    created: str
    dataset: DatasetRecord
    backend: BackendRecord
    question_ids: tuple[msgspec.Raw, ...]
    configs: tuple[msgspec.Raw, ...]


def read_summary(path: Path) -> RunSummary | None:
    """The run-list entry of a results file from the fields the list shows, or None.

    Listing every file this way builds none of their tables (ranks, pairwise rows, per-question
    data), so a page that shows one run reads one file whole (issue 39). None when those fields
    cannot be read (not JSON, another schema or version, a field of the wrong type): the caller
    then reads the file whole with ``load_results``, whose error names the field and the fix.
    A file whose listed fields are sound is checked in full when it is read whole.
    """
    try:
        head = msgspec.json.decode(
            read_file_bytes(path).removeprefix(b"\xef\xbb\xbf"), type=_Listed
        )
    except (ChunkvizError, msgspec.DecodeError, RecursionError):
        return None
    if head.schema != SCHEMA or head.schema_version not in READABLE_VERSIONS:
        return None
    return RunSummary(
        path=path,
        run_id=head.run_id,
        created=head.created,
        dataset=head.dataset.name,
        spec=head.dataset.spec,
        sample=head.dataset.sample,
        seed=head.dataset.seed,
        questions=len(head.question_ids),
        backend=head.backend.name,
        model=head.backend.model,
        configs=len(head.configs),
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
        (
            r
            for r in runs
            if r.backend == run.backend
            and r.model == run.model
            and r.group != run.group
            and r.configs == run.configs
        ),
        key=lambda r: r.created,
        reverse=True,
    )
