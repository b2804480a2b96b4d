"""The code habits a reviewer checks first hold on every commit: ruff's rules, ruff's format, mypy.

They ran by hand (``make lint``) and drifted: 321 of 412 Python files were in no formatter's
shape before the format commit. Running them here puts them in ``make test`` and so in CI.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What ``make lint`` checks; the same list, so the two cannot disagree.
SOURCES = ("chunkviz", "tests", "bench", "app.py", "pages")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(
    "command", [("ruff", "check"), ("ruff", "format", "--check")], ids=["ruff-check", "ruff-format"]
)
def test_ruff(command):
    done = _run(*command, *SOURCES)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_mypy_strict():
    done = _run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr
