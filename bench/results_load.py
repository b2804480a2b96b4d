"""Loading the shipped results files against ``json.loads`` of the same bytes (issue 29, item 5).

For each file in ``chunkviz/results/`` (or the paths given), in one process, the two in turn
in each round:

- **load**: ``chunkviz.eval.results.results_from_json`` (``Results.from_json`` before issue
  29) on the file's bytes: decoding, every type and bound, and the semantic checks (each rank
  metric's mean recomputed from the ranks, offsets, labels);
- **json.loads**: the standard library parsing the same bytes into plain objects, no checks.

The median CPU time (``time.process_time``) and wall time over ``--rounds`` of each are printed,
with the ratio load / json.loads measured in the same run, so that the figure travels between
machines and loads. The file is read from disk once, before timing.

    python bench/results_load.py              # 15 rounds
    python bench/results_load.py --rounds 5 chunkviz/results/jsquad-bm25-all-s0-fb1f6d35.json
    git archive 302d586 chunkviz | tar -x -C /tmp/before   # the hand-made reader
    python bench/results_load.py --root /tmp/before           # before, same files
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def loader(root: Path) -> Callable[[bytes, str], object]:
    """The reader of the chunkviz checked out at ``root`` (an older one: ``Results.from_json``)."""
    sys.path.insert(0, str(root))
    import chunkviz.eval.results as results

    found: Callable[[bytes, str], object] | None = getattr(results, "results_from_json", None)
    return found if found is not None else results.Results.from_json


def timed(fns: list[Callable[[], object]], rounds: int) -> list[tuple[float, float]]:
    """Median CPU seconds and median wall seconds of each of ``fns``, called in turn."""
    cpu: list[list[float]] = [[] for _ in fns]
    wall: list[list[float]] = [[] for _ in fns]
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            c0, w0 = time.process_time(), time.perf_counter()
            fn()
            cpu[i].append(time.process_time() - c0)
            wall[i].append(time.perf_counter() - w0)
    return [(statistics.median(c), statistics.median(w)) for c, w in zip(cpu, wall, strict=True)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument(
        "--root",
        type=Path,
        default=ROOT,
        help="the chunkviz checkout whose reader is timed (default: this one), "
        "e.g. an export of the commit before, for a before/after",
    )
    args = parser.parse_args(argv)
    read = loader(args.root)
    files = args.files or sorted((ROOT / "chunkviz" / "results").glob("*.json"))
    print(f"reader: {args.root}")
    print(
        f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
        f"{os.getloadavg()[2]:.2f}; {args.rounds} rounds"
    )
    print("| file | MB | load CPU ms | json.loads CPU ms | ratio | load wall ms |")
    print("|---|---|---|---|---|---|")
    for path in files:
        raw = path.read_bytes()
        read(raw, str(path))  # warm: imports, first-use caches
        (load_cpu, load_wall), (base_cpu, _) = timed(
            [lambda raw=raw, p=path: read(raw, str(p)), lambda raw=raw: json.loads(raw)],
            args.rounds,
        )
        print(
            f"| `{path.name}` | {len(raw) / 1e6:.2f} | {load_cpu * 1e3:.0f} | "
            f"{base_cpu * 1e3:.0f} | {load_cpu / base_cpu:.1f}× | {load_wall * 1e3:.0f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
