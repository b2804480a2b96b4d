"""Everything a benchmark or a tune run needs, checked before the first document is chunked.

A run that fails at 88% wastes minutes and leaves nothing; every dependency a run will reach is
loaded here first: the backend (its packages and model), the tokenizer that counts the context
tokens of every configuration (``runner.context_tokenizer``: the SentencePiece model bundled with
``chunkviz[dense]`` for a lexical backend), the embedding cache of a backend that encodes, and the
results folder. The CLI, the public API and the Tune page call ``preflight`` first;
``run_benchmark`` checks the backend and the tokenizer again before it chunks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from chunkviz.eval.results import check_cache_writable, check_writable
from chunkviz.eval.runner import context_tokenizer
from chunkviz.retrieval.backends import get_backend
from chunkviz.retrieval.base import Backend
from chunkviz.tokenizers import Tokenizer


@dataclass(frozen=True)
class Ready:
    """What ``preflight`` loaded: pass ``backend`` on, so nothing is loaded twice.

    Attributes:
        backend: The loaded backend.
        tokenizer: The context tokenizer of the run.
        out_dir: The results folder, created and proven writable (None when none was given).
    """

    backend: Backend
    tokenizer: Tokenizer
    out_dir: Path | None


def preflight(
    backend: Backend | str,
    *,
    out_dir: str | Path | None = None,
    cache_dir: str | Path | None = None,
) -> Ready:
    """Load and check everything a run needs, before any work.

    Args:
        backend: A backend or its name.
        out_dir: The folder the results file will be written to (None: not written).
        cache_dir: The embedding cache (None: the default, ``$CHUNKVIZ_CACHE_DIR``'s).

    Returns:
        The loaded backend and tokenizer, and the results folder.

    Raises:
        MissingDependencyError: A package the backend or the token count needs is missing (the
            message names the extra to install).
        ModelUnavailableError: A sentence-transformers model that is not available offline.
        ParameterError: An unknown backend name.
        ResultsFileError: The results folder or the embedding cache cannot be written.
    """
    be = get_backend(backend) if isinstance(backend, str) else backend
    tokenizer = context_tokenizer(be)
    check_cache_writable(cache_dir, be.kind)
    out = check_writable(out_dir) if out_dir is not None else None
    return Ready(be, tokenizer, out)
