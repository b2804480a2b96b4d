"""The text catalogues as files (``chunkviz/text/<lang>.toml``), and a message filled from them.

This module sits at the bottom of the package (it imports nothing of chunkviz), so that an error
can render its own words: ``str(error)`` is ``error.<code>`` of ``en.toml`` filled with the
error's values (``chunkviz.errors``), and a page renders the same template of the reader's
language. ``chunkviz.text`` builds the full catalogue (with the strategy registry's text) on top
of ``templates``.

A message's values are shown as values, never as Python reprs (``value_text``): a string as
itself (cut to a readable length), a list as its items joined by the language's separator, a
float by ``:g``, a nested message (the rule inside a refusal) rendered in the same language. A
field with a format spec (``{max:,}``) formats the number itself.
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal, cast

Lang = Literal["en", "ja"]

#: Every UI language with its name in that language (what a language picker shows).
LANGUAGES: Mapping[Lang, str] = MappingProxyType({"en": "English", "ja": "日本語"})
DEFAULT_LANG: Lang = "en"

#: Longest plain string shown inside a message (a link may carry anything). A value that must be
#: shown whole (a path, already bounded where it is made) is a ``Whole``.
VALUE_LIMIT = 60


class Whole(str):
    """A value a message shows whole and as written, in every language (a path, a field path).

    Plain strings are cut at ``VALUE_LIMIT``; a file name or path is bounded where it is made
    (``chunkviz.textio.shown_path``) and must not lose its end.
    """

    __slots__ = ()


def _flatten(table: Mapping[str, Any], prefix: str, out: dict[str, str]) -> None:
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            _flatten(value, name + ".", out)
        else:
            out[name] = str(value)


@lru_cache(maxsize=len(LANGUAGES))
def templates(lang: Lang) -> Mapping[str, str]:
    """Every key of ``lang``'s catalogue file with its template (read once per process).

    Raises:
        KeyError: ``lang`` is not a UI language.
    """
    if lang not in LANGUAGES:
        raise KeyError(f"no catalogue for language {lang!r}; languages: {', '.join(LANGUAGES)}")
    raw = resources.files("chunkviz").joinpath("text", f"{lang}.toml").read_text(encoding="utf-8")
    flat: dict[str, str] = {}
    _flatten(tomllib.loads(raw), "", flat)
    return MappingProxyType(flat)


def error_template(lang: Lang, code: str) -> str | None:
    """The template of ``error.<code>`` in ``lang`` (English where ``lang`` lacks it), or None."""
    key = f"error.{code}"
    found = templates(lang).get(key)
    return found if found is not None else templates(DEFAULT_LANG).get(key)


def fields(template: str) -> frozenset[str]:
    """The names of the fields ``template`` fills (``{max:,}`` is ``max``)."""
    return frozenset(
        name
        for _, name, _, _ in string.Formatter().parse(template)
        if name is not None and name != ""
    )


def value_text(lang: Lang, value: Any) -> str:
    """``value`` as a reader sees it in a message of ``lang`` (never a Python repr)."""
    if isinstance(value, Whole):
        return str(value)
    render = getattr(value, "render", None)
    if callable(render):  # a nested ``chunkviz.errors.Message`` (not imported: it sits above)
        return cast(str, render(lang))
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        sep = error_template(lang, "list_sep") or ", "
        return sep.join(value_text(lang, v) for v in items) or "—"
    shown = str(value)
    return shown if len(shown) <= VALUE_LIMIT else shown[: VALUE_LIMIT - 1] + "…"


class _Filler(string.Formatter):
    def __init__(self, lang: Lang) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec and isinstance(value, int | float) and not isinstance(value, bool):
            return format(value, format_spec)
        return value_text(self.lang, value)


def fill(lang: Lang, template: str, params: Mapping[str, Any]) -> str:
    """``template`` with ``params`` shown as values in ``lang`` (see ``value_text``).

    Raises:
        KeyError: The template names a field ``params`` lacks.
    """
    return _Filler(lang).vformat(template, (), params)
