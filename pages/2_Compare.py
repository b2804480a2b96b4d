"""Compare: the current configuration and up to three others on the same document."""

from __future__ import annotations

import streamlit as st

from chunkviz.ui.compare_figures import diff_figure
from chunkviz.ui.compare_view import Panel, compare_view
from chunkviz.ui.guard import show_error
from chunkviz.ui.i18n import tr
from chunkviz.ui.jumps import follow_to_page, valid_page
from chunkviz.ui.pickers import configuration_picker, document_picker
from chunkviz.ui.resources import outcome_cached
from chunkviz.ui.state import app_state
from chunkviz.ui.strategies_figures import clicked_boundary
from chunkviz.views.compare import (
    BoundaryDiff,
    Outcome,
    boundary_diff,
    config_label,
    diff_rows,
    mark_cuts,
    rank_rows,
    summary_rows,
)
from chunkviz.views.explore import qa_marks
from chunkviz.views.highlight import (
    PANEL_PAGE_SIZE,
    labels_for,
    page_bounds,
    page_count,
    render_html,
)

state = app_state()
ss = st.session_state
st.title(tr("compare.title"))
st.caption(tr("compare.intro", backend=state.backend))

with st.expander(tr("document.heading")):
    document = document_picker(state, prefix="compare_")
text = document.text
if not text.strip():
    st.info(tr("document.empty"))
    st.stop()

n = st.slider(tr("compare.count"), 2, 4, 2, key="compare_n", help=tr("compare.count_help"))
outcomes: list[Outcome | None] = []
for i, col in enumerate(st.columns(n)):
    with col:
        st.markdown(f"**{tr('compare.config', i=i + 1)}**")
        strategy, params = configuration_picker(
            state, prefix=f"compare_{i}_", slot=None if i == 0 else i - 1, columns=1,
            expander=tr("compare.parameters"))
        try:
            with st.spinner(tr("lesson.busy_ranking", n=len(document.questions),
                               backend=state.backend), show_time=True):
                found = outcome_cached(config_label(strategy, params), document, strategy,
                                       params, state.backend)
        except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
            show_error(exc)
            outcomes.append(None)
            continue
        outcomes.append(found)
        left, right = st.columns(2)
        left.metric(tr("compare.chunks"), f"{found.count:,}")
        right.metric(tr("compare.broken"), f"{found.broken} / {len(found.qa)}",
                     help=tr("compare.broken_help"))

# Labels must be unique table columns: number them.
ready = [Outcome(f"{i + 1}: {o.label}", o.result, o.qa, o.ranks)
         for i, o in enumerate(outcomes) if o is not None]
numbers = [i + 1 for i, o in enumerate(outcomes) if o is not None]
words = {w: tr(f"compare.words.{w}") for w in ("configuration", "strategy", "chunks", "mean chars",
                                                "broken answers", "questions", "chars in no chunk",
                                                "question", "answer", "broken", "not found")}
st.subheader(tr("compare.summary"), help=tr("compare.summary_help"))
st.dataframe(summary_rows(ready, words=words), hide_index=True, key="compare_summary",
             width="stretch")


st.subheader(tr("compare.boundaries"))
pages = page_count(len(text), PANEL_PAGE_SIZE)
a, b = page_bounds(len(text), valid_page(ss, "compare_page", pages) - 1, PANEL_PAGE_SIZE)
diff: BoundaryDiff | None = None
pair: tuple[int, int] | None = None
if len(ready) >= 2:
    st.markdown(f"**{tr('compare.diff')}**", help=tr("compare.diff_help"))
    choices = list(range(len(ready)))
    pick_a, pick_b = st.columns(2)
    for key, default in (("compare_diff_a", 0), ("compare_diff_b", 1)):
        if ss.get(key) not in choices:  # fewer configurations than before
            ss[key] = default
    first = pick_a.selectbox(tr("compare.diff_a"), choices, key="compare_diff_a",
                             format_func=lambda i: ready[i].label)
    second = pick_b.selectbox(tr("compare.diff_b"), choices, key="compare_diff_b",
                              format_func=lambda i: ready[i].label)
    if first == second:
        st.info(tr("compare.diff_same"))
    else:
        pair = (first, second)
        diff = boundary_diff(ready[first], ready[second])
        # Short labels (they fit a fifth of the page), the whole sentence in the help.
        for col, (name, value) in zip(st.columns(5), (
                ("only_a", len(diff.only_a)), ("only_b", len(diff.only_b)),
                ("shared", len(diff.shared)), ("broken_a", len(diff.broken_only_a)),
                ("broken_b", len(diff.broken_only_b))), strict=True):
            col.metric(tr(f"compare.m_{name}"), f"{value:,}", help=tr(f"compare.m_{name}_help"))
        event = st.plotly_chart(diff_figure(ready[first], ready[second], diff, shown=(a, b),
                                            lang=state.lang),
                                key="compare_strip", on_select="rerun", selection_mode="points")
        st.caption(tr("compare.strip_help"))
        if follow_to_page(ss, "compare_strip_followed", "compare_page", clicked_boundary(event),
                          len(text), PANEL_PAGE_SIZE):
            st.rerun()
        st.caption(tr("compare.diff_legend"))
page = st.slider(tr("compare.page"), 1, pages, key="compare_page") if pages > 1 else 1
a, b = page_bounds(len(text), page - 1, PANEL_PAGE_SIZE)
st.caption(tr("compare.boundaries_note", a=a, b=b, n=len(text)))
st.caption(tr("compare.sync_note"))
labels = labels_for(state.lang)
panels = []
for i, found in enumerate(ready):
    markup = render_html(text, found.result.chunks, qa_marks(list(found.qa), found.result),
                         start=a, end=b, labels=labels)
    if diff is not None and pair is not None and i in pair:
        mine, other = (diff.only_a, diff.only_b) if i == pair[0] else (diff.only_b, diff.only_a)
        other_number = numbers[pair[1] if i == pair[0] else pair[0]]
        markup = mark_cuts(markup, mine, other, here_title=tr("compare.cut_here"),
                           there_title=tr("compare.cut_there", other=other_number))
    panels.append(Panel(found.label, markup))
compare_view(panels, start=a, end=b, key="compare_panels")
st.subheader(tr("compare.ranks"), help=tr("compare.ranks_help"))
if document.questions:
    st.dataframe(rank_rows(ready, words), hide_index=True, key="compare_ranks", width="stretch")
else:
    st.info(tr("compare.no_questions"))

# After the ranks, so the page's first two tables stay the summary and the ranks.
if diff is not None and pair is not None and document.questions:
    st.markdown(f"**{tr('compare.diff_broken')}**")
    rows = diff_rows(ready[pair[0]], ready[pair[1]], diff,
                     {w: tr(f"compare.diff_col_{w.replace(' ', '_')}")
                      for w in ("question", "answer", "broken in")})
    if rows:
        st.dataframe(rows, hide_index=True, key="compare_diff_broken", width="stretch")
    else:
        st.info(tr("compare.diff_broken_none"))
