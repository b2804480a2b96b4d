"""``chunkviz bench`` runs and caches the retrieval benchmark; ``chunkviz backends`` lists them.

Usage::

    python -m chunkviz bench --dataset jsquad --backend bm25 [--sample N --seed S]
        [--grid default] [--context none,headings] [--measure cosine] [--out DIR]
        [--cache-dir DIR]
        [--engine local [--workers N]
         | --engine ray [--address ADDR] [--actors N] [--cpus-per-actor C]
                        [--gpus-per-actor G] [--batch-size B]]
    python -m chunkviz backends
"""

from __future__ import annotations

import argparse
import sys
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from chunkviz.commands.options import RESAMPLES, SEED, check_delta, integer, real
from chunkviz.datasets import SPEC_HELP
from chunkviz.errors import ParameterError
from chunkviz.eval.decision import DEFAULT_BUDGET_CHARS
from chunkviz.eval.engine import Engine, LocalEngine, Stage, run_fraction
from chunkviz.eval.grid import parse_grid, with_context
from chunkviz.limits import MAX_BUDGET_CHARS, MIN_BUDGET_CHARS

if TYPE_CHECKING:
    from chunkviz.eval.results import Results


def add_parser(sub: Any) -> None:
    """Register ``bench`` and ``backends``."""
    p = sub.add_parser(
        "bench",
        help="run the retrieval benchmark and write a results file",
        description="Chunk every document under each configuration, rank all chunks for every "
        "question, and write metrics with confidence intervals and Holm-corrected paired tests.",
    )
    p.add_argument("--dataset", default="jsquad", help=f"dataset spec: {SPEC_HELP}")
    p.add_argument(
        "--backend",
        default="bm25",
        help="bm25 (default), tfidf, use-m3, e5-small, hybrid (BM25 + e5-small by "
        "reciprocal rank fusion), hybrid:<lexical>+<dense> or st:<model name or path>",
    )
    p.add_argument(
        "--sample", type=integer(0, 10_000_000), default=0, help="questions to sample (0: all)"
    )
    p.add_argument("--seed", type=SEED, default=0, help="seed of the sample and the statistics")
    p.add_argument(
        "--grid",
        default="default",
        help="'default' (the seed study's 8 configurations) or comma-separated labels "
        "such as fixed-200-40,paragraph",
    )
    p.add_argument(
        "--context",
        default="none",
        metavar="MODES",
        help="contextual chunk headers embedded with each chunk, never part of its "
        "offsets: none (default), title (the document title) or headings (title and "
        "Markdown heading breadcrumb); comma-separated to compare them on the same "
        "cuts, e.g. none,headings (each configuration once per mode, labelled "
        "<label>+<mode>)",
    )
    p.add_argument(
        "--measure",
        choices=("cosine", "dot", "l2"),
        default="cosine",
        help="similarity for vector backends (BM25 uses its own score)",
    )
    p.add_argument(
        "--out",
        default=None,
        help="results folder (default <cache>/results; <cache> is "
        "$CHUNKVIZ_CACHE_DIR or the user's cache folder, e.g. ~/.cache/chunkviz)",
    )
    p.add_argument("--cache-dir", default=None, help="embedding cache (default <cache>/embeddings)")
    p.add_argument("--bootstrap", type=RESAMPLES, default=2000, help="bootstrap resamples")
    p.add_argument(
        "--permutations", type=RESAMPLES, default=5000, help="sign flips per paired test"
    )
    p.add_argument(
        "--unit",
        choices=("document", "question"),
        default=None,
        help="unit of resampling of the intervals and tests (default: document when "
        "the questions come from two or more documents)",
    )
    p.add_argument(
        "--margin",
        action="append",
        default=[],
        metavar="METRIC=DELTA",
        help="equivalence margin in the metric's units, e.g. recall@5=0.02 "
        "(repeatable; default 0.01 for Recall, nDCG and MRR)",
    )
    p.add_argument(
        "--budget",
        type=integer(MIN_BUDGET_CHARS, MAX_BUDGET_CHARS, fix=f"try {DEFAULT_BUDGET_CHARS}"),
        default=DEFAULT_BUDGET_CHARS,
        metavar="CHARS",
        help="the reader's context budget in characters, where the verdict is made "
        f"(default {DEFAULT_BUDGET_CHARS:,}); equal k is reported beside it",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (default: the main table and the sentences) or json: the results "
        "file itself on standard output (docs/results-schema.json); the path written "
        "goes to standard error",
    )
    r = p.add_argument_group("engine", "where chunking and encoding run (docs/scaling.md)")
    r.add_argument(
        "--engine",
        choices=("local", "ray"),
        default="local",
        help="local (default: this process) or ray (Ray Data stages; needs "
        'pip install "chunkviz[ray]")',
    )
    r.add_argument(
        "--workers",
        type=int,
        default=None,
        help="local engine: encoding processes, one thread each (default: one per "
        "core; 0: encode in this process)",
    )
    r.add_argument(
        "--address",
        default=None,
        help="Ray cluster to connect to (e.g. ray://head:10001 or auto); default: "
        "start a local Ray for the run",
    )
    r.add_argument(
        "--actors",
        type=integer(1, 4096),
        default=None,
        help="encoder actors, one model each (default: one per GPU, else per "
        "--cpus-per-actor CPUs)",
    )
    r.add_argument(
        "--cpus-per-actor",
        type=real(0, 1024, low_open=True),
        default=1.0,
        help="CPUs reserved by each encoder actor (default 1)",
    )
    r.add_argument(
        "--gpus-per-actor",
        type=real(0, 64),
        default=None,
        help="GPUs per encoder actor (default: 1 for st: models when the cluster has GPUs, else 0)",
    )
    r.add_argument(
        "--batch-size",
        type=integer(1, 100_000),
        default=None,
        help="texts per encode call on Ray (default 256, the local engine's, which "
        "keeps vectors bit-identical to a local run)",
    )
    r.add_argument(
        "--num-cpus",
        type=integer(1, 4096),
        default=None,
        help="CPUs of a local Ray (default: this process's cores)",
    )
    p.set_defaults(run=run)

    b = sub.add_parser("backends", help="list retrieval backends and whether they load offline")
    b.set_defaults(run=run_backends)


def parse_margins(items: list[str]) -> dict[str, float]:
    """``["recall@5=0.02"]`` -> ``{"recall@5": 0.02}``.

    Raises:
        ParameterError: An item that is not ``METRIC@K=DELTA`` with a metric that has a margin
            (every measure of ``chunkviz.eval.measures``), a cut-off the benchmark measures and a
            finite DELTA in (0, 1].
    """
    # Deferred: the CLI imports every command to build its parser; this loads only when it runs.
    from chunkviz.eval.measures import measures, parse_key
    from chunkviz.eval.runner import KS

    names = sorted(m.name for m in measures())
    out: dict[str, float] = {}
    for item in items:
        key, sep, value = item.partition("=")
        try:
            parsed = parse_key(key.strip().lower())
            if not sep or parsed.at_budget or parsed.cutoff not in KS:
                raise ParameterError("margin_spec", names=names, low=KS[0], high=KS[-1], value=item)
            delta = check_delta(float(value), "DELTA")
        except (ValueError, argparse.ArgumentTypeError):  # ParameterError is a ValueError
            raise ParameterError(
                "margin_spec", names=names, low=KS[0], high=KS[-1], value=item
            ) from None
        out[parsed.text] = delta
    return out


class _Bar:
    """A tqdm bar fed by ``run_benchmark``'s progress callback (per mille of the run)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.bar: Any = None

    def __call__(self, stage: Stage, done: int, total: int, message: str) -> None:
        if self.quiet:
            return
        if self.bar is None:
            # Deferred: tqdm loads only when a progress bar is drawn.
            from tqdm import tqdm

            self.bar = tqdm(total=1000, unit="‰", file=sys.stderr, dynamic_ncols=True)
        self.bar.set_description_str(f"{stage}: {message}"[:60], refresh=False)
        self.bar.update(max(0, round(1000 * run_fraction(stage, done, total)) - self.bar.n))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def make_engine(args: argparse.Namespace) -> Engine:
    """The engine named by ``--engine``, with the Ray options when it is ``ray``.

    Raises:
        MissingDependencyError: ``--engine ray`` without Ray installed (the message says how to
            install it).
        ParameterError: Ray options given to the local engine, or invalid Ray options.
    """
    ray_options = {
        "address": args.address,
        "actors": args.actors,
        "gpus_per_actor": args.gpus_per_actor,
        "batch_size": args.batch_size,
        "num_cpus": args.num_cpus,
    }
    if args.engine == "local":
        given = sorted(k for k, v in ray_options.items() if v is not None)
        if given or args.cpus_per_actor != 1.0:
            names = ["--" + k.replace("_", "-") for k in given] or ["--cpus-per-actor"]
            raise ParameterError("ray_options_local", options=names)
        return LocalEngine(workers=args.workers)
    if args.workers is not None:
        raise ParameterError("workers_with_ray")
    # Deferred: the Ray engine's module loads only for --engine ray.
    from chunkviz.eval.ray_engine import RayEngine

    options = {k: v for k, v in ray_options.items() if v is not None}
    return RayEngine(cpus_per_actor=args.cpus_per_actor, **options)


def run(args: argparse.Namespace, extra: list[str]) -> int:
    """Run the benchmark and write its results file; prints the main table.

    The output folder is checked writable before any work, and the file is never written over
    another run's (``chunkviz.eval.results.save_results``).
    """
    # Deferred: the CLI imports every command to build its parser; this loads only when it runs.
    from chunkviz.datasets import load_dataset
    from chunkviz.eval.preflight import preflight
    from chunkviz.eval.results import check_writable, save_results
    from chunkviz.eval.runner import default_results_dir, run_benchmark

    out = check_writable(args.out or default_results_dir())
    configs = with_context(parse_grid(args.grid), args.context.split(","))
    margins = parse_margins(args.margin)
    engine = make_engine(args)
    # Backend, context tokenizer and embedding cache, before the dataset is read.
    backend = preflight(args.backend, cache_dir=args.cache_dir).backend
    dataset = load_dataset(args.dataset)
    bar = _Bar(args.quiet)
    try:
        # A Ray engine starts (or connects to) Ray here and stops a Ray it started on the way out.
        with engine if isinstance(engine, AbstractContextManager) else nullcontext():
            results = run_benchmark(
                dataset,
                configs,
                backend,
                measure=args.measure,
                cache_dir=args.cache_dir,
                progress=bar,
                spec=args.dataset,
                sample=args.sample,
                seed=args.seed,
                bootstrap=args.bootstrap,
                permutations=args.permutations,
                unit=args.unit,
                margins=margins,
                engine=engine,
                budget_chars=args.budget,
            )
    finally:
        bar.close()
    path = save_results(results, out)
    if args.format == "json":
        from chunkviz.eval.results import results_to_json

        print(results_to_json(results))
        print(f"wrote {path}", file=sys.stderr)
        return 0
    print(format_report(results))
    print(f"wrote {path}")
    return 0


def format_report(results: Results) -> str:
    """The Benchmark page's main table and its significance sentences, as Markdown.

    Then the unit of inference and the resampling (what a conclusion is about and where the
    p-values' floor lies); and per tested metric: how many pairs differ, are equivalent within
    the margin or are inconclusive, the verdict, the conclusions that depend on a definition,
    and the sentences of the pairs with a conclusion.
    Built by the same functions as the page (``chunkviz.views`` modules and
    ``chunkviz.views.benchmark_tables``), in English.
    """
    # Deferred: the CLI imports every command to build its parser; this loads only when it runs.
    from chunkviz.eval.measures import metric_label
    from chunkviz.views.benchmark_tables import main_table_markdown
    from chunkviz.views.main_table import main_table
    from chunkviz.views.retests import sensitivity_rows
    from chunkviz.views.sentences import outcome_text, sentences
    from chunkviz.views.significance import (
        comparisons,
        floor_text,
        margin_of,
        pairwise_metrics,
        unit_of,
    )
    from chunkviz.views.verdict import pick_line, verdicts

    stats = results.stats
    unit, units = unit_of(results)
    encode = "col_index_build" if results.backend.kind == "lexical" else "col_encode"
    lines = [
        main_table_markdown(main_table(results), "en", encode),
        "",
        f"Inference resamples {units:,} {unit}s ({stats.bootstrap} bootstrap resamples, "
        f"{stats.permutations} sign flips per test: p >= {floor_text(results)}, printed "
        f"as p ≤ {floor_text(results)} at that floor).",
    ]
    for key in pairwise_metrics(results):
        comps = comparisons(results, key)
        outcomes = [c.outcome for c in comps]
        differ = sum(o in ("a_better", "b_better") for o in outcomes)
        delta = margin_of(results, key)
        margin = f" within ±{delta:g}" if delta is not None else ""
        lines.append(
            f"- {metric_label(key)}: {differ} of {len(comps)} pairs differ (Holm, "
            f"alpha={stats.alpha}), {outcomes.count('equivalent')} equivalent{margin}, "
            f"{outcomes.count('inconclusive')} inconclusive, {outcomes.count('saturated')} "
            "saturated."
        )
        if delta is not None:
            # The budget decides; equal k is the second view.
            at_k, at_budget = verdicts("en", results, key, delta)
            lines += [
                f"  - {pick_line('en', at_budget.choice, results.budget.chars)}",
                f"  - {at_budget.sentence.strip()}",
                f"  - {at_k.sentence.strip()}",
            ]
        for row in sensitivity_rows(results, key):
            changes = "; ".join(
                f"{name}: {outcome_text(row.under[name], row.a, row.b, row.delta, 'en')}"
                for name in row.changed
            )
            lines.append(
                f"  - depends on the definitions: {row.a} vs {row.b} is "
                f"{outcome_text(row.main, row.a, row.b, row.delta, 'en')}, "
                f"but under {changes}"
            )
        lines.extend(f"  - {s}" for s in sentences(results, key, "en").shown)
    return "\n".join(lines)


def run_backends(args: argparse.Namespace, extra: list[str]) -> int:
    """Print every backend with its availability and, when unavailable, how to get it."""
    # Deferred: the CLI imports every command to build its parser; this loads only when it runs.
    from chunkviz.retrieval.backends import list_backends

    for info in list_backends():
        state = "available" if info.available else "unavailable"
        print(f"{info.name}  [{info.kind}, {state}]  {info.label}")
        if info.reason:
            print(f"    {info.reason}")
    print("any sentence-transformers model: --backend st:<model name or local folder>")
    return 0
