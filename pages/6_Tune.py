"""Tune: benchmark a grid on the current document and name a recommended configuration."""

from __future__ import annotations

import streamlit as st

from chunkviz.eval.decision import DEFAULT_BUDGET_CHARS, default_margin
from chunkviz.eval.synthetic import DEFAULT_FORM, DEFAULT_QUESTIONS
from chunkviz.eval.tune import METRIC, probe_lost
from chunkviz.limits import MAX_BUDGET_CHARS, MIN_BUDGET_CHARS
from chunkviz.text.messages import backend_text
from chunkviz.ui.guard import show_error
from chunkviz.ui.i18n import tr
from chunkviz.ui.pickers import document_picker
from chunkviz.ui.state import app_state, bind, lang_key
from chunkviz.ui.tune.view import (
    PAGE_FORMS,
    QUESTION_SOURCES,
    TuneSettings,
    decision_notes,
    default_labels,
    form_label,
    front_figure,
    grid_configs,
    grid_label,
    headline,
    open_in_explore,
    point_columns,
    point_rows,
    recommendation_lines,
    recommended,
    run_tune,
    stored,
    tune_configs,
    validation_lines,
)
from chunkviz.ui.verdict_figure import verdict_figure, verdict_heading
from chunkviz.views.markup import escape_markdown
from chunkviz.views.verdict import panel_text

state = app_state()
lang = state.lang

st.title(tr("tune.title"))
st.caption(tr("tune.intro"))
with st.expander(tr("document.heading")):
    document = document_picker(state, prefix="tune_")
if not document.text.strip():
    st.info(tr("document.empty"))
    st.stop()

own_n = len(document.questions)
key = lang_key("tune_source", state)
bind(key, "both" if own_n else "synthetic")
source = st.radio(tr("tune.questions"), QUESTION_SOURCES, key=key, horizontal=True,
                  format_func=lambda s: tr(f"tune.q_{s}", n=own_n, lang=lang),
                  help=tr("tune.questions_help"))
left, right = st.columns(2)
synthetic = 0
form = DEFAULT_FORM
if source != "own":
    synthetic = int(left.number_input(tr("tune.count"), min_value=0, max_value=2000,
                                      value=DEFAULT_QUESTIONS,
                                      step=50, key="tune_count", help=tr("tune.count_help")))
    form = right.selectbox(tr("tune.form"), PAGE_FORMS, key="tune_form",
                           format_func=lambda f: form_label(lang, f, state.backend),
                           help=tr("tune.form_help"))
imported = state.imported_for(document)
offered = tune_configs(document, imported)
labels = [c.label for c in offered]
chosen = st.multiselect(tr("tune.grid"), labels, default=default_labels(offered), key="tune_grid",
                        format_func=lambda c: grid_label(lang, c, imported),
                        help=tr("tune.grid_help"))
budget = int(st.number_input(tr("decision.budget"), min_value=MIN_BUDGET_CHARS,
                             max_value=MAX_BUDGET_CHARS, value=DEFAULT_BUDGET_CHARS, step=250,
                             key="tune_budget", help=tr("decision.budget_help")))
st.caption(tr("tune.backend", backend=escape_markdown(backend_text(state.lang, state.backend))))
if not chosen:
    st.info(tr("tune.no_grid"))
    st.stop()

uses_own = source != "synthetic" and own_n > 0
if not uses_own and not synthetic:
    # No questions at all: lost before retrieval is all that can be counted.
    st.info(tr("tune.no_questions"))
    total, rows = probe_lost(document, grid_configs(chosen, document, imported))
    if not total:
        st.caption(tr("tune.no_probes"))
    for row in rows:
        st.markdown(tr("tune.lost_sentence", total=total, broken=row.broken,
                       config=escape_markdown(row.config)))
    st.caption(tr("tune.probe_note"))
    st.stop()

settings = TuneSettings(uses_own, synthetic, form, tuple(chosen), state.backend, budget=budget)
result = stored(document, settings)
if st.button(tr("tune.run"), key="tune_run", type="primary"):
    try:
        result = run_tune(document, settings, lang, imported)
    except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(exc)
        st.stop()
if result is None:
    st.stop()

answer = st.container()
delta = st.number_input(tr("tune.rec.margin"), min_value=0.001, max_value=0.5, step=0.005,
                        format="%.3f", value=default_margin(METRIC), key="tune_margin",
                        help=tr("tune.rec.margin_help"))
result = recommended(document, settings, result, float(delta))
rec = result.recommendation
with answer:
    headline(lang, result)
reason, rule = recommendation_lines(lang, result)
lines = validation_lines(lang, result)
if result.source.get("synthetic"):
    st.warning("\n\n".join(lines))
else:
    st.caption(lines[0])
choices = [rec] if result.at_k is None else [rec, result.at_k]
titles = [panel_text(lang, c, result.budget) for c in choices]
st.caption(verdict_heading(choices, lang))
st.plotly_chart(verdict_figure(choices, titles, lang), key="tune_fig_verdict")
st.success(f"**{tr('tune.why')}:** {reason}")
notes, unstable = decision_notes(lang, result)
if unstable:
    st.warning("\n\n".join(notes))
elif notes:
    st.caption(" ".join(notes))
st.caption(f"{rule} · {lines[-1]}")

fig_left, fig_right = st.columns(2)
fig_left.plotly_chart(front_figure(result.points, "index_bytes", lang), key="tune_fig_size")
fig_right.plotly_chart(front_figure(result.points, "context_chars", lang),
                       key="tune_fig_context")
st.caption(" ".join(lines))
st.dataframe(point_rows(lang, result), hide_index=True, key="tune_table", width="stretch",
             column_config=point_columns(lang, result))

pick_col, open_col = st.columns([3, 1])
points = [p.label for p in result.points]
bind("tune_open_pick", result.pick)
if st.session_state["tune_open_pick"] not in points:
    st.session_state["tune_open_pick"] = result.pick
picked = pick_col.selectbox(tr("tune.open_pick"), points, key="tune_open_pick",
                            help=tr("tune.open_help"))
if open_col.button(tr("tune.open"), key="tune_open"):
    open_in_explore(state, str(picked))
