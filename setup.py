"""Build hook: ship the Streamlit app (``app.py``, ``pages/``, its config) inside the wheel.

The metadata lives in ``pyproject.toml``. The app's scripts stay at the repository root, where
``streamlit run app.py`` and the tests expect them; a wheel carries copies in ``chunkviz/_app/``
so that ``chunkviz app`` can start the app from an installed package (``chunkviz.paths``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
APP_FILES = (
    "app.py",
    ".streamlit/config.toml",
    *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py")),
)


class BuildPyWithApp(build_py):
    """``build_py`` that also copies the app's scripts into ``chunkviz/_app/``."""

    def run(self) -> None:
        """Build the package as usual, then add the app's files."""
        super().run()
        target = Path(self.build_lib) / "chunkviz" / "_app"
        for name in APP_FILES:
            dest = target / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, dest)


setup(cmdclass={"build_py": BuildPyWithApp})
