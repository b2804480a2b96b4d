"""Tune: from one document to a recommended configuration, with or without labels.

``tune`` runs the project's one benchmark runner (``chunkviz.eval.runner.run_benchmark``) on a
single document over a grid (``tune_grid``: 16 configurations by default), with the user's own
question/answer pairs, synthetic questions (``chunkviz.eval.synthetic``), or both; counts the
probe spans each configuration cuts (``chunkviz.eval.probes``, through ``chunkviz.eval.lost``);
draws the Pareto front of quality against index size and against context at top-k; and names a
recommendation through the one decision rule (``chunkviz.eval.verdict.choose`` ->
``chunkviz.eval.decision.recommend``), exactly as the Benchmark page does for any results file:
the configuration sending the least context among those shown equivalent to the best on
``METRIC``, else the best itself with the cheaper alternatives priced. Comparisons the questions
cannot separate are *saturated*, never equivalent.

The recommendation holds values; ``reason_text`` renders it through the text catalogues
(``chunkviz.views.verdict``): the page in its language, the CLI (``python -m chunkviz tune``,
through ``format_tune``) in English, so both state the same recommendation for the same inputs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import msgspec

from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.document import content_id
from chunkviz.errors import ParameterError
from chunkviz.eval.decision import Choice, context_cost, default_margin
from chunkviz.eval.engine import Progress
from chunkviz.eval.grid import Config, fixed_config
from chunkviz.eval.lost import LostRow, lost_table
from chunkviz.eval.metrics import display_name
from chunkviz.eval.probes import DEFAULT_METHOD, lost_sentence, probe_dataset
from chunkviz.eval.probes import VALIDATION_NOTE as PROBE_VALIDATION
from chunkviz.eval.results import QuestionsSource, Results
from chunkviz.eval.runner import run_benchmark
from chunkviz.eval.synthetic import (
    DEFAULT_FORM,
    VALIDATION_ARTICLES,
    VALIDATION_MIN,
    Form,
    synthetic_dataset,
    synthetic_record,
)
from chunkviz.eval.verdict import choose
from chunkviz.retrieval.backends import get_backend
from chunkviz.retrieval.base import Backend
from chunkviz.text import Lang, text

METRIC = "recall@5"
METRIC_NAME = display_name(METRIC)
TOP_K = 5
Cost = Literal["index_bytes", "context_chars"]
COSTS: tuple[Cost, ...] = ("index_bytes", "context_chars")


def tune_grid() -> tuple[Config, ...]:
    """The default grid: 16 configurations.

    Fixed windows of 100/200/400/800 characters and recursive separators of 200/400/800, each
    with 0% and 20% overlap, plus sentences packed to 400 characters and natural paragraphs.
    """
    configs: list[Config] = []
    for size in (100, 200, 400, 800):
        configs += [fixed_config(size, 0), fixed_config(size, size // 5)]
    for size in (200, 400, 800):
        for overlap in (0, size // 5):
            configs.append(Config(f"recursive-{size}-{overlap}", "recursive",
                                  {"size": size, "overlap": overlap}))
    configs.append(Config("sentence-400", "sentence", {"size": 400}))
    configs.append(Config("paragraph", "paragraph", {}))
    return tuple(configs)


@dataclass(frozen=True, slots=True)
class TunePoint:
    """One configuration's quality and costs.

    Attributes:
        label: The configuration.
        quality: Mean ``METRIC`` over the questions.
        ci_low: Lower bound of its 95% bootstrap interval.
        ci_high: Upper bound.
        chunks: Chunks in the index.
        index_bytes: Size of the index.
        context_chars: Characters handed to a generator at top-``TOP_K`` (``TOP_K`` times the
            mean chunk length, at most every chunk: ``decision.context_cost``).
        context_tokens: The same in tokens of the backend's context tokenizer.
        probes_cut: Probe spans no chunk holds whole.
        broken: Questions whose answer no chunk holds whole (lost before retrieval).
        front: The costs on whose Pareto front the point lies.
    """

    label: str
    quality: float
    ci_low: float
    ci_high: float
    chunks: int
    index_bytes: int
    context_chars: float
    context_tokens: float
    probes_cut: int
    broken: int = 0
    front: tuple[Cost, ...] = ()

    @property
    def whole_index_retrieved(self) -> bool:
        """At most ``TOP_K`` chunks: the top-k holds every chunk (Recall@k = 1 - lost share)."""
        return self.chunks <= TOP_K


@dataclass(frozen=True)
class TuneResult:
    """Everything ``tune`` computed.

    Attributes:
        document: The tuned document.
        results: The benchmark results (the runner's typed results file; its dataset name and
            spec say when the questions are synthetic).
        source: Whose questions they are: the synthetic record (``synthetic_record``: note,
            caveat, JSQuAD validation) plus ``label`` and ``own``, or the user's pairs.
        points: One per configuration, in grid order.
        recommendation: The decision at equal k (``TOP_K``) on ``METRIC``.
        probes: Probe spans counted.
        lost: The probe lost counts per configuration.
    """

    document: Document
    results: Results
    source: Mapping[str, Any]
    points: tuple[TunePoint, ...]
    recommendation: Choice
    probes: int
    lost: tuple[LostRow, ...] = field(default=())


def pareto_front(points: Sequence[TunePoint], cost: Cost) -> list[str]:
    """Labels of the points that no other point dominates, in increasing cost.

    A point dominates another with at most its cost and at least its quality, one strictly.
    """
    def c(p: TunePoint) -> float:
        return float(getattr(p, cost))

    front = [
        p for p in points
        if not any(
            c(q) <= c(p) and q.quality >= p.quality and (c(q) < c(p) or q.quality > p.quality)
            for q in points
        )
    ]
    return [p.label for p in sorted(front, key=lambda p: (c(p), -p.quality, p.label))]


def tune_points(results: Results, lost: Sequence[LostRow]) -> tuple[TunePoint, ...]:
    """Quality and costs per configuration, with the Pareto fronts marked."""
    cut = {r.config: r.broken for r in lost}
    points = []
    for c in results.configs:
        e = results.metrics[c.label][METRIC]
        cost = context_cost(k=TOP_K, chunks=c.chunks, mean_chunk_chars=c.mean_chunk_chars,
                            mean_chunk_tokens=c.mean_chunk_tokens, index_bytes=c.index_bytes)
        points.append(TunePoint(c.label, e.mean, e.ci_low, e.ci_high, c.chunks, c.index_bytes,
                                cost.chars, cost.tokens or 0.0, cut.get(c.label, 0), c.broken))
    fronts = {cost: set(pareto_front(points, cost)) for cost in COSTS}
    return tuple(
        replace(p, front=tuple(cost for cost in COSTS if p.label in fronts[cost])) for p in points
    )


def recommend(results: Results, margin: float | None = None,
              points: Sequence[TunePoint] = (), probes: int = 0) -> Choice:
    """The decision on ``METRIC`` at equal k (``chunkviz.eval.verdict.choose``).

    Ties at the top go to the configuration cutting the fewest probe spans (key phrases of the
    document, label-free), then to the least context: with few questions every configuration
    often finds every answer, and the smallest windows then lose the answers they cut on other
    questions (``bench/verdict_holdout.py``).

    Args:
        results: The tune run's results file.
        margin: The equivalence margin (default: ``default_margin(METRIC)``, the Benchmark
            page's default).
        points: The configurations' points (their probe cuts break ties).
        probes: How many probe spans the document has (0: none; ties then go to the fewest
            questions lost).

    Raises:
        ParameterError: A margin that is not positive.
    """
    delta = default_margin(METRIC) if margin is None else float(margin)
    if not delta > 0:
        raise ParameterError(f"margin must be positive (got margin={margin!r}); try 0.01")
    cut = ({p.label: p.probes_cut / probes for p in points} if probes and points else None)
    return choose(results, METRIC, "equal_k", delta, cut=cut)


def questions_source(source: Mapping[str, Any]) -> QuestionsSource:
    """The results file's record of where ``tune``'s questions came from (``source``)."""
    own = int(source.get("own", 0))
    if not source.get("synthetic"):
        return QuestionsSource(kind="own", own=own, synthetic=0)
    made = int(source["questions"])
    return QuestionsSource(
        kind="both" if own else "synthetic", own=own, synthetic=made, form=str(source["form"]),
        seed=int(source["seed"]), note=str(source["note"]), caveat=str(source["caveat"]),
        validation_rho=source.get("validation_rho"), validation=str(source["validation"]))


def reason_text(lang: Lang, result: TuneResult) -> str:
    """The recommendation's reason in ``lang`` (``chunkviz.views.verdict.choice_sentence``)."""
    from chunkviz.views.verdict import choice_sentence

    results = result.results
    return choice_sentence(lang, result.recommendation, budget_chars=results.budget.chars,
                           questions=len(results.question_ids), unit=results.stats.unit,
                           units=results.stats.units or len(results.question_ids)).strip()


def validation_text(lang: Lang, source: QuestionsSource, backend: str) -> str:
    """How well the kind of questions used ranks configurations (JSQuAD validation), in ``lang``.

    With synthetic questions the figure is the form's; the user's own pairs need none.
    """
    if not source.is_synthetic:
        return text(lang, "tune.validation_own", n=source.own)
    if source.validation_rho is None:
        return text(lang, "tune.validation_none", form=source.form, backend=backend)
    low = VALIDATION_MIN.get(source.form, {}).get(backend)
    return text(lang, "tune.validation", form=source.form, rho=f"{source.validation_rho:.2f}",
                low="–" if low is None else f"{low:.2f}", articles=VALIDATION_ARTICLES,
                backend=backend)


def provenance_lines(lang: Lang, source: QuestionsSource | None, backend: str) -> list[str]:
    """What is shown beside every figure of a run, in ``lang`` (none for a dataset's questions).

    Synthetic questions are labelled as such, with their seed, the caveat that cloze and
    keyword-style questions favour lexical retrieval, and the form's JSQuAD validation.
    """
    if source is None:
        return []
    check = validation_text(lang, source, backend)
    if not source.is_synthetic:
        return [check]
    if source.own:
        label = text(lang, "provenance.both", n=source.own + source.synthetic, own=source.own,
                     synthetic=source.synthetic, form=source.form, seed=source.seed)
    else:
        label = text(lang, "provenance.synthetic", n=source.synthetic, form=source.form,
                     seed=source.seed)
    return [label, text(lang, "tune.lexical"), check]


def with_margin(result: TuneResult, margin: float) -> TuneResult:
    """``result`` recommended again under the equivalence margin ``margin`` (no rerun)."""
    return replace(result, recommendation=recommend(result.results, margin, result.points,
                                                    result.probes))


def tune(
    document: Document,
    *,
    questions: Sequence[Question] = (),
    synthetic: int = 0,
    form: Form = DEFAULT_FORM,
    configs: Sequence[Config] | None = None,
    backend: Backend | str = "bm25",
    seed: int = 0,
    cache_dir: str | Path | None = None,
    progress: Progress | None = None,
    bootstrap: int = 1000,
    permutations: int = 2000,
    writer: Any = None,
    margin: float | None = None,
) -> TuneResult:
    """Benchmark ``configs`` on ``document`` and recommend one.

    Args:
        document: The document.
        questions: The user's own pairs, located in the document (may be empty).
        synthetic: How many synthetic questions to add (0: none); they are drawn from the
            document alone by ``form`` and reproducible by ``seed``.
        form: The synthetic question form.
        configs: The grid (default ``tune_grid()``).
        backend: A backend or its name.
        seed: Seed of the synthetic sample and of the statistics.
        cache_dir: Embedding cache folder.
        progress: ``callback(done, total, message)`` (a page's progress bar).
        bootstrap: Bootstrap resamples.
        permutations: Permutations per paired test.
        writer: For ``form="lm"``: the local language model that writes the questions
            (``chunkviz.lm.get_language_model("hf:<path>")``).
        margin: The equivalence margin of the recommendation (default: the Benchmark page's,
            ``default_margin(METRIC)``).

    Returns:
        The results, points, recommendation and probe counts.

    Raises:
        ParameterError: No questions at all (no pairs and ``synthetic`` 0, or a document with
            nothing to ask about), a negative ``synthetic`` or a margin that is not positive.
    """
    if synthetic < 0:
        raise ParameterError(f"synthetic must be 0 or positive (got synthetic={synthetic})")
    if margin is not None and not margin > 0:
        raise ParameterError(f"margin must be positive (got margin={margin!r}); try 0.01")
    grid = tuple(configs) if configs is not None else tune_grid()
    own = tuple(q for q in questions if q.doc_id == document.doc_id)
    made: tuple[Question, ...] = ()
    if synthetic:
        made = synthetic_dataset([document], form, n=synthetic, seed=seed,
                                 writer=writer).questions
    if not own and not made:
        raise ParameterError(
            "no questions to evaluate: give your own question/answer pairs (--qa) or ask for "
            "synthetic questions (--synthetic N)"
            + (f"; this document has no {form} question to make" if synthetic else "")
        )
    be = get_backend(backend) if isinstance(backend, str) else backend
    title = document.title or document.doc_id
    source: dict[str, Any]
    if made:
        record = synthetic_record(form, be.name, len(made), seed)
        source = {**record, "own": len(own)}
        # The results file records this (``questions_source``); the dataset name and spec say
        # it too, so a listing of results files shows it.
        name = f"{title} [{len(own)} own + {len(made)} synthetic {form} questions]"
        spec = f"tune:{title}:synthetic-{form}-{len(made)}-seed{seed}:own-{len(own)}"
    else:
        source = {"synthetic": False, "own": len(own)}
        name, spec = title, f"tune:{title}:own-{len(own)}"
    data = Dataset(name, (document,), own + made)
    results = run_benchmark(data, grid, be, seed=seed, cache_dir=cache_dir, spec=spec,
                            progress=progress, bootstrap=bootstrap, permutations=permutations)
    results = msgspec.structs.replace(results, questions_source=questions_source(source))
    probes = probe_dataset([document], method=DEFAULT_METHOD)
    lost = tuple(lost_table(probes, grid)) if probes.questions else ()
    points = tune_points(results, lost)
    rec = recommend(results, margin, points, len(probes.questions))
    return TuneResult(document, results, source, points, rec, len(probes.questions), lost)


def probe_lost(document: Document, configs: Sequence[Config] | None = None
               ) -> tuple[int, tuple[LostRow, ...]]:
    """Lost before retrieval with no questions: probes cut by each configuration.

    Returns:
        The number of probe spans of ``document`` and one ``LostRow`` per configuration.
    """
    grid = tuple(configs) if configs is not None else tune_grid()
    probes = probe_dataset([document], method=DEFAULT_METHOD)
    if not probes.questions:
        return 0, ()
    return len(probes.questions), tuple(lost_table(probes, grid))


def format_probe_lost(total: int, rows: Sequence[LostRow]) -> str:
    """``probe_lost`` as plain text: one sentence per configuration and the validation note."""
    if not total:
        return "no key phrases found in the document: nothing to count"
    lines = [f"{lost_sentence(r.config, r.broken, total)}" for r in rows]
    lines += [f"# {PROBE_VALIDATION}",
              "# retrieval was not measured (no questions); add --qa or --synthetic N"]
    return "\n".join(lines)


def format_tune(result: TuneResult) -> str:
    """The table, both Pareto fronts and the recommendation, as plain text.

    Each configuration's row says how it compares with the best (``worse``, ``inconclusive``,
    ``saturated``...), with the interval of the difference and its detectable margin.
    """
    from chunkviz.views.verdict import detectable_text, outcome_word

    source = result.source
    rec = result.recommendation
    versus = {v.label: v for v in rec.versus}
    lines = []
    if source.get("synthetic"):
        lines += [f"# {source['note']}", f"# {source['caveat']}", f"# {source['validation']}"]
    header = ("config", METRIC, "95% CI", "vs best", "difference CI", "detectable", "chunks",
              f"ctx chars@{TOP_K}", f"ctx tokens@{TOP_K}", "index bytes", "probes cut", "front")
    body = []
    for p in result.points:
        v = versus.get(p.label)
        body.append((
            p.label, f"{p.quality:.3f}", f"{p.ci_low:.3f}-{p.ci_high:.3f}",
            outcome_word("en", "best" if v is None else v.outcome),
            "-" if v is None else f"{v.ci_low:+.3f} to {v.ci_high:+.3f}",
            "-" if v is None else detectable_text(v.detectable), str(p.chunks),
            f"{p.context_chars:,.0f}", f"{p.context_tokens:,.0f}", f"{p.index_bytes:,}",
            f"{p.probes_cut}/{result.probes}",
            ",".join("size" if c == "index_bytes" else "context" for c in p.front) or "-"))
    widths = [max(len(r[i]) for r in (header, *body)) for i in range(len(header))]
    for row in (header, *body):
        lines.append("  ".join([row[0].ljust(widths[0])]
                               + [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]))
    questions = len(result.results.question_ids)
    for p in result.points:
        if p.whole_index_retrieved:
            # NOTE: every chunk is in the top k, so only answers cut by a chunk boundary miss:
            # the figure measures cutting, not retrieval (it is 1 only when nothing is cut).
            lines.append(f"# {p.label}: at most {TOP_K} chunks, so every chunk is retrieved; "
                         f"its {METRIC} ({p.quality:.3f}) only counts answers no chunk holds "
                         f"whole ({p.broken} of {questions} questions lost), not retrieval")
    for cost, name in (("index_bytes", "index size"), ("context_chars", "context characters")):
        front = pareto_front(result.points, cost)  # type: ignore[arg-type]
        lines.append(f"Pareto front ({METRIC} vs {name}): {' < '.join(front)}")
    lines += [f"Recommended: {rec.pick}", f"Why: {reason_text('en', result)}",
              validation_text("en", questions_source(source), result.results.backend.name)]
    cut = {row.config: row.broken for row in result.lost}
    if rec.pick in cut:
        sentence = lost_sentence(rec.pick, cut[rec.pick], result.probes)
        lines.append(f"Lost before retrieval: {sentence} ({PROBE_VALIDATION})")
    return "\n".join(lines)


def document_from_file(path: str | Path) -> Document:
    """The document of a file, read as the app reads an upload of it (``read_document``).

    Its id is ``content_id`` of the text, as an upload's is, so the same file gives the same
    synthetic questions, and so the same recommendation, here and in the app.
    """
    from chunkviz.extract import read_document

    p = Path(path)
    text = read_document(p).text
    return Document(content_id(text), p.name, text, origin="upload")


def qa_questions(path: str | Path, document: Document) -> tuple[Question, ...]:
    """The user's pairs from ``path``, located in ``document`` (see ``chunkviz.datasets``)."""
    from chunkviz.datasets.qa_pairs import locate_qa_pairs, read_qa_pairs

    located = locate_qa_pairs(read_qa_pairs(path), {document.doc_id: document.text},
                              name=Path(path).name).dataset
    return located.questions

