"""How many threads a dense backend encodes with when nobody says: one rule, from measurement.

``bench/threads.py`` times use-m3 and e5-small with one thread and with every core, on an idle
machine and under load, and docs/benchmarks.md ("Encoder threads") keeps the figures. The rule
those figures chose is ``default_threads``; ``$CHUNKVIZ_ENCODE_THREADS`` overrides it for every
backend (a machine with idle cores to spare), and a caller that runs its own pool passes
``threads=``.
Vectors do not depend on the count, only the speed does.
"""

from __future__ import annotations

import os

from chunkviz.errors import ParameterError

ENV_VAR = "CHUNKVIZ_ENCODE_THREADS"

#: Threads per backend when neither the caller nor ``$CHUNKVIZ_ENCODE_THREADS`` says: the measured
#: choice (docs/benchmarks.md, "Encoder threads").
MEASURED: dict[str, int] = {"use-m3": 1, "e5-small": 1}


def available_cores() -> int:
    """CPU cores this process may use (affinity mask when the platform has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS / Windows
        return max(1, os.cpu_count() or 1)


def default_threads(backend: str) -> int:
    """Threads for ``backend`` when the caller gives none: the variable, else the measured choice.

    Args:
        backend: Registry name (``use-m3``, ``e5-small``); others get every core.

    Raises:
        ParameterError: ``$CHUNKVIZ_ENCODE_THREADS`` is not a whole number of at least 1.
    """
    given = _given_threads()
    if given is not None:
        return given
    return min(MEASURED.get(backend, available_cores()), available_cores())


def _given_threads() -> int | None:
    """``$CHUNKVIZ_ENCODE_THREADS`` as a count, None when unset."""
    env = os.environ.get(ENV_VAR, "").strip()
    if not env:
        return None
    if not env.isdigit() or int(env) < 1:
        raise ParameterError(
            f"{ENV_VAR} must be a whole number of at least 1 (got {ENV_VAR}={env!r}); unset "
            "it or give a thread count such as 1"
        )
    return int(env)


def encode_threads() -> int:
    """Threads of a worker encoding for any dense backend: ``$CHUNKVIZ_ENCODE_THREADS``, else 1.

    One thread, because parallelism comes from processes (``chunkviz.retrieval.pool``): on a
    loaded 2-core machine use-m3 on 2 threads ran 7.5 times slower than on 1. One thread
    everywhere also makes a vector the same bits whichever process or machine encoded it (the
    last bits of a BLAS product depend on its thread count).

    Raises:
        ParameterError: The variable is set to something other than a whole number >= 1.
    """
    given = _given_threads()
    return 1 if given is None else given
