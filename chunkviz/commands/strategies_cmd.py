"""``chunkviz strategies``: list the registered strategies and their parameters."""

from __future__ import annotations

import argparse
import json
from typing import Any

from chunkviz.api import strategies


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser("strategies", help="list strategies and their parameters")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(run=run)


def run(args: argparse.Namespace, extra: list[str]) -> int:
    """Print the strategies as a table or JSON."""
    data = strategies()
    if args.format == "json":
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    for s in data:
        print(f"{s['name']}: {s['description']}")
        for p in s["params"]:
            bounds = ""
            if p["choices"]:
                bounds = " {" + ", ".join(p["choices"]) + "}"
            elif p["min"] is not None or p["max"] is not None:
                bounds = f" [{p['min']}, {p['max']}]"
            unit = f" {p['unit']}" if p["unit"] else ""
            print(
                f"  --{p['name'].replace('_', '-')} {p['type']}{bounds}{unit} "
                f"(default {p['default']}): {p['help']}"
            )
    return 0
