"""What the Benchmark dashboard shows, computed from a results file (no Streamlit, no model).

Every function here takes the typed results of a run (``chunkviz.eval.results.Results``, read
and checked by ``load_results``) and returns frozen values or plain strings, so that tests can
check each number the page shows against the file without a browser. Nothing here re-ranks or
re-embeds anything: metric curves and the context-budget view are computed from the per-question
ranks that the file stores, through the one metric module (``chunkviz.eval.metrics``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlencode

from chunkviz.errors import ParameterError
from chunkviz.eval.decision import Outcome
from chunkviz.eval.grid import Config, fixed_config
from chunkviz.eval.metrics import (
    METRIC_NAMES,
    MetricName,
    display_name,
    metric_values,
)
from chunkviz.eval.results import ConfigRecord, Results
from chunkviz.eval.stats import (
    PairwiseResult,
    Replication,
    Unit,
    format_p,
    permutation_floor,
    replicate,
)
from chunkviz.eval.verdict import with_margin as with_margin
from chunkviz.strategies import get_strategy
from chunkviz.text import text
from chunkviz.text.messages import backend_text

Lang = Literal["en", "ja"]

#: The three headline metrics of the main table, in display order.
METRICS: tuple[str, ...] = ("recall@5", "ndcg@10", "mrr@10")
#: Metrics drawn against k (the curves), computed from the ranks.
CURVE_METRICS: tuple[MetricName, ...] = METRIC_NAMES

_DISPLAY = {"recall": "Recall", "ndcg": "nDCG", "mrr": "MRR"}

#: Environment variable: results directories to list, separated by ``os.pathsep``.
RESULTS_DIRS_ENV = "CHUNKVIZ_RESULTS_DIRS"
#: Environment variable: the directory Recompute writes new results files into.
RECOMPUTE_DIR_ENV = "CHUNKVIZ_RECOMPUTE_DIR"


def metric_label(name: str) -> str:
    """Display name of a metric key (``ndcg@10`` -> ``nDCG@10``) or of a bare measure (``mrr``).

    Keys go through ``chunkviz.eval.metrics.display_name``, the one formatter of the project.
    """
    if "@" in name:
        return display_name(name)
    return _DISPLAY.get(name, name)


def results_dirs(environ: Mapping[str, str]) -> tuple[Path, ...]:
    """Directories whose ``*.json`` results files the dashboard lists, in display order.

    ``CHUNKVIZ_RESULTS_DIRS`` (``os.pathsep``-separated) replaces the shipped ``results/`` of
    the repository; the recompute directory is always listed last, so a new run shows up.
    """
    import os

    from chunkviz.eval.runner import shipped_results_dir

    raw = environ.get(RESULTS_DIRS_ENV, "")
    dirs = [Path(p) for p in raw.split(os.pathsep) if p] or [shipped_results_dir()]
    return tuple(dict.fromkeys([*dirs, recompute_dir(environ)]))


def recompute_dir(environ: Mapping[str, str]) -> Path:
    """Where Recompute writes.

    ``CHUNKVIZ_RECOMPUTE_DIR``, else the runner's default folder (``<cache root>/results``,
    i.e. ``.cache/chunkviz/results``).
    """
    from chunkviz.eval.runner import default_results_dir

    raw = environ.get(RECOMPUTE_DIR_ENV, "")
    return Path(raw) if raw else default_results_dir()


# --- the list of runs -------------------------------------------------------------------------


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


# --- the main table ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cell:
    """A metric's mean with its 95% confidence interval.

    Attributes:
        mean: The mean.
        ci_low: Lower bound of the 95% interval.
        ci_high: Upper bound.
        best: The column's best, and it beats every other configuration significantly.
        tied: No clear best: this configuration is the best or cannot be told apart from it
            (the tied group at the top).
    """

    mean: float
    ci_low: float
    ci_high: float
    best: bool
    tied: bool = False


@dataclass(frozen=True, slots=True)
class TableRow:
    """One configuration in the main table.

    Attributes:
        label: Configuration label.
        strategy: Strategy name.
        params: Strategy parameters.
        cells: Metric key -> cell, for each of the table's metrics.
        chunks: Chunks in the index.
        predicted_chunks: The formula's prediction (None for non-fixed strategies).
        index_bytes: Size of the index in bytes.
        encode_seconds: Time spent encoding the chunks.
        broken: Questions lost before retrieval (no chunk contains an answer span).
        questions: Questions evaluated.
    """

    label: str
    strategy: str
    params: Mapping[str, Any]
    cells: Mapping[str, Cell]
    chunks: int
    predicted_chunks: int | None
    index_bytes: int
    encode_seconds: float
    broken: int
    questions: int

    @property
    def broken_share(self) -> float:
        """Share of questions lost before retrieval."""
        return self.broken / self.questions if self.questions else 0.0


def best_labels(results: Results, metric: str) -> tuple[str, ...]:
    """Labels whose mean ``metric`` is the maximum (several on a tie)."""
    means = {lab: results.metrics[lab][metric].mean for lab in results.labels}
    top = max(means.values())
    return tuple(lab for lab, m in means.items() if m == top)


def main_table(results: Results, metrics: Sequence[str] = METRICS) -> tuple[TableRow, ...]:
    """One row per configuration, the best of each metric flagged only where it is clear.

    A best is flagged (``Cell.best``) only when it beats every other configuration
    significantly; otherwise the best and every configuration it cannot be told apart from are
    flagged as the tied group (``Cell.tied``). A metric without pairwise tests flags nothing.

    Args:
        results: A results file.
        metrics: Metric keys to show (each must be in ``results.metrics``).

    Returns:
        Rows in the file's configuration order.
    """
    tested = set(pairwise_metrics(results))
    best: dict[str, set[str]] = {}
    tied: dict[str, set[str]] = {}
    for m in metrics:
        v = verdict(results, m) if m in tested else None
        best[m] = {v.best} if v is not None and v.clear else set()
        tied[m] = {v.best, *v.tied} if v is not None and not v.clear else set()
    questions = len(results.question_ids)
    rows = []
    for c in results.configs:
        stats = results.metrics[c.label]
        cells = {
            m: Cell(stats[m].mean, stats[m].ci_low, stats[m].ci_high, c.label in best[m],
                    c.label in tied[m])
            for m in metrics
        }
        rows.append(
            TableRow(
                label=c.label,
                strategy=c.strategy,
                params=dict(c.params),
                cells=cells,
                chunks=c.chunks,
                predicted_chunks=c.predicted_chunks,
                index_bytes=c.index_bytes,
                encode_seconds=c.encode_seconds,
                broken=c.broken,
                questions=questions,
            )
        )
    return tuple(rows)


def format_bytes(n: int) -> str:
    """``4014080`` -> ``3.8 MiB`` (binary units, one decimal)."""
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{int(size)} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")  # pragma: no cover


# --- significance -----------------------------------------------------------------------------


def comparisons(results: Results, metric: str) -> tuple[PairwiseResult, ...]:
    """Every pairwise test of ``metric`` in the file, in its order."""
    return tuple(p for p in results.pairwise if p.metric == metric)


def pairwise_metrics(results: Results) -> list[str]:
    """Metrics that have pairwise tests, headline metrics first."""
    present = list(dict.fromkeys(p.metric for p in results.pairwise))
    return [m for m in METRICS if m in present] + [m for m in present if m not in METRICS]


@dataclass(frozen=True, slots=True)
class Matrix:
    """Pairwise matrix of one metric.

    ``cells[i][j]`` compares ``labels[i]`` with ``labels[j]`` (oriented row minus column); None on
    the diagonal and where the file has no test.
    """

    metric: str
    labels: tuple[str, ...]
    cells: tuple[tuple[PairwiseResult | None, ...], ...]


def significance_matrix(results: Results, metric: str) -> Matrix:
    """The pairwise tests of ``metric`` laid out as a square matrix over the configurations."""
    labs = results.labels
    found: dict[tuple[str, str], PairwiseResult] = {}
    for comp in comparisons(results, metric):
        found[(comp.a, comp.b)] = comp
        found[(comp.b, comp.a)] = comp.flipped()
    cells = tuple(tuple(found.get((r, c)) if r != c else None for c in labs) for r in labs)
    return Matrix(metric, tuple(labs), cells)


def unit_of(results: Results) -> tuple[Unit, int]:
    """The unit of resampling of a file's statistics and how many units it has.

    Files written before the unit was recorded resampled questions.
    """
    unit = results.stats.unit
    count = results.stats.units or len(results.question_ids)
    return unit, count


def floor_text(results: Results) -> str:
    """The smallest p-value the file's permutation tests can give, ``1 / (1 + permutations)``."""
    return f"{permutation_floor(results.stats.permutations):.2g}"


def _binary(metric: str) -> bool:
    """Whether per-question values of ``metric`` are 0/1 (then wins are discordant counts)."""
    return metric.partition("@")[0] == "recall"


def _p_text(c: PairwiseResult) -> str:
    return format_p(c.p_holm, bound=c.p_holm_bound)


def sentence(comp: PairwiseResult, lang: Lang) -> str:
    """A plain-language reading of one pair, the better configuration named first.

    Four readings (``PairwiseResult.outcome``): one is better (the difference survives Holm's
    correction); equivalent within ``±delta`` (the equivalence test, also Holm-corrected); or
    inconclusive, which is not the same as "equal": the interval of the difference is given so
    the reader sees how large a difference the data cannot rule out. For a binary metric the
    discordant counts (questions each side wins) follow.
    """
    c = comp if comp.diff >= 0 else comp.flipped()
    within = text(lang, "dashboard.margin", delta=c.delta) if c.delta is not None else ""
    fields = {
        "a": c.a, "b": c.b, "name": metric_label(c.metric), "diff": c.diff, "p": _p_text(c),
        "ci": text(lang, "dashboard.ci", low=c.ci_low, high=c.ci_high), "within": within,
    }
    wins = ""
    if _binary(c.metric) and c.a_wins is not None:
        wins = text(lang, "dashboard.wins", a=c.a, b=c.b, a_wins=c.a_wins, b_wins=c.b_wins)
    if c.outcome == "a_better":
        out = text(lang, "dashboard.pair_better", **fields)
        if c.equivalent:
            out += text(lang, "dashboard.pair_better_within", within=within)
    elif c.outcome == "equivalent":
        out = text(lang, "dashboard.pair_equivalent", p_equiv=format_p(c.p_equiv_holm), **fields)
    elif c.outcome == "saturated":
        out = text(lang, "dashboard.pair_saturated", **fields)
    elif within:
        out = text(lang, "dashboard.pair_inconclusive_within", **fields)
    else:
        out = text(lang, "dashboard.pair_inconclusive", **fields)
    return out + wins


@dataclass(frozen=True, slots=True)
class Words:
    """The "In words" list: conclusions shown, inconclusive pairs folded away.

    Attributes:
        shown: Sentences of the pairs with a conclusion (one better, or equivalent), larger
            differences first.
        folded: Sentences of the inconclusive pairs.
    """

    shown: tuple[str, ...]
    folded: tuple[str, ...]


def sentences(results: Results, metric: str, lang: Lang) -> Words:
    """Sentences for every pair of ``metric``: conclusions first (by size), the rest folded."""
    comps = sorted(comparisons(results, metric), key=lambda c: (not c.significant, -abs(c.diff)))
    shown = [c for c in comps if c.outcome not in ("inconclusive", "saturated")]
    folded = [c for c in comps if c.outcome in ("inconclusive", "saturated")]
    return Words(tuple(sentence(c, lang) for c in shown), tuple(sentence(c, lang) for c in folded))


def margin_of(results: Results, metric: str) -> float | None:
    """The equivalence margin the file's tests of ``metric`` used (None: no equivalence tests)."""
    return next((c.delta for c in comparisons(results, metric) if c.delta is not None), None)


# --- the verdict --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer of one run on one metric, for the top of the page.

    Attributes:
        backend: Backend name.
        metric: Metric key.
        best: The configuration with the highest mean (the first in file order on a tie).
        best_mean: Its mean.
        clear: Whether ``best`` beats every other configuration significantly.
        tied: Configurations whose difference from ``best`` is not significant (it cannot be
            told apart from them), in file order.
        delta: The equivalence margin of the metric (None: no equivalence tests in the file).
        unit: The unit of resampling.
        units: How many units (documents or questions).
        questions: Questions evaluated.
        alpha: Family-wise error rate.
        resamples: Bootstrap resamples of the intervals.
        permutations: Sign flips of each paired test.
    """

    backend: str
    metric: str
    best: str
    best_mean: float
    clear: bool
    tied: tuple[str, ...]
    delta: float | None
    unit: Unit
    units: int
    questions: int
    alpha: float
    resamples: int
    permutations: int


def verdict(results: Results, metric: str) -> Verdict:
    """Best configuration and the ones it cannot be told from (the main table's flags).

    What to recommend, and at what cost, is ``chunkviz.eval.verdict.choose``'s.

    Raises:
        ParameterError: ``metric`` has no pairwise tests in the file.
    """
    comps = comparisons(results, metric)
    if not comps:
        raise ParameterError(f"the results file has no pairwise tests of {metric!r}; "
                             f"pick one of {', '.join(pairwise_metrics(results)) or 'none'}")
    labs = list(results.labels)
    means = {lab: results.metrics[lab][metric].mean for lab in labs}
    best = max(labs, key=lambda lab: (means[lab], -labs.index(lab)))
    with_best: dict[str, PairwiseResult] = {}
    for c in comps:
        if best in (c.a, c.b):
            oriented = c if c.a == best else c.flipped()
            with_best[oriented.b] = oriented
    tied = tuple(lab for lab in labs if lab in with_best and not with_best[lab].significant)
    unit, units = unit_of(results)
    stats = results.stats
    return Verdict(
        backend=results.backend.name,
        metric=metric,
        best=best,
        best_mean=means[best],
        clear=_clear_winner(results, metric, (best,), labs) and len(labs) > 1,
        tied=tied,
        delta=next((c.delta for c in comps if c.delta is not None), None),
        unit=unit,
        units=units,
        questions=len(results.question_ids),
        alpha=stats.alpha,
        resamples=stats.bootstrap,
        permutations=stats.permutations,
    )


def outcome_text(outcome: Outcome, a: str, b: str, delta: float | None, lang: Lang) -> str:
    """One outcome in words (``a better``, ``equivalent within ±δ``, ``inconclusive``...)."""
    margin = (text(lang, "dashboard.margin", delta=delta) if delta is not None
              else text(lang, "dashboard.margin_unknown"))
    return text(lang, f"dashboard.outcome_{outcome}", a=a, b=b, margin=margin)


# --- sensitivity to the definitions -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SensitivityRow:
    """A pair whose outcome changes under at least one alternative definition.

    Attributes:
        a: First configuration.
        b: Second configuration.
        main: The outcome under the main definitions.
        under: Definition -> the outcome under it (every tested definition, changed or not).
        delta: The equivalence margin.
    """

    a: str
    b: str
    main: Outcome
    under: Mapping[str, Outcome]
    delta: float | None

    @property
    def changed(self) -> tuple[str, ...]:
        """The definitions under which the outcome differs from the main one."""
        return tuple(name for name, o in self.under.items() if o != self.main)


def sensitivity_definitions(results: Results, metric: str) -> tuple[str, ...]:
    """The alternative definitions retested on ``metric`` (empty for files without them)."""
    if results.sensitivity is None:
        return ()
    return tuple(name for name, rows in results.sensitivity.pairwise.items()
                 if any(r.metric == metric for r in rows))


def sensitivity_rows(results: Results, metric: str) -> tuple[SensitivityRow, ...]:
    """The pairs of ``metric`` whose conclusion depends on a definition, in the file's order."""
    names = sensitivity_definitions(results, metric)
    if not names or results.sensitivity is None:
        return ()
    main = comparisons(results, metric)
    under: dict[tuple[str, str], dict[str, Outcome]] = {(c.a, c.b): {} for c in main}
    for name in names:
        alt = [r for r in results.sensitivity.pairwise[name] if r.metric == metric]
        for rep in replicate(main, alt):
            under[(rep.a, rep.b)][name] = rep.second
    rows = (SensitivityRow(c.a, c.b, c.outcome, under[(c.a, c.b)], c.delta) for c in main)
    return tuple(r for r in rows if r.changed)


# --- replication on another question set --------------------------------------------------------


def replication_partners(runs: Sequence[RunSummary], run: RunSummary) -> list[RunSummary]:
    """Runs with the same backend and model on other questions (another split or sample)."""
    return sorted(
        (r for r in runs if r.backend == run.backend and r.model == run.model
         and r.group != run.group and r.configs == run.configs),
        key=lambda r: r.created,
        reverse=True,
    )


def replication(a: Results, b: Results, metric: str) -> tuple[Replication, ...]:
    """Which conclusions of run ``a`` on ``metric`` hold on run ``b`` (same grid, same backend).

    Raises:
        ParameterError: Different backends, or the runs do not hold the same pairs.
    """
    if a.backend.name != b.backend.name:
        raise ParameterError(
            f"replication compares runs of one backend (got {a.backend.name!r} and "
            f"{b.backend.name!r}); pick a run of the same backend"
        )
    return tuple(replicate(comparisons(a, metric), comparisons(b, metric)))


# --- metric vs k, equal k vs equal budget -----------------------------------------------------


def curve(ranks: Sequence[int | None], metric: MetricName, ks: Sequence[int]) -> list[float]:
    """Mean ``metric@k`` for every k in ``ks`` (``chunkviz.eval.metrics``; a lost rank scores 0)."""
    if not ranks:
        return [0.0 for _ in ks]
    return [float(metric_values(metric, ranks, k).mean()) for k in ks]


def curves(results: Results, metric: MetricName) -> dict[str, list[float]]:
    """``metric@k`` for k in the file's ``ks`` (1..20), per configuration, from its ranks."""
    return {lab: curve(results.ranks[lab], metric, results.ks) for lab in results.labels}


RetrievalRule = Literal["equal_k", "budget"]


@dataclass(frozen=True, slots=True)
class ModeRow:
    """Recall of one configuration under a retrieval rule (same k, or same context budget).

    Attributes:
        label: Configuration label.
        k: Chunks retrieved per question.
        chars: Characters that k chunks of mean length hand to the generator.
        mean: Recall@k.
        ci_low: Lower 95% bound (None when the file gives no interval for it).
        ci_high: Upper 95% bound (None likewise).
    """

    label: str
    k: int
    chars: float
    mean: float
    ci_low: float | None
    ci_high: float | None


def mode_rows(results: Results, mode: RetrievalRule, k: int = 5) -> tuple[ModeRow, ...]:
    """Recall per configuration under one retrieval rule.

    ``equal_k``: every configuration retrieves ``k`` chunks; ``budget``: each retrieves as many
    as fit the file's character budget (``budget.k``).

    Means come from the per-question ranks; intervals come from the file (``metrics`` for
    ``recall@k``, ``budget.metrics`` for ``recall@budget``) where it has them.
    """
    rows = []
    for c in results.configs:
        lab = c.label
        if mode == "budget":
            kk = results.budget.k[lab]
            interval = results.budget.metrics[lab].get("recall@budget")
        else:
            kk = k
            interval = results.metrics[lab].get(f"recall@{k}")
        mean = curve(results.ranks[lab], "recall", [kk])[0]
        lo = None if interval is None else interval.ci_low
        hi = None if interval is None else interval.ci_high
        rows.append(ModeRow(lab, kk, kk * c.mean_chunk_chars, mean, lo, hi))
    return tuple(rows)


# --- two backends -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BackendRow:
    """One configuration under two backends: mean and place (1 = best) under each."""

    label: str
    mean_a: float
    place_a: int
    mean_b: float
    place_b: int


@dataclass(frozen=True, slots=True)
class BackendComparison:
    """Does the best configuration change with the retriever?

    Attributes:
        metric: Metric key compared.
        backend_a: Name of the first backend.
        backend_b: Name of the second backend.
        rows: Configurations both runs evaluated, in the first run's order.
        best_a: Best configurations under the first backend (several on a tie).
        best_b: Best configurations under the second backend.
        clear_a: Whether the first backend's best beats every other configuration significantly.
        clear_b: The same for the second backend.
    """

    metric: str
    backend_a: str
    backend_b: str
    rows: tuple[BackendRow, ...]
    best_a: tuple[str, ...]
    best_b: tuple[str, ...]
    clear_a: bool
    clear_b: bool

    @property
    def same_best(self) -> bool:
        """Whether some configuration is best under both backends."""
        return bool(set(self.best_a) & set(self.best_b))


def _places(means: Mapping[str, float]) -> dict[str, int]:
    # Competition ranking: ties share a place ("1, 1, 3").
    return {lab: 1 + sum(other > m for other in means.values()) for lab, m in means.items()}


def _clear_winner(results: Results, metric: str, best: Sequence[str],
                  among: Sequence[str]) -> bool:
    if len(best) != 1:
        return False
    tests = {frozenset((c.a, c.b)): c for c in comparisons(results, metric)}
    others = [lab for lab in among if lab != best[0]]
    return all(
        (t := tests.get(frozenset((best[0], o)))) is not None and t.significant for o in others
    )


def compare_backends(a: Results, b: Results, metric: str) -> BackendComparison:
    """Put two runs on the same questions side by side for ``metric``."""
    shared = [lab for lab in a.labels if lab in set(b.labels)]
    if not shared:
        raise ParameterError("the two runs share no configuration label; compare runs of one grid")
    means_a = {lab: a.metrics[lab][metric].mean for lab in shared}
    means_b = {lab: b.metrics[lab][metric].mean for lab in shared}
    place_a, place_b = _places(means_a), _places(means_b)
    rows = tuple(BackendRow(lab, means_a[lab], place_a[lab], means_b[lab], place_b[lab])
                 for lab in shared)
    best_a = tuple(lab for lab in shared if place_a[lab] == 1)
    best_b = tuple(lab for lab in shared if place_b[lab] == 1)
    return BackendComparison(
        metric=metric,
        backend_a=a.backend.name,
        backend_b=b.backend.name,
        rows=rows,
        best_a=best_a,
        best_b=best_b,
        clear_a=_clear_winner(a, metric, best_a, shared),
        clear_b=_clear_winner(b, metric, best_b, shared),
    )


def backend_sentence(cmp: BackendComparison, lang: Lang) -> str:
    """Whether the best configuration changes with the retriever, with how clear each best is."""
    sep = text(lang, "dashboard.alt_sep")

    def clear(ok: bool) -> str:
        return text(lang, "dashboard.backend_clear" if ok else "dashboard.backend_unclear")

    head = text(lang, "dashboard.backend_same" if cmp.same_best else "dashboard.backend_changes")
    return text(lang, "dashboard.backend", name=metric_label(cmp.metric), head=head,
                backend_a=backend_text(lang, cmp.backend_a), best_a=sep.join(cmp.best_a),
                clear_a=clear(cmp.clear_a), backend_b=backend_text(lang, cmp.backend_b),
                best_b=sep.join(cmp.best_b), clear_b=clear(cmp.clear_b))


def backend_partners(runs: Sequence[RunSummary], run: RunSummary) -> list[RunSummary]:
    """Other runs on the same questions with a different backend (newest first)."""
    return sorted(
        (r for r in runs if r.group == run.group and r.backend != run.backend),
        key=lambda r: r.created,
        reverse=True,
    )


# --- drill-down -------------------------------------------------------------------------------


def question_label(qid: str, texts: Mapping[str, str]) -> str:
    """What the drill-down's picker shows for a question: its text, then its id.

    Typing in the picker then finds a question by the words of its text; without the dataset
    (``texts`` empty) the id alone.
    """
    text = texts.get(qid)
    return f"{text} ({qid})" if text else qid


def _question_index(results: Results, qid: str) -> int:
    try:
        return results.question_ids.index(qid)
    except ValueError:
        raise ParameterError(f"question {qid!r} is not in this results file; pick one of its "
                             f"question_ids") from None


Range = tuple[int, int]


@dataclass(frozen=True, slots=True)
class DrillRow:
    """One configuration in the drill-down of a question.

    Attributes:
        label: Configuration label.
        rank: Rank of the best chunk that contains an answer span (None: lost before retrieval).
        containing: ``(start, end)`` of each chunk of the question's document that contains an
            answer span (empty when the file carries no chunk offsets, or when the span is lost).
        cutting: When no chunk contains a span: the chunks that overlap it, i.e. cut it.
        top: ``(doc_id, start, end)`` of the top-ranked chunk (None without retrieval data).
        top_relevant: Whether that chunk contains an answer span.
    """

    label: str
    rank: int | None
    containing: tuple[Range, ...]
    cutting: tuple[Range, ...]
    top: tuple[str, int, int] | None
    top_relevant: bool | None


def drilldown_rows(results: Results, qid: str, doc_id: str,
                   spans: Sequence[Range]) -> tuple[DrillRow, ...]:
    """Rank, answer-holding chunks and top-ranked chunk of one question per configuration.

    Chunk positions come from the file's ``retrieval`` section (``chunk_offsets``: document
    index, start and end per chunk; ``topk``: chunk indices per question) and are compared with
    the answer spans by offsets only.
    """
    i = _question_index(results, qid)
    doc_ids = list(results.retrieval.document_ids)
    rows = []
    for lab in results.labels:
        rank = results.ranks[lab][i]
        offsets = results.retrieval.chunk_offsets[lab]
        containing: tuple[Range, ...] = ()
        cutting: tuple[Range, ...] = ()
        top = None
        top_relevant = None
        if doc_id in doc_ids:
            d = doc_ids.index(doc_id)
            own = [(s, e) for dd, s, e in offsets if dd == d]
            containing = tuple(c for c in own if any(c[0] <= a and b <= c[1] for a, b in spans))
            if not containing:
                cutting = tuple(c for c in own if any(c[0] < b and a < c[1] for a, b in spans))
            tops = results.retrieval.topk[lab][i]
            if tops:
                dd, start, end = offsets[tops[0]]
                top = (doc_ids[dd], start, end)
                top_relevant = top[0] == doc_id and (start, end) in set(containing)
        rows.append(DrillRow(lab, rank, containing, cutting, top, top_relevant))
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class AnswerContext:
    """The answer span with the text around it, cut from the document by offsets.

    Attributes:
        before: Text just before the span (at most the requested width).
        answer: ``text[start:end]``.
        after: Text just after the span.
        start: Span start in the document.
        end: Span end in the document.
    """

    before: str
    answer: str
    after: str
    start: int
    end: int


def answer_context(text: str, start: int, end: int, width: int = 120) -> AnswerContext:
    """``text[start:end]`` with up to ``width`` characters on each side."""
    if not 0 <= start < end <= len(text):
        raise ParameterError(f"span ({start}, {end}) is outside the document of length "
                             f"{len(text)}; the results file and dataset do not match")
    return AnswerContext(text[max(0, start - width):start], text[start:end],
                         text[end:end + width], start, end)


def explore_sample_for(document_text: str) -> str | None:
    """The built-in Explore sample whose text is exactly ``document_text`` (None: no sample is).

    Explore's links name a built-in sample, never a document of a dataset, so a question's
    document can be opened there only when it is one of the samples (JSQuAD's 梅雨 article is).
    """
    from chunkviz.samples import load_sample, sample_names

    return next((n for n in sample_names() if load_sample(n).text == document_text), None)


def explore_query(config: ConfigRecord, sample: str | None) -> str:
    """Query string that opens Explore under one configuration (and on a built-in sample).

    Built with Explore's own ``chunkviz.views.share_link.to_query``: ``strategy``, the strategy's
    schema parameters by name (``size``, ``overlap``, ``unit`` ...) and ``sample``.
    """
    from chunkviz.views.share_link import to_query

    return urlencode(to_query(config.strategy, dict(config.params), sample))


# --- recompute grid ---------------------------------------------------------------------------


def build_grid(strategies: Sequence[str], sizes: Sequence[int],
               overlap_percents: Sequence[int]) -> tuple[Config, ...]:
    """Configurations for Recompute.

    Each strategy with a required size runs over ``sizes`` x ``overlap_percents`` (overlap =
    size x percent / 100, rounded down); every other strategy (no size, or an optional size cap)
    runs once with its defaults.

    Raises:
        ParameterError: Nothing to run, or a size/overlap the strategy's schema rejects.
    """
    if not strategies:
        raise ParameterError("strategies is empty (got []); choose at least one strategy")
    configs: list[Config] = []
    for name in strategies:
        spec = get_strategy(name)
        names = {p.name for p in spec.params}
        size_param = (spec.param(spec.size_param)
                      if spec.size_param is not None and spec.size_param in names else None)
        # A strategy without a size, or whose size is an optional cap (paragraph's max_size,
        # off by default), runs once in its natural form, as the study's "paragraph" does.
        if size_param is None or size_param.optional:
            spec.validate({})
            configs.append(Config(name, name, {}))
            continue
        if not sizes:
            raise ParameterError(f"sizes is empty (got []) but strategy {name!r} needs a size; "
                                 "give at least one size")
        for size in sizes:
            for pct in overlap_percents or (0,):
                if not 0 <= pct < 100:
                    raise ParameterError(f"overlap percent must be from 0 to 99 (got {pct}); "
                                         "an overlap must be smaller than the chunk")
                params: dict[str, Any] = {size_param.name: size}
                if "overlap" in names:
                    params["overlap"] = size * pct // 100
                spec.validate(params)
                if name == "fixed":
                    configs.append(fixed_config(size, params["overlap"]))
                else:
                    suffix = f"-{params['overlap']}" if "overlap" in params else ""
                    configs.append(Config(f"{name}-{size}{suffix}", name, params))
    unique = {c.label: c for c in reversed(configs)}  # first occurrence wins
    return tuple(unique[lab] for lab in dict.fromkeys(c.label for c in configs))


def parse_ints(text: str, name: str) -> tuple[int, ...]:
    """``"100, 200 400"`` -> ``(100, 200, 400)``: whole numbers separated by commas or spaces.

    Raises:
        ParameterError: A piece that is not a whole number (the message names ``name``).
    """
    pieces = [p for p in text.replace("、", ",").replace(",", " ").split() if p]
    values = []
    for p in pieces:
        try:
            values.append(int(p))
        except ValueError:
            raise ParameterError(f"{name} must be whole numbers separated by commas (got "
                                 f"{p!r} in {text!r}); write e.g. 100, 200, 400") from None
    return tuple(dict.fromkeys(values))
