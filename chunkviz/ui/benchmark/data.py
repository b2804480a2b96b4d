"""Finding and loading results files for the Benchmark page, cached by path and mtime.

Reading goes through ``chunkviz.eval.results`` (``list_results``, ``load_results``: every field
checked, a damaged file listed with its reason); this module only adds Streamlit's cache so that
a rerun of the page parses no file twice.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from chunkviz.eval.results import Listed, Results, list_results, load_results
from chunkviz.views.results_dirs import results_dirs
from chunkviz.views.run_list import RunSummary, summarize

Signature = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Found:
    """The readable runs in the results directories, and what could not be read (with why)."""

    runs: tuple[RunSummary, ...]
    skipped: tuple[tuple[Path, str], ...]


@st.cache_data(max_entries=64, show_spinner=False)
def load(path: str, mtime_ns: int) -> Results:
    """The results file at ``path``; ``mtime_ns`` is part of the key so a rewrite reloads."""
    del mtime_ns  # only a cache key
    return load_results(path)


def load_path(path: Path) -> Results:
    """``load`` keyed by the file's current mtime."""
    return load(str(path), path.stat().st_mtime_ns)


@st.cache_data(max_entries=16, show_spinner=False)
def _listing(dirs: tuple[str, ...], signature: Signature) -> list[Listed]:
    del signature  # only a cache key: a new, removed or rewritten file lists again
    return list_results(dirs)


def results_dirs_now() -> tuple[Path, ...]:
    """The directories listed, from the current environment."""
    return results_dirs(os.environ)


def discover() -> Found:
    """Every ``*.json`` in the results directories (``results_dirs``), read through the cache."""
    dirs = results_dirs_now()
    signature = tuple((str(p), p.stat().st_mtime_ns)
                      for d in dirs if d.is_dir() for p in sorted(d.glob("*.json")))
    runs: list[RunSummary] = []
    skipped: list[tuple[Path, str]] = []
    for entry in _listing(tuple(str(d) for d in dirs), signature):
        if entry.results is None:
            skipped.append((entry.path, entry.error))
        else:
            runs.append(summarize(entry.results, entry.path))
    return Found(tuple(runs), tuple(skipped))
