"""Held-out check of Tune's decision at a context budget, on JSQuAD and JaQuAD documents.

For every document of each corpus with at least ``--min`` real questions, Tune's grid (16
configurations, ``chunkviz.eval.grid.tune_grid``) is run on that document alone, as ``tune`` runs
it (one index over the document's chunks, BM25's ranking, ``chunkviz.eval.prior.document_ranks``).
At each budget (1,000, 2,000 and 4,000 characters: each configuration retrieves the ``k`` chunks
whose mean length fills the budget, ``metrics.budget_k``), the document's real questions are split
in two halves by seed, and three picks are made with the one rule
(``chunkviz.eval.decision.recommend`` at ``basis="budget"``: Holm over all pairs, margin 0.01,
configurations that cannot be retrieved at the budget left out, ties by ``decision.preference``):

- **half-label**: on the first half's real questions;
- **zero-label**: on synthetic questions drawn from the document alone (Tune's default form and
  count), no real label used;
- **prior**: the configuration with the highest document-blind prior, the mean real score at
  the budget over every *other* document of both corpora (this document left out).

Each pick and every always-X fixed configuration is scored on the second half (Recall at the
budget). The table gives document-weighted means and, for each pick, its difference from the
best always-X fixed configuration chosen in hindsight (the one with the highest mean on these
halves) and from the prior's pick, with 95% bootstrap intervals resampling documents (a
document's splits over seeds are one unit).

    python bench/verdict_holdout.py                          # both corpora, seed 0
    python bench/verdict_holdout.py --datasets jsquad --seeds 0 1 2 --json out.json

Prints Markdown (reproduced in ``docs/benchmarks.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chunkviz.datasets import load_dataset  # noqa: E402
from chunkviz.eval.decision import (  # noqa: E402
    Option,
    context_cost,
    default_margin,
    prior_pick,
    recommend,
    retrievable,
)
from chunkviz.eval.grid import tune_grid  # noqa: E402
from chunkviz.eval.lost import lost_table  # noqa: E402
from chunkviz.eval.metrics import budget_k  # noqa: E402
from chunkviz.eval.prior import (  # noqa: E402
    SIZES,
    ConfigRanks,
    DocumentRanks,
    HoldoutFigure,
    Prior,
    PriorFile,
    budget_values,
    document_ranks,
    size_of,
)
from chunkviz.eval.probes import DEFAULT_METHOD, probe_dataset  # noqa: E402
from chunkviz.eval.stats import Clusters, Resampling, bootstrap_ci, pairwise_tests  # noqa: E402
from chunkviz.eval.synthetic import DEFAULT_FORM, DEFAULT_QUESTIONS, synthetic_dataset  # noqa: E402
from chunkviz.retrieval.backends import get_backend  # noqa: E402

METRIC = "recall@budget"
PICKS = ("half", "zero", "prior")


def options_at(
    values: dict[str, np.ndarray],
    configs: dict[str, ConfigRanks],
    budget: int,
    cuts: dict[str, float],
    prior: dict[str, float],
    seed: int,
) -> list[Option]:
    """The decision's options at ``budget`` from per-question values (as ``verdict.choose``)."""
    n = len(next(iter(values.values())))
    resampling = Resampling.draw(Clusters.questions(n), 1000, seed)
    out = []
    for label, v in values.items():
        c = configs[label]
        e = bootstrap_ci(v, resampling=resampling)
        k = budget_k(max(c.mean_chunk_chars, 1.0), budget, k_max=max(1, c.chunks))
        cost = context_cost(
            k=k,
            chunks=c.chunks,
            mean_chunk_chars=c.mean_chunk_chars,
            mean_chunk_tokens=None,
            index_bytes=c.index_bytes,
        )
        ok = retrievable(
            chunks=c.chunks,
            documents=1,
            median_chunk_chars=c.median_chunk_chars,
            budget_chars=budget,
        )
        out.append(
            Option(
                label, e.mean, e.ci_low, e.ci_high, cost, cuts.get(label, 0.0), ok, prior.get(label)
            )
        )
    return out


def decide(
    values: dict[str, np.ndarray],
    configs: dict[str, ConfigRanks],
    budget: int,
    cuts: dict[str, float],
    prior: dict[str, float],
    seed: int,
    permutations: int,
) -> tuple[str, str]:
    """The rule's pick on these values and what drove it (``prior`` / ``questions``)."""
    rows = pairwise_tests(
        values,
        metric=METRIC,
        permutations=permutations,
        resamples=1000,
        seed=seed,
        margin=default_margin(METRIC),
    )
    choice = recommend(
        options_at(values, configs, budget, cuts, prior, seed),
        rows,
        basis="budget",
        metric=METRIC,
        delta=default_margin(METRIC),
    )
    return choice.pick, choice.driver


def collect(
    datasets: list[str], min_questions: int, synthetic: int, seed: int, shard: tuple[int, int]
) -> list[dict[str, Any]]:
    """Per document: real ranks, synthetic ranks and probe cuts under every configuration."""
    be = get_backend("bm25")
    grid = tune_grid()
    docs: list[dict[str, Any]] = []
    for name in datasets:
        data = load_dataset(name)
        by_doc: dict[str, list[Any]] = {}
        for q in data.questions:
            by_doc.setdefault(q.doc_id, []).append(q)
        for d, doc in enumerate(data.documents):
            questions = by_doc.get(doc.doc_id, [])
            if not questions:
                continue
            real = document_ranks(doc, questions, grid, be)
            entry: dict[str, Any] = {
                "dataset": name,
                "doc_id": doc.doc_id,
                "chars": len(doc.text),
                "questions": len(questions),
                "real": real,
            }
            # Every document feeds the prior of the others; only those with enough questions
            # (and of this shard) are held out and decided on.
            entry["held_out"] = len(questions) >= min_questions and d % shard[1] == shard[0]
            if entry["held_out"]:
                made = synthetic_dataset([doc], DEFAULT_FORM, n=synthetic, seed=seed).questions
                entry["synthetic"] = document_ranks(doc, made, grid, be) if made else None
                probes = probe_dataset([doc], method=DEFAULT_METHOD)
                entry["cuts"] = (
                    {r.config: r.broken / len(probes.questions) for r in lost_table(probes, grid)}
                    if probes.questions
                    else {}
                )
            docs.append(entry)
            print(f"\r{name} {d + 1}/{len(data.documents)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return docs


def run(
    datasets: list[str],
    budgets: list[int],
    seeds: list[int],
    min_questions: int,
    synthetic: int,
    permutations: int,
    shard: tuple[int, int],
) -> dict[str, Any]:
    """Every held-out document, budget and seed: the picks and their held-out scores."""
    docs = collect(datasets, min_questions, synthetic, seeds[0], shard)
    labels = [c.label for c in tune_grid()]
    prior = Prior(
        PriorFile(
            schema="chunkviz.prior",
            version=1,
            backend="bm25",
            grid=tuple(labels),
            datasets=tuple(datasets),
            documents=tuple(
                DocumentRanks(
                    dataset=e["dataset"], doc_id=e["doc_id"], chars=e["chars"], configs=e["real"]
                )
                for e in docs
            ),
        )
    )
    rows: list[dict[str, Any]] = []
    for e in (x for x in docs if x["held_out"]):
        real: dict[str, ConfigRanks] = e["real"]
        n = e["questions"]
        for budget in budgets:
            means = prior.means(budget, exclude={e["doc_id"]})
            values = {lab: budget_values(real[lab], "recall", budget) for lab in labels}
            by_prior = prior_pick(options_at(values, real, budget, e["cuts"], means, seeds[0]))
            zero = (
                decide(
                    {lab: budget_values(e["synthetic"][lab], "recall", budget) for lab in labels},
                    real,
                    budget,
                    e["cuts"],
                    means,
                    seeds[0],
                    permutations,
                )
                if e["synthetic"]
                else (by_prior, "prior")
            )
            for seed in seeds:
                order = np.random.default_rng(seed).permutation(n)
                first, second = np.sort(order[: n // 2]), np.sort(order[n // 2 :])
                half = decide(
                    {lab: v[first] for lab, v in values.items()},
                    real,
                    budget,
                    e["cuts"],
                    means,
                    seed,
                    permutations,
                )
                score = {lab: float(v[second].mean()) for lab, v in values.items()}
                rows.append(
                    {
                        "dataset": e["dataset"],
                        "document": e["doc_id"],
                        "seed": seed,
                        "budget": budget,
                        "chars": e["chars"],
                        "questions": int(second.size),
                        "half": half[0],
                        "half_driver": half[1],
                        "zero": zero[0],
                        "zero_driver": zero[1],
                        "prior": by_prior,
                        "score": score,
                    }
                )
    return {
        "datasets": datasets,
        "budgets": budgets,
        "seeds": seeds,
        "min_questions": min_questions,
        "synthetic": synthetic,
        "rows": rows,
    }


def _interval(diff: np.ndarray, units: np.ndarray) -> tuple[float, float, float]:
    """Mean of per-unit differences with a 95% bootstrap interval resampling units."""
    est = bootstrap_ci(
        diff, resampling=Resampling.draw(Clusters.of(list(units), "document"), 2000, 0)
    )
    return est.mean, est.ci_low, est.ci_high


def summary(figures: dict[str, Any]) -> str:
    """The Markdown tables of the figures: one per corpus, a row per budget."""
    lines = [
        f"Held-out Recall at the budget (BM25, seeds {figures['seeds']}, documents with at "
        f"least {figures['min_questions']} real questions; zero-label: "
        f"{figures['synthetic']} synthetic {DEFAULT_FORM} questions asked per document). "
        "Differences are per split, averaged over documents, 95% bootstrap intervals "
        "resampling documents.",
        "",
    ]
    for name in figures["datasets"]:
        rows = [r for r in figures["rows"] if r["dataset"] == name]
        if not rows:
            continue
        docs = len({r["document"] for r in rows})
        lines += [
            f"**{name}** ({docs} documents)",
            "",
            "| budget | half-label pick | zero-label pick | prior's pick | best always-X "
            "fixed (hindsight) | half − best fixed | zero − best fixed | half − prior | "
            "zero − prior | picks driven by the questions (half / zero) |",
            "|---:|---:|---:|---:|---|---|---|---|---|---:|",
        ]
        for budget in figures["budgets"]:
            at = [r for r in rows if r["budget"] == budget]
            units = np.array([r["document"] for r in at])
            fixed = sorted({lab for r in at for lab in r["score"] if lab.startswith("fixed-")})
            means = {lab: float(np.mean([r["score"][lab] for r in at])) for lab in fixed}
            best = max(fixed, key=lambda lab: means[lab])
            got = {p: np.array([r["score"][r[p]] for r in at]) for p in PICKS}
            base = np.array([r["score"][best] for r in at])

            def cell(d: np.ndarray, units: np.ndarray = units) -> str:
                m, lo, hi = _interval(d, units)
                return f"{m:+.4f} ({lo:+.4f} to {hi:+.4f})"

            driven = (
                sum(r["half_driver"] == "questions" for r in at),
                sum(r["zero_driver"] == "questions" for r in at),
            )
            lines.append(
                f"| {budget:,} | {got['half'].mean():.4f} | {got['zero'].mean():.4f} | "
                f"{got['prior'].mean():.4f} | {best} {means[best]:.4f} | "
                f"{cell(got['half'] - base)} | {cell(got['zero'] - base)} | "
                f"{cell(got['half'] - got['prior'])} | {cell(got['zero'] - got['prior'])} | "
                f"{driven[0]} / {driven[1]} of {len(at)} |"
            )
        lines.append("")
        for budget in figures["budgets"]:
            at = [r for r in rows if r["budget"] == budget]
            counts: dict[str, int] = {}
            for r in at:
                counts[r["zero"]] = counts.get(r["zero"], 0) + 1
            top = ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))
            lines.append(f"- {budget:,} characters, zero-label picks: {top}")
        lines.append("")
    return "\n".join(lines)


def holdout_figures(figures: dict[str, Any]) -> list[HoldoutFigure]:
    """Per budget and document size: the mean held-out scores Tune prints beside its pick."""
    out = []
    for budget in figures["budgets"]:
        for size, _low, _high in SIZES:
            at = [
                r for r in figures["rows"] if r["budget"] == budget and size_of(r["chars"]) == size
            ]
            if not at:
                continue
            fixed = sorted({lab for r in at for lab in r["score"] if lab.startswith("fixed-")})
            means = {lab: float(np.mean([r["score"][lab] for r in at])) for lab in fixed}
            best = max(fixed, key=lambda lab: means[lab])
            out.append(
                HoldoutFigure(
                    budget=budget,
                    size=size,
                    corpora=tuple(sorted({r["dataset"] for r in at})),
                    documents=len({r["document"] for r in at}),
                    zero=round(float(np.mean([r["score"][r["zero"]] for r in at])), 4),
                    half=round(float(np.mean([r["score"][r["half"]] for r in at])), 4),
                    prior=round(float(np.mean([r["score"][r["prior"]] for r in at])), 4),
                    fixed=round(means[best], 4),
                    fixed_label=best,
                )
            )
    return out


def main() -> int:
    """Parse, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="jsquad,jaquad")
    parser.add_argument("--budgets", type=int, nargs="+", default=[1000, 2000, 4000])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument(
        "--min",
        type=int,
        default=20,
        dest="min_questions",
        help="hold out documents with at least this many questions (default 20)",
    )
    parser.add_argument("--synthetic", type=int, default=DEFAULT_QUESTIONS)
    parser.add_argument("--permutations", type=int, default=2000)
    parser.add_argument("--json", default=None, help="also write the figures here")
    parser.add_argument(
        "--figures",
        default=None,
        metavar="PATH",
        help="also write the per-size figures Tune prints (chunkviz/data/tune_validation.json)",
    )
    parser.add_argument(
        "--shard",
        default="0/1",
        metavar="I/N",
        help="hold out only documents whose index is I modulo N",
    )
    parser.add_argument(
        "--merge",
        nargs="+",
        default=None,
        metavar="JSON",
        help="print the summary of shards' --json files instead of running",
    )
    args = parser.parse_args()
    started, cpu = time.perf_counter(), time.process_time()
    if args.merge:
        parts = [json.loads(Path(p).read_text(encoding="utf-8")) for p in args.merge]
        merged = {**parts[0], "rows": [r for p in parts for r in p["rows"]]}
        print(summary(merged))
        if args.figures:
            write_figures(merged, args.figures)
        return 0
    i, _, n = args.shard.partition("/")
    figures = run(
        [d.strip() for d in args.datasets.split(",") if d.strip()],
        args.budgets,
        args.seeds,
        args.min_questions,
        args.synthetic,
        args.permutations,
        (int(i), int(n)),
    )
    print(summary(figures))
    print(
        f"\n({time.perf_counter() - started:.0f} s wall, {time.process_time() - cpu:.0f} s "
        f"CPU, load {os.getloadavg()[0]:.1f})"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1), encoding="utf-8")
    if args.figures:
        write_figures(figures, args.figures)
    return 0


def write_figures(figures: dict[str, Any], path: str) -> None:
    """Write ``holdout_figures`` as the shipped file reads them."""
    data = msgspec.json.format(msgspec.json.encode(holdout_figures(figures)), indent=1)
    Path(path).write_bytes(data + b"\n")


if __name__ == "__main__":
    raise SystemExit(main())
