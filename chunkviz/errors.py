"""Errors raised by chunkviz.

Every message names the parameter, shows its value, and states the rule and the fix, so that a
page can show ``str(error)`` as it is and the command line can print it without a traceback.

Hierarchy::

    ChunkvizError
    ├── ParameterError (also ValueError)      a strategy or metric parameter breaks its rule
    ├── InputTextError (also ValueError)      a document or file that cannot be used as text
    ├── UnknownStrategyError (also KeyError)  a strategy name that is not registered
    ├── DatasetError (also ValueError)        a QA file or dataset that cannot be read
    ├── ResultsFileError (also ValueError)    a benchmark results file that cannot be used
    └── MissingDependencyError (also ImportError)
        └── ModelUnavailableError             a model that is neither cached nor reachable
"""

from __future__ import annotations


class ChunkvizError(Exception):
    """Base class of every error chunkviz raises on purpose."""


class ParameterError(ChunkvizError, ValueError):
    """A parameter value breaks the rule of its schema or of another parameter."""


class InputTextError(ChunkvizError, ValueError):
    """A document cannot be turned into text (binary, undecodable, too large)."""


class UnknownStrategyError(ChunkvizError, KeyError):
    """A strategy name that is not in the registry."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class DatasetError(ChunkvizError, ValueError):
    """A dataset or QA-pair file that cannot be read or used."""


class ResultsFileError(ChunkvizError, ValueError):
    """A benchmark results file that is missing, damaged, or of another schema version."""


class MissingDependencyError(ChunkvizError, ImportError):
    """An optional package is not installed."""


class ModelUnavailableError(MissingDependencyError):
    """A model is neither on disk nor reachable; the message says how to get it."""


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` as a message quotes it, cut to ``limit`` characters.

    Values come from users (a share link, a CLI option); a message must stay readable whatever
    they typed. Pages escape messages before they reach Markdown (``chunkviz.ui.guard``).
    """
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
