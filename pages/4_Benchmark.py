"""Benchmark: the study's table with honest significance, drill-down, and recompute."""

from __future__ import annotations

import streamlit as st

from chunkviz.eval.decision import default_margin
from chunkviz.eval.measures import metric_label
from chunkviz.eval.verdict import with_margin
from chunkviz.text.messages import backend_text
from chunkviz.ui import verdict_view
from chunkviz.ui.benchmark import css, data, recompute, sections, tabs
from chunkviz.ui.benchmark import link as bench_link
from chunkviz.ui.benchmark import runs as runs_view
from chunkviz.ui.i18n import tr
from chunkviz.ui.state import app_state
from chunkviz.views import benchmark_tables as tables
from chunkviz.views.main_table import main_table
from chunkviz.views.markup import escape_markdown
from chunkviz.views.significance import margin_of, pairwise_metrics, unit_of

state = app_state()
lang = state.lang

st.html(css.RESPONSIVE_TABLES_CSS)
st.title(tr("benchmark.title"))
st.write(tr("benchmark.intro"))
link_notes = st.container()

found = runs_view.shown_runs(state, data.discover())
runs_view.skipped_warnings(found)
runs = list(found.runs)
if not runs:
    runs_view.no_runs()
else:
    run = runs_view.pick_run(state, runs)
    results = data.load_path(run.path)
    # Figures from synthetic questions say so, beside every figure of the run.
    runs_view.provenance(results, lang)
    unit, _units = unit_of(results)
    unit_word = tr(f"benchmark.unit_{unit}")

    # --- the answer: one chart, equal k beside equal budget, and its sentences ---
    sig_metrics = pairwise_metrics(results)
    metric = None
    if sig_metrics:
        st.subheader(tr("benchmark.verdict"))
        answer = st.container()
        pick_col, margin_col, budget_col = st.columns(3)
        bench_link.seed_choice(state, "metric", sig_metrics, "bench_sig_metric")
        metric = pick_col.selectbox(
            tr("benchmark.verdict_metric"),
            sig_metrics,
            key="bench_sig_metric",
            format_func=metric_label,
        )
        bench_link.seed_delta(
            state, f"bench_margin_{metric}", margin_of(results, metric) or default_margin(metric)
        )
        delta = margin_col.number_input(
            tr("benchmark.margin"),
            min_value=0.001,
            max_value=0.5,
            step=0.005,
            format="%.3f",
            key=f"bench_margin_{metric}",
            help=tr("benchmark.margin_help"),
        )
        bench_link.seed_budget(state, verdict_view.BUDGET_KEY, verdict_view.default_budget(results))
        with budget_col:
            budget = verdict_view.budget_input(lang)
        verdict_view.render(
            runs_view.verdict_runs(runs, run, results, metric),
            metric,
            float(delta),
            budget,
            lang,
            top=answer,
        )
        if delta != margin_of(results, metric):
            results = with_margin(results, metric, delta)
        st.caption(
            tr(
                "benchmark.verdict_caption",
                unit=unit_word,
                unit_note=tr(f"benchmark.unit_note_{unit}"),
            )
        )

    # --- main table ---
    st.subheader(tr("benchmark.main"))
    rows = main_table(results)
    lexical = results.backend.kind == "lexical"
    st.markdown(
        tables.main_table_markdown(
            rows, lang, encode_key="col_index_build" if lexical else "col_encode"
        )
    )
    st.caption(
        tr(
            "benchmark.main_caption",
            n=run.questions,
            backend=escape_markdown(backend_text(lang, run.backend)),
            model=escape_markdown(str(run.model)),
            resamples=results.stats.bootstrap,
            unit=unit_word,
        )
    )
    st.caption(
        tr("benchmark.encode_caption_lexical" if lexical else "benchmark.encode_caption_dense")
    )

    with st.expander(tr("benchmark.runs_expander", n=len(runs))):
        st.dataframe(tables.runs_records(runs, lang), hide_index=True, width="stretch")
    if metric is not None:
        weights = tr("verdict.weights", name=metric_label(metric))
        st.markdown(f"**{escape_markdown(weights)}**")
        st.dataframe(
            verdict_view.weight_rows(results, metric, lang), hide_index=True, key="bench_weights"
        )
        st.caption(tr("verdict.weights_caption"))

    # Below the first screen, one tab at a time: only the open tab runs (and draws its charts),
    # so the page opens on what the results file holds (issue 39).
    tabs.below_first_screen(
        state, results, rows, runs, run, metric, delta if metric is not None else None, unit_word
    )
    # The link carries what the sender sees: run, metric, δ, view and budget (values).
    sections.publish_view(
        run, metric, delta if metric is not None else None, budget if metric is not None else None
    )

with link_notes:
    bench_link.show_problems()

recompute.render(state.backend, expanded=not runs)
