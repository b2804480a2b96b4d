"""Where the Benchmark dashboard finds results files and where Recompute writes new ones.

Two environment variables override the defaults, so a deployment (or a test) can point the
dashboard at its own runs without touching the shipped ``chunkviz/results/``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from chunkviz.eval.runner import default_results_dir, shipped_results_dir

#: Environment variable: results directories to list, separated by ``os.pathsep``.
RESULTS_DIRS_ENV = "CHUNKVIZ_RESULTS_DIRS"
#: Environment variable: the directory Recompute writes new results files into.
RECOMPUTE_DIR_ENV = "CHUNKVIZ_RECOMPUTE_DIR"


def results_dirs(environ: Mapping[str, str]) -> tuple[Path, ...]:
    """Directories whose ``*.json`` results files the dashboard lists, in display order.

    ``CHUNKVIZ_RESULTS_DIRS`` (``os.pathsep``-separated) replaces the shipped ``results/`` of
    the repository; the recompute directory is always listed last, so a new run shows up.
    """
    raw = environ.get(RESULTS_DIRS_ENV, "")
    dirs = [Path(p) for p in raw.split(os.pathsep) if p] or [shipped_results_dir()]
    return tuple(dict.fromkeys([*dirs, recompute_dir(environ)]))


def recompute_dir(environ: Mapping[str, str]) -> Path:
    """Where Recompute writes.

    ``CHUNKVIZ_RECOMPUTE_DIR``, else the runner's default folder (``<cache root>/results``,
    i.e. ``.cache/chunkviz/results``).
    """
    raw = environ.get(RECOMPUTE_DIR_ENV, "")
    return Path(raw) if raw else default_results_dir()
