"""Plotly figures of the Strategies page: the semantic and perplexity curves with their cuts.

Each point is a boundary between two sentences; its ``customdata`` is the boundary index, so a
click on a point (``st.plotly_chart(on_select=...)``) tells the page which cut to show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from chunkviz.strategies.perplexity import PerplexityCurve
from chunkviz.strategies.semantic import SemanticCurve
from chunkviz.text import Lang
from chunkviz.text.messages import backend_text
from chunkviz.ui.i18n import tr

#: Right margin (px) of the perplexity chart: its second axis (PPL, log) draws ticks there.
PPL_AXIS_MARGIN = 70


def _markers(
    fig: go.Figure,
    ys: Sequence[float],
    cuts: Sequence[int],
    forced: Sequence[int],
    suppressed: Sequence[int],
    lang: Lang,
) -> None:
    forced_set = set(forced)
    groups = (
        ("cut", [i for i in cuts if i not in forced_set], "#dc2626", "circle"),
        ("forced", list(forced), "#6b7280", "triangle-down"),
        ("suppressed", list(suppressed), "#f59e0b", "circle-open"),
    )
    for key, idx, colour, symbol in groups:
        fig.add_trace(
            go.Scatter(
                x=idx,
                y=[ys[i] for i in idx],
                mode="markers",
                name=tr(f"strategies_fig.{key}", lang=lang),
                marker={
                    "color": colour,
                    "size": 11,
                    "symbol": symbol,
                    "line": {"width": 2, "color": colour},
                },
                customdata=idx,
            )
        )


def _layout(fig: go.Figure, title: str, ytitle: str, lang: Lang) -> go.Figure:
    fig.update_layout(
        title=title,
        xaxis_title=tr("strategies_fig.boundary", lang=lang),
        yaxis={"title": ytitle, "automargin": True},
        height=360,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        legend={"orientation": "h", "y": -0.3},
        clickmode="event+select",
    )
    return fig


def semantic_figure(curve: SemanticCurve, percentile: float, lang: Lang, backend: str) -> go.Figure:
    """``s_i`` by boundary, the percentile threshold line, and the cuts.

    The title names the sentence vectors' ``backend`` in words; the model as recorded
    (``curve.embedder``) belongs in the page's details expander, not in a title.
    """
    sims = list(curve.similarities)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=list(range(len(sims))),
            y=sims,
            mode="lines+markers",
            name=tr("strategies_fig.curve_sim", lang=lang),
            line={"color": "#2563eb"},
            marker={"size": 5},
            customdata=list(range(len(sims))),
        )
    )
    if curve.threshold is not None:
        fig.add_hline(
            y=curve.threshold,
            line={"dash": "dash", "color": "#dc2626"},
            annotation_text=tr(
                "strategies_fig.threshold", p=percentile, t=curve.threshold, lang=lang
            ),
        )
    _markers(fig, sims, curve.cuts, curve.forced, curve.suppressed, lang)
    return _layout(
        fig,
        tr("strategies_fig.sem_title", embedder=backend_text(lang, backend), lang=lang),
        tr("strategies_fig.similarity", lang=lang),
        lang,
    )


def perplexity_figure(curve: PerplexityCurve, lang: Lang, model: str) -> go.Figure:
    """``|Δ ln PPL|`` by boundary with the threshold and cuts; perplexities on a second axis.

    ``model`` is the language model in the reader's words (``language_model_text``).
    """
    changes = [0.0 if c != c else c for c in curve.changes]  # NaN (no prediction) drawn at 0
    fig = go.Figure()
    fig.add_trace(
        go.Bar(
            x=list(range(len(changes))),
            y=changes,
            name=tr("strategies_fig.change", lang=lang),
            marker={"color": "#93c5fd"},
            customdata=list(range(len(changes))),
        )
    )
    fig.add_trace(
        go.Scatter(
            x=list(range(len(changes))),
            y=list(curve.perplexities[1:]),
            name=tr("strategies_fig.ppl", lang=lang),
            mode="lines",
            line={"color": "#7c3aed", "width": 1},
            yaxis="y2",
        )
    )
    # The threshold's label sits at the left end: the right edge belongs to the PPL axis.
    fig.add_hline(
        y=curve.threshold,
        line={"dash": "dash", "color": "#dc2626"},
        annotation_text=tr("strategies_fig.ppl_threshold", t=curve.threshold, lang=lang),
        annotation_position="top left",
    )
    _markers(fig, changes, curve.cuts, curve.forced, curve.suppressed, lang)
    fig.update_layout(
        yaxis2={
            "title": "PPL",
            "overlaying": "y",
            "side": "right",
            "type": "log",
            "showgrid": False,
            "automargin": True,
            # Its own round ticks (2, 5, 10, 20, 50, 100, ...), not ticks
            # synced to the bars' axis, which came out as 148.821, 70.7384.
            "tickmode": "linear",
            "dtick": "D2",
            "tickformat": "~s",
        }
    )
    _layout(
        fig,
        tr("strategies_fig.ppl_title", model=model, lang=lang),
        tr("strategies_fig.change", lang=lang),
        lang,
    )
    # NOTE: with the common 10 px right margin the PPL ticks ("1k", "200") were cut to one
    # digit; room for four characters and the axis title, and automargin for longer ones.
    fig.update_layout(margin={"r": PPL_AXIS_MARGIN})
    return fig


def clicked_boundary(event: Any) -> int | None:
    """Boundary index of the first point selected on a curve (``st.plotly_chart`` event).

    Every trace carries the boundary index as ``customdata``; a point without it falls back to
    its ``x``, which is the same index. None when nothing is selected.
    """
    selection = event.get("selection") if isinstance(event, Mapping) else None
    points = selection.get("points", []) if isinstance(selection, Mapping) else []
    for point in points:
        data = point.get("customdata")
        if isinstance(data, list):
            data = data[0] if data else None
        if data is None:
            data = point.get("x")
        if data is not None:
            return int(data)
    return None
