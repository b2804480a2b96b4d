"""``chunkviz audit DOC CHUNKS``: align another library's chunks to the document and report.

The report lists chunk text not found as-is, every claimed start index that is wrong, and the
text no chunk holds (see ``chunkviz.eval.align``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from chunkviz.commands.options import integer
from chunkviz.eval.align import align_file, format_report, report_dict
from chunkviz.textio import read_text_file


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "audit",
        help="align chunks made by another library (LangChain, LlamaIndex, chonkie, strings) "
        "to exact offsets and report what is wrong with them",
        description="Read DOC and a JSON or JSONL file of chunks (strings, LangChain Documents, "
        "LlamaIndex nodes or chonkie chunks), align every chunk to its offsets in DOC under the "
        "monotonic rule, and report chunk text not found as-is, wrong claimed start indices and "
        "text no chunk holds.",
    )
    p.add_argument("doc", help="the document the chunks were made from (a text file)")
    p.add_argument("chunks", help="the chunks: a JSON list or JSONL file")
    p.add_argument(
        "--limit",
        type=integer(0, 1_000_000),
        default=20,
        help="items listed per section (default 20)",
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, extra: list[str]) -> int:
    """Read, align, print."""
    text = read_text_file(args.doc)
    report = align_file(text, args.chunks)
    if args.format == "json":
        print(json.dumps(report_dict(report), ensure_ascii=False, indent=2))
    else:
        print(format_report(report, limit=args.limit))
    return 0
