"""Plotly figures of the Benchmark page, built from the dashboard's ``chunkviz.views`` values."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from chunkviz.eval.measures import metric_label
from chunkviz.views.backend_comparison import BackendComparison
from chunkviz.views.curves import ModeRow
from chunkviz.views.main_table import TableRow

#: Widest title line, in half-width characters (a full-width one counts two): what fits a
#: phone's chart (390 px) at plotly's title size.
TITLE_WIDTH = 38


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap_title(title: str, width: int = TITLE_WIDTH) -> str:
    """``title`` in lines of at most ``width`` (``<br>`` between them): plotly never wraps one.

    Lines break between words; a word wider than a line (Japanese has no spaces) is cut
    between characters. On a phone a one-line title ran off the chart (issue 39).
    """
    lines: list[str] = []
    line = ""
    for word in title.split(" "):
        joined = f"{line} {word}" if line else word
        if _width(joined) <= width or not line:
            line = joined
            continue
        lines.append(line)
        line = word
    lines.append(line)
    out: list[str] = []
    for line in lines:
        while _width(line) > width:
            cut = 0
            while _width(line[: cut + 1]) <= width:
                cut += 1
            out.append(line[:cut])
            line = line[cut:]
        out.append(line)
    return "<br>".join(out)


def _layout(fig: go.Figure, title: str, x: str, y: str) -> go.Figure:
    wrapped = wrap_title(title)
    top = 30 + 22 * (wrapped.count("<br>") + 1)
    fig.update_layout(
        title=wrapped,
        xaxis_title=x,
        yaxis_title=y,
        height=380,
        margin={"l": 10, "r": 10, "t": top, "b": 10},
        showlegend=False,
    )
    return fig


def log_ticks(low: float, high: float) -> list[int]:
    """Tick values 1-2-5 per decade inside ``[low, high]`` (``[100, 200, 500, 1000, ...]``).

    Plotly's own log ticks print minor digits ("3 4 5 … 1000 2 3"); these are few and each is
    written in full.
    """
    ticks: list[int] = []
    for steps in ((1, 2, 5), tuple(range(1, 10))):  # every digit when the range is narrow
        ticks = []
        decade = 10 ** math.floor(math.log10(max(low, 1.0)))
        while decade <= high:
            ticks.extend(m * decade for m in steps if low <= m * decade <= high)
            decade *= 10
        if len(ticks) >= 2:
            break
    return ticks


def quality_scatter(rows: Sequence[TableRow], metric: str, x_title: str) -> go.Figure:
    """Chunk count vs ``metric`` per configuration, with 95% CI error bars.

    One trace per configuration, named in the legend below the plot: labels printed beside
    close points overlapped each other.
    """
    fig = go.Figure(
        [
            go.Scatter(
                x=[r.chunks],
                y=[r.cells[metric].mean],
                name=r.label,
                text=[r.label],
                mode="markers",
                marker={"size": 10, "symbol": i // 10},
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": [r.cells[metric].ci_high - r.cells[metric].mean],
                    "arrayminus": [r.cells[metric].mean - r.cells[metric].ci_low],
                },
                hovertemplate="%{text}<br>%{x:,} chunks<br>%{y:.3f}<extra></extra>",
            )
            for i, r in enumerate(rows)
        ]
    )
    counts = [max(1, r.chunks) for r in rows] or [1]
    low, high = min(counts) / 1.3, max(counts) * 1.3
    ticks = log_ticks(low, high)
    # Log axis (chunk counts span orders of magnitude), padded so edge points stay visible.
    fig.update_xaxes(
        type="log",
        range=[math.log10(low), math.log10(high)],
        tickvals=ticks,
        ticktext=[f"{t:,}" for t in ticks],
    )
    fig = _layout(fig, f"{x_title} vs {metric_label(metric)}", x_title, metric_label(metric))
    fig.update_layout(
        showlegend=True,
        height=440,
        legend={"orientation": "h", "yanchor": "top", "y": -0.25, "x": 0},
    )
    return fig


def lost_bar(rows: Sequence[TableRow], title: str, y_title: str) -> go.Figure:
    """Questions lost before retrieval (no chunk contains an answer span) per configuration."""
    # The count alone above each bar, at a fixed size: "207 (5.2%)" was wider than its bar, and
    # plotly shrank it to 9 px to fit. The share is in the hover and in the main table.
    fig = go.Figure(
        go.Bar(
            x=[r.label for r in rows],
            y=[r.broken for r in rows],
            text=[f"{r.broken:,}" for r in rows],
            customdata=[f"{r.broken_share:.1%}" for r in rows],
            hovertemplate="%{x}: %{y:,} (%{customdata})<extra></extra>",
            textposition="outside",
            textfont={"size": 12},
            constraintext="none",
            cliponaxis=False,
            marker_color="#dc2626",
        )
    )
    # Head room for the count printed above the tallest bar.
    fig.update_yaxes(range=[0, max(1, *(r.broken for r in rows)) * 1.15])
    return _layout(fig, title, "", y_title)


def curves_figure(
    curves: Mapping[str, Sequence[float]], ks: Sequence[int], measure: str, title: str
) -> go.Figure:
    """``measure@k`` against k, one line per configuration."""
    fig = go.Figure(
        [
            go.Scatter(x=list(ks), y=list(vals), mode="lines+markers", name=lab)
            for lab, vals in curves.items()
        ]
    )
    fig = _layout(fig, title, "k", f"{metric_label(measure)}@k")
    fig.update_layout(showlegend=True)
    return fig


def mode_bar(rows: Sequence[ModeRow], title: str, y_title: str) -> go.Figure:
    """Recall per configuration under one retrieval rule, with k and characters on each bar."""
    has_ci = all(r.ci_low is not None and r.ci_high is not None for r in rows)
    error = None
    if has_ci:
        error = {
            "type": "data",
            "symmetric": False,
            "array": [(r.ci_high or 0.0) - r.mean for r in rows],
            "arrayminus": [r.mean - (r.ci_low or 0.0) for r in rows],
        }
    fig = go.Figure(
        go.Bar(
            x=[r.label for r in rows],
            y=[r.mean for r in rows],
            text=[f"k={r.k:.3g} · {r.chars:,.0f} chars" for r in rows],
            textposition="none",
            hovertemplate="%{x}<br>%{text}<br>Recall %{y:.3f}<extra></extra>",
            error_y=error,
        )
    )
    # k and the characters it retrieves go under each bar, where they stay readable.
    fig.update_xaxes(
        tickmode="array",
        tickvals=[r.label for r in rows],
        ticktext=[f"{r.label}<br>k={r.k:.3g} · {r.chars:,.0f} ch" for r in rows],
    )
    fig.update_yaxes(range=[0, 1.05])
    return _layout(fig, title, "", y_title)


def backends_bar(cmp: BackendComparison, title: str) -> go.Figure:
    """Grouped bars: the metric of each configuration under each backend."""
    x = [r.label for r in cmp.rows]
    fig = go.Figure(
        [
            go.Bar(x=x, y=[r.mean_a for r in cmp.rows], name=cmp.backend_a),
            go.Bar(x=x, y=[r.mean_b for r in cmp.rows], name=cmp.backend_b),
        ]
    )
    fig = _layout(fig, title, "", metric_label(cmp.metric))
    fig.update_layout(barmode="group", showlegend=True)
    return fig
