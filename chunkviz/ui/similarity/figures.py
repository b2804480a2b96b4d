"""Plotly figures of the Similarity page's real-embedding part (norms, ranks, PCA)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go

from chunkviz.retrieval.base import Measure
from chunkviz.text import Lang
from chunkviz.ui.i18n import tr
from chunkviz.views.similarity_lesson import Lesson

MEASURE_COLOURS: dict[Measure, str] = {"dot": "#e8590c", "cosine": "#1c7ed6", "l2": "#2f9e44"}


def _short(text: str, n: int = 40) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= n else flat[:n] + "…"


def norm_figure(lesson: Lesson, texts: Sequence[str], lang: Lang) -> Any:
    """Scatter of vector norm against chunk length, one point per chunk."""
    stats = lesson.stats
    fig = go.Figure(
        go.Scatter(
            x=stats.lengths,
            y=stats.norms,
            mode="markers+text",
            text=[str(i) for i in range(len(texts))],  # #0 is the first chunk everywhere
            textposition="top center",
            hovertext=[_short(t) for t in texts],
            marker={"size": 10, "color": "#495057"},
            name=tr("similarity.chunks", lang=lang),
        )
    )
    if stats.pearson is not None and len(stats.lengths) >= 2:
        slope, intercept = np.polyfit(stats.lengths, stats.norms, 1)
        xs = np.array([stats.lengths.min(), stats.lengths.max()])
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=slope * xs + intercept,
                mode="lines",
                line={"dash": "dot", "color": "#adb5bd"},
                name=tr("similarity.fit", lang=lang),
            )
        )
    fig.update_layout(
        title=tr("similarity.norm_title", lang=lang),
        xaxis_title=tr("similarity.norm_x", lang=lang),
        yaxis_title=tr("similarity.norm_y", lang=lang),
        height=360,
        margin={"t": 50, "b": 40, "l": 50, "r": 10},
        showlegend=False,
    )
    return fig


def rank_figure(lesson: Lesson, measure_names: Mapping[Measure, str], lang: Lang) -> Any:
    """Each chunk's rank under the three measures, joined by a line per chunk (a dumbbell)."""
    n = len(lesson.spread)
    chunks = np.arange(n)  # numbered from 0, as on every page
    fig = go.Figure()
    lo = np.min(np.stack([lesson.ranks[m] for m in MEASURE_COLOURS]), axis=0)
    hi = np.max(np.stack([lesson.ranks[m] for m in MEASURE_COLOURS]), axis=0)
    moved = set(lesson.moved)
    for i in range(n):
        fig.add_trace(
            go.Scatter(
                x=[chunks[i], chunks[i]],
                y=[lo[i], hi[i]],
                mode="lines",
                line={
                    "color": "#c2255c" if i in moved else "#ced4da",
                    "width": 6 if i in moved else 3,
                },
                showlegend=False,
                hoverinfo="skip",
            )
        )
    for m, colour in MEASURE_COLOURS.items():
        fig.add_trace(
            go.Scatter(
                x=chunks,
                y=lesson.ranks[m],
                mode="markers",
                marker={"size": 11, "color": colour},
                name=measure_names[m],
            )
        )
    fig.update_layout(
        title=tr("similarity.rank_title", lang=lang),
        xaxis_title=tr("similarity.rank_x", lang=lang),
        yaxis_title=tr("similarity.rank_y", lang=lang),
        yaxis={"autorange": "reversed", "dtick": 1 if n <= 20 else None},
        xaxis={"dtick": 1 if n <= 30 else None},
        height=360,
        margin={"t": 50, "b": 40, "l": 50, "r": 10},
        legend={"orientation": "h", "y": -0.25},
    )
    return fig


def pca_figure(lesson: Lesson, texts: Sequence[str], lang: Lang) -> Any:
    """Chunks (size by length) and the query in the chunks' first two principal components."""
    proj = lesson.projection
    lengths = lesson.stats.lengths
    size = 8 + 22 * (lengths / lengths.max() if lengths.max() > 0 else lengths)
    fig = go.Figure(
        [
            go.Scatter(
                x=proj.chunks[:, 0],
                y=proj.chunks[:, 1],
                mode="markers+text",
                text=[str(i) for i in range(len(texts))],  # #0 is the first chunk everywhere
                textposition="middle center",
                hovertext=[_short(t) for t in texts],
                marker={"size": size, "color": "#74c0fc", "line": {"color": "#1c7ed6", "width": 1}},
                name=tr("similarity.chunks", lang=lang),
            ),
            go.Scatter(
                x=[proj.query[0]],
                y=[proj.query[1]],
                mode="markers",
                marker={"size": 16, "symbol": "star", "color": "#c2255c"},
                name=tr("similarity.query_point", lang=lang),
            ),
        ]
    )
    fig.update_layout(
        title=tr("similarity.pca_title", lang=lang),
        xaxis_title=f"PC1 ({proj.explained[0]:.0%})",
        yaxis_title=f"PC2 ({proj.explained[1]:.0%})",
        height=380,
        margin={"t": 50, "b": 40, "l": 50, "r": 10},
        legend={"orientation": "h", "y": -0.2},
    )
    return fig
