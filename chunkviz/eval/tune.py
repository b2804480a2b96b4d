"""Tune: from one document to a recommended configuration, with or without labels.

``tune`` runs the project's one benchmark runner (``chunkviz.eval.runner.run_benchmark``) on a
single document over a grid (``tune_grid``: 16 configurations by default), with the user's own
question/answer pairs, synthetic questions (``chunkviz.eval.synthetic``), or both; counts the
probe spans each configuration cuts (``chunkviz.eval.probes``, through ``chunkviz.eval.lost``);
draws the Pareto front of quality against index size and against context tokens at top-k; and
names a recommendation (``recommend``): the cheapest configuration equivalent to the best's
quality within a margin, or, when none is, the cheapest whose quality cannot be told from it.

Equivalence is the paired two one-sided tests of issue 12 (``chunkviz.eval.stats.tost_paired``)
of each configuration against the best on ``METRIC``, within ``+-delta`` (default: the
Benchmark page's margin, ``default_margin(METRIC)``), Holm-corrected over those comparisons.
"Cannot be told from" is the paired permutation test (one-sided: is it worse?), Holm-corrected
the same way: *no detectable difference*, never equality. ``Recommendation.rule`` says which
rule chose, and the reason sentence says so, with the difference and its interval, the number
of questions and how well that kind of question was validated on JSQuAD;
``Recommendation.weak`` flags a not-worse choice whose interval excludes zero (too few
questions to tell them apart, not evidence that they are alike).

The recommendation holds values; ``reason_text``, ``caution_text`` and ``validation_text``
render them through the text catalogues (``chunkviz.text``): the page in its language, the CLI
(``python -m chunkviz tune``, through ``format_tune``) in English, so both state the same
recommendation for the same inputs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np

from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.document import content_id
from chunkviz.errors import ParameterError
from chunkviz.eval.engine import Progress
from chunkviz.eval.grid import Config, fixed_config
from chunkviz.eval.lost import LostRow, lost_table
from chunkviz.eval.metrics import display_name, metric_values, parse_metric_key
from chunkviz.eval.probes import DEFAULT_METHOD, lost_sentence, probe_dataset
from chunkviz.eval.probes import VALIDATION_NOTE as PROBE_VALIDATION
from chunkviz.eval.results import QuestionsSource, Results, StatsSettings
from chunkviz.eval.runner import run_benchmark
from chunkviz.eval.stats import (
    Estimate,
    bootstrap_ci,
    default_margin,
    holm,
    paired_permutation_test,
    tost_paired,
)
from chunkviz.eval.synthetic import DEFAULT_FORM, Form, synthetic_dataset, synthetic_record
from chunkviz.retrieval.backends import get_backend
from chunkviz.retrieval.base import Backend
from chunkviz.retrieval.index import LexicalBackend
from chunkviz.text import Lang, text
from chunkviz.tokenizers import Tokenizer, bundled_sentencepiece, count_tokens

METRIC = "recall@5"
METRIC_NAME = display_name(METRIC)
TOP_K = 5
Rule = Literal["equivalent", "not_worse"]
Cost = Literal["index_bytes", "context_tokens"]
COSTS: tuple[Cost, ...] = ("index_bytes", "context_tokens")


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
        context_tokens: Mean tokens (the backend's tokenizer) of the top-``TOP_K`` chunks handed
            to a generator, over the questions.
        probes_cut: Probe spans no chunk holds whole.
        front: The costs on whose Pareto front the point lies.
    """

    @property
    def whole_index_retrieved(self) -> bool:
        """At most ``TOP_K`` chunks: the top-k holds every chunk, so Recall@k is 1 trivially."""
        return self.chunks <= TOP_K


    label: str
    quality: float
    ci_low: float
    ci_high: float
    chunks: int
    index_bytes: int
    context_tokens: float
    probes_cut: int
    front: tuple[Cost, ...] = ()


@dataclass(frozen=True, slots=True)
class Recommendation:
    """The recommended configuration and the numbers of why: values, never sentences.

    ``reason_text``, ``caution_text`` and ``questions_text`` turn them into sentences in a UI
    language (``chunkviz.text``), for the page and, in English, for the CLI.

    Attributes:
        label: The recommended configuration.
        best: The configuration with the highest quality.
        indistinguishable: Configurations not significantly worse than the best (best first).
        equivalent: Configurations equivalent to the best within ``+-delta`` (best first).
        rule: ``equivalent`` when the choice was made among the equivalent configurations,
            ``not_worse`` when none is equivalent and it fell back to "not significantly worse".
        questions: Questions the comparison ran on.
        own: Of them, the user's own.
        synthetic: Of them, synthetic.
        form: The synthetic form ("" with none).
        quality: The recommended configuration's mean ``METRIC``.
        best_quality: The best's.
        context_tokens: The recommended configuration's context tokens at top-``TOP_K``.
        index_bytes: Its index size.
        diff: Mean difference recommended - best.
        diff_low: Lower bound of its 95% bootstrap interval.
        diff_high: Upper bound.
        eq_low: Lower bound of the ``1 - 2 alpha`` interval of the equivalence test.
        eq_high: Upper bound.
        alpha: Family-wise level of both families of tests.
        delta: The equivalence margin, in ``METRIC``'s units.
        weak: The not-worse rule picked a configuration whose bootstrap interval of the
            difference excludes 0 (too few questions to tell them apart, not evidence that
            they are alike).
    """

    label: str
    best: str
    indistinguishable: tuple[str, ...]
    equivalent: tuple[str, ...]
    rule: Rule
    questions: int
    own: int
    synthetic: int
    form: str
    quality: float
    best_quality: float
    context_tokens: float
    index_bytes: int
    diff: float
    diff_low: float
    diff_high: float
    eq_low: float
    eq_high: float
    alpha: float
    delta: float
    weak: bool = False


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
        recommendation: The recommendation.
        probes: Probe spans counted.
        lost: The probe lost counts per configuration.
    """

    document: Document
    results: Results
    source: Mapping[str, Any]
    points: tuple[TunePoint, ...]
    recommendation: Recommendation
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


def context_tokenizer(backend: Backend) -> Tokenizer:
    """What context tokens are counted with.

    The backend's own tokenizer for a model; for a lexical backend (whose "tokens" are
    character n-grams) the bundled SentencePiece model.
    """
    return bundled_sentencepiece() if isinstance(backend, LexicalBackend) else backend.tokenizer


def _context_tokens(results: Results, document: Document, backend: Backend) -> dict[str, float]:
    text = document.text
    tokenizer = context_tokenizer(backend)
    offsets = results.retrieval.chunk_offsets
    cache: dict[tuple[int, int], int] = {}
    out = {}
    for label, tops in results.retrieval.topk.items():
        total = 0
        for row in tops:
            for j in row[:TOP_K]:
                _, s, e = offsets[label][j]
                key = (s, e)
                if key not in cache:
                    cache[key] = count_tokens(tokenizer, text[s:e])
                total += cache[key]
        out[label] = total / len(tops) if tops else 0.0
    return out


def tune_points(results: Results, context_tokens: Mapping[str, float],
                lost: Sequence[LostRow]) -> tuple[TunePoint, ...]:
    """Quality and costs per configuration, with the Pareto fronts marked."""
    cut = {r.config: r.broken for r in lost}
    points = []
    for c in results.configs:
        e = results.metrics[c.label][METRIC]
        points.append(TunePoint(c.label, e.mean, e.ci_low, e.ci_high, c.chunks, c.index_bytes,
                                context_tokens[c.label], cut.get(c.label, 0)))
    fronts = {cost: set(pareto_front(points, cost)) for cost in COSTS}
    return tuple(
        replace(p, front=tuple(cost for cost in COSTS if p.label in fronts[cost])) for p in points
    )


def recommend(
    points: Sequence[TunePoint],
    ranks: Mapping[str, Sequence[int | None]],
    stats: StatsSettings,
    source: Mapping[str, Any],
    margin: float | None = None,
) -> Recommendation:
    """The cheapest configuration equivalent to the best within ``+-margin``, if one is.

    Cheapest: fewest context tokens at top-``TOP_K`` (what every question costs a generator),
    then the smallest index, then fewest probes cut, then grid order. The best is the highest
    mean ``METRIC`` (ties: the cheapest of them).

    Two families of tests compare each configuration with the best on the same questions, each
    Holm-corrected over those comparisons (not all pairs), as the Benchmark page's tests are:

    - equivalence: the paired two one-sided tests (``chunkviz.eval.stats.tost_paired``) of
      ``|difference| < margin``; a configuration is equivalent when its adjusted p is below
      alpha and its ``1 - 2 alpha`` interval lies inside the margin;
    - difference: the one-sided paired permutation test "worse than the best".

    When some configuration is equivalent, the recommendation is the cheapest of the best and
    the equivalent ones (``rule="equivalent"``); otherwise the cheapest not significantly worse
    (``rule="not_worse"``), which is no detectable difference, never equality.

    Args:
        points: The configurations' qualities and costs (``tune_points``).
        ranks: Per configuration, the rank of each question's best relevant chunk (the
            results file's ``ranks``).
        stats: The run's statistics settings (alpha, resamples, seed).
        source: Whose questions: ``own``, and for synthetic ones ``questions`` and ``form``.
        margin: The equivalence margin (default: ``default_margin(METRIC)``, the Benchmark
            page's default).

    Raises:
        ParameterError: No points, or a margin that is not positive.
    """
    if not points:
        raise ParameterError("no configurations to recommend from; give a grid")
    delta = default_margin(METRIC) if margin is None else float(margin)
    if not delta > 0:
        raise ParameterError(f"margin must be positive (got margin={margin!r}); try 0.01")
    order = {p.label: i for i, p in enumerate(points)}

    def cost(p: TunePoint) -> tuple[float, float, int, int]:
        return (p.context_tokens, p.index_bytes, p.probes_cut, order[p.label])

    best = min(points, key=lambda p: (-p.quality, *cost(p)))
    alpha = stats.alpha
    name, k = parse_metric_key(METRIC)
    values = {p.label: metric_values(name, ranks[p.label], int(k)) for p in points}
    n = len(values[best.label])
    others = [p for p in points if p.label != best.label]
    p_worse, p_equiv, intervals = [], [], {}
    for p in others:
        two_sided = paired_permutation_test(values[p.label], values[best.label],
                                            permutations=stats.permutations, seed=stats.seed)
        # One-sided, "worse than the best": the sign-flip null is symmetric, so the one-sided
        # p-value is half the two-sided one when the observed difference points that way.
        worse = float(np.mean(values[p.label] - values[best.label])) < 0
        p_worse.append(two_sided / 2 if worse else 1 - two_sided / 2)
        if n >= 2:
            eq = tost_paired(values[p.label], values[best.label], delta, alpha=alpha)
            p_equiv.append(eq.p_value)
            intervals[p.label] = (eq.ci_low, eq.ci_high)
        else:  # one question: no equivalence test can be made
            p_equiv.append(1.0)
    differs = {p.label for p, adj in zip(others, holm(p_worse), strict=True) if adj < alpha}
    equivalent = {
        p.label for p, adj in zip(others, holm(p_equiv), strict=True)
        if adj < alpha and -delta < intervals[p.label][0] and intervals[p.label][1] < delta
    }
    same = [p for p in points if p.label not in differs]
    alike = [best, *(p for p in points if p.label in equivalent)]
    rule: Rule = "equivalent" if equivalent else "not_worse"
    chosen = min(alike if equivalent else same, key=cost)
    if chosen.label == best.label:
        diff = Estimate(0.0, 0.0, 0.0)
        eq_low = eq_high = 0.0
    else:
        diff = bootstrap_ci(values[chosen.label] - values[best.label],
                            resamples=stats.bootstrap, seed=stats.seed)
        eq_low, eq_high = intervals.get(chosen.label, (math.nan, math.nan))
    synthetic = bool(source.get("synthetic"))
    return Recommendation(
        chosen.label, best.label,
        tuple(p.label for p in sorted(same, key=lambda p: p.label != best.label)),
        tuple(p.label for p in alike), rule, n, int(source.get("own", 0)),
        int(source.get("questions", 0)) if synthetic else 0,
        str(source.get("form", "")) if synthetic else "",
        chosen.quality, best.quality, chosen.context_tokens, chosen.index_bytes,
        diff.mean, diff.ci_low, diff.ci_high, eq_low, eq_high, alpha, delta,
        weak=rule == "not_worse" and chosen.label != best.label and diff.ci_high < 0,
    )


def questions_source(source: Mapping[str, Any]) -> QuestionsSource:
    """The results file's record of where ``tune``'s questions came from (``source``)."""
    own = int(source.get("own", 0))
    if not source.get("synthetic"):
        return QuestionsSource("own", own, 0)
    made = int(source["questions"])
    return QuestionsSource(
        "both" if own else "synthetic", own, made, str(source["form"]), int(source["seed"]),
        str(source["note"]), str(source["caveat"]), source.get("validation_rho"),
        str(source["validation"]))


def questions_text(lang: Lang, rec: Recommendation) -> str:
    """What the questions were, in ``lang``: "60 of your questions", "200 synthetic ..."."""
    if rec.synthetic and rec.own:
        return text(lang, "tune.rec.kind_both", n=rec.questions, own=rec.own,
                    synthetic=rec.synthetic, form=rec.form)
    if rec.synthetic:
        return text(lang, "tune.rec.kind_synthetic", n=rec.questions, form=rec.form)
    return text(lang, "tune.rec.kind_own", n=rec.questions)


def reason_text(lang: Lang, rec: Recommendation) -> str:
    """The recommendation's reason in one sentence in ``lang``; the rule used decides which."""
    which = "best" if rec.label == rec.best else "cheaper"
    return text(
        lang, f"tune.rec.{which}_{rec.rule}", label=rec.label, best=rec.best,
        metric=METRIC_NAME, quality=f"{rec.quality:.3f}", best_quality=f"{rec.best_quality:.3f}",
        tokens=f"{rec.context_tokens:.0f}", k=TOP_K, bytes=f"{rec.index_bytes:,}",
        diff=f"{rec.diff:+.3f}", low=f"{rec.diff_low:+.3f}", high=f"{rec.diff_high:+.3f}",
        eq_low=f"{rec.eq_low:+.3f}", eq_high=f"{rec.eq_high:+.3f}",
        level=f"{100 * (1 - 2 * rec.alpha):g}", delta=f"{rec.delta:g}", alpha=f"{rec.alpha:g}",
        questions=questions_text(lang, rec))


def caution_text(lang: Lang, rec: Recommendation) -> str:
    """The warning when the evidence is weak, in ``lang`` ("" when there is none)."""
    if not rec.weak:
        return ""
    return text(lang, "tune.rec.caution", n=rec.questions, label=rec.label, best=rec.best)


def validation_text(lang: Lang, source: QuestionsSource, backend: str) -> str:
    """How well the kind of questions used ranks configurations (JSQuAD validation), in ``lang``.

    With synthetic questions the figure is the form's; the user's own pairs need none.
    """
    if not source.is_synthetic:
        return text(lang, "tune.validation_own", n=source.own)
    if source.validation_rho is None:
        return text(lang, "tune.validation_none", form=source.form, backend=backend)
    return text(lang, "tune.validation", form=source.form, rho=f"{source.validation_rho:.2f}",
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
    rec = recommend(result.points, result.results.ranks, result.results.stats, result.source,
                    margin)
    return replace(result, recommendation=rec)


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
    results = replace(results, questions_source=questions_source(source))
    probes = probe_dataset([document], method=DEFAULT_METHOD)
    lost = tuple(lost_table(probes, grid)) if probes.questions else ()
    points = tune_points(results, _context_tokens(results, document, be), lost)
    rec = recommend(points, results.ranks, results.stats, source, margin)
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
    """The table, both Pareto fronts and the recommendation, as plain text."""
    source = result.source
    lines = []
    if source.get("synthetic"):
        lines += [f"# {source['note']}", f"# {source['caveat']}", f"# {source['validation']}"]
    header = ("config", METRIC, "95% CI", "chunks", "index bytes", f"ctx tokens@{TOP_K}",
              "probes cut", "front")
    body = [
        (p.label, f"{p.quality:.3f}", f"{p.ci_low:.3f}-{p.ci_high:.3f}", str(p.chunks),
         f"{p.index_bytes:,}", f"{p.context_tokens:.0f}",
         f"{p.probes_cut}/{result.probes}",
         ",".join("size" if c == "index_bytes" else "context" for c in p.front) or "-")
        for p in result.points
    ]
    widths = [max(len(r[i]) for r in (header, *body)) for i in range(len(header))]
    for row in (header, *body):
        lines.append("  ".join([row[0].ljust(widths[0])]
                               + [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]))
    trivial = [p.label for p in result.points if p.whole_index_retrieved]
    if trivial:
        lines.append(f"# at most {TOP_K} chunks, so every chunk is retrieved and {METRIC} is 1 "
                     f"by construction: {', '.join(trivial)}")
    for cost, name in (("index_bytes", "index size"), ("context_tokens", "context tokens")):
        front = pareto_front(result.points, cost)  # type: ignore[arg-type]
        lines.append(f"Pareto front ({METRIC} vs {name}): {' < '.join(front)}")
    r = result.recommendation
    lines += [f"Recommended: {r.label}", f"Why: {reason_text('en', r)}",
              validation_text("en", questions_source(source), result.results.backend.name)]
    caution = caution_text("en", r)
    if caution:
        lines.append(f"Caution: {caution}")
    cut = {row.config: row.broken for row in result.lost}
    if r.label in cut:
        sentence = lost_sentence(r.label, cut[r.label], result.probes)
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

