"""The Similarity page's two sections, each a fragment: the plane and the real embeddings.

Dragging the query reruns the plane alone, not the embeddings below it; encoding runs only
once the reader asks for it.
"""

from __future__ import annotations

import streamlit as st

from chunkviz.text.messages import backend_text
from chunkviz.ui.guard import guard
from chunkviz.ui.i18n import tr
from chunkviz.ui.lazy import encoding_asked
from chunkviz.ui.page_start import page_document
from chunkviz.ui.resources import chunk_cached, lesson_cached
from chunkviz.ui.similarity import view
from chunkviz.ui.similarity.plane_component import similarity_plane
from chunkviz.ui.state import AppState
from chunkviz.views.compare import config_text
from chunkviz.views.markup import escape_markdown
from chunkviz.views.plane import PRESETS, measure_names, preset


@st.fragment
def plane_section(state: AppState) -> None:
    """Points on a plane, a query to drag, and the three measures' rankings."""
    lang = state.lang
    names = measure_names(lang)
    st.header(tr("similarity.plane_header"))
    st.markdown(tr("similarity.plane_intro"))
    c1, c2, c3 = st.columns([3, 1, 1])
    # One radio per language (its state is the displayed option); the preset is "sim_preset".
    preset_key = f"sim_preset_{lang}"
    preset_name = c1.radio(
        tr("similarity.preset"),
        PRESETS,
        index=PRESETS.index(st.session_state["sim_preset"]),
        format_func=lambda p: tr(f"similarity.preset_{p}"),
        key=preset_key,
        horizontal=True,
        on_change=view.on_preset,
        args=(preset_key,),
    )
    seed = int(
        c2.number_input(
            tr("similarity.seed"),
            min_value=0,
            max_value=9999,
            value=0,
            key="sim_seed",
            disabled=preset_name != "random",
            on_change=view.reset_query,
        )
    )
    k = c3.slider(tr("similarity.k"), min_value=1, max_value=3, value=2, key="sim_k")
    st.caption(tr(f"similarity.help_{preset_name}"))
    points = view.points_editor(
        preset(preset_name, seed=seed), key=f"sim_points_{preset_name}_{seed}"
    )
    query = st.session_state["sim_query"]
    if not points:
        st.info(tr("similarity.no_points"))
        return
    similarity_plane(
        points,
        query,
        k=min(k, len(points)),
        measure_names=names,
        text=view.plane_words(),
        key="sim_plane",
        on_release=view.on_release,
        seq=st.session_state["sim_query_seq"],
    )
    st.subheader(tr("similarity.rankings", x=query[0], y=query[1]))
    view.rank_tables(points, query, names)
    view.measure_notes(points, query, lang)


@st.fragment
def real_section(state: AppState) -> None:
    """The document's chunks under the app's backend: norms, and a query ranked three ways."""
    lang = state.lang
    st.header(tr("similarity.real_header"))
    st.markdown(tr("similarity.real_intro"))
    document = page_document(state, prefix="sim_")
    strategy, params = state.configuration()
    with guard() as attempt:
        result = chunk_cached(document, strategy, params, state.backend, state.imported)
        backend_name, backend = view.lesson_backend(state.backend)
    if attempt.failed:
        return
    st.caption(
        tr(
            "similarity.config",
            label=escape_markdown(config_text(lang, strategy, params)),
            n=len(result.chunks),
        )
    )
    st.caption(tr("similarity.embedder", backend=backend_text(state.lang, backend_name)))
    st.metric(tr("similarity.n_chunks"), len(result.chunks))
    first = document.questions[0].question if document.questions else ""
    query_text = st.text_input(tr("similarity.query_text"), value=first, key="sim_query_text")
    if len(result.chunks) == 0:
        st.info(tr("similarity.empty_doc"))
        return
    if backend.normalized and not backend.raw_vectors:
        st.warning(tr("similarity.unit_only", name=backend_name))
    if not query_text.strip():
        st.info(tr("similarity.query_empty"))
        return
    backend_words = backend_text(state.lang, backend_name)
    # A model encodes every chunk (half a minute with e5-small): only once the reader asks.
    if not encoding_asked(
        backend_name,
        key="sim_embed",
        label=tr("similarity.embed_ask", backend=backend_words),
        help=tr("similarity.embed_ask_help", n=len(result.chunks)),
    ):
        st.info(tr("similarity.embed_waiting"))
        return
    texts = result.chunk_texts()
    with (
        guard() as attempt,
        st.spinner(
            tr("lesson.busy_embedding", n=len(texts), backend=backend_words), show_time=True
        ),
    ):
        lesson = lesson_cached(
            backend,
            backend.name,
            backend.model,
            tuple(result.embed_texts()),
            tuple(c.end - c.start for c in result.chunks),
            query_text,
        )
    if attempt.failed:
        return
    names = measure_names(lang)
    view.lesson_charts(lesson, texts, names, lang)
