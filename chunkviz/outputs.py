"""The JSON documents of ``--format json``, declared as structs; their schema is generated.

``chunkviz bench --format json`` writes the results file itself (``chunkviz.benchmark``,
``docs/results-schema.json``); ``chunkviz tune --format json`` writes a ``TuneReport``
(``chunkviz.tune``): the pick, why, and every configuration's quality and costs, with the run id
of the results behind it. ``chunk``, ``audit`` and ``lost`` keep the documents they wrote before
(Explore's export, ``align.report_dict``, ``LostRow.as_dict``), described here by
``ChunkExport``, ``AuditReport`` and ``LostRowOut``; unknown fields are refused, so a field added
to one of them without its struct fails the schema test.

``docs/cli-schema.json`` is ``cli_json_schema()`` (a test keeps the two equal, and validates each
command's output against it): regenerate it with
``python -m chunkviz schema --cli --out docs/cli-schema.json``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

from chunkviz.eval.align import Match
from chunkviz.eval.results_schema import Results, dedent_descriptions

if TYPE_CHECKING:
    from chunkviz.eval.tune import TuneResult

TUNE_SCHEMA = "chunkviz.tune"
TUNE_VERSION: Literal[1] = 1

Count = Annotated[int, Meta(ge=0)]
Share = Annotated[float, Meta(ge=0, le=1)]


class TunedDocument(Struct, frozen=True, kw_only=True):
    """The document tuned: its id (``content_id`` of the text), title and length in characters."""

    doc_id: str
    title: str
    chars: Count


class TuneQuestions(Struct, frozen=True, kw_only=True):
    """Whose questions ranked the configurations: the user's own, synthetic ones, or both."""

    own: Count
    synthetic: Count
    form: str = ""
    #: Synthetic questions asked for (made: ``synthetic``; fewer when the document has fewer
    #: key phrases a question can be asked about).
    asked: Count = 0


class TuneConfig(Struct, frozen=True, kw_only=True):
    """One configuration: Recall at the budget and at 5 with 95% intervals, and its costs."""

    label: str
    #: Mean recall at the context budget (the decision's metric) and its interval.
    budget_quality: Share
    budget_ci_low: Share
    budget_ci_high: Share
    #: Whether it can be retrieved at the budget at all (never recommended otherwise).
    eligible: bool
    #: Mean Recall@5 (equal k, the second view) and its interval.
    quality: Share
    ci_low: Share
    ci_high: Share
    chunks: Count
    index_bytes: Count
    #: Characters sent to a generator at top-5.
    context_chars: Annotated[float, Meta(ge=0)]
    context_tokens: Annotated[float, Meta(ge=0)]
    #: Probe spans (key phrases of the document) that no chunk holds whole.
    probes_cut: Count
    #: Questions whose answer no chunk holds whole (lost before retrieval).
    broken: Count
    #: The costs on whose Pareto front the configuration lies.
    front: tuple[Literal["index_bytes", "context_chars"], ...]


class TuneStability(Struct, frozen=True, kw_only=True):
    """How often the rule's pick stayed the pick over resamples of the questions."""

    kept: Count
    resamples: Count
    share: Share


class TuneReport(Struct, frozen=True, kw_only=True, tag_field="schema", tag=TUNE_SCHEMA):
    """``chunkviz tune --format json``: the recommendation and the measurements behind it."""

    schema_version: Literal[1]
    document: TunedDocument
    #: The metric judged (``recall@budget``: recall at the context budget).
    metric: str
    #: The context budget the decision is made at, in characters.
    budget_chars: Count
    #: The configuration recommended, and how the rule decided (``equivalent`` or ``best``).
    pick: str
    rule: str
    #: What named the pick: the document-blind prior, the questions overruling it, or none.
    driver: Literal["prior", "questions", "none"]
    #: The prior's own pick ("" without a prior).
    prior_pick: str
    #: The best by the rule, and the equivalence margin.
    best: str
    delta: Annotated[float, Meta(gt=0)]
    #: Configurations that cannot be retrieved at the budget.
    ineligible: tuple[str, ...]
    #: The rule's best at equal k (``recall@5``), a second view that never decides.
    at_k_best: str
    questions: TuneQuestions
    #: Probe spans drawn from the document (0: none).
    probes: Count
    configs: tuple[TuneConfig, ...]
    stability: TuneStability | None = None
    #: The id of the results file of the run (``chunkviz tune --out`` writes it).
    run_id: str


class ExportedDocument(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What an Explore export says about its document (``views.export.document_info``)."""

    name: str
    id: str
    origin: str
    chars: Count
    questions: Count


class ChunkRecord(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One chunk: its offsets into the text, its length in code points and its text."""

    index: Count
    start: Count
    end: Count
    length: Count
    text: str
    #: Context embedded with the chunk that is not part of its offsets (a heading breadcrumb).
    prefix: str = ""
    #: The parent chunk's index, for hierarchical strategies.
    parent: Count | None = None
    #: With questions: the ids whose answer the chunk holds whole, and those it cuts.
    answers_contained: tuple[str, ...] = ()
    answers_broken: tuple[str, ...] = ()


class QuestionRecord(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A question of an Explore export, with the chunks that hold or cut its answer."""

    id: str
    question: str
    answer: str
    status: str
    in_chunks: tuple[Count, ...]
    cut_by_chunks: tuple[Count, ...]


class ChunkExport(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``chunkviz chunk --format json`` (and Explore's JSON download): a chunking."""

    strategy: str
    params: dict[str, Any]
    chunks: tuple[ChunkRecord, ...]
    document: ExportedDocument | None = None
    questions: tuple[QuestionRecord, ...] = ()


class NotAsIs(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A chunk whose text is not in the document as it is (``match`` says how it aligned)."""

    index: Count
    match: Match
    start: Count | None
    end: Count | None
    matched_chars: Count


class WrongClaim(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A chunk whose claimed start index is not where its text is."""

    index: Count
    claimed_start: int
    start: Count | None


class Uncovered(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Text of the document that no chunk holds."""

    start: Count
    end: Count
    text: str


class AuditReport(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``chunkviz audit --format json``: another library's chunks aligned to the document."""

    format: str
    chunks: Count
    aligned: Count
    not_as_is: tuple[NotAsIs, ...]
    wrong_claims: tuple[WrongClaim, ...]
    uncovered: tuple[Uncovered, ...]
    nested: tuple[Count, ...]
    unsearched: Count
    #: ``[start, end]`` per chunk; ``[null, null]`` for a chunk that could not be aligned.
    offsets: tuple[tuple[Count | None, Count | None], ...]


class LostRowOut(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One configuration of ``chunkviz lost --format json`` (a list of these)."""

    config: str
    chunks: Count
    predicted_chunks: Count | None
    questions: Count
    broken: Count
    share: Share
    broken_ids: tuple[str, ...]


def tune_report(result: TuneResult) -> TuneReport:
    """The JSON document of a tune run (``chunkviz.tune``)."""
    rec = result.recommendation
    source = result.results.questions_source
    stability = result.stability
    at_k = result.at_k
    return TuneReport(
        schema_version=TUNE_VERSION,
        document=TunedDocument(
            doc_id=result.document.doc_id,
            title=result.document.title,
            chars=len(result.document.text),
        ),
        metric=rec.metric,
        budget_chars=result.budget,
        pick=result.pick,
        rule=rec.rule,
        driver=rec.driver,
        prior_pick=rec.prior_pick,
        best=rec.best,
        delta=rec.delta,
        ineligible=rec.ineligible,
        at_k_best=at_k.best if at_k is not None else "",
        questions=TuneQuestions(
            own=source.own if source else 0,
            synthetic=source.synthetic if source else 0,
            form=source.form if source else "",
            asked=result.asked,
        ),
        probes=result.probes,
        configs=tuple(
            TuneConfig(
                label=p.label,
                budget_quality=rec.option(p.label).mean,
                budget_ci_low=rec.option(p.label).ci_low,
                budget_ci_high=rec.option(p.label).ci_high,
                eligible=rec.option(p.label).eligible,
                quality=p.quality,
                ci_low=p.ci_low,
                ci_high=p.ci_high,
                chunks=p.chunks,
                index_bytes=p.index_bytes,
                context_chars=p.context_chars,
                context_tokens=p.context_tokens,
                probes_cut=p.probes_cut,
                broken=p.broken,
                front=p.front,
            )
            for p in result.points
        ),
        stability=None
        if stability is None
        else TuneStability(
            kept=stability.kept, resamples=stability.resamples, share=stability.share
        ),
        run_id=result.results.run_id,
    )


def to_json(document: TuneReport) -> str:
    """The document as indented JSON, UTF-8 characters as they are, keys in the struct's order."""
    return msgspec.json.format(msgspec.json.encode(document), indent=2).decode("utf-8")


#: The document each command's ``--format json`` writes.
COMMAND_DOCUMENTS: dict[str, Any] = {
    "bench": Results,
    "tune": TuneReport,
    "chunk": ChunkExport,
    "audit": AuditReport,
    "lost": list[LostRowOut],
}


def cli_json_schema() -> dict[str, Any]:
    """The JSON Schema of every ``--format json`` document.

    ``$defs`` holds the types; ``x-commands`` maps each command to its document's schema, and
    the top level accepts any one of them (``bench``'s and ``tune``'s carry a ``schema`` tag:
    ``chunkviz.benchmark``, ``chunkviz.tune``).
    """
    schemas, defs = msgspec.json.schema_components(
        tuple(COMMAND_DOCUMENTS.values()), ref_template="#/$defs/{name}"
    )
    dedent_descriptions(defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "chunkviz --format json documents",
        "anyOf": schemas,
        "x-commands": dict(zip(COMMAND_DOCUMENTS, schemas, strict=True)),
        "$defs": defs,
    }
