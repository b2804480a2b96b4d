"""Plotly figure of the Compare page: where two configurations' cuts differ, on the whole text.

One row per configuration of the pair (A above B); a mark per cut only that configuration makes,
grey marks for the cuts both make, red crosses at the answers broken under one of them only, and
the part of the text the panels show as a band. Every point's ``customdata`` is its character
offset, so a click (``chunkviz.ui.strategies.figures.clicked_boundary``) tells the page which part
of the text to show.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from chunkviz.text import Lang
from chunkviz.ui.i18n import tr
from chunkviz.views.compare import BoundaryDiff, Outcome


def _answer_starts(outcome: Outcome, questions: Sequence[int]) -> list[int]:
    return [outcome.qa[i].item.spans[0].start for i in questions if outcome.qa[i].item.spans]


def diff_figure(
    a: Outcome,
    b: Outcome,
    diff: BoundaryDiff,
    *,
    shown: tuple[int, int],
    lang: Lang,
) -> go.Figure:
    """The boundary differences of ``a`` and ``b`` along the text.

    ``shown`` is the range of characters the panels show (drawn as a band).
    """
    row_a, row_b = tr("compare.diff_a", lang=lang), tr("compare.diff_b", lang=lang)
    fig = go.Figure()
    groups = (
        (
            "diff_shared",
            [*diff.shared, *diff.shared],
            [row_a] * len(diff.shared) + [row_b] * len(diff.shared),
            "#94a3b8",
            "line-ns-open",
            10,
        ),
        (
            "diff_only_a",
            list(diff.only_a),
            [row_a] * len(diff.only_a),
            "#7c3aed",
            "line-ns-open",
            16,
        ),
        (
            "diff_only_b",
            list(diff.only_b),
            [row_b] * len(diff.only_b),
            "#475569",
            "line-ns-open",
            16,
        ),
        (
            "diff_broken_a",
            _answer_starts(a, diff.broken_only_a),
            [row_a] * len(diff.broken_only_a),
            "#dc2626",
            "x",
            11,
        ),
        (
            "diff_broken_b",
            _answer_starts(b, diff.broken_only_b),
            [row_b] * len(diff.broken_only_b),
            "#dc2626",
            "x",
            11,
        ),
    )
    for key, xs, ys, colour, symbol, size in groups:
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="markers",
                name=tr(f"compare.{key}", lang=lang),
                customdata=xs,
                marker={
                    "color": colour,
                    "symbol": symbol,
                    "size": size,
                    "line": {"width": 2, "color": colour},
                },
                hovertemplate="%{x:,}<extra>" + tr(f"compare.{key}", lang=lang) + "</extra>",
            )
        )
    fig.add_vrect(
        x0=shown[0], x1=shown[1], fillcolor="#fde68a", opacity=0.35, line_width=0, layer="below"
    )
    fig.update_layout(
        height=230,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        clickmode="event+select",
        title=tr("compare.strip_title", lang=lang),
        legend={"orientation": "h", "y": -0.45},
        xaxis={"title": tr("compare.strip_x", lang=lang), "range": [0, len(a.result.text)]},
        yaxis={"categoryorder": "array", "categoryarray": [row_b, row_a]},
    )
    return fig
