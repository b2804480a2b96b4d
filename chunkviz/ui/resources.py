"""The one cache layer of the app: backends, chunkings and what is computed from them.

Backends come from the package's one model cache (``resolve_backend``; this module adds no
second cache over it) and are never mutated. A chunking is keyed by the
document's digest, the strategy, its parameters as a sorted tuple and, only when it counts
tokens, the backend whose tokenizer counts them; the ``Document`` itself rides along unhashed
(``_document``), so a rerun hashes a short digest, not the text and its questions. Chunkings,
question reports and curves are frozen values, kept in ``cache_resource`` and shared read-only
(no pickling per rerun); vectors go through ``cache_data``.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa
import streamlit as st

from chunkviz.document import Document, chunk_document
from chunkviz.errors import ParameterError, Whole
from chunkviz.eval.imported import IMPORTED, ImportedChunking
from chunkviz.model import ChunkingResult
from chunkviz.retrieval.backends import (
    Backend,
    BackendInfo,
    BackendRef,
    list_backends,
    resolve_backend,
)
from chunkviz.strategies import get_strategy
from chunkviz.strategies.perplexity import PerplexityCurve, perplexity_curve
from chunkviz.strategies.semantic import DEFAULT_MODEL, SemanticCurve, semantic_curve
from chunkviz.views.compare import Outcome, outcome
from chunkviz.views.explore import (
    QAReport,
    QuestionSpans,
    assess_qa,
    chunk_token_counts,
    document_tokens,
    qa_marks,
)
from chunkviz.views.highlight import Mark
from chunkviz.views.index_size import IndexSize, index_size
from chunkviz.views.key_phrases import key_phrases
from chunkviz.views.qa_table import QAFilter, near_label, near_matches, qa_rows, shown_questions
from chunkviz.views.similarity_lesson import Lesson, analyse, check_lesson_size

ParamItems = tuple[tuple[str, Any], ...]
#: The session's imported chunkings by id (``AppState.imported``), handed to the cache layer.
Imported = Mapping[str, ImportedChunking]


def param_items(params: Mapping[str, Any]) -> ParamItems:
    """Parameters as a hashable, order-independent cache key."""
    return tuple(sorted(params.items()))


#: ``document_key`` of the documents seen last, by ``id``; each entry holds its document, so
#: the id is not reused while the entry lives. Every session's script thread reads and writes
#: it: ``_KEYS_LOCK`` keeps the eviction (an iteration) apart from another thread's insertion.
_KEYS: dict[int, tuple[Document, str]] = {}
_KEYS_KEPT = 16
_KEYS_LOCK = threading.Lock()


def document_key(document: Document) -> str:
    """A digest of everything chunking and span checks read: text, paragraphs, questions.

    Remembered per document object: an ``lru_cache`` hashed the whole frozen document (every
    question and span: 48,000 hashes at 200,000 characters) at each of the 15 cached calls of
    one slider move on Explore (issue 39).
    """
    with _KEYS_LOCK:
        hit = _KEYS.get(id(document))
    if hit is not None and hit[0] is document:
        return hit[1]
    h = hashlib.sha256(document.text.encode("utf-8", "surrogatepass"))
    h.update(repr(document.paragraph_starts).encode())
    for q in document.questions:
        h.update(repr((q.question, q.answer, [(s.start, s.end) for s in q.spans])).encode())
    key = h.hexdigest()
    with _KEYS_LOCK:
        if len(_KEYS) >= _KEYS_KEPT:
            _KEYS.pop(next(iter(_KEYS)), None)
        _KEYS[id(document)] = (document, key)
    return key


def backend_ref(name: str) -> BackendRef:
    """The backend ``name`` resolved once, from the package's one model cache.

    No ``st.cache_resource`` here: that cache is already bounded, shared by every session and
    safe for their threads (``chunkviz.retrieval.backends``); a second one over it kept up to
    four more models alive.
    """
    return resolve_backend(name)


def load_backend(name: str) -> Backend:
    """The backend ``name`` (its tokenizer counts tokens; its limit flags truncation)."""
    return backend_ref(name).backend


@st.cache_data(ttl=300, max_entries=1, show_spinner=False)
def backend_infos() -> list[BackendInfo]:
    """Every backend with whether it is available now and, if not, how to get it."""
    return list_backends()


def _token_backend(strategy: str, params: Mapping[str, Any], backend: str) -> str:
    """The backend a chunking depends on: only a token-sized one reads its tokenizer."""
    spec = get_strategy(strategy)
    return backend if "tokenizer" in spec.resources and params.get("unit") == "tokens" else ""


@st.cache_resource(max_entries=32, show_spinner=False)
def _chunking(
    key: str, strategy: str, params: ParamItems, backend: str, _document: Document
) -> ChunkingResult:
    resources = {"tokenizer": load_backend(backend).tokenizer} if backend else {}
    return chunk_document(_document, strategy, dict(params), **resources)


def imported_chunking(
    document: Document, params: Mapping[str, Any], imported: Imported
) -> ChunkingResult:
    """The imported chunking ``params["id"]`` among the session's ``imported``, checked.

    Raises:
        ParameterError: No such import in this session, or one aligned to another text.
    """
    ident = str(params.get("id", ""))
    found = imported.get(ident)
    if found is None:
        raise ParameterError("imported_not_in_session", id=ident)
    if not found.matches(document.text):
        raise ParameterError(
            "imported_other_document",
            file=Whole(found.name),
            document=document.title or document.doc_id,
        )
    return found.result


def chunk_cached(
    document: Document,
    strategy: str,
    params: Mapping[str, Any],
    backend: str,
    imported: Imported,
) -> ChunkingResult:
    """``chunk_document`` through the cache (a ChunkvizError is raised, never cached).

    The reserved strategy ``imported`` resolves to the imported chunking named by
    ``params["id"]`` among ``imported`` (the session's ``AppState.imported``, passed in: the
    cache layer never reads the session); it is already a value, nothing to compute or cache,
    so every view that chunks through here shows it like a registered strategy's.
    """
    if strategy == IMPORTED:
        return imported_chunking(document, params, imported)
    return _chunking(
        document_key(document),
        strategy,
        param_items(params),
        _token_backend(strategy, params, backend),
        document,
    )


@st.cache_resource(max_entries=32, show_spinner=False)
def _token_counts(
    key: str,
    strategy: str,
    params: ParamItems,
    backend: str,
    context: str,
    _document: Document,
    _imported: Imported,
) -> tuple[int, ...]:
    result = chunk_cached(_document, strategy, dict(params), backend, _imported)
    loaded = load_backend(backend)
    return chunk_token_counts(
        result, loaded.tokenizer, loaded.document_prefix, title=_document.title, context=context
    )


def token_counts_cached(
    document: Document,
    strategy: str,
    params: Mapping[str, Any],
    backend: str,
    context: str,
    imported: Imported,
) -> tuple[int, ...]:
    """Tokens of every chunk as the backend reads it, header included.

    That is its document prefix, the contextual header of ``context`` and the chunk's own prefix
    and text.
    """
    return _token_counts(
        document_key(document), strategy, param_items(params), backend, context, document, imported
    )


@st.cache_data(max_entries=8, show_spinner=False)
def doc_tokens_cached(text: str, backend: str) -> int:
    """Tokens of the whole document with the backend's tokenizer."""
    return document_tokens(text, load_backend(backend).tokenizer)


@st.cache_resource(max_entries=8, show_spinner=False)
def _question_spans(key: str, _document: Document) -> QuestionSpans:
    # The questions' spans as arrays: the same for every configuration of the document.
    return QuestionSpans(_document.questions)


@st.cache_resource(max_entries=4, show_spinner=False)
def _key_phrase_spans(key: str, _document: Document) -> QuestionSpans:
    # The key phrases are the document's: the same for every configuration.
    return QuestionSpans(key_phrases(_document))


#: What a span report assesses: the document's questions, or its key phrases (Tune's probes).
_SPAN_SOURCES = {"questions": _question_spans, "key_phrases": _key_phrase_spans}


@st.cache_resource(max_entries=16, show_spinner=False)
def _span_report(
    key: str,
    source: str,
    strategy: str,
    params: ParamItems,
    backend: str,
    _document: Document,
    _imported: Imported,
) -> QAReport:
    # One report per configuration and span source (8 of each kept, as before the two merged).
    result = chunk_cached(_document, strategy, dict(params), backend, _imported)
    return assess_qa(result, _SPAN_SOURCES[source](key, _document))


def qa_cached(
    document: Document,
    strategy: str,
    params: Mapping[str, Any],
    backend: str,
    imported: Imported,
) -> QAReport:
    """Every question's status under one configuration (``assess_qa``; read-only columns).

    Kept while the user pages through the document, switches tabs or the language; only a new
    configuration, text or set of questions recomputes it.
    """
    return _span_report(
        document_key(document),
        "questions",
        strategy,
        param_items(params),
        backend,
        document,
        imported,
    )


def key_phrases_cached(
    document: Document,
    strategy: str,
    params: Mapping[str, Any],
    backend: str,
    imported: Imported,
) -> QAReport:
    """Which key phrases (Tune's probes) one configuration cuts, for a document without questions.

    ``chunkviz.views.key_phrases``: the phrases are found once per document, their fate once
    per configuration.
    """
    return _span_report(
        document_key(document),
        "key_phrases",
        strategy,
        param_items(params),
        backend,
        document,
        imported,
    )


@st.cache_resource(max_entries=32, show_spinner=False)
def _marks(
    key: str,
    strategy: str,
    params: ParamItems,
    backend: str,
    start: int,
    end: int,
    _document: Document,
    _imported: Imported,
) -> tuple[Mark, ...]:
    result = chunk_cached(_document, strategy, dict(params), backend, _imported)
    qa = qa_cached(_document, strategy, dict(params), backend, _imported)
    return tuple(qa_marks(qa, result, start=start, end=end))


def marks_cached(
    document: Document,
    strategy: str,
    params: Mapping[str, Any],
    backend: str,
    start: int,
    end: int,
    imported: Imported,
) -> tuple[Mark, ...]:
    """The answer marks of one page ``[start, end)`` of the highlight (``qa_marks``).

    Only the drawn page is marked: a 200,000-character document has thousands of answers, and
    a slider move should not build a mark for each.
    """
    return _marks(
        document_key(document),
        strategy,
        param_items(params),
        backend,
        start,
        end,
        document,
        imported,
    )


@st.cache_resource(max_entries=8, show_spinner=False)
def _index_size(
    key: str,
    strategy: str,
    params: ParamItems,
    backend: str,
    _document: Document,
    _imported: Imported,
) -> IndexSize | None:
    result = chunk_cached(_document, strategy, dict(params), backend, _imported)
    return index_size(result, load_backend(backend))


def index_size_cached(
    document: Document,
    strategy: str,
    params: Mapping[str, Any],
    backend: str,
    imported: Imported,
) -> IndexSize | None:
    """The index size of one configuration under ``backend`` (a lexical one builds its index)."""
    return _index_size(
        document_key(document), strategy, param_items(params), backend, document, imported
    )


@st.cache_resource(max_entries=32, show_spinner=False)
def _outcome(
    key: str,
    strategy: str,
    params: ParamItems,
    backend: str,
    label: str,
    rank: bool,
    _document: Document,
    _imported: Imported,
) -> Outcome:
    result = chunk_cached(_document, strategy, dict(params), backend, _imported)
    return outcome(label, result, _document.questions, load_backend(backend) if rank else None)


def outcome_cached(
    label: str,
    document: Document,
    strategy: str,
    params: Mapping[str, Any],
    backend: str,
    imported: Imported,
    *,
    rank: bool = True,
) -> Outcome:
    """``chunkviz.views.compare.outcome``: counts, lost answers and ranks under the backend.

    ``rank=False`` judges the chunks alone (every rank None): no chunk is encoded.
    """
    return _outcome(
        document_key(document),
        strategy,
        param_items(params),
        backend,
        label,
        rank,
        document,
        imported,
    )


@st.cache_resource(max_entries=16, show_spinner=False)
def _qa_table(
    key: str,
    strategy: str,
    params: ParamItems,
    backend: str,
    qa_filter: QAFilter,
    columns: tuple[tuple[str, str], ...],
    statuses: tuple[tuple[str, str], ...],
    _document: Document,
    _imported: Imported,
) -> tuple[tuple[int, ...], pa.Table]:
    qa = qa_cached(_document, strategy, dict(params), backend, _imported)
    shown = shown_questions(qa, qa_filter)
    rows = qa_rows(qa, shown, dict(columns), dict(statuses), _near_labels(key, qa, _document))
    return tuple(shown), pa.Table.from_pylist(rows)


@st.cache_resource(max_entries=8, show_spinner=False)
def _near_labels(key: str, _qa: QAReport, _document: Document) -> dict[int, str]:
    # An answer is found or not in the text, whatever the chunking: once per document.
    every = range(len(_qa))
    return {
        i: near_label(_document.text, m)
        for i, m in near_matches(_document.text, _qa, every).items()
    }


def qa_table_cached(
    document: Document,
    strategy: str,
    params: Mapping[str, Any],
    backend: str,
    imported: Imported,
    qa_filter: QAFilter,
    columns: Mapping[str, str],
    statuses: Mapping[str, str],
) -> tuple[tuple[int, ...], pa.Table]:
    """The questions shown under ``qa_filter`` and their table (``qa_rows``), as Arrow.

    Built once per configuration, filter and language: at 200,000 characters the table has
    4,062 rows, and building them, finding near-matches of the answers not found and
    converting the rows for the browser cost about 100 ms, on every rerun of the page.
    """
    return _qa_table(
        document_key(document),
        strategy,
        param_items(params),
        backend,
        qa_filter,
        tuple(columns.items()),
        tuple(statuses.items()),
        document,
        imported,
    )


@st.cache_data(max_entries=16, show_spinner=False)
def encode_documents(
    _backend: Backend, name: str, model: str, texts: tuple[str, ...]
) -> np.ndarray:
    """Chunk vectors; ``name`` and ``model`` key the cache in place of the backend object.

    All texts are encoded in one call: TF-IDF fits its IDF on exactly this set.
    """
    return _backend.encode_documents(list(texts))


@st.cache_data(max_entries=64, show_spinner=False)
def encode_query(_backend: Backend, name: str, model: str, text: str) -> np.ndarray:
    """One query vector, shape ``(dim,)``."""
    return np.asarray(_backend.encode_queries([text])[0])


@st.cache_data(max_entries=32, show_spinner=False)
def lesson_cached(
    _backend: Backend,
    name: str,
    model: str,
    embed_texts: tuple[str, ...],
    lengths: tuple[int, ...],
    query_text: str,
) -> Lesson:
    """``analyse`` of the chunks and the query, encoded by the backend (all steps cached)."""
    check_lesson_size(len(lengths))  # before the chunks are encoded
    documents = encode_documents(_backend, name, model, embed_texts)
    query = encode_query(_backend, name, model, query_text)
    return analyse(lengths, documents, query)


@st.cache_resource(max_entries=16, show_spinner=False)  # the page says what it computes
def semantic_curve_cached(text: str, params: ParamItems) -> SemanticCurve:
    """``semantic_curve`` under the semantic strategy's parameters, embedded by its ``model``."""
    settings = dict(params)
    model = str(settings.get("model", DEFAULT_MODEL))
    return semantic_curve(text, embedder=load_backend(model), **settings)


@st.cache_resource(max_entries=16, show_spinner=False)  # the page says what it computes
def perplexity_curve_cached(text: str, params: ParamItems) -> PerplexityCurve:
    """``perplexity_curve`` under the perplexity strategy's parameters."""
    return perplexity_curve(text, **dict(params))
