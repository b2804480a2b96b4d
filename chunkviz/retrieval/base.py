"""The interface every retrieval backend shares, lexical or dense.

A backend turns chunk texts and queries into scores. Dense backends also expose vectors, so the
Similarity page can compare dot product, cosine and L2 on them; lexical ones may expose raw
(unnormalised) term vectors too (TF-IDF).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

import numpy as np

from chunkviz.errors import ParameterError
from chunkviz.limits import MAX_DENSE_CHARS, MAX_DENSE_TEXT_CHARS, MAX_DENSE_TEXTS
from chunkviz.tokenizers import Tokenizer

Measure = Literal["dot", "cosine", "l2"]


def dense_input(texts: Sequence[str]) -> list[str]:
    """``texts`` as every dense model embeds them: at most ``MAX_DENSE_TEXT_CHARS`` each.

    The rest of a longer text is left out (``over_limit`` flags it, the pages count it): a
    model that windows long inputs would otherwise spend minutes on one chunk.
    """
    return [t[:MAX_DENSE_TEXT_CHARS] for t in texts]


def check_dense_work(texts: Sequence[str]) -> None:
    """Refuse a run that would send too much to a dense model, before it sends any.

    More than ``MAX_DENSE_TEXTS`` texts or ``MAX_DENSE_CHARS`` characters (each text counted
    up to ``MAX_DENSE_TEXT_CHARS``) is refused. Called with every text a run still has to
    encode, before it encodes any.

    Raises:
        ParameterError: Over either limit; the message names both counts and the fixes.
    """
    chars = sum(min(len(t), MAX_DENSE_TEXT_CHARS) for t in texts)
    if len(texts) > MAX_DENSE_TEXTS or chars > MAX_DENSE_CHARS:
        raise ParameterError(
            "dense_work",
            texts=f"{len(texts):,}",
            chars=f"{chars:,}",
            max_texts=f"{MAX_DENSE_TEXTS:,}",
            max_chars=f"{MAX_DENSE_CHARS:,}",
        )


BackendKind = Literal["lexical", "dense", "hybrid"]


@dataclass(frozen=True, slots=True)
class BackendInfo:
    """What a page or the CLI shows about a backend before loading it.

    Attributes:
        name: Registry name (``bm25``, ``tfidf``, ``use-m3``, ``st:<model or path>``).
        label: Human-readable name.
        kind: ``lexical``, ``dense`` or ``hybrid`` (a fusion of one of each).
        available: Whether it can be loaded now, offline.
        reason: Why it is unavailable and how to get it ("" when available).
    """

    name: str
    label: str
    kind: BackendKind
    available: bool
    reason: str = ""


@runtime_checkable
class Backend(Protocol):
    """A loaded retrieval backend.

    Attributes:
        name: Registry name.
        model: Model identifier (part of every cache key).
        kind: ``lexical``, ``dense`` or ``hybrid``.
        normalized: Whether ``encode_*`` returns unit-length vectors.
        raw_vectors: Whether vectors are the model's own, before any normalisation (needed to
            show that norms grow with chunk length).
        max_input_tokens: Longest input the model reads; longer inputs are silently truncated
            (None: no limit).
        tokenizer: The model's own tokenizer, with character offsets, for counting.
        document_prefix: Prepended to every document before encoding (``検索文書: ``).
        query_prefix: Prepended to every query before encoding (``検索クエリ: ``).
    """

    name: str
    model: str
    kind: BackendKind
    normalized: bool
    raw_vectors: bool
    max_input_tokens: int | None
    tokenizer: Tokenizer
    document_prefix: str
    query_prefix: str

    def encode_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts`` as documents, shape ``(len(texts), dim)``, float32."""
        ...

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts`` as queries, shape ``(len(texts), dim)``, float32."""
        ...
