"""Strategies: the pictures behind semantic, perplexity and parent-child splitting."""

from __future__ import annotations

import streamlit as st

from chunkviz.text.messages import backend_text, language_model_text
from chunkviz.ui import strategies_view as view
from chunkviz.ui.guard import show_error
from chunkviz.ui.i18n import tr
from chunkviz.ui.pickers import document_picker
from chunkviz.ui.resources import (
    chunk_cached,
    load_backend,
    param_items,
    perplexity_curve_cached,
    semantic_curve_cached,
)
from chunkviz.ui.state import app_state
from chunkviz.ui.strategies_figures import clicked_boundary, perplexity_figure, semantic_figure
from chunkviz.views.compare import config_label
from chunkviz.views.markup import escape_markdown
from chunkviz.views.parent_expansion import auto_merge, expand_to_parents, hit_rows, rank_children

state = app_state()

st.title(tr("strategies.title"))
st.caption(tr("strategies.intro"))
with st.expander(tr("document.heading")):
    document = document_picker(state, prefix="strategies_")
text = document.text
if not text.strip():
    st.info(tr("document.empty"))
    st.stop()

strategy, params = state.configuration()
try:
    current = chunk_cached(document, strategy, params, state.backend, state.imported)
except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
    show_error(exc)
else:
    st.metric(tr("strategies.chunks_current"), f"{len(current.chunks):,}",
              help=tr("strategies.chunks_current_help",
                      label=escape_markdown(config_label(strategy, params))))


backend = load_backend(state.backend)
tab_sem, tab_ppl, tab_pc = st.tabs([tr("strategies.tab_semantic"), tr("strategies.tab_perplexity"),
                                    tr("strategies.tab_parent")])

with tab_sem:
    sem = view.strategy_controls(state, "semantic")
    try:
        with st.spinner(tr("lesson.busy_semantic", chars=len(text)), show_time=True):
            curve = semantic_curve_cached(text, param_items(sem))
    except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(exc)
    else:
        view.cut_metrics(curve, (tr("strategies.threshold"),
                             "—" if curve.threshold is None else f"{curve.threshold:.3f}"))
        event = st.plotly_chart(semantic_figure(curve, float(sem["percentile"]), state.lang,
                                                str(sem["model"])),
                                key="strategies_sem_chart", on_select="rerun",
                                selection_mode="points")
        with st.expander(tr("strategies.model_details")):
            st.caption(tr("strategies.model_details_sem", model=escape_markdown(curve.embedder),
                          backend=escape_markdown(backend_text(state.lang, str(sem["model"])))))
        target = view.cut_picker(curve.cuts, curve.similarities, "strategies_sem_jump",
                                 clicked_boundary(event))
        view.curve_view(text, curve, target, "strategies_sem_view", state)

with tab_ppl:
    ppl = view.strategy_controls(state, "perplexity")
    try:
        with st.spinner(tr("lesson.busy_perplexity", chars=len(text)), show_time=True):
            pcurve = perplexity_curve_cached(text, param_items(ppl))
    except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(exc)
    else:
        lm_words = language_model_text(state.lang, str(ppl["lm"]), int(ppl["order"]))
        st.info(tr("strategies.lm_in_use", name=escape_markdown(lm_words)))
        view.cut_metrics(pcurve)
        event = st.plotly_chart(perplexity_figure(pcurve, state.lang, lm_words),
                                key="strategies_ppl_chart", on_select="rerun",
                                selection_mode="points")
        with st.expander(tr("strategies.model_details")):
            # The lm value as the strategy takes it (char-ngram, hf:<model>): a value, not words.
            st.caption(tr("strategies.model_details_ppl", model=escape_markdown(str(ppl["lm"]))))
        changes = tuple(0.0 if c != c else c for c in pcurve.changes)
        target = view.cut_picker(pcurve.cuts, changes, "strategies_ppl_jump",
                                 clicked_boundary(event))
        view.curve_view(text, pcurve, target, "strategies_ppl_view", state)

with tab_pc:
    pc = view.strategy_controls(state, "parent_child")
    first = document.questions[0].question if document.questions else ""
    st.session_state.setdefault("strategies_pc_query", first)
    q1, q2, q3, q4 = st.columns([3, 1, 1, 1])
    query = q1.text_input(tr("strategies.query"), key="strategies_pc_query",
                          help=tr("strategies.query_help",
                                  backend=backend_text(state.lang, state.backend)))
    k = q2.slider(tr("strategies.k"), 1, 20, 5, key="strategies_pc_k")
    expansion_kind = q3.radio(tr("strategies.expansion"), ("small", "merge"),
                              key=f"strategies_pc_exp_{state.lang}",
                              format_func=lambda e, lang=state.lang: tr(f"strategies.exp_{e}",
                                                                        lang=lang),
                              help=tr("strategies.expansion_help"))
    min_children = q4.slider(tr("strategies.min_children"), 1, 10, 2, key="strategies_pc_m",
                             disabled=expansion_kind != "merge")
    try:
        result = chunk_cached(document, "parent_child", pc, state.backend, state.imported)
        if not query.strip():
            st.info(tr("strategies.no_query"))
            st.stop()
        ranking = rank_children(result, query, backend)
        expansion = (auto_merge(result, ranking, k, min_children=int(min_children))
                     if expansion_kind == "merge" else expand_to_parents(result, ranking, k))
    except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(exc)
        st.stop()
    view.expansion_numbers(expansion)
    rows = hit_rows(result, expansion)
    view.hits_table(result, rows)
    view.contexts_view(result, expansion, rows, state)
