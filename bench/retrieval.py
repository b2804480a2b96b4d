"""Retrieval benchmark timing: cold run vs. the encode cost alone, and a warm rerun from cache.

Runs the real CLI (``python -m chunkviz bench``) twice on the full default grid with a fresh
embedding cache:

1. cold: every unique chunk text and question is encoded once; the results file says how long
   the backend's encode calls took (``timings.encode_seconds``) — the time to embed each unique
   text once. Target: cold wall time <= 1.2x that.
2. warm: the same command again; every vector comes from the cache. Target: >= 10x faster.

Wall times are measured around the whole process (start-up, dataset loading and statistics
included). ``--ngram-sweep`` instead compares BM25 over 1-, 2- and 3-grams on a sample.

    python bench/retrieval.py --backend use-m3 --out results
    python bench/retrieval.py --ngram-sweep --sample 600
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_cli(args: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "chunkviz", "bench", "--quiet", *args],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - t0


def timing(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="chunkviz-bench-") as tmp:
        cache = str(Path(tmp) / "cache")
        warm_out = str(Path(tmp) / "warm")
        common = [
            "--dataset",
            args.dataset,
            "--backend",
            args.backend,
            "--sample",
            str(args.sample),
            "--cache-dir",
            cache,
        ]
        cold_out = Path(tmp) / "cold"
        cold = run_cli([*common, "--out", str(cold_out)])
        (written,) = cold_out.glob("*.json")  # the one file of this run (its id has a hash)
        results = json.loads(written.read_text(encoding="utf-8"))
        Path(args.out).mkdir(parents=True, exist_ok=True)
        shutil.copy(written, Path(args.out) / written.name)
        t = results["timings"]
        warm = run_cli([*common, "--out", warm_out])
        warm_t = json.loads((Path(warm_out) / written.name).read_text())["timings"]
    print(
        f"backend={args.backend} questions={len(results['question_ids'])} "
        f"configs={len(results['configs'])}"
    )
    print(
        f"unique chunk texts={t['unique_texts']} encoded texts (chunks+questions)="
        f"{t['encoded_texts']}"
    )
    print(f"encode only (each unique text once): {t['encode_seconds']:.1f} s")
    print(
        f"cold run, wall: {cold:.1f} s (in-process {t['total_seconds']:.1f} s) -> "
        f"{cold / t['encode_seconds']:.2f}x encode-only"
    )
    print(
        f"warm run, wall: {warm:.1f} s (in-process {warm_t['total_seconds']:.1f} s, "
        f"cache hits {warm_t['cache_hits']}, encoded {warm_t['encoded_texts']}) -> "
        f"{cold / warm:.1f}x faster than cold"
    )


def ngram_sweep(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    from chunkviz.datasets import load_dataset
    from chunkviz.eval.grid import Config, fixed_config
    from chunkviz.eval.runner import run_benchmark
    from chunkviz.retrieval.lexical import BM25Backend

    dataset = load_dataset(args.dataset)
    configs = [Config("paragraph", "paragraph", {}), fixed_config(400, 80)]
    print("| n | config | Recall@5 | nDCG@10 | MRR@10 |")
    print("|---|---|---|---|---|")
    for n in (1, 2, 3):
        r = run_benchmark(
            dataset,
            configs,
            BM25Backend(n),
            sample=args.sample,
            seed=args.seed,
            bootstrap=200,
            permutations=200,
        )
        for c in configs:
            m = r.metrics[c.label]
            print(
                f"| {n} | {c.label} | {m['recall@5'].mean:.3f} | {m['ndcg@10'].mean:.3f} "
                f"| {m['mrr@10'].mean:.3f} |"
            )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--dataset", default="jsquad")
    p.add_argument("--backend", default="use-m3")
    p.add_argument("--sample", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--out",
        default=str(ROOT / "chunkviz" / "results"),
        help="where the cold run's results file goes",
    )
    p.add_argument("--ngram-sweep", action="store_true")
    args = p.parse_args()
    if args.ngram_sweep:
        ngram_sweep(args)
    else:
        timing(args)


if __name__ == "__main__":
    main()
