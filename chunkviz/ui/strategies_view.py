"""The Strategies page's pieces: a strategy's controls, the cut picker and the highlight views.

The page has three tabs (semantic, perplexity, parent-child); each shows a curve or a ranking
and the document as the strategy cuts it. Which page of the view to show and which cut the
picker points at are ``chunkviz.ui.jumps``' rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import streamlit as st

from chunkviz.model import Chunk, ChunkingResult
from chunkviz.strategies import get_strategy
from chunkviz.ui.controls import param_controls
from chunkviz.ui.highlight_view import highlight_view
from chunkviz.ui.i18n import tr
from chunkviz.ui.jumps import chunk_page, pick_cut
from chunkviz.ui.state import AppState
from chunkviz.views.highlight import Labels, Mark, labels_for, page_bounds, render_html
from chunkviz.views.parent_expansion import Expansion, HitRow


def strategy_controls(state: AppState, name: str) -> dict[str, Any]:
    """The strategy's own controls (its schema), bound to its values in the app state."""
    values = param_controls(get_strategy(name), state.params_of(name), prefix="strategies_p_",
                            lang=state.lang, columns=5)
    state.set_params(name, values)
    return values


def chunks_view(text: str, chunks: Sequence[Chunk], target: int | None, key: str,
                labels: Labels, marks: Sequence[Mark] = ()) -> None:
    """The highlight of the page that holds chunk ``target`` (the first page without one)."""
    a, b = page_bounds(len(text), chunk_page(chunks, target))
    markup = render_html(text, chunks, list(marks), start=a, end=b, labels=labels)
    highlight_view(markup, scroll_to=target, key=key)
    st.caption(tr("strategies.view_note", a=a, b=b, n=len(text)))


def cut_picker(cuts: Sequence[int], values: Sequence[float], key: str,
               clicked: int | None) -> int | None:
    """A select box of the cuts; returns the chunk index that starts at the chosen cut."""
    pick_cut(st.session_state, key, cuts, clicked)
    item = {0: tr("strategies.jump_none")}
    item.update({n + 1: tr("strategies.jump_item", n=n + 1, i=c, v=values[c])
                 for n, c in enumerate(cuts)})
    chosen = st.selectbox(tr("strategies.jump"), list(item), key=key,
                          format_func=item.__getitem__, help=tr("strategies.jump_help"))
    return None if not chosen else int(chosen)  # chunk n starts after cut n


def cut_metrics(curve: Any, *extra: tuple[str, str]) -> None:
    """Sentences, cuts (forced and suppressed apart) and chunks of a semantic/perplexity curve."""
    shown = [(tr("strategies.sentences"), f"{len(curve.units):,}"), *extra,
             (tr("strategies.cuts"), f"{len(curve.cuts) - len(curve.forced):,}"),
             (tr("strategies.forced"), f"{len(curve.forced):,}"),
             (tr("strategies.suppressed"), f"{len(curve.suppressed):,}"),
             (tr("strategies.chunks_here"), f"{len(curve.spans):,}")]
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
    m[3].metric(tr("strategies.sent"), f"{expansion.context_chars:,}",
                help=tr("strategies.sent_help", naive=expansion.naive_chars))


def hits_table(result: ChunkingResult, rows: Sequence[HitRow]) -> None:
    """One row per child hit: its rank, parent, fate and context."""
    st.dataframe([{tr("strategies.col_rank"): r.rank, tr("strategies.col_child"): f"#{r.child}",
                   tr("strategies.col_parent"): "—" if r.parent is None else f"#{r.parent}",
                   tr("strategies.col_fate"): tr(f"strategies.fate_{r.fate}"),
                   tr("strategies.col_context"): f"#{r.context}",
                   tr("strategies.col_text"): result.chunk_text(r.child)[:80]} for r in rows],
                 hide_index=True, key="strategies_pc_table", width="stretch")


def contexts_view(result: ChunkingResult, expansion: Expansion, rows: Sequence[HitRow],
                  state: AppState) -> None:
    """The contexts sent, in document order as bands (numbered by hit order), hits as marks."""
    order = sorted(range(len(expansion.contexts)), key=lambda i: expansion.contexts[i].start)
    bands = tuple(Chunk(expansion.contexts[i].start, expansion.contexts[i].end) for i in order)
    marks = [Mark(result.chunks[r.child].start, result.chunks[r.child].end,
                  f"#{r.rank} {tr('strategies.fate_' + r.fate)}") for r in rows]
    # The rest of the words (end markers, cut markers) stay the page language's.
    words = replace(labels_for(state.lang), chunk=tr("strategies.context_word"),
                    chunks=tr("strategies.context_word"), answer=tr("strategies.hit_word"))
    st.caption(tr("strategies.pc_note"))
    chunks_view(result.text, bands, 0 if bands else None, "strategies_pc_view", words, marks)
