"""Similarity: drag a query and watch dot product, cosine and L2 disagree (seed 003's lesson)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from chunkviz.retrieval.similarity import MEASURES
from chunkviz.ui.guard import show_error
from chunkviz.ui.i18n import tr
from chunkviz.ui.pickers import document_picker
from chunkviz.ui.plane_component import similarity_plane
from chunkviz.ui.resources import backend_infos, chunk_cached, lesson_cached, load_backend
from chunkviz.ui.similarity_figures import norm_figure, pca_figure, rank_figure
from chunkviz.ui.state import app_state
from chunkviz.views.compare import config_label
from chunkviz.views.markup import escape_markdown
from chunkviz.views.plane import (
    DEFAULT_QUERY,
    PRESETS,
    describe_measures,
    describe_move,
    measure_names,
    points_from_rows,
    points_to_rows,
    preset,
    rankings,
    scores,
)
from chunkviz.views.similarity_lesson import has_vectors, lesson_backends, lesson_rows

state = app_state()
lang = state.lang
names = measure_names(lang)
st.session_state.setdefault("sim_query", DEFAULT_QUERY)
st.session_state.setdefault("sim_prev_query", None)
st.session_state.setdefault("sim_query_seq", 0)
st.session_state.setdefault("sim_preset", PRESETS[0])


def _reset_query() -> None:
    st.session_state["sim_query"] = DEFAULT_QUERY
    st.session_state["sim_prev_query"] = None


def _on_preset(widget_key: str) -> None:
    st.session_state["sim_preset"] = st.session_state[widget_key]
    _reset_query()


def _on_release() -> None:
    pos = st.session_state["sim_plane"]["pos"]
    if pos is not None:
        st.session_state["sim_prev_query"] = st.session_state["sim_query"]
        st.session_state["sim_query"] = (float(pos["x"]), float(pos["y"]))
        st.session_state["sim_query_seq"] = int(pos.get("seq", 0))


st.title(tr("similarity.title"))
st.markdown(tr("similarity.intro"))


# --- the plane -----------------------------------------------------------------------------------
# A fragment: dragging the query reruns this section only, not the embeddings below.
@st.fragment
def _plane_section() -> None:
    st.header(tr("similarity.plane_header"))
    st.markdown(tr("similarity.plane_intro"))
    c1, c2, c3 = st.columns([3, 1, 1])
    # NOTE: a radio's state is its *displayed* option, which changes with the language, so the
    # widget is keyed per language and the chosen preset lives in the neutral "sim_preset".
    preset_key = f"sim_preset_{lang}"
    preset_name = c1.radio(
        tr("similarity.preset"),
        PRESETS,
        index=PRESETS.index(st.session_state["sim_preset"]),
        format_func=lambda p: tr(f"similarity.preset_{p}"),
        key=preset_key,
        horizontal=True,
        on_change=_on_preset,
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
            on_change=_reset_query,
        )
    )
    k = c3.slider(tr("similarity.k"), min_value=1, max_value=3, value=2, key="sim_k")
    st.caption(tr(f"similarity.help_{preset_name}"))

    base = preset(preset_name, seed=seed)
    with st.expander(tr("similarity.edit")):
        st.caption(tr("similarity.edit_help"))
        edited = st.data_editor(
            pd.DataFrame(points_to_rows(base), columns=["label", "angle", "length"]),
            num_rows="dynamic",
            key=f"sim_points_{preset_name}_{seed}",
            column_config={
                "label": st.column_config.TextColumn(tr("similarity.label"), max_chars=12),
                "angle": st.column_config.NumberColumn(
                    tr("similarity.angle"), min_value=-360, max_value=360
                ),
                "length": st.column_config.NumberColumn(
                    tr("similarity.length"), min_value=0.05, max_value=5
                ),
            },
            hide_index=True,
        )
    try:
        points = points_from_rows(edited.to_dict("records"))
    except Exception as e:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(e)
        points = base

    query = st.session_state["sim_query"]
    if not points:
        st.info(tr("similarity.no_points"))
    else:
        similarity_plane(
            points,
            query,
            k=min(k, len(points)),
            measure_names=names,
            text={k: tr(f"similarity.{k}") for k in ("query", "top", "drag_hint")},
            key="sim_plane",
            on_release=_on_release,
            seq=st.session_state["sim_query_seq"],
        )
        st.subheader(tr("similarity.rankings", x=query[0], y=query[1]))
        ranks = rankings(points, query)
        all_scores = scores(points, query)
        for col, m in zip(st.columns(3), MEASURES, strict=True):
            with col, st.container(key=f"sim_rank_{m}"):
                st.markdown(f"**{names[m]}**")
                order = ranks[m]
                st.table(pd.DataFrame({
                    tr("similarity.rank"): [str(r) for r in range(1, len(points) + 1)],
                    tr("similarity.chunk"): [escape_markdown(points[i].label) for i in order],
                    tr("similarity.length"): [f"{points[i].length:.2f}" for i in order],
                    tr("similarity.score"): [f"{all_scores[m][i]:.3f}" for i in order],
                }), hide_index=True)
        with st.container(key="sim_change"):
            said = describe_measures(points, query, lang)
            st.info(f"**{tr('similarity.measures_sentence')}:** {said}")
            prev = st.session_state["sim_prev_query"]
            if prev is not None:
                moved = describe_move(points, prev, query, lang)
                st.caption(f"{tr('similarity.move_sentence')}: {moved}")


# --- real embeddings -----------------------------------------------------------------------------
@st.fragment
def _real_section() -> None:
    st.header(tr("similarity.real_header"))
    st.markdown(tr("similarity.real_intro"))

    with st.expander(tr("document.heading")):
        document = document_picker(state, prefix="sim_")
    strategy, params = state.configuration()
    backend_name = state.backend
    try:
        result = chunk_cached(document, strategy, params, backend_name, state.imported)
        backend = load_backend(backend_name)
        if not has_vectors(backend):
            st.caption(tr("similarity.no_vectors", backend=backend_name))
            choices = lesson_backends({i.name for i in backend_infos() if i.available})
            backend_name = st.selectbox(tr("similarity.lesson_backend"), choices,
                                        format_func=lambda n: tr(f"backend.{n}"),
                                        key="sim_lesson_backend")
            backend = load_backend(backend_name)
    except Exception as e:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(e)
        return
    st.caption(tr("similarity.config", label=escape_markdown(config_label(strategy, params)),
                  n=len(result.chunks)))
    st.caption(tr("similarity.embedder", backend=backend_name))
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

    texts = result.chunk_texts()
    lengths = [c.end - c.start for c in result.chunks]
    try:
        with st.spinner(tr("lesson.busy_embedding", n=len(texts), backend=backend_name),
                        show_time=True):
            lesson = lesson_cached(
                backend,
                backend.name,
                backend.model,
                tuple(result.embed_texts()),
                tuple(lengths),
                query_text,
            )
    except Exception as e:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(e)
        return

    pearson = lesson.stats.pearson
    moved = ", ".join(f"#{i}" for i in lesson.moved)
    m2, m3 = st.columns(2)
    m2.metric(tr("similarity.pearson"),
              f"{pearson:.2f}" if pearson is not None else tr("similarity.pearson_na"),
              help=tr("similarity.pearson_help"))
    m3.metric(tr("similarity.moved"), moved or tr("similarity.moved_none"))

    def words(*keys: str) -> dict[str, str]:
        return {k.split(":")[0]: tr(f"similarity.{k.split(':')[-1]}") for k in keys}

    g1, g2 = st.columns(2)
    g1.plotly_chart(norm_figure(lesson, texts, words("title:norm_title", "x:norm_x", "y:norm_y",
                                                     "fit", "chunks")), key="sim_norm_chart")
    g2.plotly_chart(rank_figure(lesson, names, words("title:rank_title", "x:rank_x",
                                                     "y:rank_y")), key="sim_rank_chart")
    st.plotly_chart(pca_figure(lesson, texts, words("title:pca_title", "chunks",
                                                    "query:query_point")), key="sim_pca_chart")
    st.caption(tr("similarity.table"))
    columns = {c: tr(f"similarity.col_{c}")
               for c in ("chunk", "text", "chars", "norm", "spread", "moved")}
    st.dataframe(pd.DataFrame(lesson_rows(texts, lesson)).rename(columns={**names, **columns}),
                 hide_index=True, key="sim_rank_table")

_plane_section()
_real_section()
