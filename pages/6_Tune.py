"""Tune: benchmark a grid on the current document and name a recommended configuration."""

from __future__ import annotations

import streamlit as st

from chunkviz.eval.decision import DEFAULT_BUDGET_CHARS, default_margin
from chunkviz.eval.synthetic import DEFAULT_FORM, DEFAULT_QUESTIONS
from chunkviz.eval.tune import METRIC
from chunkviz.limits import MAX_BUDGET_CHARS, MIN_BUDGET_CHARS
from chunkviz.text.messages import backend_text
from chunkviz.ui.guard import guard
from chunkviz.ui.i18n import tr
from chunkviz.ui.page_start import page_document
from chunkviz.ui.state import app_state, bind, lang_key
from chunkviz.ui.tune.view import (
    PAGE_FORMS,
    QUESTION_SOURCES,
    TuneSettings,
    config_labels,
    decision_notes,
    default_labels,
    form_label,
    front_figure,
    grid_label,
    headline,
    lost_before_retrieval,
    open_pick,
    point_columns,
    point_rows,
    recommendation_lines,
    recommended,
    run_tune,
    stored,
    tune_configs,
    validation_lines,
    verdict_chart,
)
from chunkviz.views.markup import escape_markdown

state = app_state()
lang = state.lang

st.title(tr("tune.title"))
st.caption(tr("tune.intro"))
document = page_document(state, prefix="tune_")

own_n = len(document.questions)
key = lang_key("tune_source", state)
bind(key, "both" if own_n else "synthetic")
source = st.radio(
    tr("tune.questions"),
    QUESTION_SOURCES,
    key=key,
    horizontal=True,
    format_func=lambda s: tr(f"tune.q_{s}", n=own_n, lang=lang),
    help=tr("tune.questions_help"),
)
left, right = st.columns(2)
synthetic = 0
form = DEFAULT_FORM
if source != "own":
    synthetic = int(
        left.number_input(
            tr("tune.count"),
            min_value=0,
            max_value=2000,
            value=DEFAULT_QUESTIONS,
            step=50,
            key="tune_count",
            help=tr("tune.count_help"),
        )
    )
    form = right.selectbox(
        tr("tune.form"),
        PAGE_FORMS,
        key="tune_form",
        format_func=lambda f: form_label(lang, f, state.backend),
        help=tr("tune.form_help"),
    )
imported = state.imported_for(document)
offered = tune_configs(document, imported)
chosen = st.multiselect(
    tr("tune.grid"),
    config_labels(offered),
    default=default_labels(offered),
    key="tune_grid",
    format_func=lambda c: grid_label(lang, c, imported),
    help=tr("tune.grid_help"),
)
budget = int(
    st.number_input(
        tr("decision.budget"),
        min_value=MIN_BUDGET_CHARS,
        max_value=MAX_BUDGET_CHARS,
        value=DEFAULT_BUDGET_CHARS,
        step=250,
        key="tune_budget",
        help=tr("decision.budget_help"),
    )
)
st.caption(tr("tune.backend", backend=escape_markdown(backend_text(state.lang, state.backend))))
if not chosen:
    st.info(tr("tune.no_grid"))
    st.stop()

uses_own = source != "synthetic" and own_n > 0
if not uses_own and not synthetic:
    # No questions at all: lost before retrieval is all that can be counted.
    lost_before_retrieval(document, chosen, imported)
    st.stop()

settings = TuneSettings(uses_own, synthetic, form, tuple(chosen), state.backend, budget=budget)
result = stored(document, settings)
if st.button(tr("tune.run"), key="tune_run", type="primary"):
    with guard() as attempt:
        result = run_tune(document, settings, lang, imported)
    if attempt.failed:
        st.stop()
if result is None:
    st.stop()

answer = st.container()
delta = st.number_input(
    tr("tune.rec.margin"),
    min_value=0.001,
    max_value=0.5,
    step=0.005,
    format="%.3f",
    value=default_margin(METRIC),
    key="tune_margin",
    help=tr("tune.rec.margin_help"),
)
result = recommended(document, settings, result, float(delta))
with answer:
    headline(lang, result)
reason, rule = recommendation_lines(lang, result)
lines = validation_lines(lang, result)
if result.source.get("synthetic"):
    st.warning("\n\n".join(lines))
else:
    st.caption(lines[0])
verdict_chart(lang, result)
st.success(f"**{tr('tune.why')}:** {reason}")
notes, unstable = decision_notes(lang, result)
if unstable:
    st.warning("\n\n".join(notes))
elif notes:
    st.caption(" ".join(notes))
st.caption(f"{rule} · {lines[-1]}")

fig_left, fig_right = st.columns(2)
fig_left.plotly_chart(front_figure(result.points, "index_bytes", lang), key="tune_fig_size")
fig_right.plotly_chart(front_figure(result.points, "context_chars", lang), key="tune_fig_context")
st.caption(" ".join(lines))
st.dataframe(
    point_rows(lang, result),
    hide_index=True,
    key="tune_table",
    width="stretch",
    column_config=point_columns(lang, result),
)

open_pick(state, result)
