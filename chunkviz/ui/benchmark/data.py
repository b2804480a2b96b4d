"""Finding and loading results files for the Benchmark page, cached by path and mtime.

The run list reads only the fields it shows from each file (``run_list.read_summary``); a file
those fields cannot be read from is read whole (``chunkviz.eval.results.load_results``: every
field checked) and listed with its reason. A run is read whole, and checked, when the page
shows it. Runs are cached as the objects they are (``st.cache_resource``: a results file is
frozen structs, and copying megabytes of them through pickle on every rerun took longer than
drawing the page), keyed by path and mtime so a rewritten file is read again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from chunkviz.errors import ChunkvizError
from chunkviz.eval.results import Results, load_results
from chunkviz.views.results_dirs import results_dirs
from chunkviz.views.run_list import RunSummary, read_summary, summarize

Signature = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Found:
    """The readable runs in the results directories, and what could not be read (with why)."""

    runs: tuple[RunSummary, ...]
    skipped: tuple[tuple[Path, str], ...]


@st.cache_resource(max_entries=16, show_spinner=False)
def load(path: str, mtime_ns: int) -> Results:
    """The results file at ``path``; ``mtime_ns`` is part of the key so a rewrite reloads."""
    del mtime_ns  # only a cache key
    return load_results(path)


def load_path(path: Path) -> Results:
    """``load`` keyed by the file's current mtime."""
    return load(str(path), path.stat().st_mtime_ns)


def check_shown(found: Found, key: str) -> Found:
    """``found`` once the run that the picker ``key`` shows has been read whole.

    The picker's state (a path) starts at the first run when it names none of them. A run
    whose file breaks a rule past its listed fields moves to the skipped files with the reason,
    and the next run is tried.
    """
    runs, skipped = list(found.runs), list(found.skipped)
    ss = st.session_state
    while runs:
        paths = [str(r.path) for r in runs]
        if ss.get(key) not in paths:
            ss[key] = paths[0]
        shown = runs[paths.index(ss[key])]
        try:
            load_path(shown.path)
        except ChunkvizError as exc:
            runs.remove(shown)
            skipped.append((shown.path, exc.message))
            ss.pop(key)
            continue
        break
    return Found(tuple(runs), tuple(skipped))


def load_readable(paths: list[Path]) -> list[tuple[Path, Results]]:
    """``load_path`` of each of ``paths`` that can be read whole; the others are left out."""
    out = []
    for path in paths:
        try:
            out.append((path, load_path(path)))
        except (ChunkvizError, OSError):  # told where the run itself is shown
            continue
    return out


@st.cache_data(max_entries=16, show_spinner=False)
def _listing(signature: Signature) -> Found:
    """The run list of the files in ``signature`` (path, mtime): a changed file lists again."""
    runs: list[RunSummary] = []
    skipped: list[tuple[Path, str]] = []
    for name, _mtime in signature:
        path = Path(name)
        summary = read_summary(path)
        if summary is None:
            try:
                summary = summarize(load_results(path), path)
            except ChunkvizError as exc:
                skipped.append((path, exc.message))
                continue
        runs.append(summary)
    return Found(tuple(runs), tuple(skipped))


def results_dirs_now() -> tuple[Path, ...]:
    """The directories listed, from the current environment."""
    return results_dirs(os.environ)


def discover() -> Found:
    """Every ``*.json`` in the results directories (``results_dirs``), read through the cache."""
    dirs = results_dirs_now()
    signature = tuple(
        (str(p), p.stat().st_mtime_ns) for d in dirs if d.is_dir() for p in sorted(d.glob("*.json"))
    )
    return _listing(signature)
