"""``chunkviz prior``: the document-blind prior Tune breaks ties with (``chunkviz.eval.prior``).

``chunkviz/data/prior-bm25.json`` is this command's output:

    python -m chunkviz prior --out chunkviz/data/prior-bm25.json
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from chunkviz.commands.options import print_or_write
from chunkviz.datasets import load_dataset
from chunkviz.eval.prior import PRIOR_BACKEND, PRIOR_DATASETS, build_prior, prior_json
from chunkviz.retrieval.backends import get_backend


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "prior",
        help="print the document-blind prior (real ranks per bundled document)",
        description="Rank every bundled corpus document's real questions under every "
        "configuration of Tune's grid, each document indexed alone (BM25): the prior Tune "
        "breaks ties with (chunkviz.eval.prior).",
    )
    p.add_argument(
        "--out", type=Path, default=None, help="write it to this file instead of printing it"
    )
    p.add_argument(
        "--datasets",
        default=",".join(PRIOR_DATASETS),
        help=f"comma-separated corpora (default {','.join(PRIOR_DATASETS)})",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace, extra: list[str]) -> int:
    """Print the prior, or write it to ``--out``."""
    datasets = [load_dataset(name.strip()) for name in args.datasets.split(",") if name.strip()]

    def progress(done: int, total: int, doc: str) -> None:
        print(f"\r{done}/{total} {doc}", end="", file=sys.stderr, flush=True)

    prior = build_prior(datasets, get_backend(PRIOR_BACKEND), progress=progress)
    print(file=sys.stderr)
    return print_or_write(prior_json(prior), args.out)
