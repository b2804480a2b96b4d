"""Encoder threads: use-m3 and e5-small with one thread and with every core, idle and loaded.

Each measurement runs in a fresh process (OpenMP and BLAS read their thread count when they
load), encodes the same chunk texts (the JSQuAD sample's ``fixed-200-40`` chunks) and reports
the best of ``--repeat`` encodes. "loaded" adds one busy process per core beside it (pure Python
spinning at normal priority), the state of a machine whose cores other work already holds.

    python bench/threads.py [--chunks 16] [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's chunkviz, installed or not

from chunkviz.retrieval.threads import available_cores  # noqa: E402

CHILD = """
import json, sys, time
from chunkviz.document import chunk_document
from chunkviz.retrieval.backends import make_backend
from chunkviz.samples import load_sample
name, threads, chunks, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
doc = load_sample("jsquad_tsuyu")
texts = chunk_document(doc, "fixed", {"size": 200, "overlap": 40}).embed_texts()[:chunks]
backend = make_backend(name, threads=threads)
backend.encode_documents(texts[:1])
best = float("inf")
for _ in range(repeat):
    t = time.perf_counter()
    backend.encode_documents(texts)
    best = min(best, time.perf_counter() - t)
print(json.dumps({"seconds": best, "chars": sum(map(len, texts))}))
"""


def _spin(stop: float) -> None:
    x = 0
    while time.time() < stop:
        x += 1


def measure(name: str, threads: int, chunks: int, repeat: int) -> dict[str, float]:
    # The child imports this checkout's chunkviz too, from any working directory.
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "PYTHONPATH": path}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, name, str(threads), str(chunks), str(repeat)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--backends", default="use-m3,e5-small")
    args = parser.parse_args()
    cores = available_cores()
    print(f"{cores} cores; load before: {os.getloadavg()[0]:.1f} (1 min)")
    print("| backend | condition | threads | seconds | chars/s | vs 1 thread |")
    print("|---|---|---:|---:|---:|---:|")
    for name in args.backends.split(","):
        for condition in ("as found", "loaded"):
            spinners: list[mp.Process] = []
            if condition == "loaded":
                stop = time.time() + 3600
                spinners = [mp.Process(target=_spin, args=(stop,)) for _ in range(cores)]
                for p in spinners:
                    p.start()
            try:
                rows = {t: measure(name, t, args.chunks, args.repeat) for t in sorted({1, cores})}
            finally:
                for p in spinners:
                    p.terminate()
                    p.join()
            one = rows[1]["seconds"]
            for t, r in rows.items():
                print(
                    f"| {name} | {condition} | {t} | {r['seconds']:.2f} | "
                    f"{r['chars'] / r['seconds']:,.0f} | {r['seconds'] / one:.2f}× |"
                )
    print(f"load after: {os.getloadavg()[0]:.1f} (1 min)")


if __name__ == "__main__":
    main()
