"""Every numeric option of the command line is checked here, where it is parsed.

``integer`` and ``real`` make argparse ``type=`` functions that refuse a value outside its range
(and NaN or infinity) with one line naming the value, the rule and the fix; ``cli.main`` prints
argparse's refusals as that one line and exits 2, so no run starts that cannot finish.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path

from chunkviz.atomic import write_atomically
from chunkviz.eval.results import check_writable
from chunkviz.limits import MAX_RESAMPLES as MAX_RESAMPLES  # shared with the results schema

#: Largest seed: what numpy's legacy generators accept.
MAX_SEED = 2**32 - 1


def integer(low: int, high: int, fix: str = "") -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high``.

    Raises (when called):
        argparse.ArgumentTypeError: Not an integer, or out of range; the message names the
            value, the rule and the fix.
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low:,} to {high:,} (got {text[:40]!r}); "
                + (fix or "give a value in that range")
            )
        return value

    parse.__name__ = "integer"
    return parse


def real(
    low: float, high: float, *, low_open: bool = False, fix: str = ""
) -> Callable[[str], float]:
    """An argparse type: a finite number in ``[low, high]`` (``(low, high]`` when ``low_open``).

    Raises (when called):
        argparse.ArgumentTypeError: Not a number, NaN, infinite or out of range.
    """

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        ok = math.isfinite(value) and (low < value if low_open else low <= value) and value <= high
        if not ok:
            bracket = "(" if low_open else "["
            raise argparse.ArgumentTypeError(
                f"must be a finite number in {bracket}{low:g}, {high:g}] (got {text[:40]!r}); "
                + (fix or "give a value in that range")
            )
        return value

    parse.__name__ = "number"
    return parse


def check_delta(value: float, name: str) -> float:
    """``value`` as an equivalence margin: finite, in ``(0, 1]`` (metrics are shares).

    Raises:
        argparse.ArgumentTypeError: Otherwise.
    """
    if not (math.isfinite(value) and 0 < value <= 1):
        raise argparse.ArgumentTypeError(
            f"{name} must be a finite number in (0, 1], in the metric's units (got {value!r}); "
            "try 0.01"
        )
    return value


SEED = integer(0, MAX_SEED)
RESAMPLES = integer(1, MAX_RESAMPLES, "the default is enough for two-digit p-values")


def print_or_write(text: str, out: Path | None) -> int:
    """Print ``text``, or write it to ``out`` (a generated file's ``--out``); the exit status."""
    if out is None:
        print(text, end="")
        return 0
    check_writable(out.parent, "--out")
    write_atomically(out, text.encode("utf-8"), "--out")  # a failure leaves no half file
    return 0
