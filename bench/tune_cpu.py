"""CPU time of ``chunkviz tune`` on a 30,000-character document with BM25 (issue 22).

The document is made from the vendored JSQuAD validation split: its articles in file order, joined
by blank lines, cut at 30,000 characters (the same bytes on every run). Each round runs ``python -m
chunkviz tune DOC --quiet`` (the default number of synthetic questions of the default form, the tune
grid's 16 configurations, every statistic) in a fresh interpreter and keeps its CPU time (user +
system, ``os.wait4``) and wall time; as the reference measured in the same run, the interpreter
start and the CLI's imports alone (``python -m chunkviz tune --help``). CPU time is the figure: on a
shared machine wall time includes the waits for a core. Target: at most 10 s.

    python bench/tune_cpu.py               # 3 rounds
    python bench/tune_cpu.py --rounds 5 --chars 30000
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
sys.path.insert(0, str(ROOT))

from chunkviz.datasets import load_dataset  # noqa: E402
from chunkviz.eval.synthetic import DEFAULT_FORM, DEFAULT_QUESTIONS  # noqa: E402

TARGET_CPU_SECONDS = 10.0


def document(chars: int) -> str:
    """JSQuAD's articles in file order, joined by blank lines, cut at ``chars`` characters."""
    out = ""
    for doc in load_dataset("jsquad").documents:
        if len(out) >= chars:
            break
        out += doc.text + "\n\n"
    return out[:chars]


def child(args: list[str]) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of ``python -m chunkviz ARGS``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "chunkviz", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"chunkviz {' '.join(args)} failed (exit {status})")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--chars", type=int, default=30_000)
    args = parser.parse_args()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tune-30k.txt"
        path.write_text(document(args.chars), encoding="utf-8")
        runs: dict[str, list[tuple[float, float]]] = {"tune": [], "imports": []}
        for _ in range(args.rounds):
            runs["tune"].append(child(["tune", str(path), "--quiet"]))
            runs["imports"].append(child(["tune", "--help"]))
    print(f"| run | CPU s (median of {args.rounds}) | wall s (median) |")
    print("|---|---:|---:|")
    for name, rows in runs.items():
        cpu = statistics.median(r[0] for r in rows)
        wall = statistics.median(r[1] for r in rows)
        print(f"| {name} | {cpu:.1f} | {wall:.1f} |")
    cpu = statistics.median(r[0] for r in runs["tune"])
    print(
        f"\n{args.chars:,} characters, BM25, {DEFAULT_QUESTIONS} {DEFAULT_FORM} synthetic "
        f"questions; load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start, "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end. "
        f"Target: <= {TARGET_CPU_SECONDS:g} CPU s: "
        f"{'met' if cpu <= TARGET_CPU_SECONDS else 'NOT met'}."
    )


if __name__ == "__main__":
    main()
