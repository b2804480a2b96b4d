"""Encode batches of texts on worker processes, each holding one dense backend on few threads.

Why processes: a dense backend's forward pass is a chain of small matrix products (use-m3 packs
384 tokens per product). A multi-threaded BLAS gains little on them and loses badly on a busy
machine: on this project's 2-core machine under load, use-m3 on 2 threads ran 7.5 times slower
than on 1, and two 1-thread processes beat one 2-thread process (``docs/benchmarks.md``).

How: ``EncoderPool`` is a ``concurrent.futures.ProcessPoolExecutor`` on the **spawn** start method
whose ``initializer`` (``_start_worker``) limits the worker's thread pools to ``threads``
(``chunkviz.retrieval.threads.limit_process``, the one thread rule), loads the backend by its
registry name (``get_backend``; no model is pickled) and checks that it loaded the parent's model.
Each batch is one task (``_encode_batch``); the parent yields ``(batch index, vectors)`` as tasks
finish, so a caller can store each one at once (an interrupted run keeps what it finished).

Why spawn, not fork: the parent has imported numpy (OpenBLAS starts its threads on import) and
may run torch, Streamlit's server threads or a Ray driver; a forked child inherits their locks in
whatever state another thread left them, and OpenMP runtimes are documented as unsafe to use
after a fork. Spawn starts a clean interpreter; it costs the imports and the model load per
worker, once per pool (``bench/encode_pool.py``), which a pool amortises over every batch.

The parent's ``__main__``: a spawned child re-imports it, from its file when it has no module
spec. Streamlit (and its ``AppTest``) installs each page script as ``__main__`` and never puts the
real one back, so a child would run a page script again. The only ways around that in the
standard library change process-wide state (``sys.modules["__main__"]`` or its ``__file__``)
that every session thread of a server shares, so chunkviz does not: ``foreign_main`` detects a
``__main__`` that is not the script this interpreter started with, ``start`` refuses it, and the
engine (``chunkviz.eval.engine``) encodes in the calling process instead, with the backend it
already holds (the app's one model cache), as it does for a single batch.

Failures: a backend that fails to load or encode in a worker is raised in the parent as the
worker raised it when it is a ``ChunkvizError`` (its message is already the whole story), else as
one ``ChunkvizError`` naming the backend, the batch and the error; a worker that dies (killed,
out of memory) is one ``ChunkvizError`` naming the batch. ``close`` (and so leaving the ``with``
block) waits for the workers after a complete run; after a failure or an interruption
(``abort``, a KeyboardInterrupt included) it stops busy workers at once: each worker holds the
read end of a *lifeline* pipe whose write end only the parent holds, and exits as soon as it
reads end-of-file, which also happens when the parent dies: no orphans. Workers ignore SIGINT,
so Ctrl-C in a terminal interrupts the parent only.

Determinism: a worker encodes each batch in one call to the backend, as the caller formed it, so
its vectors are those of the same call in one process on the same number of threads.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection, wait
from pathlib import Path
from types import TracebackType
from typing import Literal

import numpy as np

from chunkviz.errors import ChunkvizError, ParameterError, Whole, shown
from chunkviz.retrieval.backends import get_backend, is_registered
from chunkviz.retrieval.base import Backend
from chunkviz.retrieval.cache import Role
from chunkviz.retrieval.threads import available_cores, limit_process

#: The start method of every pool (see the module docstring for why not fork).
START_METHOD: Literal["spawn"] = "spawn"

#: Upper bound on worker processes, whatever the machine: each one holds its own model.
MAX_WORKERS = 16


def default_workers(batches: int) -> int:
    """Worker processes for ``batches`` batches: one per available core, at most ``MAX_WORKERS``."""
    return max(1, min(available_cores(), MAX_WORKERS, batches))


def loads_by_name(backend: Backend) -> bool:
    """Whether a worker can load ``backend`` from the registry by its name alone.

    True for the registry's dense backends (and ``st:<model>``); False for a lexical backend or a
    backend object the registry does not know (a test double), which stay in the parent.
    """
    return backend.kind == "dense" and is_registered(backend.name)


def foreign_main() -> str | None:
    """The file of a ``__main__`` a spawned child would run that this process did not start with.

    That is a Streamlit page script; None means spawning is safe.

    Safe: a ``__main__`` with a module spec (``python -m chunkviz``, ``python -m pytest``: the
    child skips a ``__main__`` module), without a file (``python -c``), or whose file is
    ``sys.argv[0]``, the script this interpreter runs (guarded by ``if __name__ ==
    "__main__"``, as spawn requires).
    """
    main = sys.modules.get("__main__")
    if main is None or getattr(main, "__spec__", None) is not None:
        return None
    path = getattr(main, "__file__", None)
    if not isinstance(path, str):
        return None
    started = sys.argv[0] if sys.argv else ""
    try:
        if started and Path(started).resolve() == Path(path).resolve():
            return None
    except (OSError, RuntimeError):  # an unreadable path is not the script we started with
        pass
    return path


# ------------------------------------------------------------------------- worker side

_backend: Backend | None = None  # this worker's backend, loaded by _start_worker
_load_error: BaseException | None = None  # why it could not be loaded, raised by every task


def _start_worker(name: str, model: str, threads: int, lifeline: Connection) -> None:
    """A worker's initializer: ignore Ctrl-C, watch the lifeline, limit threads, load the backend.

    A failure to load is kept and raised by every task, so that the parent gets the worker's
    own error rather than the executor's "a process in the initializer failed".
    """
    global _backend, _load_error
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    threading.Thread(target=_exit_when_closed, args=(lifeline,), daemon=True).start()
    limit_process(threads)
    try:
        backend = get_backend(name)
        if backend.model != model:
            raise ChunkvizError(
                "worker_model_mismatch", backend=name, worker=backend.model, parent=model
            )
        _backend = backend
    except Exception as exc:  # noqa: BLE001 - every failure goes to the parent, by a task
        _load_error = _picklable(
            exc
            if isinstance(exc, ChunkvizError)
            else ChunkvizError(
                "worker_load_failed", backend=name, kind=type(exc).__name__, reason=str(exc)
            )
        )


def _exit_when_closed(lifeline: Connection) -> None:
    """Exit this worker at once when the parent closes the lifeline's write end (or dies)."""
    wait([lifeline])
    os._exit(0)


def _encode_batch(role: Role, texts: list[str]) -> np.ndarray:
    """One task: the vectors of ``texts`` as ``role``, in one call of the worker's backend."""
    if _load_error is not None:
        raise _load_error
    if _backend is None:  # pragma: no cover - the initializer sets one of the two
        raise ChunkvizError("worker_no_backend")
    fn = _backend.encode_documents if role == "document" else _backend.encode_queries
    try:
        return np.asarray(fn(texts), dtype=np.float32)
    except Exception as exc:  # noqa: BLE001 - the parent names the backend and the batch
        raise _picklable(exc) from None


def _picklable(exc: BaseException) -> BaseException:
    """``exc`` when it pickles, else a ChunkvizError carrying its type and message."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any exception may fail to pickle in its own way
        return ChunkvizError("worker_error", kind=type(exc).__name__, reason=str(exc))
    return exc


# ------------------------------------------------------------------------- parent side


class EncoderPool:
    """Worker processes that encode batches with one backend; a context manager.

    Attributes:
        name: The backend's registry name.
        model: The model the parent's backend loaded (each worker checks it loads the same).
        workers: Number of worker processes.
        threads: Threads each worker's numeric libraries may use.
    """

    def __init__(self, backend: Backend, *, workers: int, threads: int = 1) -> None:
        """Check the options; the executor starts on ``__enter__`` (or ``start``).

        Raises:
            ParameterError: ``workers`` or ``threads`` below 1, or workers above ``MAX_WORKERS``,
                or a backend that a worker cannot load by name (``loads_by_name``).
        """
        for label, value, top in (("workers", workers, MAX_WORKERS), ("threads", threads, 256)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
                raise ParameterError("whole_range", name=label, value=shown(value), min=1, max=top)
        if not loads_by_name(backend):
            raise ParameterError("worker_by_name", backend=backend.name)
        self.name = backend.name
        self.model = backend.model
        self.workers = workers
        self.threads = threads
        self._executor: ProcessPoolExecutor | None = None
        self._lifeline: Connection | None = None  # the parent's write end
        self._lifeline_read: Connection | None = None  # kept open until every worker started

    def __enter__(self) -> EncoderPool:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc is None:
            self.close()
        else:
            self.abort()

    def start(self) -> None:
        """Create the executor; workers start with the first batches and load the backend.

        Raises:
            ChunkvizError: ``__main__`` is a script a spawned worker would run again
                (``foreign_main``); encode in this process (workers=0).
        """
        if self._executor is not None:
            return
        script = foreign_main()
        if script is not None:
            raise ChunkvizError("worker_foreign_main", script=Whole(str(script)))
        ctx = multiprocessing.get_context(START_METHOD)
        read, write = ctx.Pipe(duplex=False)
        self._lifeline, self._lifeline_read = write, read
        self._executor = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=ctx,
            initializer=_start_worker,
            initargs=(self.name, self.model, self.threads, read),
        )

    def close(self) -> None:
        """Let the workers finish what they were given, then stop them and wait for them."""
        self._stop(cancel=False)

    def abort(self) -> None:
        """Stop every worker now, busy or not (after a failure or an interruption)."""
        self._stop(cancel=True)

    def _stop(self, *, cancel: bool) -> None:
        executor, self._executor = self._executor, None
        if cancel and self._lifeline is not None:
            self._lifeline.close()  # every worker reads end-of-file and exits
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
        for end in (self._lifeline, self._lifeline_read):
            if end is not None:
                end.close()
        self._lifeline = self._lifeline_read = None

    def encode(
        self, batches: Sequence[Sequence[str]], role: Role
    ) -> Iterator[tuple[int, np.ndarray]]:
        """Yield ``(i, vectors of batches[i])`` for every batch, in the order they finish.

        Each batch is encoded in one call of the backend's ``encode_documents`` (``role``
        ``document``) or ``encode_queries``. Leaving the loop early cancels the batches not
        started yet.

        Raises:
            ChunkvizError: A worker failed to load the backend or to encode a batch, or died.
        """
        self.start()
        executor = self._executor
        assert executor is not None  # noqa: S101 - start() set it
        futures: dict[Future[np.ndarray], int] = {
            executor.submit(_encode_batch, role, list(batch)): i for i, batch in enumerate(batches)
        }
        try:
            for future in as_completed(futures):
                i = futures[future]
                try:
                    vectors = future.result()
                except BrokenProcessPool:
                    raise self._died(i) from None
                except ChunkvizError:
                    raise
                except Exception as exc:  # noqa: BLE001 - named with the backend and batch
                    raise self._failed(i, exc) from exc
                yield i, vectors
        finally:
            for future in futures:
                future.cancel()

    def _died(self, batch: int) -> ChunkvizError:
        return ChunkvizError("worker_died", backend=self.name, batch=batch)

    def _failed(self, index: int, exc: BaseException) -> ChunkvizError:
        reason = exc.message if isinstance(exc, ChunkvizError) else Whole(str(exc))
        error = ChunkvizError(
            "worker_failed", backend=self.name, batch=index, kind=type(exc).__name__, reason=reason
        )
        if exc.__cause__ is not None:  # the worker's traceback, as concurrent.futures sent it
            error.add_note(str(exc.__cause__).rstrip())
        return error
