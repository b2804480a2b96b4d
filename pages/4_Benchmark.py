"""Benchmark: the study's table with honest significance, drill-down, and recompute."""

from __future__ import annotations

import streamlit as st

from chunkviz.eval.decision import default_margin
from chunkviz.eval.metrics import metric_label
from chunkviz.eval.verdict import with_margin
from chunkviz.text.messages import backend_text
from chunkviz.ui import verdict_view
from chunkviz.ui.benchmark import by_type as types_view
from chunkviz.ui.benchmark import context as context_view
from chunkviz.ui.benchmark import data, recompute, sections
from chunkviz.ui.benchmark import link as bench_link
from chunkviz.ui.benchmark import separation as separation_view
from chunkviz.ui.guard import message_markdown
from chunkviz.ui.i18n import tr
from chunkviz.ui.lazy import lazy_tabs
from chunkviz.ui.state import app_state
from chunkviz.views import benchmark_tables as tables
from chunkviz.views.bench_link import run_label
from chunkviz.views.main_table import main_table
from chunkviz.views.markup import escape_markdown
from chunkviz.views.run_list import backend_partners
from chunkviz.views.significance import margin_of, pairwise_metrics, unit_of
from chunkviz.views.tune_report import provenance_lines

state = app_state()
lang = state.lang

st.html(tables.RESPONSIVE_TABLES_CSS)
st.title(tr("benchmark.title"))
st.write(tr("benchmark.intro"))
link_notes = st.container()

found = data.discover()
if found.runs:
    by_path = {str(r.path): r for r in found.runs}
    new_run = st.session_state.pop(recompute.NEW_RUN_KEY, None)
    if new_run in by_path:
        st.session_state["bench_run"] = new_run
    bench_link.seed_run(state, found.runs, "bench_run")
    # The run to show is read whole (the list read each file's listed fields only); one whose
    # tables break a rule joins the skipped files, and the next run is shown.
    found = data.check_shown(found, "bench_run")
for path, why in found.skipped:
    st.warning(tr("benchmark.skipped", path=escape_markdown(str(path)),
                  why=message_markdown(why)))
runs = list(found.runs)
if not runs:
    dirs = ", ".join(f"`{d}`" for d in data.results_dirs_now())
    st.info(tr("benchmark.no_runs", dirs=dirs))
else:
    by_path = {str(r.path): r for r in runs}
    run_path = st.selectbox(
        tr("benchmark.run"),
        options=list(by_path),
        key="bench_run",
        format_func=lambda p: run_label(lang, by_path[p]),
    )
    run = by_path[run_path]
    results = data.load_path(run.path)
    # Figures from synthetic questions say so, beside every figure of the run.
    for line in provenance_lines(lang, results.questions_source, results.backend.name):
        st.caption(escape_markdown(line))
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
        metric = pick_col.selectbox(tr("benchmark.verdict_metric"), sig_metrics,
                                    key="bench_sig_metric", format_func=metric_label)
        bench_link.seed_delta(state, f"bench_margin_{metric}",
                              margin_of(results, metric) or default_margin(metric))
        delta = margin_col.number_input(
            tr("benchmark.margin"), min_value=0.001, max_value=0.5, step=0.005, format="%.3f",
            key=f"bench_margin_{metric}", help=tr("benchmark.margin_help"))
        bench_link.seed_budget(state, verdict_view.BUDGET_KEY,
                               verdict_view.default_budget(results))
        with budget_col:
            budget = verdict_view.budget_input(lang)
        partners = data.load_readable([p.path for p in backend_partners(runs, run)])
        verdict_view.render([(run.path, results)] + [
            (path, res) for path, res in partners if metric in pairwise_metrics(res)],
            metric, float(delta), budget, lang, top=answer)
        if delta != margin_of(results, metric):
            results = with_margin(results, metric, delta)
        st.caption(tr("benchmark.verdict_caption", unit=unit_word,
                      unit_note=tr(f"benchmark.unit_note_{unit}")))

    # --- main table ---
    st.subheader(tr("benchmark.main"))
    rows = main_table(results)
    lexical = results.backend.kind == "lexical"
    st.markdown(tables.main_table_markdown(rows, lang, encode_key="col_index_build" if lexical
                                           else "col_encode"))
    st.caption(tr("benchmark.main_caption", n=run.questions,
                  backend=escape_markdown(backend_text(lang, run.backend)),
                  model=escape_markdown(str(run.model)), resamples=results.stats.bootstrap,
                  unit=unit_word))
    st.caption(tr("benchmark.encode_caption_lexical" if lexical
              else "benchmark.encode_caption_dense"))

    with st.expander(tr("benchmark.runs_expander", n=len(runs))):
        st.dataframe(tables.runs_records(runs, lang), hide_index=True, width="stretch")
    if metric is not None:
        weights = tr("verdict.weights", name=metric_label(metric))
        st.markdown(f"**{escape_markdown(weights)}**")
        st.dataframe(verdict_view.weight_rows(results, metric, lang), hide_index=True,
                     key="bench_weights")
        st.caption(tr("verdict.weights_caption"))

    # Below the first screen, one tab at a time: only the open tab runs (and draws its charts),
    # so the page opens on what the results file holds (issue 39).
    sections.seed_view(state)
    for name, tab in lazy_tabs({n: tr(f"benchmark.tab_{n}") for n in sections.TABS},
                               key="bench_tab"):
        with tab:
            if name == "significance":
                sections.significance(results, metric, unit_word, lang)
            elif name == "metrics":
                # Where Recall@5 saturates: the metric that separates the most pairs, and why.
                separation_view.render(run.path)
            elif name == "robustness" and metric is not None:
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
    # The link carries what the sender sees: run, metric, δ, view and budget (values).
    sections.publish_view(run, metric, delta if metric is not None else None,
                          budget if metric is not None else None)

with link_notes:
    bench_link.show_problems()

recompute.render(state.backend, expanded=not runs)
