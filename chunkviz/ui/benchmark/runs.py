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
        st.warning(
            tr("benchmark.skipped", path=escape_markdown(str(path)), why=message_markdown(why))
        )


def no_runs() -> None:
    """No run found: where the page looked."""
    dirs = ", ".join(f"`{d}`" for d in data.results_dirs_now())
    st.info(tr("benchmark.no_runs", dirs=dirs))


def shown_runs(state: AppState, found: data.Found) -> data.Found:
    """``found`` with the run to show read whole: a run just recomputed, the link's, else the first.

    The list read each file's listed fields only; a shown run whose tables break a rule joins
    the skipped files (``data.check_shown``) and the next run is shown.
    """
    if not found.runs:
        return found
    by_path = {str(r.path): r for r in found.runs}
    new_run = st.session_state.pop(recompute.NEW_RUN_KEY, None)
    if new_run in by_path:
        st.session_state["bench_run"] = new_run
    bench_link.seed_run(state, found.runs, "bench_run")
    return data.check_shown(found, "bench_run")


def pick_run(state: AppState, runs: Sequence[RunSummary]) -> RunSummary:
    """The run picker, on the run ``shown_runs`` settled."""
    by_path = {str(r.path): r for r in runs}
    lang = state.lang
    run_path = st.selectbox(
        tr("benchmark.run"),
        options=list(by_path),
        key="bench_run",
        format_func=lambda p: run_label(lang, by_path[p]),
    )
    return by_path[run_path]


def provenance(results: Results, lang: Lang) -> None:
    """Figures from synthetic questions say so, beside every figure of the run."""
    for line in provenance_lines(lang, results.questions_source, results.backend.name):
        st.caption(escape_markdown(line))


def verdict_runs(
    runs: Sequence[RunSummary], run: RunSummary, results: Results, metric: str
) -> list[tuple[Path, Results]]:
    """``run`` first, then its questions under other backends that test ``metric`` pairwise."""
    partners = data.load_readable([p.path for p in backend_partners(runs, run)])
    return [(run.path, results)] + [
        (path, res) for path, res in partners if metric in pairwise_metrics(res)
    ]
