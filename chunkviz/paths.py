"""Files shipped inside the chunkviz package, found the way an installed package must.

The vendored JSQuAD split (``chunkviz/data/``) and the shipped benchmark runs
(``chunkviz/results/``) are package data: ``importlib.resources`` finds them in a checkout and in
an installed wheel alike, never a path relative to the repository.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from chunkviz.errors import MissingDependencyError, Whole


def package_path(*parts: str) -> Path:
    """A file or folder shipped inside the ``chunkviz`` package.

    Args:
        *parts: Path components below the package folder, e.g. ``("results",)``.

    Returns:
        Its path on disk (pip installs packages unzipped, so it is a real file).
    """
    return Path(str(resources.files("chunkviz").joinpath(*parts)))


def app_script() -> Path:
    """The Streamlit entrypoint ``app.py`` that ``chunkviz app`` runs.

    A wheel carries it, with ``pages/`` and ``.streamlit/config.toml``, in ``chunkviz/_app/``
    (``setup.py`` copies them there at build time). A source checkout has no such folder: there
    the entrypoint is the checkout's own ``app.py``, beside the package folder.

    Raises:
        MissingDependencyError: Neither exists (a package built without its app).
    """
    for candidate in (package_path("_app", "app.py"), package_path().parent / "app.py"):
        if candidate.is_file():
            return candidate
    raise MissingDependencyError("app_missing", path=Whole(str(package_path("_app", "app.py"))))
