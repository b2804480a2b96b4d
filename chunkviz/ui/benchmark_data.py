"""Finding and loading results files for the Benchmark page, cached by path and mtime."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from chunkviz.dashboard import RunSummary, results_dirs, summarize
from chunkviz.errors import ChunkvizError

SCHEMA = "chunkviz.benchmark"


@dataclass(frozen=True, slots=True)
class Found:
    """The readable runs in the results directories, and what could not be read (with why)."""

    runs: tuple[RunSummary, ...]
    skipped: tuple[tuple[Path, str], ...]


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ChunkvizError(f"cannot read results file {path}: {e}") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise ChunkvizError(f"{path} is not a chunkviz benchmark results file "
                            f"(its 'schema' is not {SCHEMA!r})")
    return data


@st.cache_data(max_entries=64, show_spinner=False)
def load(path: str, mtime_ns: int) -> dict[str, Any]:
    """The results file at ``path``; ``mtime_ns`` is part of the key so a rewrite reloads."""
    del mtime_ns  # only a cache key
    return _read(Path(path))


def load_path(path: Path) -> dict[str, Any]:
    """``load`` keyed by the file's current mtime."""
    return load(str(path), path.stat().st_mtime_ns)


def results_dirs_now() -> tuple[Path, ...]:
    """The directories listed, from the current environment."""
    return results_dirs(os.environ)


def discover() -> Found:
    """Every ``*.json`` in the results directories (``results_dirs``), read through the cache."""
    runs: list[RunSummary] = []
    skipped: list[tuple[Path, str]] = []
    for folder in results_dirs_now():
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.json")):
            try:
                runs.append(summarize(load_path(path), path))
            except (ChunkvizError, KeyError, TypeError, ValueError) as e:
                skipped.append((path, str(e)))
    return Found(tuple(runs), tuple(skipped))
