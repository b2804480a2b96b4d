"""Explore's tabs under the view: questions, figures, the chunk table, exports and the link.

The page computes one ``ExploreRun`` (the configuration's result and numbers) and hands it to
``detail_tabs``; only the open tab is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from chunkviz.document import Document
from chunkviz.model import ChunkingResult
from chunkviz.retrieval.lexical import CharNgramTokenizer
from chunkviz.text.messages import backend_text
from chunkviz.ui.explore.figures import length_figure, token_figure
from chunkviz.ui.explore.layout import METRIC_WIDTH
from chunkviz.ui.explore.tables import chunk_columns, qa_columns
from chunkviz.ui.highlight_view import save_view_button
from chunkviz.ui.i18n import tr
from chunkviz.ui.jumps import follow_answer, keep_choice, request_jump
from chunkviz.ui.lazy import lazy_tabs
from chunkviz.ui.pickers import question_editor
from chunkviz.ui.resources import qa_table_cached
from chunkviz.ui.state import AppState, bind, lang_key
from chunkviz.views import codegen, export
from chunkviz.views.explore import (
    CHUNK_COLUMNS,
    ChunkStats,
    QACounts,
    QAReport,
    chunk_rows,
    summary,
)
from chunkviz.views.index_size import LEXICAL_LIMIT, IndexSize, index_metric
from chunkviz.views.qa_table import (
    QA_COLUMNS,
    QA_FILTERS,
)

ss = st.session_state


@dataclass(frozen=True)
class ExploreRun:
    """What the page computed for the current document and configuration."""

    state: AppState
    document: Document
    strategy: str
    params: Mapping[str, Any]
    result: ChunkingResult
    tokens: tuple[int, ...]
    qa: QAReport
    counts: QACounts
    stats: ChunkStats
    backend: Any
    tokenizer_name: str


def number_tiles(run: ExploreRun, index_size: IndexSize | None) -> None:
    """The seven key numbers, two to a row beside the settings (``METRIC_WIDTH`` tiles).

    The cuts come second, right under the chunk count and its prediction: answers cut and cuts
    inside words are the lesson's numbers, and they stay on the first screen at 1400x900 with
    the snap control above them.

    ``index_size`` is ``resources.index_size_cached``'s for the run's configuration.
    """
    stats, counts, backend = run.stats, run.counts, run.backend
    named = backend_text(run.state.lang, run.state.backend)  # in words, not its registry id
    with st.container(horizontal=True, gap="small", key="explore_numbers"):
        tiles = [st.container(width=METRIC_WIDTH) for _ in range(7)]
    tiles[0].metric(tr("explore.chunks"), f"{stats.count:,}", help=tr("explore.chunks_help"))
    tiles[1].metric(
        tr("explore.predicted"),
        "—" if stats.predicted is None else f"{stats.predicted:,}",
        help=tr("explore.predicted_help"),
    )
    actual = "—" if stats.actual_factor is None else f"{stats.actual_factor:.3f}"
    tiles[4].metric(
        tr("explore.cost"),
        "—" if stats.cost_factor is None else f"{stats.cost_factor:.3f}",
        help=tr("explore.cost_help", actual=actual),
    )
    index_value, index_help, index_fields = index_metric(index_size)
    fields: dict[str, Any] = {
        "chars": stats.embedded_chars,
        "backend": named,
        "limit": LEXICAL_LIMIT,
        **index_fields,
    }
    tiles[5].metric(
        tr("explore.index"), index_value, help=tr(f"explore.index_help_{index_help}", **fields)
    )
    tiles[2].metric(
        tr("explore.broken_metric"),
        f"{counts.broken} / {counts.found}",
        help=tr("explore.broken_help", missing=counts.not_found),
    )
    limit = backend.max_input_tokens
    windowed = getattr(backend, "long_inputs", "") == "windowed"
    tiles[6].metric(
        tr("explore.over_metric"),
        "—" if limit is None else f"{len(stats.over_limit)}",
        help=tr("explore.no_limit", backend=named)
        if limit is None
        else tr("explore.over_help_windowed" if windowed else "explore.over_help", limit=limit),
    )
    cuts = stats.word_cuts
    tiles[3].metric(
        tr("explore.word_cuts"),
        "—" if cuts is None else f"{cuts.count:,} / {len(cuts.cuts):,}",
        help=tr("explore.word_cuts_help"),
    )


def _on_table_select() -> None:
    rows = ss["explore_table"].selection.rows
    if rows:
        request_jump(ss, "explore", int(rows[0]))


def qa_section(run: ExploreRun) -> None:
    """The questions' status table; a selected row brings its answer into view."""
    state, qa, counts = run.state, run.qa, run.counts
    if qa:
        st.markdown(
            tr(
                "explore.qa_counts",
                contained=counts.contained,
                broken=counts.broken,
                found=counts.found,
                total=counts.total,
                missing=counts.not_found,
            )
        )
        key = lang_key("explore_qa_filter", state)
        bind(key, state.qa_filter)

        kind = st.segmented_control(
            tr("explore.qa_filter"),
            QA_FILTERS,
            key=key,
            format_func=lambda f: tr(f"explore.qa_filter_{f}"),
            help=tr("explore.qa_filter_help"),
            on_change=keep_choice,
            args=(ss, key, QA_FILTERS, state.qa_filter),
        )
        state.qa_filter = kind if kind in QA_FILTERS else state.qa_filter
        # Labels translated once, not once per cell.
        col = {k: tr(f"explore.col_{k}") for k in QA_COLUMNS}
        status = {
            k: tr(f"explore.{k.replace(' ', '_')}")
            for k in ("contained", "broken", "not found", "ambiguous")
        }
        shown, table = qa_table_cached(
            run.document,
            run.strategy,
            run.params,
            state.backend,
            state.imported,
            state.qa_filter,
            col,
            status,
        )
        if shown:
            # One table (and one selection) per filter: row 0 of "broken" is another question.
            event = st.dataframe(
                table,
                key=f"explore_qa_table_{state.qa_filter}",
                hide_index=True,
                width="stretch",
                on_select="rerun",
                selection_mode="single-row",
                column_config=qa_columns(QA_COLUMNS),
            )
            st.caption(tr("explore.qa_select_hint"))
            if follow_answer(
                ss, "explore", state.qa_filter, event.selection.rows, shown, qa, run.result.chunks
            ):
                st.rerun()
        else:
            st.info(tr(f"explore.qa_none_{state.qa_filter}"))
    else:
        st.info(tr("explore.qa_none"))
    question_editor(state)


def figures_section(run: ExploreRun) -> None:
    """Chunk lengths in characters and tokens: a summary table and two histograms."""
    state, stats, tokenizer_name = run.state, run.stats, run.tokenizer_name
    st.markdown(f"**{tr('explore.stats')}**")
    note = tr(
        "explore.tokens_note",
        tokenizer=tokenizer_name,
        backend=backend_text(state.lang, state.backend),
    )
    if isinstance(run.backend.tokenizer, CharNgramTokenizer):
        n = run.backend.tokenizer.n
        note += " " + tr("explore.tokens_ngram", tokenizer=tokenizer_name, n=n, less=n - 1)
    st.caption(note)
    rows = []
    for label, values in (
        (tr("explore.stat_chars"), stats.char_lengths),
        (tr("explore.stat_tokens", tokenizer=tokenizer_name), stats.token_lengths),
    ):
        s = summary(values or ())
        if s is not None:
            rows.append(
                {
                    "": label,
                    tr("explore.stat_min"): s[0],
                    tr("explore.stat_median"): s[1],
                    tr("explore.stat_max"): s[2],
                }
            )
    st.dataframe(rows, hide_index=True)
    fig_left, fig_right = st.columns(2)
    fig_left.plotly_chart(length_figure(stats, state.lang), key="explore_fig_chars")
    fig_right.plotly_chart(
        token_figure(stats, tokenizer_name, state.lang), key="explore_fig_tokens"
    )


def table_section(run: ExploreRun) -> None:
    """Every chunk in a table; selecting one brings it into view."""
    words = {c: tr(f"explore.chunk_col.{c}") for c in CHUNK_COLUMNS}
    st.dataframe(
        chunk_rows(run.result, run.tokens, words=words),
        key="explore_table",
        hide_index=True,
        on_select=_on_table_select,
        selection_mode="single-row",
        width="stretch",
        column_config=chunk_columns(run.tokenizer_name, run.state.backend),
    )


def export_section(run: ExploreRun) -> None:
    """Downloads (JSON, JSONL, CSV, standalone HTML) and code for other libraries."""
    result, document, qa, cuts = run.result, run.document, run.qa, run.stats.word_cuts
    # Every export names the document and the configuration, and gives each chunk's QA status.
    stem = export.export_stem(result, document)
    st.caption(tr("explore.export_note"))
    for col, (kind, data, mime) in zip(
        st.columns(3),
        (
            ("json", export.to_json(result, document, qa, cuts), "application/json"),
            ("jsonl", export.to_jsonl(result, document, qa, cuts), "application/jsonl"),
            ("csv", export.to_csv(result, document, qa, cuts), "text/csv"),
        ),
        strict=True,
    ):
        col.download_button(
            tr(f"explore.export_{kind}"), data, f"{stem}.{kind}", mime, key=f"explore_dl_{kind}"
        )
    save_view_button(document, result, qa, lang=run.state.lang, key="explore_dl_html")
    st.markdown(f"**{tr('explore.code')}**")
    snippets = codegen.snippets(run.strategy, run.params)
    for tab, snip in zip(st.tabs([s.library for s in snippets]), snippets, strict=True):
        with tab:
            st.caption(
                tr(
                    f"explore.fidelity_{snip.fidelity}",
                    note=codegen.note_text(run.state.lang, snip),
                )
            )
            st.code(snip.code, language="python")
            save = codegen.import_back_code(snip)
            if save is not None:  # the library's own chunks, imported back into every view
                st.info(
                    tr(
                        "explore.import_back",
                        library=snip.library,
                        file=codegen.IMPORT_FILE,
                        heading=tr("import.heading"),
                    )
                )
                st.code(save, language="python")


def share_section(run: ExploreRun) -> None:
    """The link that opens this configuration (never the user's own text)."""
    st.markdown(tr("explore.share_intro"))
    base = (st.context.url or "").split("?")[0]
    st.code(f"{base}?{urlencode(run.state.link())}", language=None)
    if run.document.origin != "sample":
        st.caption(tr("explore.share_own_doc"))


#: The tabs under the view, by id (state keeps the id; the label is the catalogue's).
SECTIONS: dict[str, Callable[[ExploreRun], None]] = {
    "qa": qa_section,
    "figures": figures_section,
    "table": table_section,
    "export": export_section,
    "share": share_section,
}


def detail_tabs(run: ExploreRun) -> None:
    """The tabs; only the open one runs (``lazy_tabs``): a slider move pays for one."""
    for name, tab in lazy_tabs(
        {name: tr(f"explore.tab_{name}") for name in SECTIONS}, "explore_tab"
    ):
        with tab:
            SECTIONS[name](run)
