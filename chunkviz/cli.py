"""``python -m chunkviz``: the command line. Each subcommand lives in ``chunkviz.commands``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from chunkviz.commands import COMMANDS
from chunkviz.errors import ChunkvizError


class _Parser(argparse.ArgumentParser):
    """argparse, with a refusal printed as one line (no usage block) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``prog: error: message`` and exit 2."""
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand registered."""
    parser = _Parser(
        prog="python -m chunkviz",
        description="See where a chunker cuts a document and what it does to retrieval.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for a ChunkvizError, no traceback)."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra and not getattr(args, "accepts_extra", False):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # a refused option (one line, exit 2), or --help
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return int(args.run(args, extra) or 0)
    except ChunkvizError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of standard output went away (`chunkviz tune x.txt --format json | head`):
        # stop quietly, with standard output on /dev/null so the final flush cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE: what a shell reports for a writer whose reader left
