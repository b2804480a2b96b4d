"""BM25 scores: the same under any hash seed, and exactly tied when their sums are equal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from chunkviz.retrieval.lexical import BM25Backend

ROOT = Path(__file__).resolve().parents[2]

# Found by search: under float32 sums in bm25s's vocabulary order, documents 0 and 5 scored
# 1.4398736 and 1.4398737 for this query, though their matched weights sum to the same value.
DOCS = ["bafhfdbf", "gahchhgf", "gccfgada", "daccdbdh", "ddbdbcbh", "abfceegb"]
QUERY = "gbfbffhgec"

SCRIPT = """
import hashlib, sys
from chunkviz.datasets import load_dataset
from chunkviz.retrieval.lexical import BM25Backend
d = load_dataset("jsquad")
texts = [doc.text[i:i + 200] for doc in d.documents[:20] for i in range(0, len(doc.text), 200)]
scores = BM25Backend().build_index(texts).scores([q.question for q in d.questions[:200]])
print(hashlib.sha256(scores.tobytes()).hexdigest())
"""


def test_equal_sums_of_weights_tie_exactly():
    scores = BM25Backend().build_index(DOCS).scores([QUERY])[0]
    assert scores[0] == scores[5]
    assert scores[0] > 0


def test_scores_are_sums_of_fixed_point_weights():
    from chunkviz.retrieval.lexical import FIXED_POINT_BITS

    scores = BM25Backend().build_index(DOCS).scores([QUERY, "", "zz"])
    assert scores.dtype == np.float64
    whole = scores * 2.0**FIXED_POINT_BITS
    assert np.array_equal(whole, np.rint(whole))  # every score a whole number of quanta
    assert not scores[1:].any()  # nothing shared: zero


def test_scores_do_not_depend_on_the_hash_seed():
    digests = set()
    for seed in ("1", "2", "3"):
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        )
        digests.add(out.stdout.strip())
    assert len(digests) == 1
