"""Strategies: the pictures behind semantic, perplexity and parent-child splitting."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import streamlit as st

from chunkviz.model import Chunk
from chunkviz.strategies import get_strategy
from chunkviz.text.messages import backend_text, language_model_text
from chunkviz.ui.controls import param_controls
from chunkviz.ui.guard import show_error
from chunkviz.ui.highlight_view import highlight_view
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
from chunkviz.views.highlight import Labels, Mark, labels_for, page_bounds, page_of, render_html
from chunkviz.views.markup import escape_markdown
from chunkviz.views.parent_expansion import auto_merge, expand_to_parents, hit_rows, rank_children

state = app_state()
ss = st.session_state
labels = labels_for(state.lang)

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
    current = chunk_cached(document, strategy, params, state.backend)
except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
    show_error(exc)
else:
    st.metric(tr("strategies.chunks_current"), f"{len(current.chunks):,}",
              help=tr("strategies.chunks_current_help",
                      label=escape_markdown(config_label(strategy, params))))


def _controls(name: str) -> dict[str, Any]:
    """The strategy's own controls (its schema), bound to its values in the app state."""
    values = param_controls(get_strategy(name), state.params_of(name), prefix="strategies_p_",
                            lang=state.lang, columns=5)
    state.set_params(name, values)
    return values


def _view(chunks: tuple[Chunk, ...], target: int | None, key: str,
          marks: list[Mark] | None = None, words: Labels | None = None) -> None:
    """The highlight of the page that holds chunk ``target`` (the first page without one)."""
    page = page_of(chunks[target].start) if target is not None and chunks else 0
    a, b = page_bounds(len(text), page)
    markup = render_html(text, chunks, marks or [], start=a, end=b, labels=words or labels)
    highlight_view(markup, scroll_to=target, key=key)
    st.caption(tr("strategies.view_note", a=a, b=b, n=len(text)))


def _cut_picker(cuts: tuple[int, ...], values: tuple[float, ...], key: str,
                clicked: int | None) -> int | None:
    """A select box of the cuts; returns the chunk index that starts at the chosen cut."""
    if clicked is not None and clicked in cuts:
        ss[key] = cuts.index(clicked) + 1
    item = {0: tr("strategies.jump_none")}
    item.update({n + 1: tr("strategies.jump_item", n=n + 1, i=c, v=values[c])
                 for n, c in enumerate(cuts)})
    chosen = st.selectbox(tr("strategies.jump"), list(item), key=key,
                          format_func=item.__getitem__, help=tr("strategies.jump_help"))
    return None if not chosen else int(chosen)  # chunk n starts after cut n


def _cut_metrics(curve: Any, *extra: tuple[str, str]) -> None:
    shown = [(tr("strategies.sentences"), f"{len(curve.units):,}"), *extra,
             (tr("strategies.cuts"), f"{len(curve.cuts) - len(curve.forced):,}"),
             (tr("strategies.forced"), f"{len(curve.forced):,}"),
             (tr("strategies.suppressed"), f"{len(curve.suppressed):,}"),
             (tr("strategies.chunks_here"), f"{len(curve.spans):,}")]
    for col, (label, value) in zip(st.columns(len(shown)), shown, strict=True):
        col.metric(label, value)


backend = load_backend(state.backend)
tab_sem, tab_ppl, tab_pc = st.tabs([tr("strategies.tab_semantic"), tr("strategies.tab_perplexity"),
                                    tr("strategies.tab_parent")])

with tab_sem:
    sem = _controls("semantic")
    try:
        with st.spinner(tr("lesson.busy_semantic", chars=len(text)), show_time=True):
            curve = semantic_curve_cached(text, param_items(sem))
    except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(exc)
    else:
        _cut_metrics(curve, (tr("strategies.threshold"),
                             "—" if curve.threshold is None else f"{curve.threshold:.3f}"))
        event = st.plotly_chart(semantic_figure(curve, float(sem["percentile"]), state.lang,
                                                str(sem["model"])),
                                key="strategies_sem_chart", on_select="rerun",
                                selection_mode="points")
        with st.expander(tr("strategies.model_details")):
            st.caption(tr("strategies.model_details_sem", model=escape_markdown(curve.embedder),
                          backend=escape_markdown(backend_text(state.lang, str(sem["model"])))))
        target = _cut_picker(curve.cuts, curve.similarities, "strategies_sem_jump",
                             clicked_boundary(event))
        _view(tuple(Chunk(s, e) for s, e in curve.spans), target, "strategies_sem_view")

with tab_ppl:
    ppl = _controls("perplexity")
    try:
        with st.spinner(tr("lesson.busy_perplexity", chars=len(text)), show_time=True):
            pcurve = perplexity_curve_cached(text, param_items(ppl))
    except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(exc)
    else:
        lm_words = language_model_text(state.lang, str(ppl["lm"]), int(ppl["order"]))
        st.info(tr("strategies.lm_in_use", name=escape_markdown(lm_words)))
        _cut_metrics(pcurve)
        event = st.plotly_chart(perplexity_figure(pcurve, state.lang, lm_words),
                                key="strategies_ppl_chart",
                                on_select="rerun", selection_mode="points")
        with st.expander(tr("strategies.model_details")):
            # The lm value as the strategy takes it (char-ngram, hf:<model>): a value, not words.
            st.caption(tr("strategies.model_details_ppl", model=escape_markdown(str(ppl["lm"]))))
        changes = tuple(0.0 if c != c else c for c in pcurve.changes)
        target = _cut_picker(pcurve.cuts, changes, "strategies_ppl_jump",
                             clicked_boundary(event))
        _view(tuple(Chunk(s, e) for s, e in pcurve.spans), target, "strategies_ppl_view")

with tab_pc:
    pc = _controls("parent_child")
    first = document.questions[0].question if document.questions else ""
    ss.setdefault("strategies_pc_query", first)
    q1, q2, q3, q4 = st.columns([3, 1, 1, 1])
    query = q1.text_input(tr("strategies.query"), key="strategies_pc_query",
                          help=tr("strategies.query_help", backend=state.backend))
    k = q2.slider(tr("strategies.k"), 1, 20, 5, key="strategies_pc_k")
    exp_labels = {"small": tr("strategies.exp_small"), "merge": tr("strategies.exp_merge")}
    expansion_kind = q3.radio(tr("strategies.expansion"), list(exp_labels),
                              key=f"strategies_pc_exp_{state.lang}",
                              format_func=exp_labels.__getitem__,
                              help=tr("strategies.expansion_help"))
    min_children = q4.slider(tr("strategies.min_children"), 1, 10, 2, key="strategies_pc_m",
                             disabled=expansion_kind != "merge")
    try:
        result = chunk_cached(document, "parent_child", pc, state.backend)
        if not query.strip():
            st.info(tr("strategies.no_query"))
            st.stop()
        ranking = rank_children(result, query, backend)
        expansion = (auto_merge(result, ranking, k, min_children=int(min_children))
                     if expansion_kind == "merge" else expand_to_parents(result, ranking, k))
    except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(exc)
        st.stop()
    m = st.columns(4)
    m[0].metric(tr("strategies.hits"), f"{len(expansion.hits):,}")
    m[1].metric(tr("strategies.contexts"), f"{len(expansion.contexts):,}")
    m[2].metric(tr("strategies.duplicates"), f"{expansion.duplicates_removed:,}")
    m[3].metric(tr("strategies.sent"), f"{expansion.context_chars:,}",
                help=tr("strategies.sent_help", naive=expansion.naive_chars))
    rows = hit_rows(result, expansion)
    st.dataframe([{tr("strategies.col_rank"): r.rank, tr("strategies.col_child"): f"#{r.child}",
                   tr("strategies.col_parent"): "—" if r.parent is None else f"#{r.parent}",
                   tr("strategies.col_fate"): tr(f"strategies.fate_{r.fate}"),
                   tr("strategies.col_context"): f"#{r.context}",
                   tr("strategies.col_text"): result.chunk_text(r.child)[:80]} for r in rows],
                 hide_index=True, key="strategies_pc_table", width="stretch")
    # Contexts in document order as bands (numbered by hit order), child hits as marks.
    order = sorted(range(len(expansion.contexts)), key=lambda i: expansion.contexts[i].start)
    bands = tuple(Chunk(expansion.contexts[i].start, expansion.contexts[i].end) for i in order)
    marks = [Mark(result.chunks[r.child].start, result.chunks[r.child].end,
                  f"#{r.rank} {tr('strategies.fate_' + r.fate)}") for r in rows]
    # The rest of the words (end markers, cut markers) stay the page language's.
    words = replace(labels, chunk=tr("strategies.context_word"),
                    chunks=tr("strategies.context_word"), answer=tr("strategies.hit_word"))
    st.caption(tr("strategies.pc_note"))
    _view(bands, 0 if bands else None, "strategies_pc_view", marks, words)
