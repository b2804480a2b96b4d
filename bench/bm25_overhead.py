"""The full BM25 benchmark against bare bm25s doing the same retrieval (issue 27, item 3).

Each round runs, in fresh interpreters and in alternating order:

- **chunkviz**: ``python -m chunkviz bench --dataset jsquad --backend bm25 --sample 0`` (every
  stage: load, chunk, spans, index, rank, span metrics, bootstrap, permutation and equivalence
  tests, sensitivity, the results file);
- **bare bm25s**: the same retrieval with bm25s alone: the same dataset loader and chunks of the
  default grid, the same character bigrams, ``bm25s.BM25(k1=1.5, b=0.75).index(...)`` per
  configuration, and ``retrieve(..., k=20)`` of every question against it, once with bm25s's
  default backend (numba when installed: its first retrieval compiles) and once with
  ``backend="numpy"``.

Wall time, CPU time (user + system) and peak resident memory of each child process
(``os.wait4``) are kept, and the medians over the rounds are printed with their ratios to the
faster bare run. On a shared machine the CPU time is the fairer figure: wall time includes the
waits for a core; the load average is printed at the start and the end. Each chunkviz round
writes to a folder of its own, as a first run does (a file already there is read back and
compared before it is replaced, which is not the benchmark's work). Target (issue 40): chunkviz
<= 1.10x bare bm25s in CPU time.

    python bench/bm25_overhead.py               # 5 rounds
    python bench/bm25_overhead.py --rounds 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.10


def bare(backend: str) -> None:
    """The bare bm25s run (in a child process)."""
    sys.path.insert(0, str(ROOT))
    import bm25s

    from chunkviz.datasets import load_dataset
    from chunkviz.eval.engine import LocalEngine
    from chunkviz.eval.grid import default_grid
    from chunkviz.retrieval.lexical import char_ngrams

    dataset = load_dataset("jsquad")
    configs = default_grid()
    queries = [char_ngrams(q.question, 2) for q in dataset.questions]
    for results in LocalEngine().chunk(dataset.documents, configs):
        texts = [t for r in results for t in r.embed_texts()]
        retriever = bm25s.BM25(k1=1.5, b=0.75, backend=backend)
        retriever.index([char_ngrams(t, 2) or [""] for t in texts], show_progress=False)
        retriever.retrieve(queries, k=min(20, len(texts)), show_progress=False)


def timed(cmd: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak resident MiB of one child process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed with exit code {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--bare", default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.bare:
        bare(args.bare)
        return
    me = str(Path(__file__).resolve())
    start = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="chunkviz-bm25-") as tmp:
        contestants = {
            "chunkviz": [
                sys.executable,
                "-m",
                "chunkviz",
                "bench",
                "--dataset",
                "jsquad",
                "--backend",
                "bm25",
                "--sample",
                "0",
                "--quiet",
                "--out",
            ],
            "bare bm25s (default backend)": [sys.executable, me, "--bare", "auto"],
            "bare bm25s (numpy backend)": [sys.executable, me, "--bare", "numpy"],
        }
        runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in contestants}
        for r in range(args.rounds):
            order = list(contestants.items())
            for name, cmd in order if r % 2 == 0 else order[::-1]:
                out = [str(Path(tmp) / f"round-{r}")] if name == "chunkviz" else []
                runs[name].append(timed(cmd + out))
                wall, cpu, mib = runs[name][-1]
                print(
                    f"round {r + 1} {name}: {wall:.1f} s wall, {cpu:.1f} s CPU, {mib:.0f} MiB",
                    file=sys.stderr,
                )
    load = os.getloadavg()
    print(
        f"{args.rounds} interleaved rounds, finished "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
        f"{start[0]:.1f} / {start[1]:.1f} / {start[2]:.1f} at the start, "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the end, on {os.cpu_count()} cores"
    )
    print("| run | median wall s | median CPU s | median peak MiB | CPU s per round |")
    print("|---|---:|---:|---:|---|")
    med = {}
    for name, values in runs.items():
        med[name] = tuple(statistics.median(v[i] for v in values) for i in range(3))
        cpus = ", ".join(f"{v[1]:.1f}" for v in values)
        print(f"| {name} | {med[name][0]:.1f} | {med[name][1]:.1f} | {med[name][2]:.0f} | {cpus} |")
    ref = min((n for n in med if n != "chunkviz"), key=lambda n: med[n][1])
    for i, what in ((1, "CPU time"), (0, "wall time")):
        ratio = med["chunkviz"][i] / med[ref][i]
        print(
            f"- {what}: chunkviz / {ref} = {ratio:.2f}x (target <= {TARGET:.2f}): "
            f"{'met' if ratio <= TARGET else 'NOT met'}"
        )
    print(f"- peak memory: chunkviz / {ref} = {med['chunkviz'][2] / med[ref][2]:.2f}x")


if __name__ == "__main__":
    main()
