"""Plotly figures of the Explore page: chunk lengths in characters and in tokens."""

from __future__ import annotations

import plotly.graph_objects as go

from chunkviz.text import Lang
from chunkviz.ui.i18n import tr
from chunkviz.views.explore import ChunkStats


def _layout(fig: go.Figure, title: str, ytitle: str, lang: Lang) -> go.Figure:
    fig.update_layout(
        title=title,
        xaxis_title=tr("explore_fig.chunk", lang=lang),
        yaxis_title=ytitle,
        bargap=0.05,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        height=320,
        showlegend=True,
        legend={"orientation": "h", "y": -0.25},
    )
    return fig


def length_figure(stats: ChunkStats, lang: Lang) -> go.Figure:
    """Length of every chunk in characters, by chunk index."""
    fig = go.Figure(
        go.Bar(
            x=list(range(stats.count)),
            y=list(stats.char_lengths),
            marker_color="#2563eb",
            name=tr("explore_fig.length_chars", lang=lang),
        )
    )
    return _layout(
        fig,
        tr("explore_fig.chars_title", lang=lang),
        tr("explore_fig.length_chars", lang=lang),
        lang,
    )


def token_figure(stats: ChunkStats, tokenizer: str, lang: Lang) -> go.Figure:
    """Tokens of every chunk; chunks over the model's input limit in red, with the limit line."""
    fig = go.Figure()
    tokens = list(stats.token_lengths or ())
    over = set(stats.over_limit)
    ok = [i for i in range(len(tokens)) if i not in over]
    fig.add_bar(
        x=ok,
        y=[tokens[i] for i in ok],
        marker_color="#0891b2",
        name=tr("explore_fig.ok", lang=lang),
    )
    if over:
        fig.add_bar(
            x=sorted(over),
            y=[tokens[i] for i in sorted(over)],
            marker_color="#dc2626",
            name=tr("explore_fig.over", lang=lang),
        )
    if stats.max_input_tokens is not None:
        fig.add_hline(
            y=stats.max_input_tokens,
            line_dash="dash",
            line_color="#dc2626",
            annotation_text=tr("explore_fig.limit", limit=stats.max_input_tokens, lang=lang),
        )
    fig.update_layout(barmode="overlay")
    return _layout(
        fig,
        tr("explore_fig.tokens_title", tokenizer=tokenizer, lang=lang),
        tr("explore_fig.length_tokens", lang=lang),
        lang,
    )
