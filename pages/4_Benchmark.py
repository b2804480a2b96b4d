"""Benchmark: the study's table with honest significance, drill-down, and recompute."""

from __future__ import annotations

import streamlit as st

from chunkviz.errors import ChunkvizError
from chunkviz.text import text
from chunkviz.ui import benchmark_data as data
from chunkviz.ui import benchmark_drilldown as drilldown
from chunkviz.ui import benchmark_figures as figs
from chunkviz.ui import benchmark_recompute as recompute
from chunkviz.ui.state import app_state
from chunkviz.views import benchmark_tables as tables
from chunkviz.views import dashboard as db
from chunkviz.views.markup import escape_markdown

state = app_state()
lang = state.lang


def t(key: str) -> str:
    return text(lang, f"benchmark.{key}")


def fmt(key: str, **fields: object) -> str:
    return text(lang, f"benchmark.{key}", **fields)


st.title(t("title"))
st.write(t("intro"))

found = data.discover()
st.subheader(t("runs"))
for path, why in found.skipped:
    st.warning(fmt("skipped", path=escape_markdown(str(path)), why=escape_markdown(str(why))))
runs = list(found.runs)
if not runs:
    dirs = ", ".join(f"`{d}`" for d in data.results_dirs_now())
    st.info(fmt("no_runs", dirs=dirs))
else:
    st.dataframe(tables.runs_records(runs, t), hide_index=True, width="stretch")
    by_path = {str(r.path): r for r in runs}
    new_run = st.session_state.pop(recompute.NEW_RUN_KEY, None)
    if new_run in by_path:
        st.session_state["bench_run"] = new_run
    if st.session_state.get("bench_run") not in by_path:
        st.session_state["bench_run"] = str(runs[0].path)
    run_path = st.selectbox(
        t("run"),
        options=list(by_path),
        key="bench_run",
        format_func=lambda p: (f"{by_path[p].run_id} — {by_path[p].backend} "
                               f"({by_path[p].model}), {by_path[p].dataset}, "
                               f"{by_path[p].questions} q, {by_path[p].created}"),
    )
    run = by_path[run_path]
    results = data.load_path(run.path)

    # --- main table ---
    st.subheader(t("main"))
    rows = db.main_table(results)
    st.markdown(tables.main_table_markdown(rows, t))
    st.caption(fmt("main_caption", n=run.questions, backend=escape_markdown(str(run.backend)),
                    model=escape_markdown(str(run.model))))

    # --- significance ---
    st.subheader(t("sig"))
    st.caption(fmt("sig_caption", test=escape_markdown(str(results.stats.test)),
                    alpha=results.stats.alpha))
    sig_metrics = db.pairwise_metrics(results)
    if sig_metrics:
        metric = st.selectbox(t("sig_metric"), sig_metrics, key="bench_sig_metric",
                              format_func=db.metric_label)
        st.markdown(tables.matrix_markdown(db.significance_matrix(results, metric), t))
        st.markdown(f"**{t('sentences')}**")
        st.markdown("\n".join(f"- {escape_markdown(s)}"
                              for s in db.sentences(results, metric, lang)))

    # --- plots ---
    st.subheader(t("plots"))
    left, right = st.columns(2)
    left.plotly_chart(figs.quality_scatter(rows, "recall@5", t("chunks_axis")),
                      key="bench_fig_recall")
    right.plotly_chart(figs.quality_scatter(rows, "ndcg@10", t("chunks_axis")),
                       key="bench_fig_ndcg")
    left, right = st.columns(2)
    left.plotly_chart(figs.lost_bar(rows, t("lost_title"), t("lost_axis")), key="bench_fig_lost")
    with right:
        measure = st.radio(t("curve_measure"), db.CURVE_METRICS, key="bench_curve_measure",
                           format_func=db.metric_label, horizontal=True)
        st.plotly_chart(figs.curves_figure(db.curves(results, measure), results.ks, measure,
                                           t("curves_title")), key="bench_fig_curves")
    chars = results.budget.chars
    labels_mode = {"equal_k": fmt("mode_equal_k", k=5),
                   "budget": fmt("mode_budget", chars=chars)}
    mode = st.radio(t("mode"), list(labels_mode), key="bench_mode",
                    format_func=labels_mode.__getitem__, horizontal=True)
    title = (fmt("mode_title_k", k=5) if mode == "equal_k"
             else fmt("mode_title_budget", chars=chars))
    st.plotly_chart(figs.mode_bar(db.mode_rows(results, mode), title, "Recall"),
                    key="bench_fig_mode")
    st.caption(t("mode_caption"))

    # --- two backends ---
    st.subheader(t("backends"))
    partners = db.backend_partners(runs, run)
    if not partners:
        st.info(fmt("backends_none", dataset=run.dataset, sample=run.sample, seed=run.seed))
    else:
        partner_paths = {str(p.path): p for p in partners}
        other_path = st.selectbox(
            t("backends_other"), list(partner_paths), key="bench_partner",
            format_func=lambda p: f"{partner_paths[p].backend} — {partner_paths[p].run_id}",
        )
        other = data.load_path(partner_paths[other_path].path)
        for col, metric in zip(st.columns(2), ("recall@5", "ndcg@10"), strict=True):
            try:
                cmp = db.compare_backends(results, other, metric)
            except ChunkvizError as e:
                col.error(escape_markdown(str(e)))
                continue
            col.plotly_chart(
                figs.backends_bar(cmp, fmt("backends_title", metric=db.metric_label(metric))),
                key=f"bench_fig_backends_{metric}",
            )
            col.markdown(escape_markdown(db.backend_sentence(cmp, lang)))

    # --- drill-down ---
    st.subheader(t("drill"))
    qid = st.selectbox(t("drill_pick"), results.question_ids, index=None, key="bench_qid",
                       placeholder=t("drill_placeholder"))
    if qid is not None:
        drilldown.render(results, qid, t, fmt)

recompute.render(t, fmt, state.backend, expanded=not runs)
