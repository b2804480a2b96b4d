"""``chunkviz export --dataset SPEC --out FOLDER``: a corpus and its questions in MTCB's layout.

MTCB (chonkie's Massive Text Chunking Benchmark) reads ``corpus/`` and ``questions/`` with a
``chunk-must-contain`` passage per question; ``chunkviz.datasets.mtcb`` says what maps and what
does not. ``--dataset mtcb:FOLDER`` reads the folder back, or any MTCB dataset.
"""

from __future__ import annotations

import argparse
from typing import Any

from chunkviz.commands.options import SEED, integer


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "export",
        help="write a corpus and its questions in MTCB's layout (corpus/, questions/)",
        description="Write the documents of --dataset and its questions (sampled with --sample "
        "and --seed, as bench samples them) into --out in the layout of chonkie's MTCB: "
        "corpus/ (id, title, text) and questions/ (question, chunk-must-contain: the answer "
        "span's text), as JSON Lines with a dataset card. Read it back with --dataset "
        "mtcb:FOLDER.",
    )
    p.add_argument("--dataset", default="jsquad", help="dataset spec (as for bench)")
    p.add_argument("--out", required=True, help="the folder to write")
    p.add_argument(
        "--sample",
        type=integer(0, 10_000_000),
        default=0,
        help="questions to sample (0: all); every document is kept",
    )
    p.add_argument("--seed", type=SEED, default=0, help="seed of the sample")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, extra: list[str]) -> int:
    """Load, sample, write."""
    # Deferred: the CLI imports every command to build its parser; this loads only when it runs.
    from chunkviz.datasets import load_dataset
    from chunkviz.datasets.mtcb import write_mtcb
    from chunkviz.datasets.sampling import sample_questions
    from chunkviz.eval.results import check_writable

    check_writable(args.out)
    dataset = sample_questions(load_dataset(args.dataset), args.sample, args.seed)
    folder = write_mtcb(dataset, args.out)
    print(
        f"wrote {len(dataset.documents)} documents and {len(dataset.questions)} questions "
        f"to {folder}"
    )
    return 0
