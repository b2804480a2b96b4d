"""Cached pieces of the Compare page: question ranks per configuration under a backend."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from chunkviz.model import ChunkingResult
from chunkviz.ui.resources import load_backend
from chunkviz.views.compare import Outcome, outcome
from chunkviz.views.explore import QAItem, locate_qa

QAKey = tuple[tuple[tuple[str, Any], ...], ...]


def qa_key(pairs: Sequence[dict[str, Any]]) -> QAKey:
    """QA pairs as a hashable cache key."""
    return tuple(tuple(sorted(p.items())) for p in pairs)


@st.cache_data(max_entries=32, show_spinner=False)
def _ranks(
    text: str,
    strategy: str,
    chunks: Sequence[Any],
    parents: tuple[Any, ...],
    pairs: QAKey,
    backend: str,
) -> tuple[int | None, ...]:
    result = ChunkingResult(text, chunks, strategy, {}, parents)
    items = locate_qa(text, [dict(p) for p in pairs])
    return outcome("", result, items, load_backend(backend)).ranks


def outcome_cached(
    label: str,
    result: ChunkingResult,
    pairs: Sequence[dict[str, Any]],
    items: Sequence[QAItem],
    backend: str,
) -> Outcome:
    """``chunkviz.views.compare.outcome`` with the ranks (the expensive part) cached."""
    base = outcome(label, result, items, None)
    ranks = _ranks(result.text, result.strategy, result.chunks, result.parents, qa_key(pairs),
                   backend)
    return Outcome(label, result, base.qa, ranks)
