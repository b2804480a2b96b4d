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
from chunkviz.eval.grid import Config, fixed_config
from chunkviz.eval.metrics import METRIC_NAMES, MetricName, display_name, metric_values
from chunkviz.eval.results import ConfigRecord, Results
from chunkviz.eval.stats import PairwiseResult
from chunkviz.strategies import get_strategy

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
    """A metric's mean with its 95% confidence interval; ``best`` marks the column maximum."""

    mean: float
    ci_low: float
    ci_high: float
    best: bool


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
    """One row per configuration, the best mean of each metric flagged.

    Args:
        results: A results file.
        metrics: Metric keys to show (each must be in ``results.metrics``).

    Returns:
        Rows in the file's configuration order.
    """
    best = {m: set(best_labels(results, m)) for m in metrics}
    questions = len(results.question_ids)
    rows = []
    for c in results.configs:
        stats = results.metrics[c.label]
        cells = {
            m: Cell(stats[m].mean, stats[m].ci_low, stats[m].ci_high, c.label in best[m])
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


def sentence(comp: PairwiseResult, lang: Lang) -> str:
    """A plain-language reading of one test, the better configuration named first.

    A difference that does not survive the correction is "no detectable difference", which is
    not the same as "equal": the interval of the difference is given so the reader sees how large
    a difference the data cannot rule out.
    """
    c = comp if comp.diff >= 0 else comp.flipped()
    name = metric_label(c.metric)
    ci = f"[{c.ci_low:+.3f}, {c.ci_high:+.3f}]"
    if lang == "ja":
        if c.significant:
            return (f"{c.a} と {c.b}：{name} は {c.a} のほうが {c.diff:.3f} 高い。"
                    f"多重比較の補正（Holm）後も有意（補正後 p = {c.p_holm:.3g}）。")
        return (f"{c.a} と {c.b}：{name} に検出できる差はない — 等しいという意味ではない"
                f"（差 {c.diff:+.3f}、未補正の 95% CI {ci}、補正後 p = {c.p_holm:.3g}）。")
    if c.significant:
        return (f"{c.a} vs {c.b}: {name} higher by {c.diff:.3f}, survives correction "
                f"(Holm-adjusted p = {c.p_holm:.3g}).")
    return (f"{c.a} vs {c.b}: {name}: no detectable difference — not the same as equal "
            f"(difference {c.diff:+.3f}, uncorrected 95% CI {ci}, "
            f"Holm-adjusted p = {c.p_holm:.3g}).")


def sentences(results: Results, metric: str, lang: Lang) -> list[str]:
    """Sentences for every pair of ``metric``: significant ones first, then by size of effect."""
    comps = sorted(comparisons(results, metric), key=lambda c: (not c.significant, -abs(c.diff)))
    return [sentence(c, lang) for c in comps]


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
    name = metric_label(cmp.metric)
    best_a, best_b = " / ".join(cmp.best_a), " / ".join(cmp.best_b)
    if lang == "ja":
        def clear_ja(ok: bool) -> str:
            return "他のすべてに有意に勝つ" if ok else "他との差は補正後に有意とは限らない"

        head = ("最良の構成は検索器によって変わらない" if cmp.same_best
                else "最良の構成は検索器によって変わる")
        return (f"{name}：{head}。{cmp.backend_a} では {best_a}（{clear_ja(cmp.clear_a)}）、"
                f"{cmp.backend_b} では {best_b}（{clear_ja(cmp.clear_b)}）。")

    def clear_en(ok: bool) -> str:
        return ("beats every other configuration significantly" if ok
                else "not significantly better than every other configuration")

    head = ("the best configuration does not change with the retriever" if cmp.same_best
            else "the best configuration changes with the retriever")
    return (f"{name}: {head}. With {cmp.backend_a}: {best_a} ({clear_en(cmp.clear_a)}); "
            f"with {cmp.backend_b}: {best_b} ({clear_en(cmp.clear_b)}).")


def backend_partners(runs: Sequence[RunSummary], run: RunSummary) -> list[RunSummary]:
    """Other runs on the same questions with a different backend (newest first)."""
    return sorted(
        (r for r in runs if r.group == run.group and r.backend != run.backend),
        key=lambda r: r.created,
        reverse=True,
    )


# --- drill-down -------------------------------------------------------------------------------


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
