"""The Benchmark page's naive-vs-contextual table (runs made with ``bench --context``)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from chunkviz.eval.measures import metric_label
from chunkviz.eval.results import Results
from chunkviz.ui.i18n import tr
from chunkviz.views.contextual import context_rows


def render(results: Results, metric: str) -> None:
    """Each configuration without and with its contextual header, from the run's paired tests.

    Draws nothing for a run without contextual configurations.
    """
    rows = context_rows(results, metric)
    if not rows:
        return
    st.subheader(tr("benchmark.ctx_title"))
    table = pd.DataFrame(
        [
            {
                tr("benchmark.ctx_col_naive"): r.naive,
                tr("benchmark.ctx_col_contextual"): r.contextual,
                tr("benchmark.ctx_col_naive_mean"): round(r.naive_mean, 3),
                tr("benchmark.ctx_col_contextual_mean"): round(r.contextual_mean, 3),
                tr("benchmark.ctx_col_diff"): f"{r.diff:+.3f} [{r.ci_low:+.3f}, {r.ci_high:+.3f}]",
                tr("benchmark.ctx_col_p"): f"{r.p_holm:.3g}",
                tr("benchmark.ctx_col_outcome"): tr(f"benchmark.ctx_{r.outcome}"),
            }
            for r in rows
        ]
    )
    st.dataframe(table, hide_index=True, key="bench_ctx_table")
    st.caption(tr("benchmark.ctx_caption", metric=metric_label(metric), alpha=results.stats.alpha))
