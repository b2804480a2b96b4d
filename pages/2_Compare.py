"""Compare: the current configuration and up to three others on the same document."""

from __future__ import annotations

import streamlit as st

from chunkviz.ui.guard import show_error
from chunkviz.ui.highlight_view import highlight_view
from chunkviz.ui.i18n import tr
from chunkviz.ui.pickers import configuration_picker, document_picker
from chunkviz.ui.resources import outcome_cached
from chunkviz.ui.state import app_state
from chunkviz.views.compare import Outcome, config_label, rank_rows, summary_rows
from chunkviz.views.explore import qa_marks
from chunkviz.views.highlight import labels_for, page_bounds, render_html
from chunkviz.views.markup import escape_markdown

state = app_state()
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
            found = outcome_cached(config_label(strategy, params), document, strategy, params,
                                   state.backend)
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
words = {w: tr(f"compare.words.{w}") for w in ("configuration", "strategy", "chunks", "mean chars",
                                                "broken answers", "questions", "chars in no chunk",
                                                "question", "answer", "broken", "not found")}
st.subheader(tr("compare.summary"), help=tr("compare.summary_help"))
st.dataframe(summary_rows(ready, words=words), hide_index=True, key="compare_summary",
             width="stretch")

st.subheader(tr("compare.boundaries"))
page_size = 4000
pages = max(1, -(-len(text) // page_size))
page = st.slider(tr("compare.page"), 1, pages, 1, key="compare_page") if pages > 1 else 1
a, b = page_bounds(len(text), page - 1, page_size)
st.caption(tr("compare.boundaries_note", a=a, b=b, n=len(text)))
for i, (col, found_or_none) in enumerate(zip(st.columns(n), outcomes, strict=True)):
    if found_or_none is not None:
        with col:
            st.caption(f"{i + 1}: {escape_markdown(found_or_none.label)}")
            marks = qa_marks(list(found_or_none.qa), found_or_none.result)
            markup = render_html(text, found_or_none.result.chunks, marks, start=a, end=b,
                                 labels=labels_for(state.lang))
            highlight_view(markup, scroll_to=None, key=f"compare_highlight_{i}")

st.subheader(tr("compare.ranks"), help=tr("compare.ranks_help"))
if document.questions:
    st.dataframe(rank_rows(ready, words), hide_index=True, key="compare_ranks", width="stretch")
else:
    st.info(tr("compare.no_questions"))
