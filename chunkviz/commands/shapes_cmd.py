"""``chunkviz shapes``: the layouts of JSQuAD's real questions that ``shaped`` questions copy.

``chunkviz/data/question_shapes.json`` is this command's output (a test keeps the two equal):

    python -m chunkviz shapes --out chunkviz/data/question_shapes.json
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from chunkviz.commands.options import print_or_write
from chunkviz.datasets import load_dataset
from chunkviz.eval.question_shapes import dataset_shapes, shapes_json


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "shapes",
        help="print the layouts of JSQuAD's real questions (for shaped questions)",
        description="Print where each of JSQuAD's real validation questions has its words "
        "around its answer (lengths and distances only): the shapes the 'shaped' synthetic "
        "questions copy (chunkviz.eval.question_shapes).",
    )
    p.add_argument(
        "--out", type=Path, default=None, help="write them to this file instead of printing them"
    )
    p.set_defaults(run=run)


def shapes_text() -> str:
    """The shapes as the shipped file holds them."""
    return shapes_json(dataset_shapes(load_dataset("jsquad")))


def run(args: argparse.Namespace, extra: list[str]) -> int:
    """Print the shapes, or write them to ``--out``."""
    return print_or_write(shapes_text(), args.out)
