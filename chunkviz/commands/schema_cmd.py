"""``chunkviz schema``: the JSON Schema of the results file, generated from its structs.

``docs/results-schema.json`` is this command's output (a test keeps the two equal):

    python -m chunkviz schema --out docs/results-schema.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from chunkviz.commands.options import print_or_write
from chunkviz.eval.results_schema import results_json_schema


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "schema",
        help="print the JSON Schema of the benchmark results file",
        description="Print the JSON Schema of the results file chunkviz bench writes "
        "(generated from chunkviz.eval.results_schema; documented in docs/results-schema.md).",
    )
    p.add_argument(
        "--out", type=Path, default=None, help="write it to this file instead of printing it"
    )
    p.add_argument(
        "--cli",
        action="store_true",
        help="the schema of every --format json document instead (docs/cli-schema.json)",
    )
    p.set_defaults(run=run)


def schema_text(cli: bool = False) -> str:
    """The schema as the committed file holds it: indented, keys in the structs' order.

    ``cli``: the schema of the ``--format json`` documents (``chunkviz.outputs``) instead.
    """
    if cli:
        # Deferred: only this option needs the output structs.
        from chunkviz.outputs import cli_json_schema

        return json.dumps(cli_json_schema(), ensure_ascii=False, indent=2) + "\n"
    return json.dumps(results_json_schema(), ensure_ascii=False, indent=2) + "\n"


def run(args: argparse.Namespace, extra: list[str]) -> int:
    """Print the schema, or write it to ``--out``."""
    return print_or_write(schema_text(args.cli), args.out)
