"""How many threads a dense backend encodes with when nobody says: one rule, from measurement.

``bench/threads.py`` times use-m3 and e5-small with one thread and with every core, on an idle
machine and under load, and docs/benchmarks.md ("Encoder threads") keeps the figures. The rule
those figures chose is ``default_threads``; ``$CHUNKVIZ_THREADS`` overrides it for every backend
(a machine with idle cores to spare), and a caller that runs its own pool passes ``threads=``.
Vectors do not depend on the count, only the speed does.
"""

from __future__ import annotations

import os

from chunkviz.errors import ParameterError

ENV_VAR = "CHUNKVIZ_THREADS"

#: Threads per backend when neither the caller nor ``$CHUNKVIZ_THREADS`` says: the measured
#: choice (docs/benchmarks.md, "Encoder threads").
MEASURED: dict[str, int] = {"use-m3": 1, "e5-small": 1}


def available_cores() -> int:
    """CPU cores this process may use (affinity mask when the platform has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS / Windows
        return max(1, os.cpu_count() or 1)


def default_threads(backend: str) -> int:
    """Threads for ``backend`` when the caller gives none: ``$CHUNKVIZ_THREADS``, else measured.

    Args:
        backend: Registry name (``use-m3``, ``e5-small``); others get every core.

    Raises:
        ParameterError: ``$CHUNKVIZ_THREADS`` is not a positive integer.
    """
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        if not env.isdigit() or int(env) < 1:
            raise ParameterError(
                f"{ENV_VAR} must be a positive integer (got {ENV_VAR}={env!r}); unset it or "
                "give a thread count such as 1"
            )
        return int(env)
    return min(MEASURED.get(backend, available_cores()), available_cores())
