"""The Similarity page's pieces: the plane's session state, its tables, and the real lesson.

The plane keeps its query under ``sim_query`` (and the one before the last drag under
``sim_prev_query``, for the sentence that says what the drag changed); the chosen preset lives
under the neutral ``sim_preset``, because a radio's own state is its *displayed* option, which
changes with the language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from chunkviz.retrieval.base import Measure
from chunkviz.retrieval.similarity import MEASURES
from chunkviz.text.messages import backend_text
from chunkviz.ui.guard import guard
from chunkviz.ui.i18n import current_lang, tr
from chunkviz.ui.resources import backend_infos, load_backend
from chunkviz.ui.similarity.figures import norm_figure, pca_figure, rank_figure
from chunkviz.views.markup import escape_markdown
from chunkviz.views.plane import (
    DEFAULT_QUERY,
    PRESETS,
    PlanePoint,
    describe_measures,
    describe_move,
    points_from_rows,
    points_to_rows,
    rankings,
    scores,
)
from chunkviz.views.similarity_lesson import Lesson, lesson_choices, lesson_rows


def init_plane() -> None:
    """The plane's session keys, set once per session."""
    st.session_state.setdefault("sim_query", DEFAULT_QUERY)
    st.session_state.setdefault("sim_prev_query", None)
    st.session_state.setdefault("sim_query_seq", 0)
    st.session_state.setdefault("sim_preset", PRESETS[0])


def reset_query() -> None:
    """Put the query back where a preset starts (a new preset or seed)."""
    st.session_state["sim_query"] = DEFAULT_QUERY
    st.session_state["sim_prev_query"] = None


def on_preset(widget_key: str) -> None:
    """Remember the preset chosen in the (per-language) radio under ``widget_key``."""
    st.session_state["sim_preset"] = st.session_state[widget_key]
    reset_query()


def on_release() -> None:
    """A drag ended: the dropped position is the query, the one before it is remembered."""
    pos = st.session_state["sim_plane"]["pos"]
    if pos is not None:
        st.session_state["sim_prev_query"] = st.session_state["sim_query"]
        st.session_state["sim_query"] = (float(pos["x"]), float(pos["y"]))
        st.session_state["sim_query_seq"] = int(pos.get("seq", 0))


def plane_words() -> dict[str, str]:
    """The words the plane component draws (query, top-k, the drag hint)."""
    return {k: tr(f"similarity.{k}") for k in ("query", "top", "drag_hint")}


def points_editor(base: Sequence[PlanePoint], key: str) -> list[PlanePoint]:
    """An editable table of ``base``'s points; the edited points (``base`` when refused)."""
    with st.expander(tr("similarity.edit")):
        st.caption(tr("similarity.edit_help"))
        edited = st.data_editor(
            pd.DataFrame(points_to_rows(base), columns=["label", "angle", "length"]),
            num_rows="dynamic",
            key=key,
            hide_index=True,
            column_config={
                "label": st.column_config.TextColumn(tr("similarity.label"), max_chars=12),
                "angle": st.column_config.NumberColumn(
                    tr("similarity.angle"), min_value=-360, max_value=360
                ),
                "length": st.column_config.NumberColumn(
                    tr("similarity.length"), min_value=0.05, max_value=5
                ),
            },
        )
    with guard():
        return list(points_from_rows(edited.to_dict("records")))
    return list(base)


def rank_tables(
    points: Sequence[PlanePoint], query: tuple[float, float], names: Mapping[Measure, str]
) -> None:
    """One ranking table per measure, side by side."""
    ranks = rankings(points, query)
    all_scores = scores(points, query)
    for col, m in zip(st.columns(3), MEASURES, strict=True):
        with col, st.container(key=f"sim_rank_{m}"):
            st.markdown(f"**{names[m]}**")
            order = ranks[m]
            st.table(
                pd.DataFrame(
                    {
                        tr("similarity.rank"): [str(r) for r in range(1, len(points) + 1)],
                        tr("similarity.chunk"): [escape_markdown(points[i].label) for i in order],
                        tr("similarity.length"): [f"{points[i].length:.2f}" for i in order],
                        tr("similarity.score"): [f"{all_scores[m][i]:.3f}" for i in order],
                    }
                ),
                hide_index=True,
            )


def measure_notes(points: Sequence[PlanePoint], query: tuple[float, float], lang: Any) -> None:
    """What the measures say about the query now, and what the last drag changed."""
    with st.container(key="sim_change"):
        said = describe_measures(points, query, lang)
        st.info(f"**{tr('similarity.measures_sentence')}:** {said}")
        prev = st.session_state["sim_prev_query"]
        if prev is not None:
            moved = describe_move(points, prev, query, lang)
            st.caption(f"{tr('similarity.move_sentence')}: {moved}")


def lesson_backend(name: str) -> tuple[str, Any]:
    """The backend whose vectors the lesson compares: ``name``'s, or one the reader picks.

    A backend without vectors (BM25) cannot show norms, so the page offers the available
    backends that have them (``lesson_choices``) and says why.
    """
    backend = load_backend(name)
    choices = lesson_choices(backend, {i.name for i in backend_infos() if i.available})
    if choices is None:
        return name, backend
    st.caption(tr("similarity.no_vectors", backend=backend_text(current_lang(), name)))
    picked = st.selectbox(
        tr("similarity.lesson_backend"),
        choices,
        format_func=lambda n: tr(f"backend.{n}"),
        key="sim_lesson_backend",
    )
    return str(picked), load_backend(str(picked))


def lesson_charts(
    lesson: Lesson, texts: Sequence[str], names: Mapping[Measure, str], lang: Any
) -> None:
    """The lesson's numbers, its three figures and its table."""
    pearson = lesson.stats.pearson
    moved = ", ".join(f"#{i}" for i in lesson.moved)
    m2, m3 = st.columns(2)
    m2.metric(
        tr("similarity.pearson"),
        f"{pearson:.2f}" if pearson is not None else tr("similarity.pearson_na"),
        help=tr("similarity.pearson_help"),
    )
    m3.metric(tr("similarity.moved"), moved or tr("similarity.moved_none"))
    g1, g2 = st.columns(2)
    g1.plotly_chart(norm_figure(lesson, texts, lang), key="sim_norm_chart")
    g2.plotly_chart(rank_figure(lesson, names, lang), key="sim_rank_chart")
    st.plotly_chart(pca_figure(lesson, texts, lang), key="sim_pca_chart")
    st.caption(tr("similarity.table"))
    columns: dict[str, str] = {
        c: tr(f"similarity.col_{c}") for c in ("chunk", "text", "chars", "norm", "spread", "moved")
    }
    columns |= {str(m): name for m, name in names.items()}
    st.dataframe(
        pd.DataFrame(lesson_rows(texts, lesson)).rename(columns=columns),
        hide_index=True,
        key="sim_rank_table",
    )
