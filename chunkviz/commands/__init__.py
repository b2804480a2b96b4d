"""Subcommands of ``python -m chunkviz``; each module has ``add_parser(subparsers)``."""

from chunkviz.commands import (
    app_cmd,
    audit_cmd,
    bench_cmd,
    chunk_cmd,
    export_cmd,
    lost_cmd,
    prior_cmd,
    schema_cmd,
    shapes_cmd,
    strategies_cmd,
    tune_cmd,
)

COMMANDS = (
    strategies_cmd,
    chunk_cmd,
    lost_cmd,
    bench_cmd,
    audit_cmd,
    tune_cmd,
    app_cmd,
    schema_cmd,
    shapes_cmd,
    prior_cmd,
    export_cmd,
)
