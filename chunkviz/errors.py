"""Errors raised by chunkviz.

Every message names the parameter, shows its value, and states the rule and the fix, so that
the command line can print ``str(error)`` without a traceback.

An error may also carry a message ``code`` and its ``params`` (the values it names): the pages
show it through the text catalogues in the reader's language (``chunkviz.text.messages``), with
the values as values rather than Python reprs. A new error gets a translation by adding
``error.<code>`` to ``en.toml`` and ``ja.toml``; an error without a code shows ``str(error)``.

Hierarchy::

    ChunkvizError
    ├── ParameterError (also ValueError)      a strategy or metric parameter breaks its rule
    ├── InputTextError (also ValueError)      a document or file that cannot be used as text
    ├── UnknownStrategyError (also KeyError)  a strategy name that is not registered
    ├── DatasetError (also ValueError)        a QA file or dataset that cannot be read
    ├── ResultsFileError (also ValueError)    a benchmark results file that cannot be used
    ├── OutputError                           a file or folder that cannot be written
    └── MissingDependencyError (also ImportError)
        └── ModelUnavailableError             a model that is neither cached nor reachable
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any


class Message(str):
    """A message as English text (the ``str`` itself) plus its catalogue ``code`` and ``params``.

    It is a ``str`` so that code that joins, searches or prints messages keeps working; a page
    renders it through ``chunkviz.text.messages.render`` instead, in the reader's language.
    A param may itself be a ``Message`` (a rule inside a refusal), rendered in the same language.
    """

    code: str | None
    params: Mapping[str, Any]

    def __new__(
        cls, text: str, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> Message:
        """A message whose English text is ``text``."""
        self = super().__new__(cls, text)
        self.code = code
        self.params = MappingProxyType(dict(params or {}))
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Message, (str(self), self.code, dict(self.params)))


class ChunkvizError(Exception):
    """Base class of every error chunkviz raises on purpose.

    Args:
        *args: The English message (``str(error)``), as for any exception.
        code: The catalogue key of the message (``error.<code>``), or None.
        params: The values the message names, by the catalogue template's field names.
    """

    def __init__(
        self, *args: object, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(*args)
        self.code = code
        self.params: Mapping[str, Any] = dict(params or {})

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword arguments do not survive Exception's own pickling (Ray, multiprocessing).
        return (_rebuild, (type(self), self.args, self.code, dict(self.params)))

    @property
    def message(self) -> Message:
        """The error as a ``Message`` (its English text, code and params)."""
        return Message(str(self), self.code, self.params)


def _rebuild(
    cls: type[ChunkvizError], args: tuple[object, ...], code: str | None,
    params: dict[str, Any]
) -> ChunkvizError:
    return cls(*args, code=code, params=params)


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


class OutputError(ChunkvizError):
    """A file or folder chunkviz cannot write (full disk, read-only, a folder, ...)."""


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
