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

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any, cast

from chunkviz.catalogues import DEFAULT_LANG, LANGUAGES, Lang, templates
from chunkviz.strategies import all_strategies

__all__ = ["DEFAULT_LANG", "LANGUAGES", "Lang", "as_lang", "catalogue", "has", "text"]


def as_lang(value: object) -> Lang:
    """``value`` if it names a UI language, else the default (English)."""
    return cast(Lang, value) if value in LANGUAGES else DEFAULT_LANG


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
    flat = dict(templates(lang))
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
