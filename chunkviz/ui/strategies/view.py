"""The Strategies page's pieces: a strategy's controls, the cut picker and the highlight views.

The page has three tabs (semantic, perplexity, parent-child); each shows a curve or a ranking
and the document as the strategy cuts it, and only the open one runs (``SECTIONS`` through
``chunkviz.ui.lazy.lazy_tabs``): parent-child ranks every child chunk with the active backend,
which with a dense model takes longer than the rest of the page. Which page of the view to show
and which cut the picker points at are ``chunkviz.ui.jumps``' rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import streamlit as st

from chunkviz.document import Document
from chunkviz.model import Chunk, ChunkingResult
from chunkviz.strategies import get_strategy
from chunkviz.text.messages import backend_text, language_model_text
from chunkviz.ui.controls import param_controls
from chunkviz.ui.guard import guard
from chunkviz.ui.highlight_view import highlight_view
from chunkviz.ui.i18n import tr
from chunkviz.ui.jumps import chunk_page, pick_cut
from chunkviz.ui.lazy import lazy_tabs
from chunkviz.ui.resources import (
    chunk_cached,
    load_backend,
    param_items,
    perplexity_curve_cached,
    semantic_curve_cached,
)
from chunkviz.ui.state import AppState
from chunkviz.ui.strategies.figures import clicked_boundary, perplexity_figure, semantic_figure
from chunkviz.views.compare import config_text
from chunkviz.views.highlight import Labels, Mark, labels_for, page_bounds, render_html
from chunkviz.views.markup import escape_markdown
from chunkviz.views.parent_expansion import (
    Expansion,
    HitRow,
    auto_merge,
    expand_to_parents,
    hit_rows,
    rank_children,
)


def strategy_controls(state: AppState, name: str) -> dict[str, Any]:
    """The strategy's own controls (its schema), bound to its values in the app state."""
    values = param_controls(
        get_strategy(name),
        state.params_of(name),
        prefix="strategies_p_",
        lang=state.lang,
        columns=5,
    )
    state.set_params(name, values)
    return values


def chunks_view(
    text: str,
    chunks: Sequence[Chunk],
    target: int | None,
    key: str,
    labels: Labels,
    marks: Sequence[Mark] = (),
) -> None:
    """The highlight of the page that holds chunk ``target`` (the first page without one)."""
    a, b = page_bounds(len(text), chunk_page(chunks, target))
    markup = render_html(text, chunks, list(marks), start=a, end=b, labels=labels)
    highlight_view(markup, scroll_to=target, key=key)
    st.caption(tr("strategies.view_note", a=a, b=b, n=len(text)))


def cut_picker(
    cuts: Sequence[int], values: Sequence[float], key: str, clicked: int | None
) -> int | None:
    """A select box of the cuts; returns the chunk index that starts at the chosen cut."""
    pick_cut(st.session_state, key, cuts, clicked)
    item = {0: tr("strategies.jump_none")}
    item.update(
        {n + 1: tr("strategies.jump_item", n=n + 1, i=c, v=values[c]) for n, c in enumerate(cuts)}
    )
    chosen = st.selectbox(
        tr("strategies.jump"),
        list(item),
        key=key,
        format_func=item.__getitem__,
        help=tr("strategies.jump_help"),
    )
    return None if not chosen else int(chosen)  # chunk n starts after cut n


def cut_metrics(curve: Any, *extra: tuple[str, str]) -> None:
    """Sentences, cuts (forced and suppressed apart) and chunks of a semantic/perplexity curve."""
    shown = [
        (tr("strategies.sentences"), f"{len(curve.units):,}"),
        *extra,
        (tr("strategies.cuts"), f"{len(curve.cuts) - len(curve.forced):,}"),
        (tr("strategies.forced"), f"{len(curve.forced):,}"),
        (tr("strategies.suppressed"), f"{len(curve.suppressed):,}"),
        (tr("strategies.chunks_here"), f"{len(curve.spans):,}"),
    ]
    for col, (label, value) in zip(st.columns(len(shown)), shown, strict=True):
        col.metric(label, value)


def curve_view(text: str, curve: Any, target: int | None, key: str, state: AppState) -> None:
    """The document cut at a curve's spans, at the chunk after the chosen cut."""
    chunks = tuple(Chunk(s, e) for s, e in curve.spans)
    chunks_view(text, chunks, target, key, labels_for(state.lang))


def expansion_numbers(expansion: Expansion) -> None:
    """Hits, contexts, duplicates removed and characters sent."""
    m = st.columns(4)
    m[0].metric(tr("strategies.hits"), f"{len(expansion.hits):,}")
    m[1].metric(tr("strategies.contexts"), f"{len(expansion.contexts):,}")
    m[2].metric(tr("strategies.duplicates"), f"{expansion.duplicates_removed:,}")
    m[3].metric(
        tr("strategies.sent"),
        f"{expansion.context_chars:,}",
        help=tr("strategies.sent_help", naive=expansion.naive_chars),
    )


def hits_table(result: ChunkingResult, rows: Sequence[HitRow]) -> None:
    """One row per child hit: its rank, parent, fate and context."""
    st.dataframe(
        [
            {
                tr("strategies.col_rank"): r.rank,
                tr("strategies.col_child"): f"#{r.child}",
                tr("strategies.col_parent"): "—" if r.parent is None else f"#{r.parent}",
                tr("strategies.col_fate"): tr(f"strategies.fate_{r.fate}"),
                tr("strategies.col_context"): f"#{r.context}",
                tr("strategies.col_text"): result.chunk_text(r.child)[:80],
            }
            for r in rows
        ],
        hide_index=True,
        key="strategies_pc_table",
        width="stretch",
    )


def contexts_view(
    result: ChunkingResult, expansion: Expansion, rows: Sequence[HitRow], state: AppState
) -> None:
    """The contexts sent, in document order as bands (numbered by hit order), hits as marks."""
    order = sorted(range(len(expansion.contexts)), key=lambda i: expansion.contexts[i].start)
    bands = tuple(Chunk(expansion.contexts[i].start, expansion.contexts[i].end) for i in order)
    marks = [
        Mark(
            result.chunks[r.child].start,
            result.chunks[r.child].end,
            f"#{r.rank} {tr('strategies.fate_' + r.fate)}",
        )
        for r in rows
    ]
    # The rest of the words (end markers, cut markers) stay the page language's.
    words = replace(
        labels_for(state.lang),
        chunk=tr("strategies.context_word"),
        chunks=tr("strategies.context_word"),
        answer=tr("strategies.hit_word"),
    )
    st.caption(tr("strategies.pc_note"))
    chunks_view(result.text, bands, 0 if bands else None, "strategies_pc_view", words, marks)


def semantic_section(state: AppState, document: Document) -> None:
    """The adjacent-sentence similarity curve, its threshold and the document cut at it."""
    text = document.text
    sem = strategy_controls(state, "semantic")
    busy = tr("lesson.busy_semantic", chars=len(text))
    with guard() as attempt, st.spinner(busy, show_time=True):
        curve = semantic_curve_cached(text, param_items(sem))
    if attempt.failed:
        return
    cut_metrics(
        curve,
        (tr("strategies.threshold"), "—" if curve.threshold is None else f"{curve.threshold:.3f}"),
    )
    event = st.plotly_chart(
        semantic_figure(curve, float(sem["percentile"]), state.lang, str(sem["model"])),
        key="strategies_sem_chart",
        on_select="rerun",
        selection_mode="points",
    )
    with st.expander(tr("strategies.model_details")):
        st.caption(
            tr(
                "strategies.model_details_sem",
                model=escape_markdown(curve.embedder),
                backend=escape_markdown(backend_text(state.lang, str(sem["model"]))),
            )
        )
    target = cut_picker(
        curve.cuts, curve.similarities, "strategies_sem_jump", clicked_boundary(event)
    )
    curve_view(text, curve, target, "strategies_sem_view", state)


def perplexity_section(state: AppState, document: Document) -> None:
    """The perplexity curve of a language model, its cuts and the document cut at them."""
    text = document.text
    ppl = strategy_controls(state, "perplexity")
    busy = tr("lesson.busy_perplexity", chars=len(text))
    with guard() as attempt, st.spinner(busy, show_time=True):
        pcurve = perplexity_curve_cached(text, param_items(ppl))
    if attempt.failed:
        return
    lm_words = language_model_text(state.lang, str(ppl["lm"]), int(ppl["order"]))
    st.info(tr("strategies.lm_in_use", name=escape_markdown(lm_words)))
    cut_metrics(pcurve)
    event = st.plotly_chart(
        perplexity_figure(pcurve, state.lang, lm_words),
        key="strategies_ppl_chart",
        on_select="rerun",
        selection_mode="points",
    )
    with st.expander(tr("strategies.model_details")):
        # The lm value as the strategy takes it (char-ngram, hf:<model>): a value, not words.
        st.caption(tr("strategies.model_details_ppl", model=escape_markdown(str(ppl["lm"]))))
    changes = tuple(0.0 if c != c else c for c in pcurve.changes)
    target = cut_picker(pcurve.cuts, changes, "strategies_ppl_jump", clicked_boundary(event))
    curve_view(text, pcurve, target, "strategies_ppl_view", state)


def parent_child_section(state: AppState, document: Document) -> None:
    """A query's child hits under the active backend and the parents they expand to."""
    pc = strategy_controls(state, "parent_child")
    first = document.questions[0].question if document.questions else ""
    st.session_state.setdefault("strategies_pc_query", first)
    backend_words = backend_text(state.lang, state.backend)
    q1, q2, q3, q4 = st.columns([3, 1, 1, 1])
    query = q1.text_input(
        tr("strategies.query"),
        key="strategies_pc_query",
        help=tr("strategies.query_help", backend=backend_words),
    )
    k = q2.slider(tr("strategies.k"), 1, 20, 5, key="strategies_pc_k")
    lang = state.lang

    def kind_words(e: str) -> str:  # the language bound now: AppTest formats outside the run
        return tr(f"strategies.exp_{e}", lang=lang)

    kinds: tuple[str, ...] = ("small", "merge")
    expansion_kind = q3.radio(
        tr("strategies.expansion"),
        kinds,
        key=f"strategies_pc_exp_{state.lang}",
        format_func=kind_words,
        help=tr("strategies.expansion_help"),
    )
    min_children = q4.slider(
        tr("strategies.min_children"),
        1,
        10,
        2,
        key="strategies_pc_m",
        disabled=expansion_kind != "merge",
    )
    with guard() as attempt:
        result = chunk_cached(document, "parent_child", pc, state.backend, state.imported)
        if not query.strip():
            st.info(tr("strategies.no_query"))
            return
        with st.spinner(
            tr("strategies.busy_ranking", n=len(result.chunks), backend=backend_words),
            show_time=True,
        ):
            ranking = rank_children(result, query, load_backend(state.backend))
        expansion = (
            auto_merge(result, ranking, k, min_children=int(min_children))
            if expansion_kind == "merge"
            else expand_to_parents(result, ranking, k)
        )
    if attempt.failed:
        return
    expansion_numbers(expansion)
    rows = hit_rows(result, expansion)
    hits_table(result, rows)
    contexts_view(result, expansion, rows, state)


#: The page's tabs by id, in order; the label is the catalogue's ``strategies.tab_<id>``.
SECTIONS: dict[str, Callable[[AppState, Document], None]] = {
    "semantic": semantic_section,
    "perplexity": perplexity_section,
    "parent": parent_child_section,
}


def current_chunks(state: AppState, document: Document) -> None:
    """How many chunks the app's current configuration makes of ``document``."""
    strategy, params = state.configuration()
    with guard() as attempt:
        current = chunk_cached(document, strategy, params, state.backend, state.imported)
    if attempt.ok:
        st.metric(
            tr("strategies.chunks_current"),
            f"{len(current.chunks):,}",
            help=tr(
                "strategies.chunks_current_help",
                label=escape_markdown(config_text(state.lang, strategy, params)),
            ),
        )


def section_tabs(state: AppState, document: Document) -> None:
    """The ``SECTIONS`` as tabs; only the open one runs."""
    for name, tab in lazy_tabs(
        {name: tr(f"strategies.tab_{name}") for name in SECTIONS}, "strategies_tab"
    ):
        with tab:
            SECTIONS[name](state, document)
