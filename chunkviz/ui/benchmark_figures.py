"""Plotly figures of the Benchmark page, built from ``chunkviz.views.dashboard`` values."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from chunkviz.views.dashboard import BackendComparison, ModeRow, TableRow, metric_label


def _layout(fig: go.Figure, title: str, x: str, y: str) -> go.Figure:
    fig.update_layout(title=title, xaxis_title=x, yaxis_title=y, height=380,
                      margin={"l": 10, "r": 10, "t": 50, "b": 10}, showlegend=False)
    return fig


def quality_scatter(rows: Sequence[TableRow], metric: str, x_title: str) -> go.Figure:
    """Chunk count vs ``metric`` per configuration: labelled points with 95% CI error bars."""
    cells = [r.cells[metric] for r in rows]
    fig = go.Figure(go.Scatter(
        x=[r.chunks for r in rows],
        y=[c.mean for c in cells],
        text=[r.label for r in rows],
        mode="markers+text",
        # Alternate label sides so neighbouring points do not print over each other.
        textposition=["top right" if i % 2 else "top left" for i in range(len(rows))],
        cliponaxis=False,
        error_y={"type": "data", "symmetric": False,
                 "array": [c.ci_high - c.mean for c in cells],
                 "arrayminus": [c.mean - c.ci_low for c in cells]},
        hovertemplate="%{text}<br>%{x:,} chunks<br>%{y:.3f}<extra></extra>",
    ))
    counts = [max(1, r.chunks) for r in rows]
    # Log axis (chunk counts span orders of magnitude), padded so edge labels stay visible.
    fig.update_xaxes(type="log", range=[math.log10(min(counts) / 1.6),
                                        math.log10(max(counts) * 1.6)])
    return _layout(fig, f"{x_title} vs {metric_label(metric)}", x_title, metric_label(metric))


def lost_bar(rows: Sequence[TableRow], title: str, y_title: str) -> go.Figure:
    """Questions lost before retrieval (no chunk contains an answer span) per configuration."""
    fig = go.Figure(go.Bar(
        x=[r.label for r in rows],
        y=[r.broken for r in rows],
        text=[f"{r.broken} ({r.broken_share:.1%})" for r in rows],
        textposition="outside",
        cliponaxis=False,
        marker_color="#dc2626",
    ))
    # Head room for the count printed above the tallest bar.
    fig.update_yaxes(range=[0, max(1, *(r.broken for r in rows)) * 1.15])
    return _layout(fig, title, "", y_title)


def curves_figure(curves: Mapping[str, Sequence[float]], ks: Sequence[int], measure: str,
                  title: str) -> go.Figure:
    """``measure@k`` against k, one line per configuration."""
    fig = go.Figure([go.Scatter(x=list(ks), y=list(vals), mode="lines+markers", name=lab)
                     for lab, vals in curves.items()])
    fig = _layout(fig, title, "k", f"{metric_label(measure)}@k")
    fig.update_layout(showlegend=True)
    return fig


def mode_bar(rows: Sequence[ModeRow], title: str, y_title: str) -> go.Figure:
    """Recall per configuration under one retrieval rule, with k and characters on each bar."""
    has_ci = all(r.ci_low is not None and r.ci_high is not None for r in rows)
    error = None
    if has_ci:
        error = {"type": "data", "symmetric": False,
                 "array": [(r.ci_high or 0.0) - r.mean for r in rows],
                 "arrayminus": [r.mean - (r.ci_low or 0.0) for r in rows]}
    fig = go.Figure(go.Bar(
        x=[r.label for r in rows],
        y=[r.mean for r in rows],
        text=[f"k={r.k} · {r.chars:,.0f} chars" for r in rows],
        textposition="none",
        hovertemplate="%{x}<br>%{text}<br>Recall %{y:.3f}<extra></extra>",
        error_y=error,
    ))
    # k and the characters it retrieves go under each bar, where they stay readable.
    fig.update_xaxes(tickmode="array", tickvals=[r.label for r in rows],
                     ticktext=[f"{r.label}<br>k={r.k} · {r.chars:,.0f} ch" for r in rows])
    fig.update_yaxes(range=[0, 1.05])
    return _layout(fig, title, "", y_title)


def backends_bar(cmp: BackendComparison, title: str) -> go.Figure:
    """Grouped bars: the metric of each configuration under each backend."""
    x = [r.label for r in cmp.rows]
    fig = go.Figure([
        go.Bar(x=x, y=[r.mean_a for r in cmp.rows], name=cmp.backend_a),
        go.Bar(x=x, y=[r.mean_b for r in cmp.rows], name=cmp.backend_b),
    ])
    fig = _layout(fig, title, "", metric_label(cmp.metric))
    fig.update_layout(barmode="group", showlegend=True)
    return fig
