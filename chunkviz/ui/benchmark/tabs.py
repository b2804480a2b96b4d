"""Benchmark's sections below the first screen, one tab at a time: only the open tab runs.

The page opens on what the results file holds (the verdict, the main table); the paired tests,
the separating metric, robustness, the charts, other backends and one question's drill-down
compute when their tab is opened (issue 39).
"""

from __future__ import annotations

from collections.abc import Sequence

from chunkviz.eval.results import Results
from chunkviz.ui.benchmark import by_type as types_view
from chunkviz.ui.benchmark import context as context_view
from chunkviz.ui.benchmark import sections
from chunkviz.ui.benchmark import separation as separation_view
from chunkviz.ui.i18n import tr
from chunkviz.ui.lazy import lazy_tabs
from chunkviz.ui.state import AppState
from chunkviz.views.main_table import TableRow
from chunkviz.views.run_list import RunSummary


def below_first_screen(
    state: AppState,
    results: Results,
    rows: Sequence[TableRow],
    runs: Sequence[RunSummary],
    run: RunSummary,
    metric: str | None,
    delta: float | None,
    unit_word: str,
) -> None:
    """The tabs under the main table; the open one draws its section (``sections.TABS``)."""
    lang = state.lang
    sections.seed_view(state)
    for name, tab in lazy_tabs(
        {n: tr(f"benchmark.tab_{n}") for n in sections.TABS}, key="bench_tab"
    ):
        with tab:
            if name == "significance":
                sections.significance(results, metric, unit_word, lang)
            elif name == "metrics":
                # Where Recall@5 saturates: the metric that separates the most pairs, and why.
                separation_view.render(run.path)
            elif name == "robustness" and metric is not None and delta is not None:
                # Naive vs contextual headers (runs made with bench --context none,headings).
                context_view.render(results, metric)
                sections.robustness(results, runs, run, metric, lang)
                # Which kinds of question each configuration loses (runs with typed questions).
                types_view.render(results, run.path, metric, float(delta), lang)
            elif name == "plots":
                sections.plots(results, rows)
            elif name == "backends":
                sections.backends(results, runs, run, lang)
            elif name == "question":
                sections.drill(results)
