"""Speed of the advanced strategies against ``fixed`` and ``recursive``, measured in one run.

Every configuration chunks the same Japanese text (the built-in ``jsquad_tsuyu`` sample, 8,231
characters, repeated to about 20,000 and to about 200,000) through ``chunkviz.chunk`` plus
``chunk_texts()``. Configurations run round-robin ``--repeats`` times; the best CPU time
(``time.process_time``) and the best wall time are kept, and ratios to ``fixed`` and
``recursive`` in the same run are what the numbers claim (absolute times depend on the machine).
Models are loaded before timing (``use-m3`` once; ``tfidf`` imports scikit-learn once).

    python bench/advanced.py             # 3 repeats; use-m3 on the 20k text only
    python bench/advanced.py --quick     # 1 repeat, 20k text only
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import chunkviz  # noqa: E402
from chunkviz.retrieval.backends import get_backend  # noqa: E402
from chunkviz.samples import load_sample  # noqa: E402

CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    ("fixed 400", "fixed", {"size": 400}),
    ("recursive 400", "recursive", {"size": 400}),
    ("semantic tfidf", "semantic", {"model": "tfidf"}),
    ("semantic use-m3", "semantic", {"model": "use-m3"}),
    ("perplexity char-3gram", "perplexity", {}),
    ("parent_child hierarchy", "parent_child", {}),
    ("parent_child window", "parent_child", {"mode": "sentence_window"}),
    ("table 400", "table", {"size": 400}),
    ("code 400", "code", {"size": 400}),
]


def _time(text: str, strategy: str, params: dict[str, Any]) -> tuple[float, float, int]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = chunkviz.chunk(text, strategy, **params)
    result.chunk_texts()
    return time.process_time() - cpu, time.perf_counter() - wall, len(result.chunks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    base = load_sample("jsquad_tsuyu").text
    texts = {"20k": base * (20_000 // len(base) + 1)}
    if not args.quick:
        texts["200k"] = base * (200_000 // len(base) + 1)
    get_backend("use-m3")
    chunkviz.chunk("準備。", "semantic", model="tfidf")  # scikit-learn import, once
    print(f"python {platform.python_version()}, {platform.machine()}, repeats={repeats}")
    for name, text in texts.items():
        configs = [c for c in CONFIGS if not (c[0] == "semantic use-m3" and name != "20k")]
        best: dict[str, list[float]] = {c[0]: [float("inf"), float("inf"), 0] for c in configs}
        for _ in range(repeats):
            for label, strategy, params in configs:
                cpu, wall, count = _time(text, strategy, params)
                row = best[label]
                row[0], row[1], row[2] = min(row[0], cpu), min(row[1], wall), count
        fixed_cpu, rec_cpu = best["fixed 400"][0], best["recursive 400"][0]
        print(f"\n{name}: {len(text):,} characters")
        print("| configuration | chunks | CPU s | wall s | CPU / fixed | CPU / recursive |")
        print("|---|---:|---:|---:|---:|---:|")
        for label, _, _ in configs:
            cpu, wall, count = best[label]
            print(
                f"| {label} | {int(count):,} | {cpu:.3f} | {wall:.3f} | "
                f"{cpu / fixed_cpu:,.0f}x | {cpu / rec_cpu:,.1f}x |"
            )


if __name__ == "__main__":
    main()
