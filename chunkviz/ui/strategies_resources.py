"""Cached computations of the Strategies page (curves are frozen dataclasses of tuples)."""

from __future__ import annotations

import streamlit as st

from chunkviz.strategies.perplexity import PerplexityCurve, perplexity_curve
from chunkviz.strategies.semantic import SemanticCurve, semantic_curve


@st.cache_data(max_entries=16, show_spinner="Embedding the sentences…")
def semantic_curve_cached(
    text: str, percentile: float, min_size: int, max_size: int, model: str
) -> SemanticCurve:
    """``semantic_curve`` with the backend ``model`` (loaded once, cached) as embedder."""
    return semantic_curve(text, percentile=percentile, min_size=min_size, max_size=max_size,
                          model=model)


@st.cache_data(max_entries=16, show_spinner="Scoring the sentences…")
def perplexity_curve_cached(
    text: str, threshold: float, min_size: int, max_size: int, lm: str, order: int
) -> PerplexityCurve:
    """``perplexity_curve`` with the language model named by ``lm``."""
    return perplexity_curve(text, threshold=threshold, min_size=min_size, max_size=max_size,
                            lm=lm, order=order)
