"""Validate the recommendation rule on real labels: pick on half of a document, score on the rest.

For every JSQuAD validation document with at least ``--min`` questions, the tune grid (16
configurations, ``chunkviz.eval.grid.tune_grid``) is run on that document alone, as ``tune``
runs it (one index over the document's chunks, the backend's ranking). The document's real
questions are split in two halves by seed: on the first, the decision rule
(``chunkviz.eval.decision.recommend`` over Tune's paired tests: question-level units, Holm over
all pairs, margin 0.01; ties at the top broken by the share of the document's probe spans each
configuration cuts, as ``tune`` breaks them) picks a configuration; on the second, the pick is
scored (Recall@5) and compared with always using fixed-400-80 (the question-weighted and the
document-weighted mean over documents, and the paired per-split difference with a bootstrap
interval).
For reference, the naive rule "highest mean on the first half" is scored the same way.

    python bench/verdict_holdout.py                    # bm25, seed 0
    python bench/verdict_holdout.py --backend use-m3 --seeds 0 1 2

Prints Markdown (reproduced in ``docs/benchmarks.md``); ``--json`` writes the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chunkviz.datasets import load_dataset  # noqa: E402
from chunkviz.datasets.base import Dataset  # noqa: E402
from chunkviz.eval.decision import Option, context_cost, default_margin, recommend  # noqa: E402
from chunkviz.eval.grid import chunk_config, tune_grid  # noqa: E402
from chunkviz.eval.lost import lost_table  # noqa: E402
from chunkviz.eval.metrics import metric_values  # noqa: E402
from chunkviz.eval.probes import DEFAULT_METHOD, probe_dataset  # noqa: E402
from chunkviz.eval.spans import analyze_spans  # noqa: E402
from chunkviz.eval.stats import Clusters, Resampling, bootstrap_ci, pairwise_tests  # noqa: E402
from chunkviz.eval.tune import METRIC, TOP_K  # noqa: E402
from chunkviz.retrieval.backends import build_index, get_backend, prepare_queries  # noqa: E402
from chunkviz.retrieval.base import Backend  # noqa: E402
from chunkviz.retrieval.ranking import best_relevant_ranks  # noqa: E402

DEFAULT = "fixed-400-80"


def document_values(dataset: Dataset, doc_index: int, backend: Backend) -> dict[str, Any]:
    """Per configuration: Recall@5 of each of the document's questions, and its costs.

    The document alone is the index, as in ``tune``: chunk it (``grid.chunk_config``), find the
    chunks holding each answer (``spans.analyze_spans``), rank them (the backend's index and
    ``ranking.best_relevant_ranks``, ties against the relevant chunk) -- the runner's stages
    without the sensitivity definitions and span metrics this check does not need.
    """
    doc = dataset.documents[doc_index]
    questions = [q for q in dataset.questions if q.doc_id == doc.doc_id]
    probes = probe_dataset([doc], method=DEFAULT_METHOD)
    cut = ({r.config: r.broken / len(probes.questions)
            for r in lost_table(probes, tune_grid())} if probes.questions else {})
    queries = prepare_queries(backend, [q.question for q in questions])
    out: dict[str, Any] = {}
    for config in tune_grid():
        result = chunk_config(config, doc)
        texts = result.embed_texts()
        relevant = [sorted({i for st in analyze_spans(result, list(q.spans)).statuses
                            for i in st.containing}) for q in questions]
        index = build_index(backend, texts, "cosine")
        ranks = best_relevant_ranks(index.scores(queries), relevant)
        lengths = [c.end - c.start for c in result.chunks]
        out[config.label] = {
            "values": metric_values("recall", ranks, TOP_K),
            "cut": cut.get(config.label, 0.0),
            "cost": context_cost(k=TOP_K, chunks=len(lengths),
                                 mean_chunk_chars=float(np.mean(lengths)) if lengths else 0.0,
                                 mean_chunk_tokens=None, index_bytes=index.nbytes),
        }
    return out


def pick(values: dict[str, np.ndarray], costs: dict[str, Any], cuts: dict[str, float],
         seed: int) -> tuple[str, str, str]:
    """The rule's pick, the naive pick (highest mean) and the rule ("equivalent"/"best")."""
    rows = pairwise_tests(values, metric=METRIC, permutations=2000, resamples=1000, seed=seed,
                          margin=default_margin(METRIC))
    resampling = Resampling.draw(Clusters.questions(len(next(iter(values.values())))), 1000,
                                 seed)
    options = []
    for label, v in values.items():
        e = bootstrap_ci(v, resampling=resampling)
        options.append(Option(label, e.mean, e.ci_low, e.ci_high, costs[label], cuts[label]))
    choice = recommend(options, rows, basis="equal_k", metric=METRIC,
                       delta=default_margin(METRIC))
    naive = max(options, key=lambda o: o.mean).label
    return choice.pick, naive, ("saturated" if choice.saturated else choice.rule)


def run(backend: str, seeds: list[int], min_questions: int, shard: tuple[int, int] = (0, 1)
        ) -> dict[str, Any]:
    """Every document (of this shard: index modulo count), every seed: picks and scores."""
    dataset = load_dataset("jsquad")
    be = get_backend(backend)
    rows: list[dict[str, Any]] = []
    for d, doc in enumerate(dataset.documents):
        n = sum(1 for q in dataset.questions if q.doc_id == doc.doc_id)
        if n < min_questions or d % shard[1] != shard[0]:
            continue
        per_config = document_values(dataset, d, be)
        print(f"{d + 1}/{len(dataset.documents)} {doc.doc_id}", file=sys.stderr, flush=True)
        for seed in seeds:
            order = np.random.default_rng(seed).permutation(n)
            first, second = np.sort(order[: n // 2]), np.sort(order[n // 2:])
            chosen, naive, rule = pick({lab: c["values"][first] for lab, c in per_config.items()},
                                       {lab: c["cost"] for lab, c in per_config.items()},
                                       {lab: c["cut"] for lab, c in per_config.items()}, seed)
            score = {lab: float(c["values"][second].mean()) for lab, c in per_config.items()}
            rows.append({"document": doc.doc_id, "seed": seed, "questions": int(second.size),
                         "pick": chosen, "naive": naive, "rule": rule,
                         "rule_score": score[chosen], "naive_score": score[naive],
                         "default_score": score[DEFAULT],
                         "pick_chars": per_config[chosen]["cost"].chars,
                         "default_chars": per_config[DEFAULT]["cost"].chars})
    return {"backend": backend, "seeds": seeds, "min_questions": min_questions, "rows": rows}


def summary(figures: dict[str, Any]) -> str:
    """The Markdown table of the figures."""
    rows = figures["rows"]
    w = np.array([r["questions"] for r in rows], dtype=np.float64)
    lines = [f"Backend {figures['backend']}, seeds {figures['seeds']}, {len(rows)} document "
             f"splits (documents with at least {figures['min_questions']} questions); held-out "
             "Recall@5 on the second half of each document's questions.", "",
             "| rule | question-weighted | document-weighted | mean context (chars@5) |",
             "|---|---:|---:|---:|"]
    for name, key, chars in (("decision rule (pick on the first half)", "rule_score",
                              "pick_chars"),
                             ("naive: highest mean on the first half", "naive_score", None),
                             (f"always {DEFAULT}", "default_score", "default_chars")):
        v = np.array([r[key] for r in rows])
        c = f"{np.mean([r[chars] for r in rows]):,.0f}" if chars else "—"
        lines.append(f"| {name} | {np.average(v, weights=w):.4f} | {v.mean():.4f} | {c} |")
    diff = np.array([r["rule_score"] - r["default_score"] for r in rows])
    est = bootstrap_ci(diff, resamples=2000, seed=0)
    rules = {k: sum(1 for r in rows if r["rule"] == k) for k in ("equivalent", "best",
                                                                  "saturated")}
    picks: dict[str, int] = {}
    for r in rows:
        picks[r["pick"]] = picks.get(r["pick"], 0) + 1
    top = ", ".join(f"{k} {v}" for k, v in sorted(picks.items(), key=lambda kv: -kv[1])[:5])
    lines += ["", f"Rule minus always {DEFAULT}, per split (document-weighted): "
              f"{est.mean:+.4f} (95% bootstrap CI over splits {est.ci_low:+.4f} to "
              f"{est.ci_high:+.4f}). Rule used: {rules['equivalent']} cheaper equivalent, "
              f"{rules['best']} the best itself, {rules['saturated']} saturated. Most "
              f"frequent picks: {top}."]
    return "\n".join(lines)


def main() -> int:
    """Parse, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="bm25")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--min", type=int, default=8, dest="min_questions",
                        help="documents with at least this many questions (default 8)")
    parser.add_argument("--json", default=None, help="also write the figures here")
    parser.add_argument("--shard", default="0/1", metavar="I/N",
                        help="run only documents whose index is I modulo N (parallel runs)")
    parser.add_argument("--merge", nargs="+", default=None, metavar="JSON",
                        help="print the summary of shards' --json files instead of running")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.merge:
        parts = [json.loads(Path(p).read_text(encoding="utf-8")) for p in args.merge]
        figures = {**parts[0], "rows": sorted((r for p in parts for r in p["rows"]),
                                              key=lambda r: (r["document"], r["seed"]))}
        print(summary(figures))
        return 0
    i, _, n = args.shard.partition("/")
    figures = run(args.backend, args.seeds, args.min_questions, (int(i), int(n)))
    print(summary(figures))
    print(f"\n({time.perf_counter() - started:.0f} s)")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
