"""Rerun the shipped benchmark runs in the current schema and prove their numbers unchanged.

For each old results file (schema version 1) given: rerun the benchmark with the file's own
settings (dataset spec, backend, measure, sample, seed, grid, cut-offs, budget, statistics), then
compare field by field with the old file: the question ids, every rank, every rank metric's mean
and interval, the budget section, every pairwise test and every configuration's counts must be
identical. The span metrics are reported apart: their top k now breaks ties pessimistically
(``chunkviz.retrieval.ranking``), as the ranks always did, so they may differ where a relevant
chunk tied with irrelevant ones at the cut-off. With ``--write`` and identical ranks and metrics,
the new file is written to ``--out`` and the old one removed.

    python scripts/regenerate_results.py chunkviz/results/jsquad-bm25-all-s0.json --write
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chunkviz.datasets import load_dataset  # noqa: E402
from chunkviz.eval.grid import Config  # noqa: E402
from chunkviz.eval.measures import rank_keys, span_measures  # noqa: E402
from chunkviz.eval.results import results_to_dict, save_results  # noqa: E402
from chunkviz.eval.runner import run_benchmark  # noqa: E402

CONFIG_FIELDS = (
    "label",
    "strategy",
    "params",
    "chunks",
    "predicted_chunks",
    "broken",
    "chars_embedded",
    "index_bytes",
    "dims",
    "mean_chunk_chars",
    "over_limit",
)


def compare(old: dict, new: dict) -> list[str]:
    """Every difference in ranks and rank metrics between an old file and a new run's dict."""
    problems = []
    if old["question_ids"] != new["question_ids"]:
        problems.append("question_ids differ")
    for key in ("name", "spec", "documents", "questions", "sample", "seed", "dropped"):
        if old["dataset"][key] != new["dataset"][key]:
            problems.append(f"dataset.{key}: {old['dataset'][key]} != {new['dataset'][key]}")
    for a, b in zip(old["configs"], new["configs"], strict=True):
        for key in CONFIG_FIELDS:
            if a.get(key) != b.get(key):
                problems.append(f"configs {a['label']}.{key}: {a.get(key)} != {b.get(key)}")
    for label, ranks in old["ranks"].items():
        if ranks != new["ranks"][label]:
            n = sum(x != y for x, y in zip(ranks, new["ranks"][label], strict=True))
            problems.append(f"ranks of {label}: {n} differ")
        for key in rank_keys():
            if old["metrics"][label][key] != new["metrics"][label][key]:
                problems.append(
                    f"metrics {label} {key}: {old['metrics'][label][key]} != "
                    f"{new['metrics'][label][key]}"
                )
    if old["budget"] != new["budget"]:
        problems.append("budget section differs")
    strip = [{k: v for k, v in p.items() if k != "verdict"} for p in old["pairwise"]]
    if strip != new["pairwise"]:
        problems.append("pairwise tests differ")
    return problems


def span_report(old: dict, new: dict) -> list[str]:
    """Per configuration: how many top-k lists changed, and the span metrics' old and new means."""
    lines = []
    for label in old["ranks"]:
        changed = sum(
            a != b
            for a, b in zip(
                old["retrieval"]["topk"][label], new["retrieval"]["topk"][label], strict=True
            )
        )
        means = []
        for measure in span_measures():
            name, key = measure.name, measure.key(new["retrieval"]["span_k"])
            o, n = old["metrics"][label][key]["mean"], new["metrics"][label][key]["mean"]
            means.append(f"{name} {o:.6f} -> {n:.6f}")
        lines.append(f"  {label}: top-k lists changed for {changed} questions; " + ", ".join(means))
    return lines


def main() -> int:
    """Rerun, compare, and with --write replace each file."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("files", nargs="+")
    p.add_argument("--out", default=str(ROOT / "chunkviz" / "results"))
    p.add_argument("--write", action="store_true")
    args = p.parse_args()
    ok = True
    for path in map(Path, args.files):
        old = json.loads(path.read_text(encoding="utf-8"))
        configs = [Config.from_dict(c) for c in old["configs"]]
        measure = old["backend"]["measure"] if old["backend"]["kind"] == "dense" else "cosine"
        t0 = time.perf_counter()
        dataset = load_dataset(old["dataset"]["spec"])
        results = run_benchmark(
            dataset,
            configs,
            old["backend"]["name"],
            measure=measure,
            spec=old["dataset"]["spec"],
            sample=old["dataset"]["sample"],
            seed=old["dataset"]["seed"],
            ks=old["ks"],
            budget_chars=old["budget"]["chars"],
            alpha=old["stats"]["alpha"],
            bootstrap=old["stats"]["bootstrap"],
            permutations=old["stats"]["permutations"],
        )
        wall = time.perf_counter() - t0
        new = results_to_dict(results)
        problems = compare(old, new)
        print(f"{path}: rerun in {wall:.1f} s (in-process {results.timings.total_seconds:.1f} s)")
        print(
            "  ranks, rank metrics, budget, pairwise tests, counts: "
            + ("identical" if not problems else "DIFFER")
        )
        for line in problems:
            print(f"  {line}")
        print("\n".join(span_report(old, new)))
        ok = ok and not problems
        if args.write and not problems:
            written = save_results(results, args.out)
            if written.resolve() != path.resolve():
                path.unlink()
            print(f"  wrote {written}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
