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

import weakref
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Literal, Protocol, get_args, runtime_checkable

import numpy as np

from chunkviz.datasets.base import Document
from chunkviz.errors import ParameterError, shown
from chunkviz.eval.grid import Config, chunk_config
from chunkviz.model import ChunkingResult
from chunkviz.retrieval.base import Backend
from chunkviz.retrieval.cache import EmbeddingCache, Role
from chunkviz.retrieval.pool import (
    MAX_WORKERS,
    EncoderPool,
    default_workers,
    foreign_main,
    loads_by_name,
)
from chunkviz.retrieval.threads import encoder_threads

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
    """Chunking in this process; encoding on a pool of worker processes (the default engine).

    Encoding: the texts the cache lacks are cut into batches of ``ENCODE_BATCH`` in order, as
    ``RayEngine`` cuts them, and each batch is encoded in one call on ``threads`` threads, so the
    vectors are bit-identical to the Ray engine's (whose actors run one thread each). Two or
    more batches of a backend that loads by name (``chunkviz.retrieval.pool.loads_by_name``) go
    to an ``EncoderPool``; a single batch, a backend only this process has (a test double),
    ``workers=0``, or a ``__main__`` a spawned worker would run again (a Streamlit page:
    ``chunkviz.retrieval.pool.foreign_main``) is encoded here with the caller's backend object,
    as the Ray engine's driver does. Vectors are the same either way when that backend runs on
    ``threads`` threads, which is the default of both (``chunkviz.retrieval.threads``).

    The pool is started on the first call that needs it, kept for the next calls (the runner
    encodes the questions, then the chunks) and stopped by ``close``, by leaving a ``with``
    block, or when the engine is dropped; a failure or an interruption while encoding stops it
    at once.

    Attributes:
        name: ``local``.
        workers: Worker processes (None: one per available core, at most
            ``chunkviz.retrieval.pool.MAX_WORKERS``; 0: encode in this process).
        threads: Threads of each worker's numeric libraries (None: ``encoder_threads()``).
    """

    name = "local"
    # Class-level defaults: a subclass that does not call __init__ still gets the defaults.
    workers: int | None = None
    threads: int | None = None
    _pool: EncoderPool | None = None

    def __init__(self, *, workers: int | None = None, threads: int | None = None) -> None:
        """Check the options.

        Raises:
            ParameterError: ``workers`` below 0 or above ``MAX_WORKERS``, or ``threads`` below 1.
        """
        if workers is not None and (isinstance(workers, bool) or not 0 <= workers <= MAX_WORKERS):
            raise ParameterError("workers_range", value=shown(workers), max=MAX_WORKERS)
        if threads is not None and (isinstance(threads, bool) or threads < 1):
            raise ParameterError("at_least", name="threads", value=shown(threads), min=1)
        self.workers = workers
        self.threads = threads

    def __enter__(self) -> LocalEngine:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop the encoding workers, if any are running."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    def chunk(
        self, documents: Sequence[Document], configs: Sequence[Config]
    ) -> list[list[ChunkingResult]]:
        """Chunk every document under every configuration: ``result[config][document]``."""
        return [[chunk_config(config, doc) for doc in documents] for config in configs]

    def encode(
        self,
        backend: Backend,
        cache: EmbeddingCache,
        texts: Sequence[str],
        role: Role,
        progress: Progress,
    ) -> None:
        """Encode the texts ``cache`` lacks in batches of ``ENCODE_BATCH`` and store them.

        Reports ``progress("encode", done, total, ...)`` after each batch lands in the cache
        (texts encoded so far out of the missing ones).

        Raises:
            ChunkvizError: A worker failed to load the backend or to encode a batch.
        """
        missing = cache.missing(backend, texts, role)
        batches = [missing[lo : lo + ENCODE_BATCH] for lo in range(0, len(missing), ENCODE_BATCH)]
        noun = "chunks" if role == "document" else "questions"
        done = 0

        def land(batch: Sequence[str], vectors: np.ndarray) -> None:
            nonlocal done
            cache.store(backend, batch, vectors, role)
            done += len(batch)
            progress("encode", done, len(missing), f"encoding {noun} {done}/{len(missing)}")

        size = self._pool_size(backend, len(batches))
        if size <= 1:
            fn = backend.encode_documents if role == "document" else backend.encode_queries
            for batch in batches:
                land(batch, np.asarray(fn(batch), dtype=np.float32))
            return
        pool = self._pool_for(backend, size)
        try:
            for i, vectors in pool.encode(batches, role):
                land(batches[i], vectors)
        except BaseException:
            self._pool = None
            pool.abort()  # an error or Ctrl-C: no worker outlives the call that failed
            raise

    def _pool_size(self, backend: Backend, batches: int) -> int:
        """Workers for ``batches`` batches of ``backend``; 1 or less means this process."""
        if self.workers == 0 or batches <= 1 or not loads_by_name(backend):
            return 0
        if foreign_main() is not None:  # a page script as __main__: see chunkviz.retrieval.pool
            return 0
        return min(batches, self.workers or default_workers(batches))

    def _pool_for(self, backend: Backend, size: int) -> EncoderPool:
        """The running pool when it serves ``backend`` with ``size`` workers or more, else anew."""
        pool = self._pool
        threads = self.threads or encoder_threads()
        if (
            pool is not None
            and pool.name == backend.name
            and pool.model == backend.model
            and pool.threads == threads
            and pool.workers >= size
        ):
            return pool
        self.close()
        pool = EncoderPool(backend, workers=size, threads=threads)
        self._pool = pool
        # Dropping the engine stops its workers (the runner's default engine is never closed).
        weakref.finalize(self, pool.close)
        pool.start()
        return pool
