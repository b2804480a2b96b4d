"""The package's wheel, built from a copy of the checkout's sources as pip builds it for a user.

Shared by the installed-wheel and clean-install tests: what goes into the wheel is one list.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What the wheel is built from (the app's files too: ``setup.py`` copies them into the package).
SOURCES = ("pyproject.toml", "setup.py", "README.md", "app.py", "pages", ".streamlit", "chunkviz")
#: pip, quiet and without questions.
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]


def build_wheel(base: Path) -> Path:
    """Copy ``SOURCES`` into ``base/src`` (no caches, no built app copy) and build the wheel.

    Returns:
        The wheel's path, in ``base/dist``.
    """
    src = base / "src"
    src.mkdir()
    for name in SOURCES:
        origin = ROOT / name
        if origin.is_dir():
            shutil.copytree(
                origin, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "_app")
            )
        else:
            shutil.copy2(origin, src / name)
    subprocess.run(
        [
            *PIP,
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(base / "dist"),
            str(src),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = (base / "dist").glob("chunkviz-*.whl")
    return wheel
