"""Files shipped inside the chunkviz package, found the way an installed package must.

The vendored JSQuAD split (``chunkviz/data/``) and the shipped benchmark runs
(``chunkviz/results/``) are package data: ``importlib.resources`` finds them in a checkout and in
an installed wheel alike, never a path relative to the repository.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def package_path(*parts: str) -> Path:
    """A file or folder shipped inside the ``chunkviz`` package.

    Args:
        *parts: Path components below the package folder, e.g. ``("results",)``.

    Returns:
        Its path on disk (pip installs packages unzipped, so it is a real file).
    """
    return Path(str(resources.files("chunkviz").joinpath(*parts)))
