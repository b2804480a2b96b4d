"""The benchmark on both engines: Ray Data's overhead against the local engine on one machine.

Runs the real CLI (``python -m chunkviz bench``) once per engine on the same work: by default
the default grid on the JSQuAD validation split with use-m3 and 500 questions. Each engine gets
its own fresh embedding cache, so each really encodes every unique chunk text. Wall times are
measured around the whole process: Python start-up, loading the model in the driver, and for
Ray starting and stopping a local Ray and its actors (each loading its own model).

Prints per engine: wall time, the encode stage's time and the chunks encoded per second in it
(unique chunk texts / time of the document-encode stage), then the time ratio Ray / local
(target on one machine: at most 1.5x), and whether the two results files rank and score alike.

    python bench/scaling.py
    python bench/scaling.py --sample 100 --actors 2
    python bench/scaling.py --local-cores 1 --actors 1   # one encoding thread on each engine
    python bench/scaling.py --address ray://head:10001 --gpus-per-actor 1   # against a cluster
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.5


def run_engine(
    engine: str, common: list[str], extra: list[str], tmp: Path, cores: int | None = None
) -> dict:
    out, cache = tmp / f"out-{engine}", tmp / f"cache-{engine}"
    cmd = [
        sys.executable,
        "-m",
        "chunkviz",
        "bench",
        "--quiet",
        *common,
        "--engine",
        engine,
        "--out",
        str(out),
        "--cache-dir",
        str(cache),
        *extra,
    ]
    # use-m3 takes its thread count from the process's CPU affinity (available_cores).
    pin = None if cores is None else (lambda: os.sched_setaffinity(0, range(cores)))
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, preexec_fn=pin)
    wall = time.perf_counter() - t0
    (path,) = out.glob("*.json")
    results = json.loads(path.read_text(encoding="utf-8"))
    t = results["timings"]
    doc_encode = sum(c["encode_seconds"] for c in results["configs"])
    return {
        "engine": engine,
        "wall": wall,
        "results": results,
        "doc_encode": doc_encode,
        "chunks": t["unique_texts"],
        "encoded": t["encoded_texts"],
        "encode": t["encode_seconds"],
        "chunk": t["chunk_seconds"],
        "in_process": t["total_seconds"],
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dataset", default="jsquad")
    p.add_argument("--backend", default="use-m3")
    p.add_argument("--sample", type=int, default=500)
    p.add_argument("--grid", default="default")
    p.add_argument("--address", default=None, help="Ray cluster (default: a local Ray)")
    p.add_argument("--actors", type=int, default=None)
    p.add_argument("--cpus-per-actor", type=float, default=None)
    p.add_argument("--gpus-per-actor", type=float, default=None)
    p.add_argument("--batch-size", type=int, default=None)
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local Ray")
    p.add_argument(
        "--local-cores",
        type=int,
        default=None,
        help="pin the local run to this many cores (and so use-m3 threads); with "
        "--actors 1 this compares one encoding thread on each engine",
    )
    args = p.parse_args()

    common = [
        "--dataset",
        args.dataset,
        "--backend",
        args.backend,
        "--sample",
        str(args.sample),
        "--grid",
        args.grid,
    ]
    extra = []
    for name in ("address", "actors", "cpus_per_actor", "gpus_per_actor", "batch_size", "num_cpus"):
        value = getattr(args, name)
        if value is not None:
            extra += [f"--{name.replace('_', '-')}", str(value)]
    with tempfile.TemporaryDirectory(prefix="chunkviz-scaling-") as tmp:
        local = run_engine("local", common, [], Path(tmp), args.local_cores)
        ray = run_engine("ray", common, extra, Path(tmp))

    r = local["results"]
    print(
        f"dataset={args.dataset} backend={args.backend} questions={len(r['question_ids'])} "
        f"configs={len(r['configs'])} unique chunk texts={local['chunks']} "
        f"cores={os.cpu_count()} local cores={args.local_cores or 'all'} ray options={extra} "
        f"load average={os.getloadavg()[0]:.1f}"
    )
    print("| engine | wall s | in-process s | chunk stage s | encode stage s | chunks encoded/s |")
    print("|---|---|---|---|---|---|")
    for row in (local, ray):
        rate = row["chunks"] / row["doc_encode"] if row["doc_encode"] else float("nan")
        print(
            f"| {row['engine']} | {row['wall']:.1f} | {row['in_process']:.1f} | "
            f"{row['chunk']:.1f} | {row['encode']:.1f} | {rate:.1f} |"
        )
    ratio = ray["wall"] / local["wall"]
    verdict = "met" if ratio <= TARGET else "NOT met"
    print(f"time ratio ray/local: {ratio:.2f}x (target <= {TARGET}x: {verdict})")
    same = all(ray["results"][k] == r[k] for k in ("ranks", "metrics", "pairwise"))
    print(f"same ranks, metrics and tests on both engines: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
