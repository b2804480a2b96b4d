"""Dense encoding on a pool of 1-thread worker processes against one in-process encoder.

Two measurements, both in this one run so that both paths see the same machine load:

1. ``startup``: how long an ``EncoderPool`` (spawn start method) takes from start until every
   worker has loaded the backend, against loading the backend in this process. That difference
   is what forking would save, and what spawn costs once per pool.
2. ``cold``: the whole benchmark (``run_benchmark``: load, chunk, spans, encode, rank, score,
   tests) on a question sample, with a fresh temporary embedding cache each time, under
   - ``old``: the engine as it was, one encoder in this process on every available core
     (``LocalEngine(workers=0)`` with ``UseM3Backend(threads=available_cores())``), and
   - ``new``: the default ``LocalEngine()``: a pool of 1-thread worker processes, one per core.
   Wall time, CPU time (this process and its reaped workers) and whether the two runs' ranks,
   metrics and tests are identical. With ``--rounds 2`` or more the order alternates
   (old/new, new/old, ...) and medians are reported.

Usage: python bench/encode_pool.py [--backend use-m3] [--sample 300] [--rounds 1] [--grid G]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from chunkviz.datasets import load_dataset  # noqa: E402
from chunkviz.eval.engine import LocalEngine  # noqa: E402
from chunkviz.eval.grid import parse_grid  # noqa: E402
from chunkviz.eval.runner import run_benchmark  # noqa: E402
from chunkviz.retrieval.backends import get_backend  # noqa: E402
from chunkviz.retrieval.base import Backend  # noqa: E402
from chunkviz.retrieval.dense import UseM3Backend  # noqa: E402
from chunkviz.retrieval.pool import EncoderPool, default_workers  # noqa: E402
from chunkviz.retrieval.threads import available_cores  # noqa: E402


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have been waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def fresh_backend(name: str, threads: int | None) -> Backend:
    """A newly loaded backend (not the registry's cached one), so each run loads it cold."""
    if name == "use-m3":
        return UseM3Backend(threads=threads)
    return get_backend(name)


def startup(name: str) -> tuple[float, float, int]:
    """``(pool start-up s, in-process load s, workers)``: ready to encode, both ways."""
    be = fresh_backend(name, None)
    workers = default_workers(1 << 20)
    t0 = time.perf_counter()
    with EncoderPool(be, workers=workers) as pool:
        # One one-text batch per worker: returns when every worker has loaded and encoded.
        for _ in pool.encode([["梅雨"]] * workers, "query"):
            pass
        pool_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    fresh_backend(name, None).encode_queries(["梅雨"])
    return pool_s, time.perf_counter() - t0, workers


def cold_run(
    path: str, backend: str, sample: int, seed: int, grid: str
) -> tuple[float, float, Any]:
    """``(wall s, CPU s, results)`` of one cold benchmark run under ``path`` (old or new)."""
    dataset = load_dataset("jsquad")
    configs = parse_grid(grid)
    with tempfile.TemporaryDirectory(prefix="chunkviz-pool-") as tmp:
        cpu0, t0 = cpu_seconds(), time.perf_counter()
        if path == "old":
            be = fresh_backend(backend, available_cores())
            results = run_benchmark(
                dataset,
                configs,
                be,
                cache_dir=tmp,
                sample=sample,
                seed=seed,
                engine=LocalEngine(workers=0),
            )
        else:
            be = fresh_backend(backend, None)
            with LocalEngine() as engine:
                results = run_benchmark(
                    dataset, configs, be, cache_dir=tmp, sample=sample, seed=seed, engine=engine
                )
        return time.perf_counter() - t0, cpu_seconds() - cpu0, results


def main() -> None:
    """Print the start-up cost and the cold benchmark under both paths."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="use-m3")
    parser.add_argument("--sample", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--grid",
        default="default",
        help="as chunkviz bench --grid: default or labels such as paragraph",
    )
    args = parser.parse_args()
    load = os.getloadavg()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {available_cores()} cores, "
        f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    pool_s, local_s, workers = startup(args.backend)
    print(
        f"startup: pool of {workers} spawned workers ready in {pool_s:.1f} s; the backend "
        f"loads in this process in {local_s:.1f} s"
    )
    walls: dict[str, list[float]] = {"old": [], "new": []}
    cpus: dict[str, list[float]] = {"old": [], "new": []}
    out: dict[str, Any] = {}
    for r in range(args.rounds):
        for path in ("old", "new") if r % 2 == 0 else ("new", "old"):
            wall, cpu, res = cold_run(path, args.backend, args.sample, args.seed, args.grid)
            walls[path].append(wall)
            cpus[path].append(cpu)
            out[path] = res
            t = res.timings
            print(
                f"  round {r + 1} {path}: wall {wall:6.1f} s, CPU {cpu:6.1f} s, encode "
                f"{t.encode_seconds:6.1f} s for {t.encoded_texts} texts"
            )
    old, new = out["old"], out["new"]
    identical = (
        old.ranks == new.ranks and old.metrics == new.metrics and old.pairwise == new.pairwise
    )
    w_old, w_new = statistics.median(walls["old"]), statistics.median(walls["new"])
    c_old, c_new = statistics.median(cpus["old"]), statistics.median(cpus["new"])
    load = os.getloadavg()
    print(
        f"cold {args.backend} benchmark, {len(new.question_ids)} questions, "
        f"{len(new.configs)} configurations: old {w_old:.1f} s, new {w_new:.1f} s -> "
        f"new/old {w_new / w_old:.2f}x wall (CPU {c_old:.1f} -> {c_new:.1f} s); "
        f"ranks, metrics and tests identical: {identical}"
    )
    print(f"load average at the end {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
