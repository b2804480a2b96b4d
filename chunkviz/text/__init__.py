"""Text shown to users: one catalogue per language (``en.toml``, ``ja.toml``), one lookup.

Keys are dotted, ``section.name`` (``explore.title``); a value is a ``str.format`` template.
Every page, the sidebar, the figures and the core's sentences (``views.plane``,
``views.highlight``) read text through ``text(lang, key, **fields)``, so a language is added by
adding one file.

Strategy text is the registry's own in English (``Strategy.description``, ``Param.help``, so the
API and the CLI keep it) and joins the English catalogue as ``strategy.<name>.description`` and
``strategy.<name>.help.<param>``; ``ja.toml`` translates the same keys.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal, cast

from chunkviz.strategies import all_strategies

Lang = Literal["en", "ja"]

#: Every UI language with its name in that language (what a language picker shows).
LANGUAGES: Mapping[Lang, str] = MappingProxyType({"en": "English", "ja": "日本語"})
DEFAULT_LANG: Lang = "en"


def as_lang(value: object) -> Lang:
    """``value`` if it names a UI language, else the default (English)."""
    return cast(Lang, value) if value in LANGUAGES else DEFAULT_LANG


def _flatten(table: Mapping[str, Any], prefix: str, out: dict[str, str]) -> None:
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            _flatten(value, name + ".", out)
        else:
            out[name] = str(value)


def _registry_text() -> dict[str, str]:
    out = {}
    for spec in all_strategies():
        out[f"strategy.{spec.name}.description"] = spec.description
        for p in spec.params:
            out[f"strategy.{spec.name}.help.{p.name}"] = p.help
    return out


@lru_cache(maxsize=len(LANGUAGES))
def catalogue(lang: Lang) -> Mapping[str, str]:
    """Every key of ``lang``'s catalogue with its template (read once per process).

    Raises:
        KeyError: ``lang`` is not a UI language.
    """
    if lang not in LANGUAGES:
        raise KeyError(f"no catalogue for language {lang!r}; languages: {', '.join(LANGUAGES)}")
    raw = resources.files(__name__).joinpath(f"{lang}.toml").read_text(encoding="utf-8")
    flat: dict[str, str] = {}
    _flatten(tomllib.loads(raw), "", flat)
    if lang == "en":
        flat.update(_registry_text())
    return MappingProxyType(flat)


def text(lang: Lang, key: str, **fields: Any) -> str:
    """The text of ``key`` in ``lang``, formatted with ``fields``.

    A key that the language lacks falls back to English (a strategy registered by a plug-in may
    have no translation); a key that English lacks is a programming error.

    Raises:
        KeyError: No catalogue has ``key``.
    """
    template = catalogue(lang).get(key)
    if template is None:
        template = catalogue(DEFAULT_LANG)[key]
    return template.format(**fields) if fields else template


def has(lang: Lang, key: str) -> bool:
    """Whether ``lang``'s own catalogue has ``key`` (no fallback)."""
    return key in catalogue(lang)
