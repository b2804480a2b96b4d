"""The JSON documents of ``--format json``, declared once as structs; their schema is generated.

``chunkviz bench --format json`` writes the results file itself (``chunkviz.benchmark``,
``docs/results-schema.json``); ``chunkviz tune --format json`` writes a ``TuneReport``
(``chunkviz.tune``): the pick, why, and every configuration's quality and costs, with the run id
of the results behind it. ``docs/cli-schema.json`` is ``cli_json_schema()`` (a test keeps the two
equal, and validates the commands' output against it): regenerate it with
``python -m chunkviz schema --cli --out docs/cli-schema.json``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

from chunkviz.eval.results_schema import ResultsFile

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


class TuneConfig(Struct, frozen=True, kw_only=True):
    """One configuration's quality (mean Recall@5 with its 95% interval) and costs."""

    label: str
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


class TuneFallback(Struct, frozen=True, kw_only=True):
    """The label-free ranking used when the questions cannot rank the configurations."""

    reason: Literal["saturated", "unstable"]
    ranking: tuple[str, ...]
    budget_chars: Count


class TuneStability(Struct, frozen=True, kw_only=True):
    """How often the rule's pick stayed the pick over resamples of the questions."""

    kept: Count
    resamples: Count
    share: Share


class TuneReport(Struct, frozen=True, kw_only=True, tag_field="schema", tag=TUNE_SCHEMA):
    """``chunkviz tune --format json``: the recommendation and the measurements behind it."""

    schema_version: Literal[1]
    document: TunedDocument
    #: The metric judged (``recall@5``).
    metric: str
    #: The configuration recommended (the fallback's first when there is a fallback).
    pick: str
    #: The decision rule's pick and how it decided (``equivalent`` or ``best``).
    rule_pick: str
    rule: str
    #: The configuration with the highest mean, and the equivalence margin.
    best: str
    delta: Annotated[float, Meta(gt=0)]
    questions: TuneQuestions
    #: Probe spans drawn from the document (0: none).
    probes: Count
    configs: tuple[TuneConfig, ...]
    stability: TuneStability | None = None
    fallback: TuneFallback | None = None
    #: The id of the results file of the run (``chunkviz tune --out`` writes it).
    run_id: str


def tune_report(result: TuneResult) -> TuneReport:
    """The JSON document of a tune run (``chunkviz.tune``)."""
    rec = result.recommendation
    source = result.results.questions_source
    stability = result.stability
    fallback = result.fallback
    return TuneReport(
        schema_version=TUNE_VERSION,
        document=TunedDocument(doc_id=result.document.doc_id,
                               title=result.document.title,
                               chars=len(result.document.text)),
        metric=rec.metric, pick=result.pick, rule_pick=rec.pick, rule=rec.rule, best=rec.best,
        delta=rec.delta,
        questions=TuneQuestions(own=source.own if source else 0,
                                synthetic=source.synthetic if source else 0,
                                form=source.form if source else ""),
        probes=result.probes,
        configs=tuple(
            TuneConfig(label=p.label, quality=p.quality, ci_low=p.ci_low, ci_high=p.ci_high,
                       chunks=p.chunks, index_bytes=p.index_bytes,
                       context_chars=p.context_chars, context_tokens=p.context_tokens,
                       probes_cut=p.probes_cut, broken=p.broken, front=p.front)
            for p in result.points),
        stability=None if stability is None else TuneStability(
            kept=stability.kept, resamples=stability.resamples, share=stability.share),
        fallback=None if fallback is None else TuneFallback(
            reason=fallback.reason, ranking=fallback.ranking, budget_chars=fallback.budget_chars),
        run_id=result.results.run_id,
    )


def to_json(document: TuneReport) -> str:
    """The document as indented JSON, UTF-8 characters as they are, keys in the struct's order."""
    return msgspec.json.format(msgspec.json.encode(document), indent=2).decode("utf-8")


def cli_json_schema() -> dict[str, Any]:
    """The JSON Schema of every ``--format json`` document that carries a ``schema`` tag.

    ``$defs`` holds each document's type; the top level accepts any one of them (their
    ``schema`` field tells them apart: ``chunkviz.benchmark`` for ``bench``, ``chunkviz.tune``
    for ``tune``).
    """
    (bench, tune), defs = msgspec.json.schema_components((ResultsFile, TuneReport),
                                                          ref_template="#/$defs/{name}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "chunkviz --format json documents",
        "anyOf": [bench, tune],
        "$defs": defs,
    }
