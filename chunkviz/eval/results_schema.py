"""The results file of a benchmark run, declared once as msgspec structs.

Every field's type and bound lives here, and only here: ``msgspec.json.decode`` checks them
while it reads (``chunkviz.eval.results_checks`` adds the rules between fields that a type
cannot say; ``chunkviz.eval.results`` reads and writes files), ``msgspec.json.encode`` writes
them, ``results_json_schema`` is the JSON Schema generated
from them (``docs/results-schema.json``), and ``docs/results-schema.md`` documents each field
(a test holds the two together).

The records are frozen and built by keyword; change one with ``msgspec.structs.replace``.
Fields equal to their default are not written (``omit_defaults``), so a file of schema version 2
is written back without the fields version 3 added, and an optional field reads as its default.

The pairwise rows are the one record with two forms: the statistics compute
``chunkviz.eval.stats.PairwiseResult`` (with ``eq_ci_low``/``eq_ci_high``, ``a_wins``/``b_wins``
and a computed ``outcome``), the file holds ``PairwiseRow`` (``eq_ci`` and ``wins`` as pairs, the
outcome and verdict written out). ``BenchmarkRun`` is generic over the row type:
``ResultsFile`` is the file as decoded, ``Results`` the run as the code uses it, and
``PairwiseRow.result`` / ``PairwiseRow.of`` convert one row, once.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from functools import cache
from typing import Annotated, Any, Generic, Literal, TypeAlias, TypeVar

import msgspec
import numpy as np
from msgspec import UNSET, Meta, Struct, UnsetType, field

from chunkviz.eval.decision import Outcome
from chunkviz.eval.grid import Config
from chunkviz.eval.measures import key_values, parse_key
from chunkviz.eval.stats import Estimate, PairwiseResult, Unit
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

# The bounds, named once.
Count = Annotated[int, Meta(ge=0)]
Positive = Annotated[int, Meta(ge=1)]
Seconds = Annotated[float, Meta(ge=0)]
#: A fractional number of chunks (``budget.k``).
ChunkCount = Annotated[float, Meta(gt=0)]
NonNegative = Annotated[float, Meta(ge=0)]
Probability = Annotated[float, Meta(ge=0, le=1)]
Difference = Annotated[float, Meta(ge=-1, le=1)]
Name = Annotated[str, Meta(min_length=1)]
#: A file stem: safe in any folder on any system.
RunId = Annotated[str, Meta(min_length=1, pattern=r"^[A-Za-z0-9._-]+$")]
Rank = Annotated[int, Meta(ge=1)] | None
#: Bounds of the fields that drive work, shared with the CLI and the pages (chunkviz.limits).
Resamples = Annotated[int, Meta(ge=1, le=MAX_RESAMPLES)]
Cutoff = Annotated[int, Meta(ge=1, le=MAX_K)]
BudgetChars = Annotated[int, Meta(ge=MIN_BUDGET_CHARS, le=MAX_BUDGET_CHARS)]

_T = TypeVar("_T")


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


class PairwiseRow(Struct, frozen=True, kw_only=True):
    """One paired test as the file holds it (``pairwise[]``); ``result`` is the computed form.

    Rows of files written before the inference fields existed hold only the first nine: the
    others are then ``UNSET`` (absent, and not written back), and read as their defaults.
    """

    metric: Name
    a: str
    b: str
    diff: Difference
    ci_low: Difference
    ci_high: Difference
    p_value: Probability
    p_holm: Probability
    significant: bool
    unit: Unit | UnsetType = UNSET
    p_bound: bool | UnsetType = UNSET
    p_holm_bound: bool | UnsetType = UNSET
    delta: Annotated[float, Meta(gt=0)] | None | UnsetType = UNSET
    p_equiv: Probability | None | UnsetType = UNSET
    p_equiv_holm: Probability | None | UnsetType = UNSET
    equivalent: bool | UnsetType = UNSET
    eq_ci: tuple[float, float] | None | UnsetType = UNSET
    wins: tuple[Count, Count] | None | UnsetType = UNSET
    se: NonNegative | None | UnsetType = UNSET
    detectable: NonNegative | None | UnsetType = UNSET
    saturated: bool | UnsetType = UNSET
    #: Written from the decision rule; a stored one must be the rule's (checked on reading).
    outcome: Outcome | UnsetType = UNSET
    verdict: str | UnsetType = UNSET

    def result(self) -> PairwiseResult:
        """The row as the statistics compute it (an untested pair: ``p_equiv`` 1, no interval)."""
        eq_ci = _or(self.eq_ci, None)
        wins = _or(self.wins, None)
        return PairwiseResult(
            metric=self.metric, a=self.a, b=self.b, diff=self.diff, ci_low=self.ci_low,
            ci_high=self.ci_high, p_value=self.p_value, p_holm=self.p_holm,
            significant=self.significant, unit=_or(self.unit, "question"),
            p_bound=_or(self.p_bound, False), p_holm_bound=_or(self.p_holm_bound, False),
            delta=_or(self.delta, None), p_equiv=_or(self.p_equiv, 1.0),
            p_equiv_holm=_or(self.p_equiv_holm, 1.0),
            equivalent=_or(self.equivalent, False),
            eq_ci_low=math.nan if eq_ci is None else eq_ci[0],
            eq_ci_high=math.nan if eq_ci is None else eq_ci[1],
            a_wins=None if wins is None else wins[0], b_wins=None if wins is None else wins[1],
            se=_or(self.se, None), detectable=_or(self.detectable, None),
            saturated=_or(self.saturated, False),
        )

    @classmethod
    def of(cls, p: PairwiseResult) -> PairwiseRow:
        """The file's row of a computed result.

        One read from a row of the first nine fields (question unit, no test, no wins) is
        written as such a row again.
        """
        base = cls(metric=p.metric, a=p.a, b=p.b, diff=p.diff, ci_low=p.ci_low,
                   ci_high=p.ci_high, p_value=p.p_value, p_holm=p.p_holm,
                   significant=p.significant)
        if (p.unit == "question" and p.delta is None and p.a_wins is None and not p.p_bound
                and not p.p_holm_bound):
            return base
        tested = p.delta is not None
        return msgspec.structs.replace(
            base, unit=p.unit, p_bound=p.p_bound, p_holm_bound=p.p_holm_bound, delta=p.delta,
            p_equiv=p.p_equiv if tested else None,
            p_equiv_holm=p.p_equiv_holm if tested else None, equivalent=p.equivalent,
            eq_ci=(p.eq_ci_low, p.eq_ci_high) if tested else None,
            wins=None if p.a_wins is None or p.b_wins is None else (p.a_wins, p.b_wins),
            se=p.se, detectable=p.detectable, saturated=p.saturated, outcome=p.outcome,
            verdict=p.verdict)


def _or(value: _T | None | UnsetType, default: _T) -> _T:
    """``value``, or ``default`` where the file holds null or nothing."""
    return default if value is None or isinstance(value, UnsetType) else value


#: The row type: ``PairwiseRow`` in the file, ``PairwiseResult`` in the code.
P = TypeVar("P", PairwiseRow, PairwiseResult)
Estimates = Mapping[str, Mapping[str, Estimate]]


class Budget(Struct, Generic[P], omit_defaults=True, frozen=True, kw_only=True):
    """The equal-context-budget comparison (``budget``).

    ``pairwise`` and ``tokenizer`` are empty in files of schema version 2.
    """

    chars: BudgetChars
    #: Chunks that fill the budget, fractional from schema version 4 (``metrics.budget_k``).
    k: Mapping[str, ChunkCount]
    metrics: Estimates
    pairwise: tuple[P, ...] = ()
    tokenizer: str = ""


class NdcgAll(Struct, frozen=True, kw_only=True):
    """Every relevant chunk's place within ``k``, for nDCG over all relevant chunks."""

    k: Positive
    places: Mapping[str, tuple[tuple[Positive, ...], ...]]
    relevant_counts: Mapping[str, tuple[Count, ...]]


class Sensitivity(Struct, Generic[P], frozen=True, kw_only=True):
    """The pairwise tests again under alternative definitions (``sensitivity``)."""

    definitions: Mapping[str, str]
    ranks: Mapping[str, Mapping[str, tuple[Rank, ...]]]
    ndcg_all: NdcgAll
    pairwise: Mapping[str, tuple[P, ...]]


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


class BenchmarkRun(Struct, Generic[P], omit_defaults=True, tag_field="schema", tag=SCHEMA,
                   frozen=True, kw_only=True):
    """A benchmark run, as its results file holds it (``docs/results-schema.md``).

    Use it as ``Results`` (rows computed) or ``ResultsFile`` (rows as written). Fields in the
    file's order; ``schema`` (always ``chunkviz.benchmark``) is written first.
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
    budget: Budget[P]
    pairwise: tuple[P, ...]
    stats: StatsSettings
    retrieval: Retrieval
    #: Per question, its document id (the clusters of document-level inference).
    question_docs: tuple[Name, ...] = ()
    #: Per question, its type and its answer's type as the dataset labels them (JaQuAD); empty
    #: (and not written) when the dataset labels none, "" for an unlabelled question.
    question_types: tuple[str, ...] = ()
    answer_types: tuple[str, ...] = ()
    questions_source: QuestionsSource | None = None
    sensitivity: Sensitivity[P] | None = None
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
        rows = to_file(self)  # type: ignore[arg-type]  # a run with its rows computed
        return msgspec.json.encode(rows, enc_hook=_plain).decode("utf-8")


#: A run as the code uses it: the pairwise rows computed.
Results: TypeAlias = BenchmarkRun[PairwiseResult]
#: A run as its file holds it.
ResultsFile: TypeAlias = BenchmarkRun[PairwiseRow]


def to_file(results: Results) -> ResultsFile:
    """The run with its rows as the file holds them."""
    return _with_rows(results, PairwiseRow.of)


def from_file(data: ResultsFile) -> Results:
    """The run with its rows computed (each row converted once)."""
    return _with_rows(data, PairwiseRow.result)


_Q = TypeVar("_Q", PairwiseRow, PairwiseResult)


def _plain(obj: Any) -> Any:
    """What msgspec does not write itself, as the dict or number it is.

    Read-only mappings (``Config.params``) and numpy numbers (a statistic numpy computed).
    """
    if isinstance(obj, Mapping):
        return dict(obj)
    if isinstance(obj, np.generic):
        return obj.item()
    raise NotImplementedError(f"{type(obj).__name__} has no place in a results file")


def _with_rows(run: BenchmarkRun[Any], row: Callable[[Any], _Q]) -> BenchmarkRun[_Q]:
    """``run`` with every pairwise row (equal k, budget, sensitivity) converted by ``row``."""
    budget, sens = run.budget, run.sensitivity
    return BenchmarkRun(
        **{f: getattr(run, f) for f in run.__struct_fields__
           if f not in ("budget", "pairwise", "sensitivity")},
        budget=Budget(chars=budget.chars, k=budget.k, metrics=budget.metrics,
                      pairwise=tuple(map(row, budget.pairwise)), tokenizer=budget.tokenizer),
        pairwise=tuple(map(row, run.pairwise)),
        sensitivity=None if sens is None else Sensitivity(
            definitions=sens.definitions, ranks=sens.ranks, ndcg_all=sens.ndcg_all,
            pairwise={n: tuple(map(row, rows)) for n, rows in sens.pairwise.items()}),
    )


@cache
def results_json_schema() -> dict[str, Any]:
    """The JSON Schema of the results file, generated from the structs (do not change it)."""
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "chunkviz benchmark results file",
        **msgspec.json.schema(ResultsFile),
    }
    # The structs' docstrings, dedented as msgspec 0.23 does (0.18-0.22 keep the indentation),
    # so that every msgspec the project allows generates the same schema.
    for definition in schema.get("$defs", {}).values():
        if "description" in definition:
            definition["description"] = inspect.cleandoc(definition["description"])
    return schema
