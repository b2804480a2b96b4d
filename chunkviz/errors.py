"""Errors raised by chunkviz, worded once: in the catalogues.

An error is a message ``code`` and the values it names (``params``); its words are the template
``error.<code>`` of ``chunkviz/text/en.toml`` and ``ja.toml``. ``str(error)`` is the English
rendering (the command line prints it without a traceback); a page renders the same template in
the reader's language (``chunkviz.text.messages.error_text``). No raise site writes English: a
new error is a new code with its template in both catalogues, and a test checks every code
raised in the package against them (``tests/test_error_catalogue.py``). Every template names the
parameter or file, shows the value, and states the rule and the fix.

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

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from chunkviz.catalogues import Lang, Whole, error_template, fill, value_text

__all__ = [
    "ChunkvizError",
    "DatasetError",
    "InputTextError",
    "Message",
    "MissingDependencyError",
    "ModelUnavailableError",
    "OutputError",
    "ParameterError",
    "ResultsFileError",
    "UnknownStrategyError",
    "Whole",
    "is_code",
    "render",
    "shown",
]

_CODE = re.compile(r"[a-z][a-z0-9_]*")


def is_code(value: object) -> bool:
    """Whether ``value`` is a catalogue code (``too_large``) rather than a sentence."""
    return isinstance(value, str) and _CODE.fullmatch(value) is not None


def render(lang: Lang, code: str, params: Mapping[str, Any]) -> str:
    """``error.<code>`` of ``lang`` filled with ``params`` (English where ``lang`` lacks it).

    A code without a template, or values that do not fit it, is a bug that the catalogue test
    finds; until then the reader is told the code and its values rather than shown a traceback.
    """
    template = error_template(lang, code)
    if template is not None:
        try:
            return fill(lang, template, params)
        except (KeyError, IndexError, ValueError):
            pass
    shown = ", ".join(f"{k}={value_text(lang, v)}" for k, v in params.items())
    return f"{code} ({shown})" if shown else code


class Message(str):
    """A message worded by the catalogues: its English text (the ``str`` itself), code, params.

    It is a ``str`` so that code that joins, searches or prints messages keeps working; a page
    shows ``message.render(lang)``. A param may itself be a ``Message`` (a rule inside a
    refusal), rendered in the same language.

    Args:
        code: The catalogue key, ``error.<code>``.
        **params: The values the template names.
    """

    code: str | None
    params: Mapping[str, Any]

    def __new__(cls, code: str, /, **params: Any) -> Message:
        """The message ``error.<code>`` with ``params``, its English rendering as its text."""
        self = super().__new__(cls, render("en", code, params))
        self.code = code
        self.params = MappingProxyType(params)
        return self

    @classmethod
    def empty(cls) -> Message:
        """No message (a check that found nothing to say)."""
        self = super().__new__(cls, "")
        self.code = None
        self.params = MappingProxyType({})
        return self

    def render(self, lang: Lang) -> str:
        """The message in ``lang``."""
        return "" if self.code is None else render(lang, self.code, self.params)

    def __reduce__(self) -> tuple[Any, ...]:
        if self.code is None:
            return (Message.empty, ())
        return (_message, (self.code, dict(self.params)))


def _message(code: str, params: dict[str, Any]) -> Message:
    return Message(code, **params)


class ChunkvizError(Exception):
    """Base class of every error chunkviz raises on purpose.

    Args:
        code: The catalogue key of the message, ``error.<code>``.
        **params: The values the message names, by the template's field names.
    """

    code: str | None
    params: Mapping[str, Any]

    def __init__(self, code: str, /, **params: Any) -> None:
        if is_code(code):
            self.code, self.params = code, MappingProxyType(params)
            super().__init__(render("en", code, params))
        else:  # NOTE: a sentence, not a code: no raise site of the package writes one (the
            # test tests/test_error_catalogue.py refuses it); code outside it still may.
            self.code, self.params = None, MappingProxyType({})
            super().__init__(code)

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword arguments do not survive Exception's own pickling (Ray, multiprocessing).
        first = self.code if self.code is not None else (self.args[0] if self.args else "")
        return (_rebuild, (type(self), first, dict(self.params)))

    @property
    def message(self) -> Message:
        """The error as a ``Message`` (its code and params), to render in any language."""
        if self.code is None:
            return _plain(str(self))
        return Message(self.code, **self.params)


class _Plain(Message):
    """A sentence given instead of a code (outside the package), shown as written."""

    def render(self, lang: Lang) -> str:
        """The sentence itself, in every language."""
        return str(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_plain, (str(self),))


def _plain(text: str) -> Message:
    self = str.__new__(_Plain, text)
    self.code = None
    self.params = MappingProxyType({})
    return self


def _rebuild(cls: type[ChunkvizError], first: str, params: dict[str, Any]) -> ChunkvizError:
    return cls(first, **params)


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
