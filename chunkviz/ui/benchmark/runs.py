"""Which run the Benchmark page shows, and with which others.

The runs found (and the files that could not be read), the one picked, where its figures come
from, and the same questions under other backends.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from chunkviz.eval.results import Results
from chunkviz.text import Lang
from chunkviz.ui.benchmark import data, recompute
from chunkviz.ui.benchmark import link as bench_link
from chunkviz.ui.guard import message_markdown
from chunkviz.ui.i18n import tr
from chunkviz.ui.state import AppState
from chunkviz.views.bench_link import run_label
from chunkviz.views.markup import escape_markdown
from chunkviz.views.run_list import RunSummary, backend_partners
from chunkviz.views.significance import pairwise_metrics
from chunkviz.views.tune_report import provenance_lines


def skipped_warnings(found: data.Found) -> None:
    """One warning per results file that could not be read, with why."""
    for path, why in found.skipped:
        st.warning(tr("benchmark.skipped", path=escape_markdown(str(path)),
                      why=message_markdown(why)))


def no_runs() -> None:
    """No run found: where the page looked."""
    dirs = ", ".join(f"`{d}`" for d in data.results_dirs_now())
    st.info(tr("benchmark.no_runs", dirs=dirs))


def pick_run(state: AppState, runs: Sequence[RunSummary]) -> RunSummary:
    """The run picker: a run just recomputed first, then the link's run, else the newest."""
    by_path = {str(r.path): r for r in runs}
    new_run = st.session_state.pop(recompute.NEW_RUN_KEY, None)
    if new_run in by_path:
        st.session_state["bench_run"] = new_run
    bench_link.seed_run(state, runs, "bench_run")
    if st.session_state.get("bench_run") not in by_path:
        st.session_state["bench_run"] = str(runs[0].path)
    lang = state.lang
    run_path = st.selectbox(tr("benchmark.run"), options=list(by_path), key="bench_run",
                            format_func=lambda p: run_label(lang, by_path[p]))
    return by_path[run_path]


def provenance(results: Results, lang: Lang) -> None:
    """Figures from synthetic questions say so, beside every figure of the run."""
    for line in provenance_lines(lang, results.questions_source, results.backend.name):
        st.caption(escape_markdown(line))


def verdict_runs(runs: Sequence[RunSummary], run: RunSummary, results: Results,
                 metric: str) -> list[tuple[Path, Results]]:
    """``run`` first, then its questions under other backends that test ``metric`` pairwise."""
    partners = [(p.path, data.load_path(p.path)) for p in backend_partners(runs, run)]
    return [(run.path, results)] + [
        (path, res) for path, res in partners if metric in pairwise_metrics(res)]
