"""Benchmark: the study's table with honest significance, drill-down, and recompute."""

from __future__ import annotations

import streamlit as st

from chunkviz.errors import ChunkvizError
from chunkviz.eval.decision import default_margin
from chunkviz.eval.tune import provenance_lines
from chunkviz.text import text
from chunkviz.text.messages import backend_text
from chunkviz.ui import bench_link, verdict_view
from chunkviz.ui import benchmark_context as context_view
from chunkviz.ui import benchmark_data as data
from chunkviz.ui import benchmark_drilldown as drilldown
from chunkviz.ui import benchmark_figures as figs
from chunkviz.ui import benchmark_recompute as recompute
from chunkviz.ui.guard import show_error, user_message
from chunkviz.ui.state import app_state
from chunkviz.views import benchmark_tables as tables
from chunkviz.views import dashboard as db
from chunkviz.views.bench_link import VIEWS, BenchView, run_label
from chunkviz.views.markup import escape_markdown

state = app_state()
lang = state.lang


def t(key: str) -> str:
    return text(lang, f"benchmark.{key}")


def fmt(key: str, **fields: object) -> str:
    return text(lang, f"benchmark.{key}", **fields)


st.html(tables.RESPONSIVE_TABLES_CSS)
st.title(t("title"))
st.write(t("intro"))
link_notes = st.container()

found = data.discover()
for path, why in found.skipped:
    st.warning(fmt("skipped", path=escape_markdown(str(path)), why=escape_markdown(str(why))))
runs = list(found.runs)
if not runs:
    dirs = ", ".join(f"`{d}`" for d in data.results_dirs_now())
    st.info(fmt("no_runs", dirs=dirs))
else:
    by_path = {str(r.path): r for r in runs}
    new_run = st.session_state.pop(recompute.NEW_RUN_KEY, None)
    if new_run in by_path:
        st.session_state["bench_run"] = new_run
    bench_link.seed_run(state, runs, "bench_run")
    if st.session_state.get("bench_run") not in by_path:
        st.session_state["bench_run"] = str(runs[0].path)
    run_path = st.selectbox(
        t("run"),
        options=list(by_path),
        key="bench_run",
        format_func=lambda p: run_label(lang, by_path[p]),
    )
    run = by_path[run_path]
    results = data.load_path(run.path)
    # Figures from synthetic questions say so, beside every figure of the run.
    for line in provenance_lines(lang, results.questions_source, results.backend.name):
        st.caption(escape_markdown(line))
    unit, _units = db.unit_of(results)
    unit_word = t(f"unit_{unit}")

    # --- the answer: one chart, equal k beside equal budget, and its sentences ---
    sig_metrics = db.pairwise_metrics(results)
    metric = None
    if sig_metrics:
        st.subheader(t("verdict"))
        pick_col, margin_col, budget_col = st.columns(3)
        bench_link.seed_choice(state, "metric", sig_metrics, "bench_sig_metric")
        metric = pick_col.selectbox(t("verdict_metric"), sig_metrics, key="bench_sig_metric",
                                    format_func=db.metric_label)
        bench_link.seed_delta(state, f"bench_margin_{metric}",
                              db.margin_of(results, metric) or default_margin(metric))
        delta = margin_col.number_input(
            t("margin"), min_value=0.001, max_value=0.5, step=0.005, format="%.3f",
            key=f"bench_margin_{metric}", help=t("margin_help"))
        with budget_col:
            budget = verdict_view.budget_input(results, lang)
        partners = [(p.path, data.load_path(p.path)) for p in db.backend_partners(runs, run)]
        verdict_view.render([(run.path, results)] + [
            (path, res) for path, res in partners if metric in db.pairwise_metrics(res)],
            metric, float(delta), budget, lang)
        if delta != db.margin_of(results, metric):
            results = db.with_margin(results, metric, delta)
        st.caption(fmt("verdict_caption", unit=unit_word, unit_note=t(f"unit_note_{unit}")))

    # --- main table ---
    st.subheader(t("main"))
    rows = db.main_table(results)
    lexical = results.backend.kind == "lexical"
    st.markdown(tables.main_table_markdown(rows, t, encode_key="col_index_build" if lexical
                                           else "col_encode"))
    st.caption(fmt("main_caption", n=run.questions,
                   backend=escape_markdown(backend_text(lang, run.backend)),
                   model=escape_markdown(str(run.model)), resamples=results.stats.bootstrap,
                   unit=unit_word))
    st.caption(t("encode_caption_lexical" if lexical else "encode_caption_dense"))

    with st.expander(fmt("runs_expander", n=len(runs))):
        st.dataframe(tables.runs_records(runs, t), hide_index=True, width="stretch")
    if metric is not None:
        weights = text(lang, "verdict.weights", name=db.metric_label(metric))
        st.markdown(f"**{escape_markdown(weights)}**")
        st.dataframe(verdict_view.weight_rows(results, metric, lang), hide_index=True,
                     key="bench_weights")
        st.caption(text(lang, "verdict.weights_caption"))

    # --- significance ---
    st.subheader(t("sig"))
    st.caption(fmt("sig_caption", test=escape_markdown(str(results.stats.test)),
                   alpha=results.stats.alpha, unit=unit_word,
                   permutations=results.stats.permutations, floor=db.floor_text(results)))
    if metric is not None:
        st.markdown(tables.matrix_markdown(db.significance_matrix(results, metric), t))
        st.markdown(f"**{t('sentences')}**")
        words = db.sentences(results, metric, lang)
        st.markdown("\n".join(f"- {escape_markdown(s)}" for s in words.shown)
                    if words.shown else t("none_shown"))
        if words.folded:
            with st.expander(fmt("folded", n=len(words.folded))):
                st.markdown("\n".join(f"- {escape_markdown(s)}" for s in words.folded))

    # --- naive vs contextual headers (runs made with bench --context none,headings) ---
    if metric is not None:
        context_view.render(results, metric, t, fmt)

    # --- sensitivity and replication ---
    if metric is not None:
        st.subheader(t("sens"))
        names = db.sensitivity_definitions(results, metric)
        if not names:
            st.info(t("sens_missing"))
        else:
            st.caption(t("sens_caption"))
            sens_rows = db.sensitivity_rows(results, metric)
            if sens_rows:
                st.markdown(tables.sensitivity_markdown(sens_rows, names, t, lang))
            else:
                st.info(t("sens_none"))
        st.subheader(t("rep"))
        twins = db.replication_partners(runs, run)
        if not twins:
            st.info(fmt("rep_none", backend=backend_text(lang, run.backend)))
        else:
            twin_paths = {str(p.path): p for p in twins}
            twin_path = st.selectbox(
                t("rep_other"), list(twin_paths), key="bench_replication",
                format_func=lambda p: run_label(lang, twin_paths[p]),
            )
            try:
                reps = db.replication(results, data.load_path(twin_paths[twin_path].path), metric)
            except ChunkvizError as e:
                show_error(e)
            else:
                st.markdown(tables.replication_markdown(reps, t, lang))
                st.caption(t("rep_caption"))

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
    bench_link.seed_choice(state, "view", VIEWS, "bench_mode")
    mode = st.radio(t("mode"), list(labels_mode), key="bench_mode",
                    format_func=labels_mode.__getitem__, horizontal=True)
    # The link carries what the sender sees: run, metric, δ and view (values, not labels).
    bench_link.publish(BenchView(run=run.run_id, metric=metric,
                                 delta=delta if metric is not None else None, view=mode))
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
            format_func=lambda p: run_label(lang, partner_paths[p]),
        )
        other = data.load_path(partner_paths[other_path].path)
        for col, metric in zip(st.columns(2), ("recall@5", "ndcg@10"), strict=True):
            try:
                cmp = db.compare_backends(results, other, metric)
            except ChunkvizError as e:
                col.error(user_message(e))
                continue
            col.plotly_chart(
                figs.backends_bar(cmp, fmt("backends_title", metric=db.metric_label(metric))),
                key=f"bench_fig_backends_{metric}",
            )
            col.markdown(escape_markdown(db.backend_sentence(cmp, lang)))

    # --- drill-down ---
    st.subheader(t("drill"))
    # Typing in the box filters the questions by their text (Streamlit's selectbox search).
    texts = drilldown.question_texts(results)
    qid = st.selectbox(t("drill_pick"), results.question_ids, index=None, key="bench_qid",
                       placeholder=t("drill_placeholder"),
                       format_func=lambda q: db.question_label(q, texts))
    if qid is not None:
        drilldown.render(results, qid, t, fmt)

with link_notes:
    bench_link.show_problems()

recompute.render(t, fmt, state.backend, expanded=not runs)
