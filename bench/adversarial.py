"""Hostile input: does any strategy's time grow faster than the text on pathological input?

Each pathological text (runs of spaces, dots, newlines, commas, a run of 。 before と, Markdown
tables with commas in their cells, CSV-like blocks, and ordinary prose for reference) is built at
N and 4N characters and chunked by every registered strategy with its defaults. The time of one
chunking is the best of ``--repeats`` measurements of process CPU time (``time.process_time``:
what other work on a shared machine disturbs least); each measurement repeats the call until it
has run for at least ``--min-time`` seconds, so that fast strategies are not timed at the clock's
resolution. The N and 4N measurements alternate, round by round, after a garbage collection, so
that a change of load on the machine between them does not land on one side of the ratio. The
growth ratio is time(4N) / time(N): linear is 4, quadratic 16. Every ratio must be at most 5;
the script exits 1 otherwise.

NOTE N is a million characters so that N and 4N both leave the CPU caches: strategies that keep
one offset per character (recursive on a run without separators) are memory-bound, and between
sizes that fit a cache and sizes that do not the time per character itself grows (``list(range(
n))`` alone took 6.8 times longer at 80,000 than at 20,000 here, while the regexes that were
quadratic gave ratios of 16).

Then ``semantic`` (default TF-IDF embedder) runs on 1 MB and 10 MB of prose, each in a fresh
interpreter: its peak resident memory above the interpreter's baseline (after imports, before the
text exists) must stay under 300 MB for 1 MB, and the 10 MB run must complete.

Run from the repository root::

    python bench/adversarial.py              # N = 1,000,000 (about ten minutes on 2 cores)
    python bench/adversarial.py --quick      # N = 10,000, 2 repeats, 1 MB memory run only
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import chunkviz  # noqa: E402
from chunkviz.strategies import all_strategies  # noqa: E402

MAX_RATIO = 5.0
MEMORY_LIMIT_MB = 300.0


def _prose(n: int) -> str:
    samples = ROOT / "chunkviz" / "samples"
    base = (samples / "policy_ja.md").read_text(encoding="utf-8") + "\n\n" + (
        samples / "tech_en.md").read_text(encoding="utf-8")
    return (base * (n // len(base) + 1))[:n]


def _repeat(unit: str, n: int) -> str:
    return (unit * (n // len(unit) + 1))[:n]


INPUTS: dict[str, Callable[[int], str]] = {
    "spaces": lambda n: "a" + " " * (n - 2) + "b",
    "dots": lambda n: "a" + "." * (n - 2) + "b",
    "newlines": lambda n: "a" + "\n" * (n - 2) + "b",
    "commas": lambda n: "a" + "," * (n - 2) + "b",
    "。 run before と": lambda n: "a" + "。" * (n - 2) + "と",
    "md tables, commas": lambda n: _repeat(
        "| name | price, yen |\n|---|---|\n| a, b | 1,000 |\n| c | 2,000 |\n\n", n),
    "csv blocks": lambda n: _repeat("k,v,w\n1,2,3\n4,5,6\n7,8,9\n\n", n),
    "prose": _prose,
}


def cpu_time(fn: Callable[[], object], min_time: float) -> float:
    """Per-call CPU time of one measurement: ``fn`` repeated for at least ``min_time``."""
    gc.collect()
    calls = 0
    start = time.process_time()
    while True:
        fn()
        calls += 1
        elapsed = time.process_time() - start
        if elapsed >= min_time:
            return elapsed / calls


def best_pair(
    small: Callable[[], object], large: Callable[[], object], repeats: int, min_time: float
) -> tuple[float, float]:
    """Best per-call CPU times of ``small`` and ``large``, taken alternately ``repeats`` times."""
    best_small = best_large = float("inf")
    for _ in range(repeats):
        best_small = min(best_small, cpu_time(small, min_time))
        best_large = min(best_large, cpu_time(large, min_time))
    return best_small, best_large


def growth_table(
    n: int, repeats: int, min_time: float, strategies: list[str], inputs: list[str]
) -> list[dict[str, object]]:
    """One row per (strategy, input): times at N and 4N and their ratio."""
    rows = []
    texts = {name: (make(n), make(4 * n)) for name, make in INPUTS.items()
             if not inputs or name in inputs}
    for spec in all_strategies():
        if strategies and spec.name not in strategies:
            continue
        chunkviz.chunk("warm up. Imports and models load here.", spec.name)
        for name, (small, large) in texts.items():
            t1, t4 = best_pair(lambda s=small, st=spec.name: chunkviz.chunk(s, st),
                               lambda s=large, st=spec.name: chunkviz.chunk(s, st),
                               repeats, min_time)
            rows.append({"strategy": spec.name, "input": name, "t_n": t1, "t_4n": t4,
                         "ratio": t4 / t1 if t1 > 0 else float("nan")})
            print(f"  {spec.name:<12} {name:<18} {t1 * 1e3:9.2f} ms {t4 * 1e3:9.2f} ms "
                  f"{t4 / t1:5.2f}", flush=True)
    return rows


def _status_mb(field: str) -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def semantic_memory_child(size: int) -> None:
    """In a fresh interpreter: chunk ``size`` characters with semantic; print JSON."""
    import scipy.sparse  # noqa: F401  - imports belong to the baseline, not to the run
    import sklearn.feature_extraction.text  # noqa: F401

    chunkviz.chunk("Warm up. Two sentences.", "semantic")
    # NOTE the peak is VmHWM, reset here: getrusage's ru_maxrss survives exec, so a child of a
    # large parent reports the parent's peak (2.6 GB for every size, seen in the first run).
    with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
        f.write("5")
    baseline = _status_mb("VmRSS")
    text = _prose(size)
    start = time.process_time()
    result = chunkviz.chunk(text, "semantic")
    seconds = time.process_time() - start
    peak = _status_mb("VmHWM")
    print(json.dumps({"chars": size, "chunks": len(result.chunks), "cpu_s": seconds,
                      "peak_above_baseline_mb": peak - baseline}))


def semantic_memory(size: int) -> dict[str, object]:
    """Run ``semantic_memory_child`` in a subprocess and return what it printed."""
    out = subprocess.run(
        [sys.executable, __file__, "--semantic-memory-child", str(size)],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    """Run the growth table and the semantic memory runs; exit 1 if a bound is broken."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000,
                        help="the smaller size N (characters)")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--min-time", type=float, default=0.05,
                        help="seconds each measurement runs at least (calls are repeated)")
    parser.add_argument("--quick", action="store_true", help="N=10,000, 2 repeats, 1 MB only")
    parser.add_argument("--semantic-memory-child", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    parser.add_argument("--strategies", default="", help="comma-separated subset (default all)")
    parser.add_argument("--inputs", default="", help="comma-separated subset of the inputs")
    parser.add_argument("--memory-only", action="store_true", help="only the semantic runs")
    args = parser.parse_args(argv)
    if args.semantic_memory_child is not None:
        semantic_memory_child(args.semantic_memory_child)
        return 0
    if args.quick:
        args.n, args.repeats, args.min_time = 10_000, 2, 0.05
    print(f"# chunkviz adversarial growth, N={args.n:,}, best of {args.repeats} "
          f"(each >= {args.min_time} s CPU), Python {platform.python_version()}")
    # The memory runs come first, while this process is small.
    sizes = [1_000_000] if args.quick else [1_000_000, 10_000_000]
    memory = [semantic_memory(s) for s in sizes]
    rows = [] if args.memory_only else growth_table(
        args.n, args.repeats, args.min_time,
        [x for x in args.strategies.split(",") if x], [x for x in args.inputs.split(",") if x])

    names = list(dict.fromkeys(str(r["input"]) for r in rows))
    print("\n| strategy | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for spec in all_strategies():
        cells = [f"{float(r['ratio']):.2f}" for r in rows if r["strategy"] == spec.name]  # type: ignore[arg-type]
        if cells:
            print(f"| {spec.name} | " + " | ".join(cells) + " |")
    worst = max(rows, key=lambda r: float(r["ratio"]), default=None)  # type: ignore[arg-type]
    if worst is not None:
        print(f"\nworst ratio: {float(worst['ratio']):.2f} ({worst['strategy']}, "  # type: ignore[arg-type]
              f"{worst['input']}); bound {MAX_RATIO}")
    print("\n| semantic on | chunks | CPU s | peak above baseline |")
    print("|---|---:|---:|---:|")
    for m in memory:
        print(f"| {int(m['chars']) / 1e6:g} MB | {m['chunks']:,} | {float(m['cpu_s']):.1f} | "  # type: ignore[call-overload]
              f"{float(m['peak_above_baseline_mb']):.0f} MB |")  # type: ignore[arg-type]
    if args.json is not None:
        args.json.write_text(json.dumps({"rows": rows, "memory": memory}, indent=1))
    failed = worst is not None and float(worst["ratio"]) > MAX_RATIO  # type: ignore[arg-type]
    failed |= float(memory[0]["peak_above_baseline_mb"]) >= MEMORY_LIMIT_MB  # type: ignore[arg-type]
    print("\nFAIL" if failed else "\nOK: every ratio <= 5 and semantic within its memory bound")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
