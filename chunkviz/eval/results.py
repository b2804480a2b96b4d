"""The typed results file of a benchmark run: frozen dataclasses, validated field by field.

``Results.from_json`` / ``Results.from_dict`` read a file and check every field, raising a
``ResultsFileError`` that names the field, the value and the rule (``configs[2].chunks must be
a non-negative integer (got -1)``); ``to_json`` / ``to_dict`` write it back. The format is
documented field by field in ``docs/results-schema.md``; ``SCHEMA_VERSION`` changes whenever a
field changes meaning.

The values are frozen; their mappings are plain dicts (Streamlit's data cache pickles them) and are
never changed after loading.

``save_results`` writes ``<run_id>.json`` atomically and never replaces a file that holds another
run; ``check_writable`` proves an output folder usable before any work; ``list_results`` lists the
files of some folders, each either readable or unreadable with its reason.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from chunkviz.errors import ResultsFileError
from chunkviz.eval.decision import is_equivalent
from chunkviz.eval.grid import Config
from chunkviz.eval.metrics import METRIC_NAMES, metric_values, parse_metric_key
from chunkviz.eval.stats import UNITS, Estimate, PairwiseResult, Unit
from chunkviz.retrieval.cache import atomic_write_bytes
from chunkviz.textio import loads_json, read_file_bytes, shown_path

SCHEMA = "chunkviz.benchmark"
SCHEMA_VERSION = 3
#: Versions this chunkviz reads. Version 2 lacks the paired tests at the equal budget, each
#: pair's standard error, detectable margin and saturation, and the chunks' mean tokens: those
#: read as absent (the page computes the budget's tests from the ranks, and says where a
#: detectable margin is unknown).
READABLE_VERSIONS = (2, 3)
#: Rank metrics the runner computes, their pairwise-tested subset (which every file must carry),
#: and the span metrics.
RANK_METRICS = ("recall@1", "recall@5", "recall@10", "recall@20", "ndcg@5", "ndcg@10", "mrr@5",
                "mrr@10")
PAIRWISE_METRICS = ("recall@5", "ndcg@10", "mrr@10")
SPAN_METRICS = ("span_precision", "span_recall", "span_iou")
#: Fields that differ between two runs of the same inputs (the clock and the machine).
VOLATILE = ("created", "timings", "versions")
#: How far a stored mean may be from the mean recomputed from the ranks (JSON round trip).
MEAN_TOLERANCE = 1e-9


# --------------------------------------------------------------------------- field checks


class _Reader:
    """Typed access to one JSON object, naming the field in every error."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, Mapping):
            raise ResultsFileError(f"{where} must be an object (got {_show(data)})")
        self.data = data
        self.where = where

    def path(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def raw(self, key: str) -> Any:
        if key not in self.data:
            raise ResultsFileError(f"{self.path(key)} is missing")
        return self.data[key]

    def sub(self, key: str) -> _Reader:
        return _Reader(self.raw(key), self.path(key))

    def text(self, key: str, *, empty: bool = True) -> str:
        return _str(self.raw(key), self.path(key), empty=empty)

    def integer(self, key: str, *, low: int = 0) -> int:
        return _int(self.raw(key), self.path(key), low=low)

    def opt_integer(self, key: str, *, low: int = 0) -> int | None:
        v = self.raw(key)
        return None if v is None else _int(v, self.path(key), low=low)

    def number(self, key: str, *, low: float | None = 0.0, high: float | None = None) -> float:
        return _float(self.raw(key), self.path(key), low=low, high=high)

    def flag(self, key: str) -> bool:
        v = self.raw(key)
        if not isinstance(v, bool):
            raise ResultsFileError(f"{self.path(key)} must be true or false (got {_show(v)})")
        return v

    def items(self, key: str) -> list[Any]:
        v = self.raw(key)
        if not isinstance(v, list):
            raise ResultsFileError(f"{self.path(key)} must be a list (got {_show(v)})")
        return v


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _str(v: Any, where: str, *, empty: bool = True) -> str:
    if not isinstance(v, str) or (not empty and not v):
        rule = "a string" if empty else "a non-empty string"
        raise ResultsFileError(f"{where} must be {rule} (got {_show(v)})")
    return v


def _int(v: Any, where: str, *, low: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        rule = "a non-negative integer" if low == 0 else f"an integer >= {low}"
        raise ResultsFileError(f"{where} must be {rule} (got {_show(v)})")
    return v


def _float(v: Any, where: str, *, low: float | None = 0.0, high: float | None = None) -> float:
    ok = not isinstance(v, bool) and isinstance(v, int | float) and math.isfinite(v)
    if ok and low is not None and v < low:
        ok = False
    if ok and high is not None and v > high:
        ok = False
    if not ok:
        bounds = ("" if low is None and high is None else
                  f" in [{'-inf' if low is None else low}, {'inf' if high is None else high}]")
        raise ResultsFileError(f"{where} must be a finite number{bounds} (got {_show(v)})")
    return float(v)


def _labels_match(found: Iterable[str], labels: Sequence[str], where: str) -> None:
    got = list(found)
    if sorted(got) != sorted(labels):
        raise ResultsFileError(
            f"{where} must have one entry per configuration {list(labels)} (got {got})"
        )


# --------------------------------------------------------------------------- the records


def _estimate(r: _Reader, *, bounded: bool) -> Estimate:
    high = 1.0 if bounded else None
    low = 0.0 if bounded else None
    mean = r.number("mean", low=low, high=high)
    ci_low = r.number("ci_low", low=low, high=high)
    ci_high = r.number("ci_high", low=low, high=high)
    if not ci_low <= ci_high:
        raise ResultsFileError(
            f"{r.where} must have ci_low <= ci_high (got {ci_low} and {ci_high})"
        )
    return Estimate(mean, ci_low, ci_high)


@dataclass(frozen=True, slots=True)
class DatasetRecord:
    """The question set of a run.

    Attributes:
        name: Dataset name (``jsquad``).
        spec: The spec the runner loaded (``jsquad``, ``squad:PATH``).
        documents: Documents in the index.
        questions: Questions evaluated.
        sample: Questions requested (0: all).
        seed: Seed of the sample and of the resampling.
        dropped: Questions dropped while loading.
    """

    name: str
    spec: str
    documents: int
    questions: int
    sample: int
    seed: int
    dropped: int

    @classmethod
    def from_dict(cls, r: _Reader) -> DatasetRecord:
        """Read and check the ``dataset`` object."""
        return cls(r.text("name", empty=False), r.text("spec", empty=False),
                   r.integer("documents"), r.integer("questions", low=1), r.integer("sample"),
                   r.integer("seed"), r.integer("dropped"))


@dataclass(frozen=True, slots=True)
class BackendRecord:
    """The retriever of a run.

    Attributes:
        name: Registry name (``bm25``, ``use-m3``, ``st:<model>``).
        model: Model identifier.
        kind: ``lexical`` or ``dense``.
        measure: The similarity really applied (``bm25`` for BM25).
        normalized: Whether vectors were unit length.
        document_prefix: Prepended to chunks before encoding.
        query_prefix: Prepended to questions before encoding.
        max_input_tokens: The model's input limit (None: none).
        components: A hybrid's fused backends, each a record of its own (empty otherwise;
            written only when there are some).
    """

    name: str
    model: str
    kind: str
    measure: str
    normalized: bool
    document_prefix: str
    query_prefix: str
    max_input_tokens: int | None
    components: tuple[BackendRecord, ...] = ()

    @classmethod
    def from_dict(cls, r: _Reader) -> BackendRecord:
        """Read and check the ``backend`` object (and its ``components``, if any)."""
        kind = r.text("kind")
        if kind not in ("lexical", "dense", "hybrid"):
            raise ResultsFileError(
                f"{r.path('kind')} must be lexical, dense or hybrid (got {kind!r})")
        parts = r.items("components") if "components" in r.data else []
        components = tuple(cls.from_dict(_Reader(p, f"{r.path('components')}[{i}]"))
                           for i, p in enumerate(parts))
        if (kind == "hybrid") != bool(components):
            raise ResultsFileError(
                f"{r.path('components')} must list the fused backends of a hybrid and only of "
                f"a hybrid (kind={kind!r}, {len(components)} components)")
        return cls(r.text("name", empty=False), r.text("model"), kind,
                   r.text("measure", empty=False), r.flag("normalized"),
                   r.text("document_prefix"), r.text("query_prefix"),
                   r.opt_integer("max_input_tokens", low=1), components)

    def to_dict(self) -> dict[str, Any]:
        """Plain data, in the file's field order."""
        return {"name": self.name, "model": self.model, "kind": self.kind,
                "measure": self.measure, "normalized": self.normalized,
                "document_prefix": self.document_prefix, "query_prefix": self.query_prefix,
                "max_input_tokens": self.max_input_tokens,
                **({"components": [c.to_dict() for c in self.components]}
                   if self.components else {})}


@dataclass(frozen=True, slots=True)
class ConfigRecord:
    """One configuration of a run and what its index cost.

    Attributes:
        label: Unique label (``fixed-400-80``).
        strategy: Strategy name.
        params: Strategy parameters.
        chunks: Chunks over all documents.
        predicted_chunks: The fixed-window formula's count (None for other strategies).
        broken: Questions lost before retrieval (no chunk holds an answer span).
        chars_embedded: Characters of all chunk texts (prefixes included).
        index_bytes: Size of the index.
        dims: Vector dimensions (vocabulary size for BM25).
        encode_seconds: Time spent making this configuration's vectors or index.
        mean_chunk_chars: Mean chunk length in characters.
        over_limit: Chunks longer than the model's input limit.
        mean_chunk_tokens: Mean chunk length in tokens of the context tokenizer
            (``budget.tokenizer``); None in files of schema version 2.
        context: Contextual chunk header embedded with each chunk (``none``, ``title``,
            ``headings``); written only when it is not ``none``.
    """

    label: str
    strategy: str
    params: Mapping[str, Any]
    chunks: int
    predicted_chunks: int | None
    broken: int
    chars_embedded: int
    index_bytes: int
    dims: int
    encode_seconds: float
    mean_chunk_chars: float
    over_limit: int
    mean_chunk_tokens: float | None = None
    context: str = "none"

    @property
    def config(self) -> Config:
        """The configuration itself."""
        return Config(self.label, self.strategy, dict(self.params), context=self.context)

    @classmethod
    def from_dict(cls, r: _Reader) -> ConfigRecord:
        """Read and check one entry of ``configs``."""
        params = r.raw("params")
        if not isinstance(params, Mapping) or not all(isinstance(k, str) for k in params):
            raise ResultsFileError(f"{r.path('params')} must be an object (got {_show(params)})")
        return cls(
            label=r.text("label", empty=False), strategy=r.text("strategy", empty=False),
            params=dict(dict(params)), chunks=r.integer("chunks"),
            predicted_chunks=r.opt_integer("predicted_chunks"), broken=r.integer("broken"),
            chars_embedded=r.integer("chars_embedded"), index_bytes=r.integer("index_bytes"),
            dims=r.integer("dims"), encode_seconds=r.number("encode_seconds"),
            mean_chunk_chars=r.number("mean_chunk_chars"), over_limit=r.integer("over_limit"),
            mean_chunk_tokens=(r.number("mean_chunk_tokens")
                               if r.data.get("mean_chunk_tokens") is not None else None),
            context=_context(r),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data, in the file's field order."""
        return {"label": self.label, "strategy": self.strategy, "params": dict(self.params),
                "chunks": self.chunks, "predicted_chunks": self.predicted_chunks,
                "broken": self.broken, "chars_embedded": self.chars_embedded,
                "index_bytes": self.index_bytes, "dims": self.dims,
                "encode_seconds": self.encode_seconds, "mean_chunk_chars": self.mean_chunk_chars,
                "over_limit": self.over_limit,
                **({} if self.mean_chunk_tokens is None
                   else {"mean_chunk_tokens": self.mean_chunk_tokens}),
                **({"context": self.context} if self.context != "none" else {})}


def _context(r: _Reader) -> str:
    """A configuration's ``context``: ``none`` when absent (files written before it existed)."""
    from chunkviz.retrieval.headers import CONTEXT_MODES

    value = r.data.get("context", "none")
    if value not in CONTEXT_MODES:
        raise ResultsFileError(
            f"{r.path('context')} must be one of {', '.join(CONTEXT_MODES)} (got {_show(value)})"
        )
    return str(value)


@dataclass(frozen=True, slots=True)
class StatsSettings:
    """How intervals and tests were computed.

    Attributes:
        alpha: Family-wise error rate of the pairwise tests.
        bootstrap: Bootstrap resamples.
        permutations: Sign flips per paired test.
        seed: Seed of the resampling.
        test: The test's name.
        ci: The interval's name.
        correction: The multiple-comparison correction.
        ties: How equal scores were ranked.
        unit: The unit of resampling (``document`` or ``question``; files without it resampled
            questions).
        units: How many units were resampled (0: not recorded).
        permutation_floor: The smallest p-value the permutation tests can give (0: not
            recorded).
        equivalence: The equivalence test's name ("" when none was made).
        margins: Metric key -> the equivalence margin delta.
    """

    alpha: float
    bootstrap: int
    permutations: int
    seed: int
    test: str
    ci: str
    correction: str
    ties: str
    unit: Unit = "question"
    units: int = 0
    permutation_floor: float = 0.0
    equivalence: str = ""
    margins: Mapping[str, float] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, r: _Reader) -> StatsSettings:
        """Read and check the ``stats`` object."""
        alpha = r.number("alpha")
        if not 0.0 < alpha < 1.0:
            raise ResultsFileError(f"{r.path('alpha')} must be between 0 and 1 (got {alpha})")
        base = cls(alpha, r.integer("bootstrap", low=1), r.integer("permutations", low=1),
                   r.integer("seed"), r.text("test"), r.text("ci"), r.text("correction"),
                   r.text("ties"))
        if "unit" not in r.data:
            return base
        unit = r.text("unit")
        if unit not in UNITS:
            raise ResultsFileError(f"{r.path('unit')} must be one of {', '.join(UNITS)} "
                                   f"(got {unit!r})")
        margins_raw = r.sub("margins").data
        margins = {str(k): _float(v, f"{r.path('margins')}.{k}", low=0.0)
                   for k, v in margins_raw.items()}
        return replace(base, unit="document" if unit == "document" else "question",
                       units=r.integer("units", low=1),
                       permutation_floor=r.number("permutation_floor", high=1.0),
                       equivalence=r.text("equivalence"), margins=margins)

    def to_dict(self) -> dict[str, Any]:
        """The ``stats`` object of the file."""
        base: dict[str, Any] = {"alpha": self.alpha, "bootstrap": self.bootstrap,
                                "permutations": self.permutations, "seed": self.seed,
                                "test": self.test, "ci": self.ci, "correction": self.correction,
                                "ties": self.ties}
        if not self.units:  # a file written before the unit was recorded stays as it was
            return base
        return {**base, "unit": self.unit, "units": self.units,
                "permutation_floor": self.permutation_floor, "equivalence": self.equivalence,
                "margins": dict(self.margins)}


@dataclass(frozen=True, slots=True)
class Sensitivity:
    """The pairwise tests again under alternative definitions (``docs/results-schema.md``).

    Attributes:
        definitions: Definition name -> what it means.
        ranks: Definition -> label -> per question, the best relevant rank under it (the
            definitions that change ranks).
        ndcg_k: Depth of ``places``.
        places: Label -> per question, the places of all its relevant chunks within ``ndcg_k``.
        relevant_counts: Label -> per question, how many chunks are relevant.
        pairwise: Definition -> the pairwise tests under it.
    """

    definitions: Mapping[str, str]
    ranks: Mapping[str, Mapping[str, tuple[int | None, ...]]]
    ndcg_k: int
    places: Mapping[str, tuple[tuple[int, ...], ...]]
    relevant_counts: Mapping[str, tuple[int, ...]]
    pairwise: Mapping[str, tuple[PairwiseResult, ...]]

    def to_dict(self) -> dict[str, Any]:
        """The ``sensitivity`` object of the file."""
        return {
            "definitions": dict(self.definitions),
            "ranks": {n: {lab: list(r) for lab, r in by.items()} for n, by in self.ranks.items()},
            "ndcg_all": {"k": self.ndcg_k,
                         "places": {lab: [list(p) for p in ps] for lab, ps in self.places.items()},
                         "relevant_counts": {lab: list(c)
                                             for lab, c in self.relevant_counts.items()}},
            "pairwise": {n: [_pair_dict(p) for p in rows] for n, rows in self.pairwise.items()},
        }



@dataclass(frozen=True, slots=True)
class Budget:
    """The equal-context-budget comparison.

    Attributes:
        chars: Characters of context each configuration retrieves.
        k: Label -> chunks retrieved to fill the budget.
        metrics: Label -> ``recall@budget``, ``ndcg@budget``, ``mrr@budget`` -> estimate.
        pairwise: The paired tests of every pair at the budget, as ``Results.pairwise`` at
            equal k (empty in files of schema version 2).
        tokenizer: The tokenizer of ``configs[].mean_chunk_tokens`` ("" when not recorded).
    """

    chars: int
    k: Mapping[str, int]
    metrics: Mapping[str, Mapping[str, Estimate]]
    pairwise: tuple[PairwiseResult, ...] = ()
    tokenizer: str = ""


@dataclass(frozen=True, slots=True)
class Retrieval:
    """Where the chunks are and what each question retrieved first.

    Attributes:
        span_k: How many top chunks the span metrics score.
        document_ids: Document ids in index order.
        chunk_offsets: Label -> ``(document index, start, end)`` of every chunk.
        topk: Label -> per question, the ``span_k`` best chunk indices (``ranking.top_k``).
    """

    span_k: int
    document_ids: tuple[str, ...]
    chunk_offsets: Mapping[str, tuple[tuple[int, int, int], ...]]
    topk: Mapping[str, tuple[tuple[int, ...], ...]]


@dataclass(frozen=True, slots=True)
class Timings:
    """Where the run's time went (differs between runs of the same inputs).

    Attributes:
        total_seconds: The whole run.
        chunk_seconds: The chunk stage.
        encode_seconds: The engine's encode calls (documents and questions).
        encoded_texts: Texts the backend encoded.
        cache_hits: Unique chunk texts found in the cache before the run.
        unique_texts: Unique chunk texts over all configurations (None: lexical backend).
    """

    total_seconds: float
    chunk_seconds: float
    encode_seconds: float
    encoded_texts: int
    cache_hits: int
    unique_texts: int | None

    @classmethod
    def from_dict(cls, r: _Reader) -> Timings:
        """Read and check the ``timings`` object."""
        return cls(r.number("total_seconds"), r.number("chunk_seconds"),
                   r.number("encode_seconds"), r.integer("encoded_texts"),
                   r.integer("cache_hits"), r.opt_integer("unique_texts"))


QuestionsKind = Literal["own", "synthetic", "both"]
QUESTIONS_KINDS: tuple[QuestionsKind, ...] = ("own", "synthetic", "both")


@dataclass(frozen=True, slots=True)
class QuestionsSource:
    """Where a run's questions came from, so every figure from synthetic ones can say so.

    Attributes:
        kind: ``own`` (the user's pairs), ``synthetic`` (drawn from the document by
            ``chunkviz.eval.synthetic``) or ``both``.
        own: Questions of the user's.
        synthetic: Synthetic questions.
        form: The synthetic form (``context``, ``cloze``...; "" without synthetic questions).
        seed: The seed the synthetic questions were drawn with (None without them).
        note: What synthetic questions are ("" without them).
        caveat: The form's caveat (cloze and keyword forms favour lexical retrieval).
        validation_rho: The form's JSQuAD validation (Spearman's rho against the real
            questions' ranking, for this backend); None when not validated.
        validation: That validation as a sentence.
    """

    kind: QuestionsKind
    own: int
    synthetic: int
    form: str = ""
    seed: int | None = None
    note: str = ""
    caveat: str = ""
    validation_rho: float | None = None
    validation: str = ""

    @property
    def is_synthetic(self) -> bool:
        """Whether any figure of the run rests on synthetic questions."""
        return self.synthetic > 0

    def to_dict(self) -> dict[str, Any]:
        """The ``questions_source`` object of the file."""
        return {"kind": self.kind, "own": self.own, "synthetic": self.synthetic,
                "form": self.form, "seed": self.seed, "note": self.note, "caveat": self.caveat,
                "validation_rho": self.validation_rho, "validation": self.validation}

    @classmethod
    def from_dict(cls, r: _Reader) -> QuestionsSource:
        """Read and check the ``questions_source`` object."""
        kind = r.text("kind", empty=False)
        if kind not in QUESTIONS_KINDS:
            raise ResultsFileError(
                f"{r.path('kind')} must be one of {', '.join(QUESTIONS_KINDS)} (got {_show(kind)})"
            )
        own, synthetic = r.integer("own"), r.integer("synthetic")
        expected = {"own": (own > 0 and synthetic == 0), "synthetic": (own == 0 and synthetic > 0),
                    "both": (own > 0 and synthetic > 0)}
        if not expected[kind]:
            raise ResultsFileError(
                f"{r.path('kind')} is {kind!r} but own={own} and synthetic={synthetic}; own counts "
                "the user's questions, synthetic the generated ones"
            )
        rho = None if r.raw("validation_rho") is None else r.number("validation_rho", low=-1.0,
                                                                         high=1.0)
        return cls(kind, own, synthetic, r.text("form"),
                   r.opt_integer("seed"), r.text("note"), r.text("caveat"), rho,
                   r.text("validation"))


@dataclass(frozen=True, slots=True)
class Results:
    """A benchmark run, as its results file holds it (``docs/results-schema.md``).

    Attributes:
        run_id: File stem; names the inputs and carries a hash of every setting (``run_id``).
        created: UTC time the run finished (``2026-12-01T08:00:00Z``).
        engine: Where the chunk and encode stages ran (``local``, ``ray``).
        dataset: The question set.
        backend: The retriever.
        versions: Package versions of the run.
        ks: Cut-offs of the metric-vs-k curves.
        configs: The configurations, in grid order.
        question_ids: The questions evaluated, in dataset order.
        ranks: Label -> per question, the rank of its best relevant chunk (None: lost).
        metrics: Label -> metric key -> estimate (``RANK_METRICS`` and the span metrics).
        budget: The equal-budget comparison.
        pairwise: Holm-corrected paired tests of every pair on ``PAIRWISE_METRICS``.
        stats: How intervals and tests were computed.
        retrieval: Chunk offsets and each question's top chunks.
        timings: Where the time went.
        question_docs: Per question, its document id (the clusters of document-level
            inference; empty in files written before it was recorded).
        sensitivity: The tests under alternative definitions (None in older files).
        questions_source: Where the questions came from (None: a dataset's own questions, and
            every file written before it was recorded).
    """

    run_id: str
    created: str
    engine: str
    dataset: DatasetRecord
    backend: BackendRecord
    versions: Mapping[str, str]
    ks: tuple[int, ...]
    configs: tuple[ConfigRecord, ...]
    question_ids: tuple[str, ...]
    ranks: Mapping[str, tuple[int | None, ...]]
    metrics: Mapping[str, Mapping[str, Estimate]]
    budget: Budget
    pairwise: tuple[PairwiseResult, ...]
    stats: StatsSettings
    retrieval: Retrieval
    timings: Timings
    question_docs: tuple[str, ...] = ()
    sensitivity: Sensitivity | None = None
    questions_source: QuestionsSource | None = None

    # -- reading ---------------------------------------------------------------------------

    @property
    def schema_version(self) -> int:
        """The version its file is written in: 2 when read from one (nothing of 3 recorded)."""
        return SCHEMA_VERSION if self.budget.tokenizer else 2

    @property
    def labels(self) -> tuple[str, ...]:
        """Configuration labels in grid order."""
        return tuple(c.label for c in self.configs)

    def config(self, label: str) -> ConfigRecord:
        """The configuration called ``label``.

        Raises:
            KeyError: No such configuration.
        """
        for c in self.configs:
            if c.label == label:
                return c
        raise KeyError(label)

    def metric_k(self, label: str, key: str) -> int:
        """The cut-off of a metric key for a configuration (``budget`` reads ``budget.k``)."""
        _name, k = parse_metric_key(key)
        return self.budget.k[label] if k == "budget" else int(k)

    def recompute(self, label: str, key: str) -> float:
        """Mean of a rank metric (``ndcg@10``, ``recall@budget``) recomputed from the ranks."""
        name, _k = parse_metric_key(key)
        return float(metric_values(name, self.ranks[label], self.metric_k(label, key)).mean())

    # -- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (``from_dict`` reads it back to an equal value)."""
        return {
            "schema": SCHEMA,
            "schema_version": self.schema_version,
            "run_id": self.run_id,
            "created": self.created,
            "engine": self.engine,
            "dataset": {"name": self.dataset.name, "spec": self.dataset.spec,
                        "documents": self.dataset.documents, "questions": self.dataset.questions,
                        "sample": self.dataset.sample, "seed": self.dataset.seed,
                        "dropped": self.dataset.dropped},
            "backend": self.backend.to_dict(),
            "versions": dict(self.versions),
            "ks": list(self.ks),
            "configs": [c.to_dict() for c in self.configs],
            "question_ids": list(self.question_ids),
            "ranks": {lab: list(r) for lab, r in self.ranks.items()},
            "metrics": {lab: {k: e.as_dict() for k, e in m.items()}
                        for lab, m in self.metrics.items()},
            "budget": {"chars": self.budget.chars, "k": dict(self.budget.k),
                       "metrics": {lab: {k: e.as_dict() for k, e in m.items()}
                                   for lab, m in self.budget.metrics.items()},
                       **({"pairwise": [_pair_dict(p) for p in self.budget.pairwise],
                           "tokenizer": self.budget.tokenizer} if self.budget.tokenizer
                          else {})},
            "pairwise": [_pair_dict(p) for p in self.pairwise],
            "stats": self.stats.to_dict(),
            "retrieval": {"span_k": self.retrieval.span_k,
                          "document_ids": list(self.retrieval.document_ids),
                          "chunk_offsets": {lab: [list(o) for o in offs]
                                            for lab, offs in self.retrieval.chunk_offsets.items()},
                          "topk": {lab: [list(t) for t in tops]
                                   for lab, tops in self.retrieval.topk.items()}},
            **({"question_docs": list(self.question_docs)} if self.question_docs else {}),
            **({"questions_source": self.questions_source.to_dict()}
               if self.questions_source is not None else {}),
            **({"sensitivity": self.sensitivity.to_dict()} if self.sensitivity is not None
               else {}),
            "timings": {"total_seconds": self.timings.total_seconds,
                        "chunk_seconds": self.timings.chunk_seconds,
                        "encode_seconds": self.timings.encode_seconds,
                        "encoded_texts": self.timings.encoded_texts,
                        "cache_hits": self.timings.cache_hits,
                        "unique_texts": self.timings.unique_texts},
        }

    def to_json(self) -> str:
        """The file's text: compact JSON, UTF-8 characters as they are, no NaN."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"),
                          allow_nan=False)

    @classmethod
    def from_json(cls, text: str | bytes, where: str = "results") -> Results:
        """Parse and check a results file's text (see ``from_dict``).

        Raises:
            ResultsFileError: Not JSON, or any field that breaks its rule (named).
        """
        try:
            raw = text.decode("utf-8-sig") if isinstance(text, bytes) else text
        except UnicodeDecodeError as exc:
            raise ResultsFileError(f"{where} cannot be read as JSON ({exc})") from None
        data = loads_json(raw, where, error=ResultsFileError, parse_constant=_reject_constant,
                          fix="write it again with chunkviz bench")
        return cls.from_dict(data, where)

    @classmethod
    def from_dict(cls, data: Any, where: str = "results") -> Results:
        """Check every field of parsed JSON and build the value.

        Raises:
            ResultsFileError: The first field that breaks its rule, named with its path
                (``configs[2].chunks``), its value and the rule.
        """
        try:
            return _read(data)
        except ResultsFileError as exc:
            raise ResultsFileError(f"{where}: {exc}") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


_BASE_PAIR_FIELDS = ("metric", "a", "b", "diff", "ci_low", "ci_high", "p_value", "p_holm",
                     "significant")


def _pair_dict(p: PairwiseResult) -> dict[str, Any]:
    """A pairwise row; one read from a file without the inference fields is written without them."""
    row = p.as_dict()
    legacy = (p.unit == "question" and p.delta is None and p.a_wins is None and not p.p_bound
              and not p.p_holm_bound)
    return {k: row[k] for k in _BASE_PAIR_FIELDS} if legacy else row


def _read(data: Any) -> Results:
    if not isinstance(data, Mapping) or data.get("schema") != SCHEMA:
        raise ResultsFileError(
            f"not a chunkviz benchmark results file (schema must be {SCHEMA!r}); "
            "produce one with python -m chunkviz bench"
        )
    version = data.get("schema_version")
    if version not in READABLE_VERSIONS:
        raise ResultsFileError(
            f"schema_version={version!r} but this chunkviz reads versions "
            f"{', '.join(map(str, READABLE_VERSIONS))}; rerun python -m chunkviz bench to "
            "regenerate it"
        )
    top = _Reader(data, "")
    run_id = top.text("run_id", empty=False)
    if not re.fullmatch(r"[A-Za-z0-9._-]+", run_id):
        raise ResultsFileError(f"run_id must be a safe file stem (got {run_id!r})")
    dataset = DatasetRecord.from_dict(top.sub("dataset"))
    backend = BackendRecord.from_dict(top.sub("backend"))
    versions_raw = top.sub("versions").data
    versions = {str(k): _str(v, f"versions.{k}") for k, v in versions_raw.items()}
    ks = tuple(_int(k, f"ks[{i}]", low=1) for i, k in enumerate(top.items("ks")))
    configs = tuple(ConfigRecord.from_dict(_Reader(c, f"configs[{i}]"))
                    for i, c in enumerate(top.items("configs")))
    if not configs:
        raise ResultsFileError("configs must list at least one configuration (got [])")
    labels = [c.label for c in configs]
    if len(set(labels)) != len(labels):
        raise ResultsFileError(f"configs must have unique labels (got {labels})")
    qids = tuple(_str(q, f"question_ids[{i}]", empty=False)
                 for i, q in enumerate(top.items("question_ids")))
    if len(qids) != dataset.questions:
        raise ResultsFileError(f"question_ids has {len(qids)} ids but dataset.questions is "
                               f"{dataset.questions}")
    if len(set(qids)) != len(qids):
        raise ResultsFileError("question_ids must be unique")
    ranks = _ranks(top.sub("ranks"), configs, len(qids))
    metrics = _metrics(top.sub("metrics"), labels, ranks)
    stats = StatsSettings.from_dict(top.sub("stats"))
    budget = _budget(top.sub("budget"), configs, ranks, version == SCHEMA_VERSION, stats.alpha)
    pairwise = _pairwise(top.items("pairwise"), labels, metrics, stats.alpha)
    if version == SCHEMA_VERSION:
        lacking = [c.label for c in configs if c.mean_chunk_tokens is None]
        if lacking:
            raise ResultsFileError(f"configs entry {lacking[0]} lacks mean_chunk_tokens "
                                   f"(required from schema version {SCHEMA_VERSION})")
    retrieval = _retrieval(top.sub("retrieval"), configs, len(qids), dataset.documents)
    docs_raw = data.get("question_docs") or []
    question_docs = tuple(_str(d, f"question_docs[{i}]", empty=False)
                          for i, d in enumerate(docs_raw))
    if question_docs and len(question_docs) != len(qids):
        raise ResultsFileError(f"question_docs has {len(question_docs)} ids for {len(qids)} "
                               "questions; it must have one per question")
    if stats.unit == "document" and not question_docs:
        raise ResultsFileError("stats.unit is 'document' but question_docs is missing")
    sens_raw = data.get("sensitivity")
    sensitivity = (None if sens_raw is None
                   else _sensitivity(_Reader(sens_raw, "sensitivity"), labels, len(qids)))
    return Results(
        run_id=run_id, created=top.text("created"), engine=top.text("engine", empty=False),
        dataset=dataset, backend=backend, versions=dict(versions), ks=ks,
        configs=configs, question_ids=qids, ranks=dict(ranks),
        metrics=dict(metrics), budget=budget, pairwise=pairwise, stats=stats,
        retrieval=retrieval, timings=Timings.from_dict(top.sub("timings")),
        question_docs=question_docs, sensitivity=sensitivity,
        questions_source=(None if data.get("questions_source") is None
                          else QuestionsSource.from_dict(top.sub("questions_source"))),
    )


def _extras(row: Any, base: PairwiseResult, where: str, alpha: float = 0.05) -> PairwiseResult:
    """``base`` with the optional fields of a pairwise row (unit, bounds, equivalence, wins).

    A row marked equivalent must be so by the decision rule (``decision.is_equivalent``), and a
    stored ``outcome`` must be the one the rule gives.
    """
    try:
        full = PairwiseResult.from_dict(row)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ResultsFileError(f"{where} has a malformed optional field ({exc})") from None
    if full.delta is not None and not full.delta > 0:
        raise ResultsFileError(f"{where}.delta must be positive (got {full.delta})")
    if full.detectable is not None and not (math.isfinite(full.detectable)
                                            and full.detectable >= 0):
        raise ResultsFileError(f"{where}.detectable must be a non-negative number "
                               f"(got {full.detectable})")
    if full.equivalent and not is_equivalent(
            p_equiv_holm=full.p_equiv_holm, eq_ci_low=full.eq_ci_low, eq_ci_high=full.eq_ci_high,
            delta=full.delta, detectable=full.detectable, saturated=full.saturated, alpha=alpha):
        raise ResultsFileError(f"{where} is marked equivalent but the decision rule says it is "
                               f"not (interval [{full.eq_ci_low}, {full.eq_ci_high}], delta "
                               f"{full.delta}, detectable margin {full.detectable}, saturated "
                               f"{full.saturated})")
    stored = row.get("outcome") if isinstance(row, Mapping) else None
    if stored is not None and stored != replace(full, significant=base.significant,
                                                diff=base.diff).outcome:
        raise ResultsFileError(f"{where}.outcome is {stored!r} but the decision rule gives "
                               f"{full.outcome!r}")
    return replace(full, metric=base.metric, a=base.a, b=base.b, diff=base.diff,
                   ci_low=base.ci_low, ci_high=base.ci_high, p_value=base.p_value,
                   p_holm=base.p_holm, significant=base.significant)


def _sensitivity(r: _Reader, labels: Sequence[str], n: int) -> Sensitivity:
    definitions = {str(k): _str(v, f"sensitivity.definitions.{k}")
                   for k, v in r.sub("definitions").data.items()}
    ranks: dict[str, dict[str, tuple[int | None, ...]]] = {}
    for name, by in r.sub("ranks").data.items():
        ranks[str(name)] = {}
        _labels_match(by, labels, f"sensitivity.ranks.{name}")
        for lab in labels:
            rows = by[lab]
            if not isinstance(rows, list) or len(rows) != n:
                raise ResultsFileError(f"sensitivity.ranks.{name}.{lab} must list one rank per "
                                       "question")
            ranks[str(name)][lab] = tuple(None if x is None else _int(x, f"sensitivity.ranks."
                                                                      f"{name}.{lab}", low=1)
                                          for x in rows)
    nd = r.sub("ndcg_all")
    places = {lab: tuple(tuple(_int(p, f"sensitivity.ndcg_all.places.{lab}", low=1) for p in ps)
                         for ps in nd.sub("places").data[lab]) for lab in labels}
    counts = {lab: tuple(_int(c, f"sensitivity.ndcg_all.relevant_counts.{lab}")
                         for c in nd.sub("relevant_counts").data[lab]) for lab in labels}
    pairwise: dict[str, tuple[PairwiseResult, ...]] = {}
    for name, rows in r.sub("pairwise").data.items():
        if not isinstance(rows, list):
            raise ResultsFileError(f"sensitivity.pairwise.{name} must be a list")
        out = []
        for i, row in enumerate(rows):
            where = f"sensitivity.pairwise.{name}[{i}]"
            try:
                pair = PairwiseResult.from_dict(row)
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                raise ResultsFileError(f"{where} is malformed ({exc})") from None
            if pair.a not in labels or pair.b not in labels:
                raise ResultsFileError(f"{where} names an unknown configuration")
            out.append(pair)
        pairwise[str(name)] = tuple(out)
    return Sensitivity(definitions, ranks, nd.integer("k", low=1), places, counts, pairwise)


def _ranks(r: _Reader, configs: Sequence[ConfigRecord],
           n: int) -> dict[str, tuple[int | None, ...]]:
    _labels_match(r.data, [c.label for c in configs], "ranks")
    out: dict[str, tuple[int | None, ...]] = {}
    for c in configs:
        values = r.items(c.label)
        where = r.path(c.label)
        if len(values) != n:
            raise ResultsFileError(f"{where} has {len(values)} ranks for {n} questions")
        row = tuple(None if v is None else _int(v, f"{where}[{i}]", low=1)
                    for i, v in enumerate(values))
        too_far = next((i for i, v in enumerate(row) if v is not None and v > c.chunks), None)
        if too_far is not None:
            raise ResultsFileError(f"{where}[{too_far}] = {row[too_far]} is past the "
                                   f"{c.chunks} chunks of {c.label}")
        lost = sum(1 for v in row if v is None)
        if lost != c.broken:
            raise ResultsFileError(f"configs entry {c.label} says broken={c.broken} but its ranks "
                                   f"hold {lost} lost questions")
        out[c.label] = row
    return out


def _check_mean(where: str, stored: float, ranks: Sequence[int | None], name: str,
                k: int) -> None:
    expected = float(metric_values(name, ranks, k).mean())
    if abs(stored - expected) > MEAN_TOLERANCE:
        raise ResultsFileError(f"{where}.mean is {stored} but the ranks give {expected}")


def _metrics(r: _Reader, labels: Sequence[str], ranks: Mapping[str, Sequence[int | None]]
             ) -> dict[str, Mapping[str, Estimate]]:
    _labels_match(r.data, labels, "metrics")
    out: dict[str, Mapping[str, Estimate]] = {}
    for lab in labels:
        m = r.sub(lab)
        row: dict[str, Estimate] = {}
        for key in m.data:
            name, k = parse_metric_key(str(key)) if "@" in str(key) else (str(key), "")
            est = _estimate(m.sub(str(key)), bounded=True)
            if name in METRIC_NAMES and k.isdigit() and int(k) >= 1:
                _check_mean(m.path(str(key)), est.mean, ranks[lab], name, int(k))
            elif not (name in SPAN_METRICS and k.isdigit()):
                raise ResultsFileError(f"{m.path(str(key))} is not a known metric key")
            row[str(key)] = est
        missing = [k for k in PAIRWISE_METRICS if k not in row]
        if missing:
            raise ResultsFileError(f"{m.where} lacks {', '.join(missing)}")
        out[lab] = dict(row)
    return out


def _budget(r: _Reader, configs: Sequence[ConfigRecord],
            ranks: Mapping[str, Sequence[int | None]], current: bool = False,
            alpha: float = 0.05) -> Budget:
    labels = [c.label for c in configs]
    chars = r.integer("chars", low=1)
    kr = r.sub("k")
    _labels_match(kr.data, labels, "budget.k")
    ks = {lab: kr.integer(lab, low=1) for lab in labels}
    mr = r.sub("metrics")
    _labels_match(mr.data, labels, "budget.metrics")
    metrics: dict[str, Mapping[str, Estimate]] = {}
    for lab in labels:
        row = mr.sub(lab)
        est: dict[str, Estimate] = {}
        for key in row.data:
            name, _sep, k = str(key).partition("@")
            if name not in METRIC_NAMES or k != "budget":
                raise ResultsFileError(f"{row.path(str(key))} is not a budget metric "
                                       "(recall@budget, ndcg@budget, mrr@budget)")
            est[key] = _estimate(row.sub(key), bounded=True)
            _check_mean(row.path(key), est[key].mean, ranks[lab], name, ks[lab])
        if "recall@budget" not in est:
            raise ResultsFileError(f"{row.path('recall@budget')} is missing")
        metrics[lab] = dict(est)
    if not current:
        return Budget(chars, dict(ks), dict(metrics))
    pairs = _pairwise(r.items("pairwise"), labels, metrics, alpha, "budget.pairwise")
    return Budget(chars, dict(ks), dict(metrics), pairs, r.text("tokenizer", empty=False))


def _pairwise(rows: Sequence[Any], labels: Sequence[str],
              metrics: Mapping[str, Mapping[str, Estimate]], alpha: float = 0.05,
              where: str = "pairwise") -> tuple[PairwiseResult, ...]:
    out = []
    for i, row in enumerate(rows):
        r = _Reader(row, f"{where}[{i}]")
        metric = r.text("metric", empty=False)
        a, b = r.text("a"), r.text("b")
        for side, lab in (("a", a), ("b", b)):
            if lab not in labels:
                raise ResultsFileError(f"{r.path(side)} names no configuration (got {lab!r})")
        if a == b:
            raise ResultsFileError(f"{r.where} compares {a!r} with itself")
        if metric not in metrics[a]:
            raise ResultsFileError(f"{r.path('metric')} is not a metric of the file "
                                   f"(got {metric!r})")
        diff = r.number("diff", low=-1.0, high=1.0)
        expected = metrics[a][metric].mean - metrics[b][metric].mean
        if abs(diff - expected) > 1e-6:
            raise ResultsFileError(f"{r.path('diff')} is {diff} but the means give {expected}")
        base = PairwiseResult(
            metric=metric, a=a, b=b, diff=diff,
            ci_low=r.number("ci_low", low=-1.0, high=1.0),
            ci_high=r.number("ci_high", low=-1.0, high=1.0),
            p_value=r.number("p_value", high=1.0), p_holm=r.number("p_holm", high=1.0),
            significant=r.flag("significant"),
        )
        out.append(_extras(row, base, r.where, alpha))
    return tuple(out)


def _retrieval(r: _Reader, configs: Sequence[ConfigRecord], n: int, documents: int) -> Retrieval:
    span_k = r.integer("span_k", low=1)
    doc_ids = tuple(_str(d, f"retrieval.document_ids[{i}]")
                    for i, d in enumerate(r.items("document_ids")))
    if len(doc_ids) != documents:
        raise ResultsFileError(f"retrieval.document_ids has {len(doc_ids)} ids but "
                               f"dataset.documents is {documents}")
    labels = [c.label for c in configs]
    offs_r = r.sub("chunk_offsets")
    tops_r = r.sub("topk")
    _labels_match(offs_r.data, labels, "retrieval.chunk_offsets")
    _labels_match(tops_r.data, labels, "retrieval.topk")
    offsets: dict[str, tuple[tuple[int, int, int], ...]] = {}
    topk: dict[str, tuple[tuple[int, ...], ...]] = {}
    for c in configs:
        where = offs_r.path(c.label)
        rows = offs_r.items(c.label)
        if len(rows) != c.chunks:
            raise ResultsFileError(f"{where} has {len(rows)} chunks but configs says {c.chunks}")
        parsed = []
        for i, o in enumerate(rows):
            if not (isinstance(o, list) and len(o) == 3):
                raise ResultsFileError(f"{where}[{i}] must be [document, start, end] "
                                       f"(got {_show(o)})")
            d, s, e = (_int(v, f"{where}[{i}]") for v in o)
            if d >= documents or s >= e:
                raise ResultsFileError(f"{where}[{i}] must have document < {documents} and "
                                       f"start < end (got {o})")
            parsed.append((d, s, e))
        offsets[c.label] = tuple(parsed)
        twhere = tops_r.path(c.label)
        trows = tops_r.items(c.label)
        if len(trows) != n:
            raise ResultsFileError(f"{twhere} has {len(trows)} rows for {n} questions")
        tparsed = []
        for i, t in enumerate(trows):
            if not isinstance(t, list) or len(t) > span_k:
                raise ResultsFileError(f"{twhere}[{i}] must be a list of at most {span_k} chunk "
                                       f"indices (got {_show(t)})")
            idx = tuple(_int(v, f"{twhere}[{i}]") for v in t)
            if any(v >= c.chunks for v in idx):
                raise ResultsFileError(f"{twhere}[{i}] names a chunk past the {c.chunks} chunks")
            tparsed.append(idx)
        topk[c.label] = tuple(tparsed)
    return Retrieval(span_k, doc_ids, dict(offsets), dict(topk))


# --------------------------------------------------------------------------- run ids


def settings_hash(settings: Mapping[str, Any]) -> str:
    """Eight hex digits of SHA-256 over the canonical JSON of ``settings``."""
    blob = json.dumps(settings, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:8]


def run_id(
    *,
    dataset: str,
    spec: str,
    backend: str,
    model: str,
    measure: str,
    sample: int,
    seed: int,
    configs: Sequence[Config],
    ks: Sequence[int],
    budget_chars: int,
    alpha: float,
    bootstrap: int,
    permutations: int,
    unit: str = "question",
    margins: Mapping[str, float] | None = None,
) -> str:
    """The file stem of a run: readable names, then a hash of everything that changes the result.

    ``jsquad-bm25-all-s0-1a2b3c4d``: dataset, backend, sample (``all`` or ``n500``), seed, and the
    hash of the dataset spec, backend and model, measure, grid (labels, strategies and
    parameters), the curves' cut-offs, the budget and the statistics settings (the unit of
    resampling and the equivalence margins included). Two runs that
    differ in any of them get different ids; two runs of the same inputs get the same id.
    """
    settings = {
        "schema_version": SCHEMA_VERSION, "spec": spec, "backend": backend, "model": model,
        "measure": measure, "sample": sample, "seed": seed,
        "grid": [c.as_dict() for c in configs], "ks": list(ks), "budget_chars": budget_chars,
        "alpha": alpha, "bootstrap": bootstrap, "permutations": permutations,
        "unit": unit, "margins": dict(sorted((margins or {}).items())),
    }
    # Cut: a document's name may be 244 characters, and the file name must fit NAME_MAX with
    # room to spare (``check_writable`` proves a name of ``MAX_RUN_ID`` characters fits).
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{dataset}-{backend}").strip("_")[:_MAX_SLUG]
    return f"{slug}-{'all' if sample == 0 else f'n{sample}'}-s{seed}-{settings_hash(settings)}"


# --------------------------------------------------------------------------- files


_MAX_SLUG = 80
#: Longest run id: the slug, ``-n<sample>-s<seed>-`` and the hash.
MAX_RUN_ID = _MAX_SLUG + len("-n10000000-s4294967295-") + 16


def check_writable(out_dir: str | Path, option: str = "--out") -> Path:
    """Create ``out_dir`` if needed and prove a file can be written there (before any work).

    Args:
        out_dir: The folder.
        option: What to call it in the message (``--out``, ``CHUNKVIZ_CACHE_DIR``).

    Raises:
        ResultsFileError: The folder cannot be created or written.
    """
    folder = Path(out_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # A name as long as the longest run id: a folder whose path leaves no room for the file
        # is refused now, not after the run.
        prefix = ".chunkviz-write-test-".ljust(MAX_RUN_ID, "x")
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".json")
        os.close(fd)
        Path(tmp).unlink()
    except OSError as exc:
        raise ResultsFileError(
            f"{option} {shown_path(folder)} cannot be written ({exc.strerror or exc}); choose a "
            "writable folder with a shorter path"
        ) from None
    return folder


def check_cache_writable(cache_dir: str | Path | None, kind: str) -> None:
    """Prove the embedding cache writable before a run that encodes (a lexical one does not).

    Args:
        cache_dir: ``--cache-dir``, or None for the default (``$CHUNKVIZ_CACHE_DIR``'s).
        kind: The backend's kind (``lexical``, ``dense``, ...).

    Raises:
        ResultsFileError: The folder cannot be created or written; the message names where
            it came from (``--cache-dir`` or the environment variable).
    """
    if kind == "lexical":
        return
    from chunkviz.retrieval.cache import ENV_VAR, default_cache_dir

    check_writable(cache_dir or default_cache_dir(), "--cache-dir" if cache_dir else
                   f"the embedding cache (${ENV_VAR}/embeddings)")


def _comparable(results: Results) -> dict[str, Any]:
    data = results.to_dict()
    for key in VOLATILE:
        data.pop(key, None)
    for c in data["configs"]:
        c.pop("encode_seconds")
    return data


def save_results(results: Results, out_dir: str | Path) -> Path:
    """Write ``out_dir/<run_id>.json`` atomically; returns the path.

    A file already there is replaced only when it holds the same run (equal apart from the
    clock, the machine and the measured times).

    Raises:
        ResultsFileError: The folder cannot be written, or a file with this id holds other
            contents (unreadable, or another run).
    """
    folder = check_writable(out_dir)
    path = folder / f"{results.run_id}.json"
    if path.exists():
        try:
            old = load_results(path)
        except ResultsFileError as exc:
            raise ResultsFileError(f"{path} exists and is not this run ({exc}); move it away or "
                                   "choose another --out") from None
        if _comparable(old) != _comparable(results):
            raise ResultsFileError(f"{path} exists and holds another run with the same id; move "
                                   "it away or choose another --out")
    atomic_write_bytes(path, results.to_json().encode("utf-8"))
    return path


def load_results(path: str | Path) -> Results:
    """Read and check a results file.

    Raises:
        ResultsFileError: Missing, not JSON, not a chunkviz results file, another version, or a
            field that breaks its rule (the message names it).
    """
    p = Path(path)
    if not p.exists():
        raise ResultsFileError(f"results file {p} does not exist")
    raw = read_file_bytes(p, error=ResultsFileError)
    return Results.from_json(raw, f"results file {p}")


@dataclass(frozen=True, slots=True)
class Listed:
    """One ``*.json`` file of a results folder.

    Attributes:
        path: The file.
        results: The run (None when unreadable).
        error: Why it cannot be used ("" when readable).
    """

    path: Path
    results: Results | None
    error: str


def list_results(dirs: Iterable[str | Path]) -> list[Listed]:
    """Every ``*.json`` file in ``dirs`` (missing folders skipped), readable or with its reason.

    One damaged file is listed with its error; the others are read as usual.
    """
    out = []
    for d in dirs:
        folder = Path(d)
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.json")):
            try:
                out.append(Listed(path, load_results(path), ""))
            except ResultsFileError as exc:
                out.append(Listed(path, None, str(exc)))
    return out
