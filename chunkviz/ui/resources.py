"""Cached wrappers around the core: backends and tokenizers once per process, chunkings bounded.

Backends are loaded with ``st.cache_resource`` and never mutated. Chunkings are cached with
``st.cache_data`` keyed by the text, the strategy, its parameters as a sorted tuple and the
backend whose tokenizer counts tokens; a ``ChunkingResult`` holds a read-only mapping that cannot
be pickled, so the cache stores its chunks and the result is rebuilt around them (cheap).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from chunkviz.api import chunk
from chunkviz.model import Chunk, ChunkingResult
from chunkviz.retrieval.backends import Backend, BackendInfo, get_backend, list_backends
from chunkviz.strategies import get_strategy
from chunkviz.views.explore import (
    QAItem,
    QAResult,
    chunk_token_counts,
    document_tokens,
    locate_qa,
    qa_report,
)
from chunkviz.views.highlight import Mark

ParamItems = tuple[tuple[str, Any], ...]


def param_items(params: Mapping[str, Any]) -> ParamItems:
    """Parameters as a hashable, order-independent cache key."""
    return tuple(sorted(params.items()))


@st.cache_resource(max_entries=4, show_spinner="Loading the retrieval backend…")
def load_backend(name: str) -> Backend:
    """The backend ``name`` (its tokenizer counts tokens; its limit flags truncation)."""
    return get_backend(name)


@st.cache_data(ttl=300, max_entries=1, show_spinner=False)
def backend_infos() -> list[BackendInfo]:
    """Every backend with whether it is available now and, if not, how to get it."""
    return list_backends()


@st.cache_data(max_entries=32, show_spinner=False)
def _chunks(
    text: str, strategy: str, params: ParamItems, backend: str, paragraph_starts: tuple[int, ...]
) -> tuple[Sequence[Chunk], tuple[Chunk, ...], dict[str, Any]]:
    spec = get_strategy(strategy)
    resources: dict[str, Any] = {}
    if "tokenizer" in spec.resources and dict(params).get("unit") == "tokens":
        resources["tokenizer"] = load_backend(backend).tokenizer
    if "paragraph_starts" in spec.resources and paragraph_starts:
        resources["paragraph_starts"] = paragraph_starts
    result = chunk(text, strategy, **dict(params), **resources)
    return result.chunks, result.parents, dict(result.params)


def chunk_cached(
    text: str,
    strategy: str,
    params: Mapping[str, Any],
    backend: str,
    paragraph_starts: tuple[int, ...] = (),
) -> ChunkingResult:
    """``chunkviz.chunk`` through a bounded cache (ChunkvizError is raised, never cached)."""
    chunks, parents, used = _chunks(text, strategy, param_items(params), backend,
                                    paragraph_starts)
    return ChunkingResult(text, chunks, strategy, used, parents)


@st.cache_data(max_entries=32, show_spinner=False)
def token_counts_cached(
    text: str, strategy: str, params: ParamItems, backend: str, paragraph_starts: tuple[int, ...]
) -> tuple[int, ...]:
    """Tokens of every chunk as the backend reads it (its document prefix and the chunk's)."""
    result = chunk_cached(text, strategy, dict(params), backend, paragraph_starts)
    loaded = load_backend(backend)
    return chunk_token_counts(result, loaded.tokenizer, loaded.document_prefix)


@st.cache_data(max_entries=8, show_spinner=False)
def doc_tokens_cached(text: str, backend: str) -> int:
    """Tokens of the whole document with the backend's tokenizer."""
    return document_tokens(text, load_backend(backend).tokenizer)


# A cache_resource (no pickling: the located items are frozen and never mutated) keyed by the
# text and a digest of the pairs; hashing hundreds of dicts with Streamlit's hasher and
# unpickling hundreds of spans cost more than a slider move should.
@st.cache_resource(max_entries=8, show_spinner=False)
def _located(text: str, digest: str, _pairs: tuple[Mapping[str, Any], ...]) -> tuple[QAItem, ...]:
    return tuple(locate_qa(text, _pairs))


def pairs_digest(pairs: Sequence[Mapping[str, Any]]) -> str:
    """A digest of QA pairs, cheaper to hash than the pairs themselves."""
    blob = json.dumps([[p.get("question"), p.get("answer"), p.get("start")] for p in pairs],
                      ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


@st.cache_resource(max_entries=8, show_spinner=False)
def _qa_report(
    text: str,
    strategy: str,
    params: ParamItems,
    backend: str,
    paragraph_starts: tuple[int, ...],
    digest: str,
    _pairs: tuple[Mapping[str, Any], ...],
) -> tuple[tuple[QAResult, ...], tuple[Mark, ...]]:
    result = chunk_cached(text, strategy, dict(params), backend, paragraph_starts)
    results, marks = qa_report(result, _located(text, digest, _pairs))
    return tuple(results), tuple(marks)


def qa_report_cached(
    text: str,
    strategy: str,
    params: Mapping[str, Any],
    backend: str,
    paragraph_starts: tuple[int, ...],
    pairs: Sequence[Mapping[str, Any]],
) -> tuple[tuple[QAResult, ...], tuple[Mark, ...]]:
    """Question statuses and answer marks of one configuration, through a bounded cache.

    They are kept while the user pages through the document, switches tabs or the language;
    only a new configuration, text or set of pairs recomputes them.

    Raises:
        DatasetError: A pair that cannot be located (see ``locate_qa``).
    """
    return _qa_report(text, strategy, param_items(params), backend, paragraph_starts,
                      pairs_digest(pairs), tuple(pairs))
