"""The results file of a benchmark run, declared once as msgspec structs.

Every field's type and bound lives here (a pairwise row's in ``chunkviz.eval.pairwise``):
``msgspec.json.decode`` checks them while it reads (``chunkviz.eval.results_checks`` adds the
rules between fields that a type cannot say; ``chunkviz.eval.results`` reads and writes files),
``msgspec.json.encode`` writes them, ``results_json_schema`` is the JSON Schema generated from
them (``docs/results-schema.json``), and ``docs/results-schema.md`` documents each field
(a test holds the two together).

The records are frozen and built by keyword; change one with ``msgspec.structs.replace``.
Fields equal to their default are not written (``omit_defaults``), so a file of schema version 2
is written back without the fields version 3 added, and an optional field reads as its default.

A pairwise row is one record in the code and in the file,
``chunkviz.eval.pairwise.PairwiseResult``: the statistics build it and the file holds it as it
is. It is written whole, so a row of a version-2 file (its first nine fields) is written back
with the other fields at their defaults.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Literal, TypeAlias

import msgspec
import numpy as np
from msgspec import Meta, Struct, field

from chunkviz.eval.grid import Config
from chunkviz.eval.measures import key_values, parse_key
from chunkviz.eval.pairwise import (
    Count,
    Name,
    NonNegative,
    PairwiseResult,
    Probability,
    Unit,
)
from chunkviz.eval.stats import Estimate
from chunkviz.limits import (
    MAX_BUDGET_CHARS,
    MAX_GRID_CONFIGS,
    MAX_K,
    MAX_KS,
    MAX_RESAMPLES,
    MIN_BUDGET_CHARS,
)
from chunkviz.retrieval.headers import CONTEXT_MODES

SCHEMA = "chunkviz.benchmark"
SCHEMA_VERSION: Literal[4] = 4
#: Versions this chunkviz reads. Version 2 lacks the paired tests at the equal budget, each
#: pair's standard error, detectable margin and saturation, and the chunks' mean tokens: those
#: read as absent (the page computes the budget's tests from the ranks, and says where a
#: detectable margin is unknown). Versions 2 and 3 filled the budget with a whole number of
#: chunks (``round(budget / mean chunk length)``); from version 4 ``budget.k`` is fractional
#: (``metrics.budget_k``), so their budget sections are recomputed from the ranks when read.
READABLE_VERSIONS = (2, 3, 4)
SchemaVersion = Literal[2, 3, 4]
#: The first version that records tokens (``mean_chunk_tokens``, ``budget.tokenizer``) and the
#: paired tests at the budget.
TOKENS_VERSION = 3
#: The first version whose budget section uses the fractional k of ``metrics.budget_k``.
FRACTIONAL_BUDGET_VERSION = 4

# The bounds, named once (those of a pairwise row in ``chunkviz.eval.pairwise``).
Positive = Annotated[int, Meta(ge=1)]
Seconds = Annotated[float, Meta(ge=0)]
#: A fractional number of chunks (``budget.k``).
ChunkCount = Annotated[float, Meta(gt=0)]
#: A file stem: safe in any folder on any system.
RunId = Annotated[str, Meta(min_length=1, pattern=r"^[A-Za-z0-9._-]+$")]
Rank = Annotated[int, Meta(ge=1)] | None
#: Bounds of the fields that drive work, shared with the CLI and the pages (chunkviz.limits).
Resamples = Annotated[int, Meta(ge=1, le=MAX_RESAMPLES)]
Cutoff = Annotated[int, Meta(ge=1, le=MAX_K)]
BudgetChars = Annotated[int, Meta(ge=MIN_BUDGET_CHARS, le=MAX_BUDGET_CHARS)]


class DatasetRecord(Struct, frozen=True, kw_only=True):
    """The question set of a run (``docs/results-schema.md``, ``dataset``)."""

    name: Name
    spec: Name
    documents: Count
    questions: Positive
    sample: Count
    seed: Count
    dropped: Count


class BackendRecord(Struct, omit_defaults=True, frozen=True, kw_only=True):
    """The retriever of a run; a hybrid's ``components`` are records of their own."""

    name: Name
    model: str
    kind: Literal["lexical", "dense", "hybrid"]
    measure: Name
    normalized: bool
    document_prefix: str
    query_prefix: str
    max_input_tokens: Positive | None
    components: tuple[BackendRecord, ...] = ()


class ConfigRecord(Struct, omit_defaults=True, frozen=True, kw_only=True):
    """One configuration of a run and what its index cost (``configs[]``)."""

    label: Name
    strategy: Name
    #: A strategy's parameters are scalars (``chunkviz.strategies.registry.ParamType``).
    params: Mapping[str, int | float | bool | str | None]
    chunks: Count
    predicted_chunks: Count | None
    broken: Count
    chars_embedded: Count
    index_bytes: Count
    dims: Count
    encode_seconds: Seconds
    mean_chunk_chars: NonNegative
    over_limit: Count
    #: Mean chunk length in tokens of ``budget.tokenizer``; None in files of schema version 2.
    mean_chunk_tokens: NonNegative | None = None
    #: A pattern rather than ``ContextMode``: ``Config.context`` is a plain string.
    context: Annotated[str, Meta(pattern=f"^({'|'.join(CONTEXT_MODES)})$")] = "none"
    #: Distinct chunk starts and ends inside the documents, summed (issue 38); None: not counted.
    cuts: Count | None = None
    #: Of ``cuts``, those inside a word (``chunkviz.text_boundaries.word_cut_counts``).
    words_cut: Count | None = None

    @property
    def config(self) -> Config:
        """The configuration itself."""
        return Config(self.label, self.strategy, dict(self.params), context=self.context)


class StatsSettings(Struct, omit_defaults=True, frozen=True, kw_only=True):
    """How intervals and tests were computed (``stats``).

    ``units`` 0 means a file written before the unit was recorded: its fields from ``unit`` on
    keep their defaults and are not written back.
    """

    alpha: Annotated[float, Meta(gt=0, lt=1)]
    bootstrap: Resamples
    permutations: Resamples
    seed: Count
    test: str
    ci: str
    correction: str
    ties: str
    unit: Unit = "question"
    units: Count = 0
    permutation_floor: Probability = 0.0
    equivalence: str = ""
    margins: Mapping[str, Annotated[float, Meta(gt=0)]] = field(default_factory=dict)


Estimates = Mapping[str, Mapping[str, Estimate]]


class Budget(Struct, omit_defaults=True, frozen=True, kw_only=True):
    """The equal-context-budget comparison (``budget``).

    ``pairwise`` and ``tokenizer`` are empty in files of schema version 2.
    """

    chars: BudgetChars
    #: Chunks that fill the budget, fractional from schema version 4 (``metrics.budget_k``).
    k: Mapping[str, ChunkCount]
    metrics: Estimates
    pairwise: tuple[PairwiseResult, ...] = ()
    tokenizer: str = ""


class NdcgAll(Struct, frozen=True, kw_only=True):
    """Every relevant chunk's place within ``k``, for nDCG over all relevant chunks."""

    k: Positive
    places: Mapping[str, tuple[tuple[Positive, ...], ...]]
    relevant_counts: Mapping[str, tuple[Count, ...]]


class Sensitivity(Struct, frozen=True, kw_only=True):
    """The pairwise tests again under alternative definitions (``sensitivity``)."""

    definitions: Mapping[str, str]
    ranks: Mapping[str, Mapping[str, tuple[Rank, ...]]]
    ndcg_all: NdcgAll
    pairwise: Mapping[str, tuple[PairwiseResult, ...]]


class Retrieval(Struct, frozen=True, kw_only=True):
    """Where the chunks are and what each question retrieved first (``retrieval``)."""

    span_k: Positive
    document_ids: tuple[str, ...]
    chunk_offsets: Mapping[str, tuple[tuple[Count, Count, Count], ...]]
    topk: Mapping[str, tuple[tuple[Count, ...], ...]]


class Timings(Struct, frozen=True, kw_only=True):
    """Where the run's time went (differs between runs of the same inputs)."""

    total_seconds: Seconds
    chunk_seconds: Seconds
    encode_seconds: Seconds
    encoded_texts: Count
    cache_hits: Count
    unique_texts: Count | None


QuestionsKind = Literal["own", "synthetic", "both"]
QUESTIONS_KINDS: tuple[QuestionsKind, ...] = ("own", "synthetic", "both")


class QuestionsSource(Struct, frozen=True, kw_only=True):
    """Where a run's questions came from, so every figure from synthetic ones can say so."""

    kind: QuestionsKind
    own: Count
    synthetic: Count
    form: str = ""
    seed: Count | None = None
    note: str = ""
    caveat: str = ""
    validation_rho: Annotated[float, Meta(ge=-1, le=1)] | None = None
    validation: str = ""

    @property
    def is_synthetic(self) -> bool:
        """Whether any figure of the run rests on synthetic questions."""
        return self.synthetic > 0


class BenchmarkRun(
    Struct, omit_defaults=True, tag_field="schema", tag=SCHEMA, frozen=True, kw_only=True
):
    """A benchmark run, as its results file holds it (``docs/results-schema.md``).

    Fields in the file's order; ``schema`` (always ``chunkviz.benchmark``) is written first.
    """

    schema_version: SchemaVersion
    run_id: RunId
    created: str
    engine: Name
    dataset: DatasetRecord
    backend: BackendRecord
    versions: Mapping[str, str]
    ks: Annotated[tuple[Cutoff, ...], Meta(max_length=MAX_KS)]
    configs: Annotated[tuple[ConfigRecord, ...], Meta(min_length=1, max_length=MAX_GRID_CONFIGS)]
    question_ids: tuple[Name, ...]
    ranks: Mapping[str, tuple[Rank, ...]]
    metrics: Estimates
    budget: Budget
    pairwise: tuple[PairwiseResult, ...]
    stats: StatsSettings
    retrieval: Retrieval
    #: Per question, its document id (the clusters of document-level inference).
    question_docs: tuple[Name, ...] = ()
    #: Per question, its type and its answer's type as the dataset labels them (JaQuAD); empty
    #: (and not written) when the dataset labels none, "" for an unlabelled question.
    question_types: tuple[str, ...] = ()
    answer_types: tuple[str, ...] = ()
    questions_source: QuestionsSource | None = None
    sensitivity: Sensitivity | None = None
    timings: Timings

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

    def metric_k(self, label: str, key: str) -> float:
        """The cut-off of a metric key for a configuration (``budget`` reads ``budget.k``)."""
        parsed = parse_key(key)
        return self.budget.k[label] if parsed.at_budget else parsed.cutoff

    def values(self, label: str, key: str) -> np.ndarray:
        """Per-question values of a rank metric (``ndcg@10``, ``recall@budget``) from the ranks.

        A key at the budget is scored at the file's ``budget.k`` of ``label``.
        """
        return key_values(key, self.ranks[label], self.budget.k[label])

    def recompute(self, label: str, key: str) -> float:
        """Mean of a rank metric (``ndcg@10``, ``recall@budget``) recomputed from the ranks."""
        return float(self.values(label, key).mean())

    def to_json(self) -> str:
        """The file's text: compact JSON, UTF-8 characters as they are.

        What ``save_results`` writes and ``chunkviz bench --format json`` prints
        (``docs/results-schema.json``).
        """
        return msgspec.json.encode(self, enc_hook=_plain).decode("utf-8")


#: A run, as the code uses it and as its file holds it.
Results: TypeAlias = BenchmarkRun


def _plain(obj: Any) -> Any:
    """What msgspec does not write itself, as the dict or number it is.

    Read-only mappings (``Config.params``) and numpy numbers (a statistic numpy computed).
    """
    if isinstance(obj, Mapping):
        return dict(obj)
    if isinstance(obj, np.generic):
        return obj.item()
    raise NotImplementedError(f"{type(obj).__name__} has no place in a results file")


@cache
def results_json_schema() -> dict[str, Any]:
    """The JSON Schema of the results file, generated from the structs (do not change it)."""
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "chunkviz benchmark results file",
        **msgspec.json.schema(Results),
    }
    dedent_descriptions(schema.get("$defs", {}))
    return schema


def dedent_descriptions(defs: Mapping[str, dict[str, Any]]) -> None:
    """Dedent the structs' docstrings in a JSON Schema's ``$defs``, in place.

    msgspec 0.23 dedents them and 0.22 does not: so that every msgspec the project allows
    generates the same committed schemas (``docs/results-schema.json``, ``docs/cli-schema.json``).
    """
    for definition in defs.values():
        if "description" in definition:
            definition["description"] = inspect.cleandoc(definition["description"])
