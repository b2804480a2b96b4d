"""The verdict's picture: each configuration's difference from the best, by the context it sends.

One panel per basis (equal k, equal budget), side by side: a point per configuration at the
characters it sends (log axis) and its difference from the best, with the 95% interval as an
error bar, coloured by the outcome of its comparison with the best; the ±δ band shaded, and the
median detectable margin as dashed lines. The data come from ``chunkviz.views.verdict``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from chunkviz.eval.decision import Choice
from chunkviz.text import Lang
from chunkviz.ui.benchmark.figures import log_ticks
from chunkviz.ui.i18n import tr
from chunkviz.views.markup import escape_markdown
from chunkviz.views.verdict import (
    OUTCOME_COLOURS,
    chart_points,
    detectable_text,
    median_detectable,
    metric_name,
    outcome_word,
)


def verdict_heading(choices: Sequence[Choice], lang: Lang) -> str:
    """The chart's title and its note (the first panel's band and margin), as Markdown.

    Written as text above the chart rather than inside it: plotly does not wrap a title, and
    on a phone the chart's own title was cut at the screen's edge (issue 39).
    """
    first = choices[0]
    margin = median_detectable(first)
    note = tr("verdict.chart_band", delta=first.delta, lang=lang)
    if margin is not None:
        note += " · " + tr("verdict.chart_detectable", margin=margin, lang=lang)
    return f"**{escape_markdown(tr('verdict.chart_title', lang=lang))}** — {escape_markdown(note)}"


def verdict_figure(choices: Sequence[Choice], titles: Sequence[str], lang: Lang) -> go.Figure:
    """The first screen's chart: one panel per choice (the budget first, equal k beside it).

    ``titles`` are the panels' (short: ``chunkviz.views.verdict.panel_text``, two fit side by
    side on a phone); the chart's own title is ``verdict_heading``, text above it. The x axis
    is named once, under both panels.

    Labels are in the hover, never printed on the points: at a budget every configuration
    sends about the same context, so printed labels overprinted each other. The
    band, the margin lines and zero are added after the traces: plotly drops a shape added to
    a subplot that has no trace yet (``NOTES.md``), and a test counts them.
    """
    cols = len(choices)
    fig = make_subplots(
        rows=1, cols=cols, subplot_titles=list(titles), shared_yaxes=True, horizontal_spacing=0.06
    )
    fig.update_annotations(font_size=13)  # the panel titles
    seen: set[str] = set()
    for col, choice in enumerate(choices, start=1):
        points = chart_points(choice)
        for outcome in OUTCOME_COLOURS:
            group = [p for p in points if p.outcome == outcome]
            if not group:
                continue
            word = outcome_word(lang, outcome)
            fig.add_trace(
                go.Scatter(
                    x=[p.x for p in group],
                    y=[p.diff for p in group],
                    mode="markers",
                    marker={
                        "size": 11,
                        "color": OUTCOME_COLOURS[outcome],
                        "symbol": "star" if outcome == "best" else "circle",
                    },
                    error_y={
                        "type": "data",
                        "symmetric": False,
                        "array": [p.high - p.diff for p in group],
                        "arrayminus": [p.diff - p.low for p in group],
                        "color": OUTCOME_COLOURS[outcome],
                        "thickness": 1.5,
                    },
                    customdata=[
                        [
                            p.label,
                            word,
                            f"{p.low:+.3f} – {p.high:+.3f}",
                            f"{p.k:.1f}",
                            detectable_text(p.detectable),
                        ]
                        for p in group
                    ],
                    hovertemplate=tr("verdict.chart_hover", lang=lang),
                    name=word,
                    legendgroup=outcome,
                    showlegend=outcome not in seen,
                ),
                row=1,
                col=col,
            )
            seen.add(outcome)
        xs = [p.x for p in points]
        span = _log_range(min(xs), max(xs))
        # Round ticks written in full: plotly's own read "4 5 … 9 1000 2 3" (2 for 2,000).
        ticks = log_ticks(10 ** span[0], 10 ** span[1])
        fig.update_xaxes(
            type="log",
            range=span,
            tickvals=ticks,
            ticktext=[f"{t:,}" for t in ticks],
            row=1,
            col=col,
        )
    for col, choice in enumerate(choices, start=1):
        _add_band(fig, choice, col)
    fig.add_annotation(
        text=tr("verdict.chart_x", lang=lang),
        xref="paper",
        yref="paper",
        x=0.5,
        y=-0.1,
        yanchor="top",
        showarrow=False,
        font={"size": 14},
        name="x_title",
    )
    fig.update_yaxes(
        title_text=tr("verdict.chart_y", name=metric_name(choices[0].metric), lang=lang),
        row=1,
        col=1,
    )
    fig.update_layout(
        height=400,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        legend={"orientation": "h", "y": -0.24},
    )
    return fig


def _add_band(fig: go.Figure, choice: Choice, col: int) -> None:
    """The ±δ band, the detectable margin's two lines and zero on panel ``col``."""
    band = {"row": 1, "col": col}
    fig.add_hrect(
        y0=-choice.delta, y1=choice.delta, fillcolor="#2ca02c", opacity=0.12, line_width=0, **band
    )
    margin = median_detectable(choice)
    if margin is not None:
        for y in (-margin, margin):
            fig.add_hline(y=y, line_dash="dash", line_color="#555", line_width=1, **band)
    fig.add_hline(y=0, line_color="#1f77b4", line_width=1, **band)


def _log_range(lo: float, hi: float) -> list[float]:
    lo, hi = max(lo, 1.0), max(hi, 1.0)
    return [math.log10(lo) - 0.15, math.log10(hi) + 0.15]
