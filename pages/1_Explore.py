"""Explore: where a strategy cuts a document, which answers it breaks, and what it costs."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from chunkviz.retrieval.headers import CONTEXT_MODES
from chunkviz.retrieval.lexical import CharNgramTokenizer
from chunkviz.text import text as catalogue_text
from chunkviz.ui.explore_figures import length_figure, token_figure
from chunkviz.ui.explore_layout import EXPLORE_CSS, METRIC_WIDTH, document_heading
from chunkviz.ui.explore_tables import chunk_columns, qa_columns
from chunkviz.ui.guard import message_markdown, show_error
from chunkviz.ui.highlight_view import highlight_view, save_view_button, text_key
from chunkviz.ui.i18n import tr
from chunkviz.ui.import_view import chunks_importer
from chunkviz.ui.page_view import page_view
from chunkviz.ui.pickers import configuration_picker, document_picker, question_editor
from chunkviz.ui.resources import (
    chunk_cached,
    doc_tokens_cached,
    index_size_cached,
    load_backend,
    marks_cached,
    qa_cached,
    token_counts_cached,
)
from chunkviz.ui.state import app_state, bind, lang_key
from chunkviz.views import codegen, export
from chunkviz.views.explore import (
    CHUNK_COLUMNS,
    chunk_rows,
    chunk_stats,
    lesson_line,
    qa_counts,
    summary,
)
from chunkviz.views.highlight import labels_for, page_bounds, page_count, page_of, render_html
from chunkviz.views.index_size import LEXICAL_LIMIT, index_metric
from chunkviz.views.qa_table import (
    QA_COLUMNS,
    QA_FILTERS,
    answer_place,
    near_label,
    near_matches,
    qa_rows,
    shown_questions,
)

state = app_state()
ss = st.session_state

st.html(EXPLORE_CSS)
st.title(tr("explore.title"))
st.caption(tr("explore.intro"))
for msg in state.link_problems:
    st.warning(tr("config.link_problem", msg=message_markdown(msg)))

# The lesson on one screen: settings and numbers on the left, the document beside them (a phone
# stacks them: numbers first, the highlight one swipe below). Further views go in the tabs below.
settings, view = st.columns([5, 7], gap="medium")
with settings:
    with st.expander(document_heading(state)):
        document = document_picker(state, prefix="explore_")
    with st.expander(tr("import.heading")):
        chunks_importer(state, prefix="explore_")
    strategy, params = configuration_picker(state, prefix="explore_", columns=1)
    # The key numbers come right under the configuration (the first screen's lesson); the
    # header setting below them.
    numbers_slot = st.container()
    # One key per language, as every choice widget with translated labels (lang_key).
    context_key = lang_key("explore_context", state)
    bind(context_key, state.context)
    state.context = st.selectbox(tr("explore.context"), CONTEXT_MODES, key=context_key,
                                 # The language bound now: AppTest formats outside the run.
                                 format_func=lambda m, lang=state.lang: catalogue_text(
                                     lang, f"explore.context_{m}"),
                                 help=tr("explore.context_help"))
text = document.text
if not text:
    st.info(tr("document.empty"))
    st.stop()

try:
    with st.spinner(tr("lesson.busy_chunking", chars=len(text)), show_time=True):
        backend = load_backend(state.backend)
        result = chunk_cached(document, strategy, params, state.backend)
        tokens = token_counts_cached(document, strategy, params, state.backend,
                                     state.context)
        doc_tokens = doc_tokens_cached(text, state.backend)
        qa = qa_cached(document, strategy, params, state.backend)
except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
    show_error(exc)
    st.stop()

# Every "tokens" on this page is counted by the backend's tokenizer, named where it is shown.
tokenizer_name = str(getattr(backend.tokenizer, "name", state.backend))
stats = chunk_stats(result, token_lengths=tokens, doc_tokens=doc_tokens,
                    max_input_tokens=backend.max_input_tokens)
counts = qa_counts(qa)  # answers not found are counted apart, never as broken

# --- Numbers -------------------------------------------------------------------------------
with numbers_slot, st.container(horizontal=True, gap="small", key="explore_numbers"):
    tiles = [st.container(width=METRIC_WIDTH) for _ in range(6)]
tiles[0].metric(tr("explore.chunks"), f"{stats.count:,}", help=tr("explore.chunks_help"))
tiles[1].metric(tr("explore.predicted"),
                "—" if stats.predicted is None else f"{stats.predicted:,}",
                help=tr("explore.predicted_help"))
actual = "—" if stats.actual_factor is None else f"{stats.actual_factor:.3f}"
tiles[2].metric(tr("explore.cost"),
                "—" if stats.cost_factor is None else f"{stats.cost_factor:.3f}",
                help=tr("explore.cost_help", actual=actual))
index_value, index_help, index_fields = index_metric(
    index_size_cached(document, strategy, params, state.backend))
tiles[3].metric(tr("explore.index"), index_value,
                help=tr(f"explore.index_help_{index_help}", chars=stats.embedded_chars,
                        backend=state.backend, limit=LEXICAL_LIMIT, **index_fields))
tiles[4].metric(tr("explore.broken_metric"), f"{counts.broken} / {counts.found}",
                help=tr("explore.broken_help", missing=counts.not_found))
limit = backend.max_input_tokens
tiles[5].metric(tr("explore.over_metric"), "—" if limit is None else f"{len(stats.over_limit)}",
                help=tr("explore.over_help_windowed" if getattr(backend, "long_inputs", "")
                        == "windowed" else "explore.over_help", limit=limit) if limit is not None
                else tr("explore.no_limit", backend=state.backend))


# --- Highlight -------------------------------------------------------------------------------
def _jump_to(index: int | None = None, *, offset: int | None = None) -> None:
    """Bring chunk ``index`` (or character ``offset``, e.g. an answer's start) into view."""
    ss["explore_scroll"] = index
    ss["explore_focus"] = offset
    # A new request scrolls even to the same place again; other reruns keep the reader's place.
    ss["explore_jump_request"] = ss.get("explore_jump_request", 0) + 1
    ss["explore_scroll_pending"] = True


def _on_table_select() -> None:
    rows = ss["explore_table"].selection.rows
    if rows:
        _jump_to(int(rows[0]))


with view:
    st.markdown(lesson_line(state.lang, qa))
    pages = page_count(len(text))
    scroll = ss.get("explore_scroll")
    if scroll is not None and not 0 <= scroll < stats.count:
        scroll = None
    focus = ss.get("explore_focus")
    if focus is not None and not 0 <= focus < len(text):
        focus = None
    if ss.pop("explore_scroll_pending", False) and (scroll is not None or focus is not None):
        # The pagination starts again at the target's page: its state is dropped and its default
        # moved (writing the widget's key drew Streamlit's "default value and also set through the
        # Session State API" warning at every jump).
        ss.pop("explore_page", None)
        target = focus if focus is not None else result.chunks[scroll or 0].start
        ss["explore_page_default"] = page_of(target) + 1
    # The view comes first and its pager and jump box under it (a short screen shows the text).
    view_slot = st.container()
    bar = st.columns([3, 1])
    page = (bar[0].pagination(pages, key="explore_page", max_visible_pages=9,
                              default=min(ss.get("explore_page_default", 1), pages))
            if pages > 1 else 1)
    if stats.count:
        bar[1].number_input(tr("explore.jump"), min_value=0, max_value=stats.count - 1, step=1,
                            key="explore_jump", help=tr("explore.jump_help"),
                            on_change=lambda: _jump_to(int(ss["explore_jump"])))
    a, b = page_bounds(len(text), page - 1)
    marks = marks_cached(document, strategy, params, state.backend, a, b)
    markup = render_html(text, result.chunks, marks, start=a, end=b, labels=labels_for(state.lang),
                         parents=result.parents)
    with view_slot:
        highlight_view(markup, scroll_to=scroll, focus=focus, key="explore_highlight",
                       request=ss.get("explore_jump_request", 0), legend=state.lang,
                       parents=bool(result.parents), text_id=text_key(text), lead=True)
    if pages > 1:
        st.caption(tr("explore.page_info", a=a, b=b, n=len(text), p=page, pages=pages))
    if document.layout is not None and st.toggle(tr("pdfview.show"), key="explore_pdf_view",
                                                 help=tr("pdfview.show_help")):
        page_view(document, result, marks, selected=scroll, on_select=_jump_to,
                  key="explore_pdf")


# --- Details -------------------------------------------------------------------------------
def _follow_qa_selection(rows: list[int], shown: list[int], kind: str) -> None:
    """Move the highlight to the answer of a newly selected row (a row is not a question index).

    NOTE: read from the table's value during the run, not in an on_select callback, so the
    handled choice is remembered per filter and AppTest can drive it through session state.
    """
    chosen = (kind, shown[rows[0]]) if rows and rows[0] < len(shown) else None
    if chosen is None:  # cleared: selecting the same row again is a new request
        ss.pop("explore_qa_followed", None)
        return
    if ss.get("explore_qa_followed") == chosen:  # followed already; the reader may have moved on
        return
    ss["explore_qa_followed"] = chosen
    place = answer_place(qa[chosen[1]], result.chunks)
    if place is not None:
        _jump_to(place[0], offset=place[1])
        st.rerun()


def _qa_section() -> None:
    if qa:
        st.markdown(tr("explore.qa_counts", contained=counts.contained, broken=counts.broken,
                       found=counts.found, total=counts.total, missing=counts.not_found))
        key = lang_key("explore_qa_filter", state)
        bind(key, state.qa_filter)

        def keep_a_filter() -> None:
            # A click on the chosen segment would clear it: the filter stays as it was.
            if ss[key] not in QA_FILTERS:
                ss[key] = state.qa_filter

        kind = st.segmented_control(tr("explore.qa_filter"), QA_FILTERS, key=key,
                                    format_func=lambda f: tr(f"explore.qa_filter_{f}"),
                                    help=tr("explore.qa_filter_help"), on_change=keep_a_filter)
        state.qa_filter = kind if kind in QA_FILTERS else state.qa_filter
        shown = shown_questions(qa, state.qa_filter)
        # Labels translated once, not once per cell.
        col = {k: tr(f"explore.col_{k}") for k in QA_COLUMNS}
        status = {k: tr(f"explore.{k.replace(' ', '_')}")
                  for k in ("contained", "broken", "not found", "ambiguous")}
        if shown:
            # One table (and one selection) per filter: row 0 of "broken" is another question.
            near = near_matches(text, qa, shown)
            event = st.dataframe(qa_rows(qa, shown, col, status,
                                         {i: near_label(text, m) for i, m in near.items()}),
                                 key=f"explore_qa_table_{state.qa_filter}", hide_index=True,
                                 width="stretch", on_select="rerun",
                                 selection_mode="single-row",
                                 column_config=qa_columns(QA_COLUMNS))
            st.caption(tr("explore.qa_select_hint"))
            _follow_qa_selection(list(event.selection.rows), shown, state.qa_filter)
        else:
            st.info(tr(f"explore.qa_none_{state.qa_filter}"))
    else:
        st.info(tr("explore.qa_none"))
    question_editor(state)


def _figures_section() -> None:
    st.markdown(f"**{tr('explore.stats')}**")
    note = tr("explore.tokens_note", tokenizer=tokenizer_name, backend=state.backend)
    if isinstance(backend.tokenizer, CharNgramTokenizer):
        n = backend.tokenizer.n
        note += " " + tr("explore.tokens_ngram", tokenizer=tokenizer_name, n=n, less=n - 1)
    st.caption(note)
    rows = []
    for label, values in ((tr("explore.stat_chars"), stats.char_lengths),
                          (tr("explore.stat_tokens", tokenizer=tokenizer_name),
                           stats.token_lengths)):
        s = summary(values or ())
        if s is not None:
            rows.append({"": label, tr("explore.stat_min"): s[0],
                         tr("explore.stat_median"): s[1], tr("explore.stat_max"): s[2]})
    st.dataframe(rows, hide_index=True)
    fig_left, fig_right = st.columns(2)
    fig_left.plotly_chart(length_figure(stats, state.lang), key="explore_fig_chars")
    fig_right.plotly_chart(token_figure(stats, tokenizer_name, state.lang),
                           key="explore_fig_tokens")


def _table_section() -> None:
    words = {c: tr(f"explore.chunk_col.{c}") for c in CHUNK_COLUMNS}
    st.dataframe(chunk_rows(result, tokens, words=words), key="explore_table", hide_index=True,
                 on_select=_on_table_select, selection_mode="single-row", width="stretch",
                 column_config=chunk_columns(tokenizer_name, state.backend))


def _export_section() -> None:
    # Every export names the document and the configuration, and gives each chunk's QA status.
    stem = export.export_stem(result, document)
    st.caption(tr("explore.export_note"))
    for col, (kind, data, mime) in zip(st.columns(3), (
            ("json", export.to_json(result, document, qa), "application/json"),
            ("jsonl", export.to_jsonl(result, document, qa), "application/jsonl"),
            ("csv", export.to_csv(result, document, qa), "text/csv")), strict=True):
        col.download_button(tr(f"explore.export_{kind}"), data, f"{stem}.{kind}", mime,
                            key=f"explore_dl_{kind}")
    save_view_button(document, result, qa, lang=state.lang, key="explore_dl_html")
    st.markdown(f"**{tr('explore.code')}**")
    snippets = codegen.snippets(strategy, params)
    for tab, snip in zip(st.tabs([s.library for s in snippets]), snippets, strict=True):
        with tab:
            st.caption(tr(f"explore.fidelity_{snip.fidelity}",
                          note=codegen.note_text(state.lang, snip)))
            st.code(snip.code, language="python")
            save = codegen.import_back_code(snip)
            if save is not None:  # the library's own chunks, imported back into every view
                st.info(tr("explore.import_back", library=snip.library,
                           file=codegen.IMPORT_FILE, heading=tr("import.heading")))
                st.code(save, language="python")


def _share_section() -> None:
    st.markdown(tr("explore.share_intro"))
    base = (st.context.url or "").split("?")[0]
    st.code(f"{base}?{urlencode(state.link())}", language=None)
    if document.origin != "sample":
        st.caption(tr("explore.share_own_doc"))


# Only the open tab runs (on_change="rerun"), so a slider move pays for one tab, not five.
SECTIONS = {"qa": _qa_section, "figures": _figures_section, "table": _table_section,
            "export": _export_section, "share": _share_section}
tab_labels = {name: tr(f"explore.tab_{name}") for name in SECTIONS}
if ss.get("explore_tab") not in tab_labels.values() and ss.get("explore_tab_id") in tab_labels:
    # The language changed: keep the same tab open under its translated label.
    ss["explore_tab"] = tab_labels[ss["explore_tab_id"]]
tabs = st.tabs(list(tab_labels.values()), key="explore_tab", on_change="rerun")
for (name, draw), tab in zip(SECTIONS.items(), tabs, strict=True):
    if tab.open:
        ss["explore_tab_id"] = name
        with tab:
            draw()
