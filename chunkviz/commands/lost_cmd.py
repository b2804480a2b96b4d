"""``chunkviz lost``: per configuration of the study's grid, how many questions are broken.

A question is broken when no chunk holds its whole answer (see ``chunkviz.eval.lost``),
so it is lost before any retriever runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from chunkviz.commands.options import SEED, integer
from chunkviz.datasets import SPEC_HELP, load_dataset
from chunkviz.datasets.sampling import sample_questions
from chunkviz.eval.grid import default_grid
from chunkviz.eval.lost import format_lost_by_type, format_lost_table, lost_by_type, lost_table

#: The study's sample size; used by default when the dataset has more questions.
DEFAULT_SAMPLE = 500


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "lost",
        help="count answers cut by chunk boundaries (lost before retrieval) over the grid",
        description="Chunk every document under each configuration of the seed study's grid "
        "(fixed 100/200/400/800 characters with 0%% and 20%% overlap, 800 with 20%% only, and "
        "natural paragraphs) and count the questions whose answer no chunk holds whole.",
    )
    p.add_argument("--dataset", default="jsquad", help=f"{SPEC_HELP} (default: jsquad)")
    p.add_argument(
        "--sample",
        type=integer(0, 10_000_000),
        default=None,
        help=f"questions to draw (0 = all; default {DEFAULT_SAMPLE}, or all when there are fewer)",
    )
    p.add_argument("--seed", type=SEED, default=0, help="seed of the sample (default 0)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument(
        "--by-type",
        choices=("question", "answer"),
        default=None,
        help="also count the lost questions per question or answer type (datasets "
        "that label them: jaquad)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace, extra: list[str]) -> int:
    """Load, sample, count, print."""
    dataset = load_dataset(args.dataset)
    n = args.sample
    if n is None:
        n = DEFAULT_SAMPLE if len(dataset.questions) > DEFAULT_SAMPLE else 0
    dataset = sample_questions(dataset, n, args.seed)
    configs = default_grid()
    # Deferred: tqdm loads only when a progress bar is drawn.
    from tqdm import tqdm

    with tqdm(
        total=len(configs) * len(dataset.documents),
        desc="chunking",
        unit="doc",
        file=sys.stderr,
        disable=None,
    ) as bar:
        rows = lost_table(dataset, configs, progress=bar.update)
    by_type = lost_by_type(dataset, rows, args.by_type) if args.by_type else []
    if args.format == "json":
        out: Any = [r.as_dict() for r in rows]
        if args.by_type:
            out = {
                "configs": out,
                "by_type": [
                    {"type": t, "questions": n, "broken": counts} for t, n, counts in by_type
                ],
            }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    print(f"# dataset {dataset.name}: {len(dataset.documents)} documents")
    for note in dataset.notes:
        print(f"# {note}")
    print(format_lost_table(rows))
    if args.by_type:
        print(f"\n# lost by {args.by_type} type")
        print(format_lost_by_type(by_type) or f"# no question carries a {args.by_type} type")
    return 0
