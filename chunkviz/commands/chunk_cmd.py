"""``chunkviz chunk FILE --strategy S [--PARAM VALUE ...]``: chunk a file, print the chunks.

The output formats are Explore's exports (``chunkviz.views.export``): ``jsonl`` one chunk record
per line, ``json`` the strategy, its parameters and the records, ``csv`` the records.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from chunkviz.api import chunk
from chunkviz.errors import ParameterError
from chunkviz.extract import DOCUMENT_TYPES, read_document
from chunkviz.strategies import get_strategy
from chunkviz.tokenizers import get_tokenizer
from chunkviz.views.export import to_csv, to_json, to_jsonl


def add_parser(sub: Any) -> None:
    """Register the subcommand; strategy parameters are accepted as ``--name value``."""
    p = sub.add_parser(
        "chunk",
        help="chunk a file and print its chunks",
        description="Any parameter of the strategy is settable as --name value "
        "(see `python -m chunkviz strategies`).",
    )
    p.add_argument(
        "file",
        help=f"a document ({', '.join('.' + t for t in DOCUMENT_TYPES)}, "
        "read as the app reads uploads); any other name is read as text (UTF-8, "
        "UTF-16, CP932, EUC-JP, ...)",
    )
    p.add_argument("--strategy", default="fixed")
    p.add_argument("--format", choices=("jsonl", "json", "csv"), default="jsonl")
    p.add_argument(
        "--newlines",
        choices=("keep", "lf"),
        default="keep",
        help="keep line ends as they are, or turn CRLF/CR into LF at load",
    )
    p.add_argument(
        "--keep-terminal-formatting",
        action="store_true",
        help="keep ANSI escapes and backspace overstrikes in text files (removed by "
        "default; the count goes to standard error)",
    )
    p.add_argument(
        "--keep-furniture",
        action="store_true",
        help="keep a PDF's running headers, footers and page numbers (left out by "
        "default; the count goes to standard error)",
    )
    p.add_argument(
        "--tokenizer",
        default=None,
        help="tokenizer for unit=tokens: use-m3 (default), whitespace or chars",
    )
    p.set_defaults(run=run, accepts_extra=True)


def parse_strategy_options(strategy: str, extra: list[str]) -> dict[str, Any]:
    """Turn ``--name value`` pairs into parameters of ``strategy`` (values are checked later).

    Raises:
        ParameterError: An option that is not a parameter of the strategy, or has no value.
    """
    spec = get_strategy(strategy)
    params: dict[str, Any] = {}
    i = 0
    while i < len(extra):
        item = extra[i]
        if not item.startswith("--"):
            raise ParameterError("cli_unexpected_argument", value=item)
        key, _, inline = item[2:].partition("=")
        name = key.replace("-", "_")
        spec.param(name)  # raises with the list of parameters
        if inline:
            value = inline
        elif i + 1 < len(extra):
            i += 1
            value = extra[i]
        else:
            raise ParameterError("cli_needs_value", key=key)
        params[name] = None if value.lower() in {"none", "off"} else value
        i += 1
    return params


def run(args: argparse.Namespace, extra: list[str]) -> int:
    """Chunk the file and write the chunks to standard output."""
    document = read_document(
        args.file,
        newlines=args.newlines,
        keep_terminal_formatting=args.keep_terminal_formatting,
        keep_furniture=args.keep_furniture,
    )
    if document.layout is not None:
        print(
            f"read {document.pages} PDF pages by layout: {document.compat_ideographs} "
            f"compatibility ideographs replaced, {document.furniture} header, footer and "
            "page-number lines left out (--keep-furniture keeps them)",
            file=sys.stderr,
        )
        if document.pages_without_text:
            print(
                f"{document.pages_without_text} of {document.pages} pages have no text layer "
                "(scanned?); run OCR on the PDF (for example ocrmypdf) to read them",
                file=sys.stderr,
            )
        if document.quality is not None:  # the same note as the app's upload shows
            from chunkviz.text.messages import read_quality_text

            for line in read_quality_text("en", document.quality):
                if line:
                    print(line, file=sys.stderr)
    if document.terminal_sequences:
        print(
            f"removed {document.terminal_sequences} terminal formatting sequences (ANSI "
            "escapes, backspace overstrikes); --keep-terminal-formatting keeps them",
            file=sys.stderr,
        )
    text = document.text
    params = parse_strategy_options(args.strategy, extra)
    spec = get_strategy(args.strategy)
    if args.tokenizer is not None and "tokenizer" in spec.resources:
        params["tokenizer"] = get_tokenizer(args.tokenizer)
    result = chunk(text, args.strategy, **params)
    # The same writers as Explore's downloads, so a file from either has the same columns.
    writers = {"jsonl": to_jsonl, "json": to_json, "csv": to_csv}
    sys.stdout.write(writers[args.format](result))
    if args.format == "json":
        sys.stdout.write("\n")
    return 0
