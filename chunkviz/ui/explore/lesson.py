"""Explore's configured part: the configuration, its numbers, the highlight and the detail tabs.

A fragment: a slider move reruns this part only, not the document picker above it (whose text
area alone holds up to the whole document). The page hands it its two columns.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from chunkviz.document import Document
from chunkviz.retrieval.headers import CONTEXT_MODES
from chunkviz.ui.explore.pdf_pages import page_view
from chunkviz.ui.explore.sections import ExploreRun, detail_tabs, number_tiles
from chunkviz.ui.guard import guard, message_markdown
from chunkviz.ui.highlight_view import highlight_view, text_key
from chunkviz.ui.i18n import tr
from chunkviz.ui.jumps import current_jump, page_default, request_jump
from chunkviz.ui.page_start import empty_notice
from chunkviz.ui.pickers import configuration_picker
from chunkviz.ui.resources import (
    chunk_cached,
    doc_tokens_cached,
    index_size_cached,
    key_phrases_cached,
    load_backend,
    marks_cached,
    qa_cached,
    token_counts_cached,
)
from chunkviz.ui.state import AppState, bind, lang_key
from chunkviz.views.explore import chunk_stats, lesson_line, qa_counts, words_at_cuts
from chunkviz.views.highlight import labels_for, page_bounds, page_count, render_html
from chunkviz.views.key_phrases import cut_phrase_marks, key_phrase_labels, key_phrase_line


def link_warnings(state: AppState) -> None:
    """What a shared link asked for that could not be applied, one warning each."""
    for msg in state.link_problems:
        st.warning(tr("config.link_problem", msg=message_markdown(msg)))


@st.fragment
def configured(
    state: AppState, document: Document, settings: DeltaGenerator, view: DeltaGenerator
) -> None:
    """The configuration and numbers in ``settings``, the highlight in ``view``, then the tabs."""
    with guard():
        _configured(state, document, settings, view)


def _configured(
    state: AppState, document: Document, settings: DeltaGenerator, view: DeltaGenerator
) -> None:
    ss = st.session_state
    with settings:
        strategy, params = configuration_picker(state, prefix="explore_", columns=1)
        # The key numbers come right under the configuration (the first screen's lesson); the
        # header setting below them.
        numbers_slot = st.container(key="explore_numbers_slot")
        # One key per language, as every choice widget with translated labels (lang_key).
        context_key = lang_key("explore_context", state)
        bind(context_key, state.context)
        lang = state.lang

        def mode_words(mode: str) -> str:  # the language bound now: AppTest formats outside
            return tr(f"explore.context_{mode}", lang=lang)

        state.context = st.selectbox(
            tr("explore.context"),
            CONTEXT_MODES,
            key=context_key,
            format_func=mode_words,
            help=tr("explore.context_help"),
        )
    text = document.text
    if empty_notice(document):  # after the configuration: its widgets keep their values
        return

    with (
        guard() as attempt,
        st.spinner(tr("lesson.busy_chunking", chars=len(text)), show_time=True),
    ):
        backend = load_backend(state.backend)
        result = chunk_cached(document, strategy, params, state.backend, state.imported)
        tokens = token_counts_cached(
            document, strategy, params, state.backend, state.context, state.imported
        )
        doc_tokens = doc_tokens_cached(text, state.backend)
        qa = qa_cached(document, strategy, params, state.backend, state.imported)
    if attempt.failed:
        return

    # Every "tokens" on this page is counted by the backend's tokenizer, named where it's shown.
    tokenizer_name = str(getattr(backend.tokenizer, "name", state.backend))
    stats = chunk_stats(
        result,
        token_lengths=tokens,
        doc_tokens=doc_tokens,
        max_input_tokens=backend.max_input_tokens,
    )
    counts = qa_counts(qa)  # answers not found are counted apart, never as broken

    run = ExploreRun(
        state,
        document,
        strategy,
        params,
        result,
        tokens,
        qa,
        counts,
        stats,
        backend,
        tokenizer_name,
    )
    # No questions: the key phrases (Tune's probes) a boundary cuts are the red marks instead.
    phrases = (
        None
        if document.questions
        else key_phrases_cached(document, strategy, params, state.backend, state.imported)
    )

    # --- Numbers ---------------------------------------------------------------------------
    with numbers_slot:
        number_tiles(
            run, index_size_cached(document, strategy, params, state.backend, state.imported)
        )

    # --- Highlight -------------------------------------------------------------------------
    with view:
        st.markdown(
            lesson_line(state.lang, qa) if phrases is None else key_phrase_line(state.lang, phrases)
        )
        pages = page_count(len(text))
        jump = current_jump(ss, "explore", result.chunks, len(text))
        # The view comes first, its pager and jump box under it (a short screen shows the text).
        view_slot = st.container()
        bar = st.columns([3, 1])
        page = (
            bar[0].pagination(
                pages,
                key="explore_page",
                max_visible_pages=9,
                default=page_default(ss, "explore", pages),
            )
            if pages > 1
            else 1
        )
        if stats.count:
            bar[1].number_input(
                tr("explore.jump"),
                min_value=0,
                max_value=stats.count - 1,
                step=1,
                key="explore_jump",
                help=tr("explore.jump_help"),
                on_change=lambda: request_jump(ss, "explore", int(ss["explore_jump"])),
            )
        a, b = page_bounds(len(text), page - 1)
        marks = (
            marks_cached(document, strategy, params, state.backend, a, b, state.imported)
            if phrases is None
            else cut_phrase_marks(phrases, a, b)
        )
        markup = render_html(
            text,
            result.chunks,
            marks,
            start=a,
            end=b,
            labels=labels_for(state.lang) if phrases is None else key_phrase_labels(state.lang),
            parents=result.parents,
            word_cuts=words_at_cuts(text, stats.word_cuts, a, b),
        )
        with view_slot:
            highlight_view(
                markup,
                scroll_to=jump.scroll,
                focus=jump.focus,
                key="explore_highlight",
                request=jump.request,
                legend=state.lang,
                parents=bool(result.parents),
                text_id=text_key(text),
                lead=True,
                key_phrases=phrases is not None,
            )
        if pages > 1:
            st.caption(tr("explore.page_info", a=a, b=b, n=len(text), p=page, pages=pages))
        if document.layout is not None and st.toggle(
            tr("pdfview.show"), key="explore_pdf_view", help=tr("pdfview.show_help")
        ):
            page_view(
                document,
                result,
                marks,
                selected=jump.scroll,
                on_select=lambda i: request_jump(ss, "explore", i),
                key="explore_pdf",
            )

    # --- Details ---------------------------------------------------------------------------
    detail_tabs(run)
