"""The document-blind prior: how each configuration does at a context budget on real questions.

Tune decides for one document, often from synthetic questions that cannot separate most
configurations. What it can fall back on is what real questions showed on other documents: for
each configuration of Tune's grid, its mean score at a context budget over the bundled corpora's
documents (JSQuAD, and JaQuAD where bundled), each document indexed alone as Tune indexes it, every
document weighing the same. That is the *prior*; ``chunkviz.eval.decision.preference`` breaks
ties by it, so a document whose questions cannot tell two configurations apart gets the one that
did best on average, and one whose questions do tell them apart is decided by its own evidence.

The shipped file (``chunkviz/data/prior-bm25.json``) keeps, per document and configuration, the
chunk statistics and each real question's best relevant rank, so the prior is recomputed exactly
at any budget (``Prior.means``) and leaving a document out is a filter (the held-out check in
``bench/verdict_holdout.py``). It is made by ``python -m chunkviz prior --out
chunkviz/data/prior-bm25.json`` (a test keeps a sample of it equal to a recomputation); its ranks
are BM25's, and a run with another backend says that its prior is BM25's.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Literal

import msgspec
import numpy as np

from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.errors import DatasetError, Whole
from chunkviz.eval.grid import Config, chunk_config, tune_grid
from chunkviz.eval.measures import budget_values as metric_budget_values
from chunkviz.eval.metrics import budget_k
from chunkviz.eval.spans import analyze_spans
from chunkviz.retrieval.base import Backend

PRIOR_SCHEMA: Literal["chunkviz.prior"] = "chunkviz.prior"
PRIOR_VERSION = 1
#: The backend whose ranks the shipped prior holds.
PRIOR_BACKEND = "bm25"
PRIOR_FILE = "prior-bm25.json"
#: The corpora the shipped prior is measured on (those bundled with the package).
PRIOR_DATASETS = ("jsquad", "jaquad")
#: How the corpora are named in sentences.
CORPUS_NAMES = {"jsquad": "JSQuAD", "jaquad": "JaQuAD"}


class ConfigRanks(msgspec.Struct, frozen=True, kw_only=True):
    """One configuration on one document: its chunks and each question's best relevant rank.

    ``ranks[i]`` is 0 where no chunk holds question ``i``'s answer whole (never found).
    """

    chunks: int
    mean_chunk_chars: float
    median_chunk_chars: float
    index_bytes: int
    ranks: tuple[int, ...]


class DocumentRanks(msgspec.Struct, frozen=True, kw_only=True):
    """One document of a corpus with every configuration's ranks of its real questions."""

    dataset: str
    doc_id: str
    chars: int
    configs: Mapping[str, ConfigRanks]


class PriorFile(msgspec.Struct, frozen=True, kw_only=True):
    """The shipped prior (``chunkviz/data/prior-bm25.json``)."""

    schema: Literal["chunkviz.prior"]
    version: int
    backend: str
    grid: tuple[str, ...]
    datasets: tuple[str, ...]
    documents: tuple[DocumentRanks, ...]


def document_ranks(
    document: Document, questions: Sequence[Question], configs: Sequence[Config], backend: Backend
) -> dict[str, ConfigRanks]:
    """Each configuration's chunks of ``document`` alone and its questions' best relevant ranks.

    The runner's stages on one document without the statistics (as ``tune`` indexes a
    document): chunk (``grid.chunk_config``), find the chunks holding each answer
    (``spans.analyze_spans``), rank them (the backend's index, ``ranking.best_relevant_ranks``).
    """
    from chunkviz.retrieval.backends import build_index, prepare_queries
    from chunkviz.retrieval.ranking import best_relevant_ranks

    queries = prepare_queries(backend, [q.question for q in questions])
    out: dict[str, ConfigRanks] = {}
    for config in configs:
        result = chunk_config(config, document)
        lengths = [c.end - c.start for c in result.chunks]
        relevant = [
            sorted(
                {i for st in analyze_spans(result, list(q.spans)).statuses for i in st.containing}
            )
            for q in questions
        ]
        index = build_index(backend, result.embed_texts(), "cosine")
        ranks = best_relevant_ranks(index.scores(queries), relevant) if questions else []
        out[config.label] = ConfigRanks(
            chunks=len(lengths),
            mean_chunk_chars=float(np.mean(lengths)) if lengths else 0.0,
            median_chunk_chars=float(statistics.median(lengths)) if lengths else 0.0,
            index_bytes=int(index.nbytes),
            ranks=tuple(int(r or 0) for r in ranks),
        )
    return out


def budget_values(config: ConfigRanks, measure: str, budget_chars: int) -> np.ndarray:
    """Per-question values at the budget (``metrics.budget_k``, ``measures.budget_values``)."""
    if not config.ranks:
        return np.zeros(0)
    k = budget_k(max(config.mean_chunk_chars, 1.0), budget_chars, k_max=max(1, config.chunks))
    return metric_budget_values(measure, [r or None for r in config.ranks], k)


class Prior:
    """The prior's documents, with their means at any budget."""

    def __init__(self, data: PriorFile) -> None:
        self.data = data

    @property
    def backend(self) -> str:
        """The backend whose ranks the prior holds."""
        return self.data.backend

    @property
    def datasets(self) -> tuple[str, ...]:
        """The corpora it was measured on."""
        return self.data.datasets

    @property
    def documents(self) -> int:
        """How many documents it averages over."""
        return len(self.data.documents)

    def means(
        self,
        budget_chars: int,
        *,
        measure: str = "recall",
        exclude: Collection[str] = (),
        keep: Callable[[DocumentRanks], bool] | None = None,
    ) -> dict[str, float]:
        """Each configuration's document-weighted mean of ``measure`` at ``budget_chars``.

        Args:
            budget_chars: The context budget in characters.
            measure: ``recall``, ``ndcg`` or ``mrr``.
            exclude: Document ids left out (a held-out check leaves its own document out).
            keep: Only documents this accepts (e.g. one corpus).
        """
        sums: dict[str, float] = dict.fromkeys(self.data.grid, 0.0)
        count = 0
        for doc in self.data.documents:
            if doc.doc_id in exclude or (keep is not None and not keep(doc)):
                continue
            first = next(iter(doc.configs.values()), None)
            if first is None or not first.ranks:
                continue
            count += 1
            for label in self.data.grid:
                sums[label] += float(
                    budget_values(doc.configs[label], measure, budget_chars).mean()
                )
        return {label: s / count for label, s in sums.items()} if count else {}


def build_prior(
    datasets: Sequence[Dataset],
    backend: Backend,
    configs: Sequence[Config] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> PriorFile:
    """Rank every document's real questions under every configuration (the shipped file)."""
    grid = tuple(configs) if configs is not None else tune_grid()
    docs: list[DocumentRanks] = []
    total = sum(len(d.documents) for d in datasets)
    done = 0
    for data in datasets:
        by_doc: dict[str, list[Question]] = {}
        for q in data.questions:
            by_doc.setdefault(q.doc_id, []).append(q)
        for doc in data.documents:
            questions = by_doc.get(doc.doc_id, [])
            done += 1
            if progress is not None:
                progress(done, total, doc.doc_id)
            if not questions:
                continue
            docs.append(
                DocumentRanks(
                    dataset=data.name,
                    doc_id=doc.doc_id,
                    chars=len(doc.text),
                    configs=document_ranks(doc, questions, grid, backend),
                )
            )
    return PriorFile(
        schema=PRIOR_SCHEMA,
        version=PRIOR_VERSION,
        backend=backend.name,
        grid=tuple(c.label for c in grid),
        datasets=tuple(d.name for d in datasets),
        documents=tuple(docs),
    )


def prior_json(prior: PriorFile) -> str:
    """The file's text: sorted keys, one document a line (stable bytes for the same inputs)."""
    head = msgspec.json.encode(msgspec.structs.replace(prior, documents=())).decode()
    lines = [msgspec.json.encode(d, order="sorted").decode() for d in prior.documents]
    return head[: -len("[]}")] + "[\n" + ",\n".join(lines) + "\n]}\n"


def read_prior(text: str | bytes, name: str = PRIOR_FILE) -> PriorFile:
    """Decode a prior file.

    Raises:
        DatasetError: A file that is not a prior of this version (names the file and the fix).
    """
    try:
        data = msgspec.json.decode(text, type=PriorFile)
    except msgspec.ValidationError as exc:
        raise DatasetError("prior_not_prior", file=Whole(name), reason=Whole(str(exc))) from exc
    except msgspec.DecodeError as exc:
        raise DatasetError("prior_not_json", file=Whole(name), reason=Whole(str(exc))) from exc
    if data.version != PRIOR_VERSION:
        raise DatasetError(
            "prior_version", file=Whole(name), version=data.version, readable=PRIOR_VERSION
        )
    return data


@cache
def shipped_prior() -> Prior | None:
    """The prior shipped with the package (None when the file is absent)."""
    path = resources.files("chunkviz") / "data" / PRIOR_FILE
    if not path.is_file():
        return None
    return Prior(read_prior(path.read_bytes()))


def prior_means(budget_chars: int, measure: str = "recall") -> Mapping[str, float]:
    """The shipped prior's means at a budget ({} without a shipped prior)."""
    prior = shipped_prior()
    return prior.means(budget_chars, measure=measure) if prior is not None else {}


# ---------------------------------------------------------------------------- held-out figures

#: Document sizes the held-out figures are given for: (name, lowest characters, below). The
#: bounds are about the terciles of the held-out documents (3,900 and 6,500 characters).
SIZES: tuple[tuple[str, int, int], ...] = (
    ("small", 0, 4_000),
    ("medium", 4_000, 8_000),
    ("large", 8_000, 2**62),
)
HOLDOUT_FILE = "tune_validation.json"


def size_of(chars: int) -> str:
    """The size class of a document of ``chars`` characters (``SIZES``)."""
    return next(name for name, low, high in SIZES if low <= chars < high)


class HoldoutFigure(msgspec.Struct, frozen=True, kw_only=True):
    """Held-out Recall at a budget for documents of one size (``bench/verdict_holdout.py``)."""

    budget: int
    size: str
    corpora: tuple[str, ...]
    documents: int
    zero: float
    half: float
    prior: float
    fixed: float
    fixed_label: str


@cache
def holdout_figures() -> tuple[HoldoutFigure, ...]:
    """The shipped held-out figures (empty when the file is absent)."""
    path = resources.files("chunkviz") / "data" / HOLDOUT_FILE
    if not path.is_file():
        return ()
    try:
        return msgspec.json.decode(path.read_bytes(), type=tuple[HoldoutFigure, ...])
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise DatasetError("holdout_damaged", file=HOLDOUT_FILE, reason=Whole(str(exc))) from exc


def holdout_figure(budget_chars: int, document_chars: int) -> HoldoutFigure | None:
    """The held-out figure nearest ``budget_chars`` for a document of this size (or None)."""
    size = size_of(document_chars)
    found = [f for f in holdout_figures() if f.size == size]
    if not found:
        return None
    return min(found, key=lambda f: (abs(np.log(f.budget / budget_chars)), f.budget))
