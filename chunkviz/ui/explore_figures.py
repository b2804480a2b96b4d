"""Plotly figures of the Explore page: chunk lengths in characters and in tokens."""

from __future__ import annotations

import plotly.graph_objects as go

from chunkviz.text import Lang, text
from chunkviz.views.explore import ChunkStats


def _t(lang: Lang, key: str, **fields: object) -> str:
    return text(lang, f"explore_fig.{key}", **fields)


def _layout(fig: go.Figure, title: str, ytitle: str, lang: Lang) -> go.Figure:
    fig.update_layout(
        title=title, xaxis_title=_t(lang, "chunk"), yaxis_title=ytitle, bargap=0.05,
        margin={"l": 10, "r": 10, "t": 40, "b": 10}, height=320, showlegend=True,
        legend={"orientation": "h", "y": -0.25},
    )
    return fig


def length_figure(stats: ChunkStats, lang: Lang) -> go.Figure:
    """Length of every chunk in characters, by chunk index."""
    fig = go.Figure(go.Bar(x=list(range(stats.count)), y=list(stats.char_lengths),
                           marker_color="#2563eb", name=_t(lang, "length_chars")))
    return _layout(fig, _t(lang, "chars_title"), _t(lang, "length_chars"), lang)


def token_figure(stats: ChunkStats, tokenizer: str, lang: Lang) -> go.Figure:
    """Tokens of every chunk; chunks over the model's input limit in red, with the limit line."""
    fig = go.Figure()
    tokens = list(stats.token_lengths or ())
    over = set(stats.over_limit)
    ok = [i for i in range(len(tokens)) if i not in over]
    fig.add_bar(x=ok, y=[tokens[i] for i in ok], marker_color="#0891b2", name=_t(lang, "ok"))
    if over:
        fig.add_bar(x=sorted(over), y=[tokens[i] for i in sorted(over)],
                    marker_color="#dc2626", name=_t(lang, "over"))
    if stats.max_input_tokens is not None:
        fig.add_hline(y=stats.max_input_tokens, line_dash="dash", line_color="#dc2626",
                      annotation_text=_t(lang, "limit", limit=stats.max_input_tokens))
    fig.update_layout(barmode="overlay")
    return _layout(fig, _t(lang, "tokens_title", tokenizer=tokenizer), _t(lang, "length_tokens"),
                   lang)
