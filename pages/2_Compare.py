"""Compare: the current configuration and up to three others on the same document."""

from __future__ import annotations

import streamlit as st

from chunkviz.text.messages import backend_text
from chunkviz.ui.compare import sections
from chunkviz.ui.compare.aligned import compare_view
from chunkviz.ui.i18n import tr
from chunkviz.ui.jumps import valid_page
from chunkviz.ui.lazy import encoding_asked
from chunkviz.ui.page_start import empty_notice, page_document
from chunkviz.ui.state import app_state
from chunkviz.views.compare import diff_rows, diff_words, rank_rows, summary_rows, table_words
from chunkviz.views.highlight import PANEL_PAGE_SIZE, page_bounds, page_count

state = app_state()
ss = st.session_state
st.title(tr("compare.title"))
st.caption(tr("compare.intro", backend=backend_text(state.lang, state.backend)))

# The configurations are drawn even for an empty document, so their widgets keep their values.
document = page_document(state, prefix="compare_", stop=False)
text = document.text

n = st.slider(tr("compare.count"), 2, 4, 2, key="compare_n", help=tr("compare.count_help"))
backend_words = backend_text(state.lang, state.backend)
# A dense backend encodes every chunk of every configuration: only once the reader asks.
ranked = bool(document.questions) and encoding_asked(
    state.backend,
    key="compare_rank",
    label=tr("compare.rank_ask", backend=backend_words),
    help=tr("compare.rank_ask_help", n=len(document.questions)),
)
outcomes, names = sections.configurations(state, document, n, ranked)
if empty_notice(document):
    st.stop()
ready, numbers = sections.numbered(outcomes, names)
words = table_words(state.lang)
st.subheader(tr("compare.summary"), help=tr("compare.summary_help"))
st.dataframe(
    summary_rows(ready, ks=(1, 5) if ranked else (), words=words),
    hide_index=True,
    key="compare_summary",
    width="stretch",
)

st.subheader(tr("compare.boundaries"))
pages = page_count(len(text), PANEL_PAGE_SIZE)
shown = page_bounds(len(text), valid_page(ss, "compare_page", pages) - 1, PANEL_PAGE_SIZE)
diffed = sections.diff_section(ready, len(text), shown, state.lang)
page = st.slider(tr("compare.page"), 1, pages, key="compare_page") if pages > 1 else 1
a, b = page_bounds(len(text), page - 1, PANEL_PAGE_SIZE)
st.caption(tr("compare.boundaries_note", a=a, b=b, n=len(text)))
st.caption(tr("compare.sync_note"))
compare_view(
    sections.panels(text, ready, numbers, diffed, (a, b), state.lang),
    start=a,
    end=b,
    key="compare_panels",
)
st.subheader(tr("compare.ranks"), help=tr("compare.ranks_help"))
if not document.questions:
    st.info(tr("compare.no_questions"))
elif ranked:
    st.dataframe(rank_rows(ready, words), hide_index=True, key="compare_ranks", width="stretch")
else:
    st.info(tr("compare.rank_waiting", backend=backend_words))

# After the ranks, so the page's first two tables stay the summary and the ranks.
if diffed is not None and document.questions:
    st.markdown(f"**{tr('compare.diff_broken')}**")
    (first, second), diff = diffed
    rows = diff_rows(ready[first], ready[second], diff, diff_words(state.lang))
    if rows:
        st.dataframe(rows, hide_index=True, key="compare_diff_broken", width="stretch")
    else:
        st.info(tr("compare.diff_broken_none"))
