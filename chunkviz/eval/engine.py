"""Where the benchmark's heavy stages run: chunking every document and encoding every chunk.

The runner (``chunkviz.eval.runner``) hands two stages to an ``Engine``: chunking every document
under every configuration, and making every chunk text's vector present in the embedding cache.
Everything after (index, rank, score, test, assemble) stays in the calling process. ``LocalEngine``
does both in this process and is the default; another engine (Ray Data, say) may chunk and encode
elsewhere, as long as it returns the same chunkings and lands the same vectors in the same cache
(``EmbeddingCache.missing`` tells it what to encode, ``EmbeddingCache.store`` lands the vectors).

Progress: the runner calls one callback, ``progress(stage, done, total, message)``, where
``stage`` names the stage (``STAGES``) and ``done``/``total`` count that stage's own steps; an
engine reports its encode stage through the same callback. ``run_fraction`` turns a call into the
fraction of the whole run a progress bar shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, Protocol, get_args, runtime_checkable

import numpy as np

from chunkviz.datasets.base import Document
from chunkviz.document import chunk_document
from chunkviz.eval.grid import Config
from chunkviz.model import ChunkingResult
from chunkviz.retrieval.base import Backend
from chunkviz.retrieval.cache import EmbeddingCache, Role

Stage = Literal["load", "chunk", "spans", "encode", "rank", "score", "test", "assemble"]
STAGES: tuple[Stage, ...] = get_args(Stage)

#: ``progress(stage, done, total, message)``: ``done`` of ``total`` steps of ``stage`` are done.
Progress = Callable[[Stage, int, int, str], None]

#: Texts per call to a backend's encode method (bounds memory; the cache writes one shard each).
ENCODE_BATCH = 256


def no_progress(stage: Stage, done: int, total: int, message: str) -> None:
    """A progress callback that ignores every call."""


def run_fraction(stage: Stage, done: int, total: int) -> float:
    """The fraction of a whole run reached at ``done`` of ``total`` steps of ``stage``.

    Every stage counts for an equal share, in the order of ``STAGES``.
    """
    within = min(1.0, done / total) if total > 0 else 1.0
    return (STAGES.index(stage) + within) / len(STAGES)


@runtime_checkable
class Engine(Protocol):
    """Runs the chunk stage and the document-encode stage of the benchmark.

    Attributes:
        name: Short name recorded with a run (``local``, ``ray``).
    """

    name: str

    def chunk(
        self, documents: Sequence[Document], configs: Sequence[Config]
    ) -> list[list[ChunkingResult]]:
        """Chunk every document under every configuration: ``result[config][document]``."""
        ...

    def encode(
        self,
        backend: Backend,
        cache: EmbeddingCache,
        texts: Sequence[str],
        role: Role,
        progress: Progress,
    ) -> None:
        """Make every text's vector present in ``cache``: encode only the missing, store them."""
        ...


class LocalEngine:
    """Both stages in this process, one document and one batch at a time (the default)."""

    name = "local"

    def chunk(
        self, documents: Sequence[Document], configs: Sequence[Config]
    ) -> list[list[ChunkingResult]]:
        """Chunk every document under every configuration: ``result[config][document]``."""
        return [[chunk_document(doc, config.strategy, config.params) for doc in documents]
                for config in configs]

    def encode(
        self,
        backend: Backend,
        cache: EmbeddingCache,
        texts: Sequence[str],
        role: Role,
        progress: Progress,
    ) -> None:
        """Encode the texts ``cache`` lacks in batches of ``ENCODE_BATCH`` and store them.

        Reports ``progress("encode", done, total, ...)`` after each batch (texts encoded so far
        out of the missing ones).
        """
        missing = cache.missing(backend, texts, role)
        fn = backend.encode_documents if role == "document" else backend.encode_queries
        noun = "chunks" if role == "document" else "questions"
        for lo in range(0, len(missing), ENCODE_BATCH):
            batch = missing[lo : lo + ENCODE_BATCH]
            vectors = np.asarray(fn(batch), dtype=np.float32)
            cache.store(backend, batch, vectors, role)
            done = lo + len(batch)
            progress("encode", done, len(missing), f"encoding {noun} {done}/{len(missing)}")
