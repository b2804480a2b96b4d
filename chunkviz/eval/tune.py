"""Tune: from one document to a recommended configuration, at the reader's context budget.

``tune`` runs the project's one benchmark runner (``chunkviz.eval.runner.run_benchmark``) on a
single document over a grid (``tune_grid``: 16 configurations by default), with the user's own
question/answer pairs, synthetic questions (``chunkviz.eval.synthetic``), or both; counts the
probe spans each configuration cuts (``chunkviz.eval.probes``, through ``chunkviz.eval.lost``);
draws the Pareto front of quality against index size and against context at top-k; and names a
recommendation through the one decision rule (``chunkviz.eval.verdict.choose`` ->
``chunkviz.eval.decision.recommend``) **at a context budget** (default 2,000 characters): every
configuration retrieves the chunks that fill the budget, a configuration that cannot be retrieved
there (its chunk is the document, or its median chunk is longer than the budget) is never
picked, and what the questions cannot separate goes to the document-blind prior
(``chunkviz.eval.prior``: the mean real score at the budget over the bundled corpora), then to
fewer key phrases cut, then to the smaller index -- never to more context. The same decision at
equal k (``TOP_K``) is kept beside it as a second view; it never decides.

The recommendation says what drove it (``Choice.driver``: the prior, or the document's own
questions overruling it) and comes with its stability over resamples of the questions
(``chunkviz.eval.stability``). Everything here is values; the words are
``chunkviz.views.tune_report``'s (the page in its language, the CLI in English).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import msgspec

from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.document import content_id
from chunkviz.errors import ParameterError, shown
from chunkviz.eval.decision import DEFAULT_BUDGET_CHARS, Choice, context_cost, default_margin
from chunkviz.eval.engine import Progress
from chunkviz.eval.grid import Config, tune_grid
from chunkviz.eval.lost import LostRow, lost_table
from chunkviz.eval.prior import prior_means, shipped_prior
from chunkviz.eval.probes import DEFAULT_METHOD, probe_dataset
from chunkviz.eval.results import QuestionsSource, Results
from chunkviz.eval.runner import run_benchmark
from chunkviz.eval.stability import Stability, pick_stability
from chunkviz.eval.synthetic import (
    DEFAULT_FORM,
    Form,
    synthetic_dataset,
    synthetic_record,
)
from chunkviz.eval.verdict import choose
from chunkviz.limits import MAX_BUDGET_CHARS, MIN_BUDGET_CHARS
from chunkviz.retrieval.backends import get_backend
from chunkviz.retrieval.base import Backend

#: The metric the decision reads: its measure at the budget decides, at ``TOP_K`` it is the
#: second view.
METRIC = "recall@5"
TOP_K = 5
Cost = Literal["index_bytes", "context_chars"]
COSTS: tuple[Cost, ...] = ("index_bytes", "context_chars")


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
            caveat) plus ``label`` and ``own``, or the user's pairs.
        points: One per configuration, in grid order.
        recommendation: The decision at the context budget (``budget``).
        probes: Probe spans counted.
        lost: The probe lost counts per configuration.
        stability: How often the decision's pick stays the pick over resamples of the
            questions (None with fewer than two questions).
        at_k: The same decision at equal k (``TOP_K``): a second view that never decides.
        budget: The context budget in characters.
        prior_backend: The backend whose ranks the prior holds ("" without a prior).
        asked: Synthetic questions asked for.
        made: Synthetic questions made (fewer than asked when the document has fewer key
            phrases a question can be asked about: every one is then used).
    """

    document: Document
    results: Results
    source: Mapping[str, Any]
    points: tuple[TunePoint, ...]
    recommendation: Choice
    probes: int
    lost: tuple[LostRow, ...] = field(default=())
    stability: Stability | None = None
    at_k: Choice | None = None
    budget: int = DEFAULT_BUDGET_CHARS
    prior_backend: str = ""
    asked: int = 0
    made: int = 0

    @property
    def pick(self) -> str:
        """The configuration recommended (at the budget)."""
        return self.recommendation.pick


def pareto_front(points: Sequence[TunePoint], cost: Cost) -> list[str]:
    """Labels of the points that no other point dominates, in increasing cost.

    A point dominates another with at most its cost and at least its quality, one strictly.
    """

    def c(p: TunePoint) -> float:
        return float(getattr(p, cost))

    front = [
        p
        for p in points
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
        cost = context_cost(
            k=TOP_K,
            chunks=c.chunks,
            mean_chunk_chars=c.mean_chunk_chars,
            mean_chunk_tokens=c.mean_chunk_tokens,
            index_bytes=c.index_bytes,
        )
        points.append(
            TunePoint(
                c.label,
                e.mean,
                e.ci_low,
                e.ci_high,
                c.chunks,
                c.index_bytes,
                cost.chars,
                cost.tokens or 0.0,
                cut.get(c.label, 0),
                c.broken,
            )
        )
    fronts = {cost: set(pareto_front(points, cost)) for cost in COSTS}
    return tuple(
        replace(p, front=tuple(cost for cost in COSTS if p.label in fronts[cost])) for p in points
    )


def check_budget(budget: int) -> int:
    """The budget if Tune accepts it.

    Raises:
        ParameterError: A budget outside ``MIN_BUDGET_CHARS``..``MAX_BUDGET_CHARS``.
    """
    if not MIN_BUDGET_CHARS <= budget <= MAX_BUDGET_CHARS:
        raise ParameterError(
            "tune_budget",
            value=budget,
            min=MIN_BUDGET_CHARS,
            max=MAX_BUDGET_CHARS,
            default=DEFAULT_BUDGET_CHARS,
        )
    return budget


def recommend(
    results: Results,
    margin: float | None = None,
    points: Sequence[TunePoint] = (),
    probes: int = 0,
    *,
    budget: int | None = None,
) -> tuple[Choice, Choice]:
    """The decision at the context budget and, beside it, at equal k (``verdict.choose``).

    Ties the questions cannot break go to the document-blind prior (``chunkviz.eval.prior``),
    then to the configuration cutting the fewest probe spans (key phrases of the document,
    label-free), then to the smaller index (``decision.preference``).

    Args:
        results: The tune run's results file.
        margin: The equivalence margin (default: ``default_margin(METRIC)``, the Benchmark
            page's default).
        points: The configurations' points (their probe cuts break ties).
        probes: How many probe spans the document has (0: none; ties then go to the fewest
            questions lost).
        budget: The context budget (default: the run's).

    Raises:
        ParameterError: A margin that is not positive.
    """
    delta = default_margin(METRIC) if margin is None else float(margin)
    if not delta > 0:
        raise ParameterError("tune_margin", value=shown(margin))
    chars = budget or results.budget.chars
    cut = {p.label: p.probes_cut / probes for p in points} if probes and points else None
    prior = prior_means(chars)
    return (
        choose(results, METRIC, "budget", delta, chars, cut=cut, prior=prior),
        choose(results, METRIC, "equal_k", delta, chars, cut=cut, prior=prior),
    )


def questions_source(source: Mapping[str, Any]) -> QuestionsSource:
    """The results file's record of where ``tune``'s questions came from (``source``)."""
    own = int(source.get("own", 0))
    if not source.get("synthetic"):
        return QuestionsSource(kind="own", own=own, synthetic=0)
    made = int(source["questions"])
    return QuestionsSource(
        kind="both" if own else "synthetic",
        own=own,
        synthetic=made,
        form=str(source["form"]),
        seed=int(source["seed"]),
        note=str(source["note"]),
        caveat=str(source["caveat"]),
        validation_rho=source.get("validation_rho"),
        validation=str(source["validation"]),
    )


def decide(
    results: Results,
    points: Sequence[TunePoint],
    probes: int,
    margin: float | None = None,
    budget: int | None = None,
) -> tuple[Choice, Choice, Stability | None]:
    """The decision at the budget, at equal k, and the budget pick's stability.

    Raises:
        ParameterError: A margin that is not positive.
    """
    rec, at_k = recommend(results, margin, points, probes, budget=budget)
    # The options already carry the probe cuts ``recommend`` broke ties by.
    stability = pick_stability(results, rec, seed=results.stats.seed)
    return rec, at_k, stability


def with_margin(result: TuneResult, margin: float) -> TuneResult:
    """``result`` recommended again under the equivalence margin ``margin`` (no rerun)."""
    rec, at_k, stability = decide(
        result.results, result.points, result.probes, margin, result.budget
    )
    return replace(result, recommendation=rec, at_k=at_k, stability=stability)


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
    permutations: int = 5000,
    writer: Any = None,
    margin: float | None = None,
    budget: int = DEFAULT_BUDGET_CHARS,
) -> TuneResult:
    """Benchmark ``configs`` on ``document`` and recommend one at a context budget.

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
        permutations: Permutations per paired test (5,000, the runner's default: below about
            2,400 the permutation floor times Holm's 120 pairs of the 16-configuration grid
            stays above 0.05, so no difference could ever be significant).
        writer: For ``form="lm"``: the local language model that writes the questions
            (``chunkviz.lm.get_language_model("hf:<path>")``).
        margin: The equivalence margin of the recommendation (default: the Benchmark page's,
            ``default_margin(METRIC)``).
        budget: The reader's context budget in characters (default 2,000: the seed study's
            five chunks of 400).

    Returns:
        The results, points, recommendation and probe counts.

    Raises:
        ParameterError: No questions at all (no pairs and ``synthetic`` 0, or a document with
            nothing to ask about), a negative ``synthetic``, a margin that is not positive or a
            budget out of range.
    """
    if synthetic < 0:
        raise ParameterError("at_least", name="synthetic", value=synthetic, min=0)
    if margin is not None and not margin > 0:
        raise ParameterError("tune_margin", value=shown(margin))
    check_budget(budget)
    grid = tuple(configs) if configs is not None else tune_grid()
    own = tuple(q for q in questions if q.doc_id == document.doc_id)
    made: tuple[Question, ...] = ()
    if synthetic:
        made = synthetic_dataset([document], form, n=synthetic, seed=seed, writer=writer).questions
    if not own and not made:
        if synthetic:
            raise ParameterError("tune_no_questions_of_form", form=form)
        raise ParameterError("tune_no_questions")
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
    results = run_benchmark(
        data,
        grid,
        be,
        seed=seed,
        cache_dir=cache_dir,
        spec=spec,
        progress=progress,
        bootstrap=bootstrap,
        permutations=permutations,
        budget_chars=budget,
    )
    results = msgspec.structs.replace(results, questions_source=questions_source(source))
    probes = probe_dataset([document], method=DEFAULT_METHOD)
    lost = tuple(lost_table(probes, grid)) if probes.questions else ()
    points = tune_points(results, lost)
    rec, at_k, stability = decide(results, points, len(probes.questions), margin, budget)
    prior = shipped_prior()
    return TuneResult(
        document,
        results,
        source,
        points,
        rec,
        len(probes.questions),
        lost,
        stability,
        at_k,
        budget,
        prior.backend if prior is not None else "",
        synthetic,
        len(made),
    )


def probe_lost(
    document: Document, configs: Sequence[Config] | None = None
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

    located = locate_qa_pairs(
        read_qa_pairs(path), {document.doc_id: document.text}, name=Path(path).name
    ).dataset
    return located.questions
