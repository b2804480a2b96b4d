"""An Explore configuration as URL query parameters, and back.

The link carries the strategy, its parameters (``unit`` is one of them), the name of a built-in
sample, the UI language and the retrieval backend:
``?strategy=fixed&size=100&overlap=0&unit=chars&sample=jsquad_tsuyu&lang=ja&backend=bm25``.
A user's own pasted or uploaded document is never put into the URL.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chunkviz.errors import ChunkvizError, shown
from chunkviz.samples import sample_names
from chunkviz.strategies import all_strategies, get_strategy
from chunkviz.strategies.registry import Param
from chunkviz.text import LANGUAGES, Lang
from chunkviz.views.param_ranges import broken_relations

RESERVED = ("strategy", "sample", "lang", "backend")


@dataclass(frozen=True)
class SharedConfig:
    """What a link restores.

    Attributes:
        strategy: The strategy name, or None when the link names none (or an unknown one).
        params: Parameter values that passed their schema.
        sample: A built-in sample name, or None.
        lang: A UI language, or None.
        backend: A backend name (one of those the reader accepts), or None.
        problems: One message per value that was ignored, for the page to show.
    """

    strategy: str | None
    params: dict[str, Any] = field(default_factory=dict)
    sample: str | None = None
    lang: Lang | None = None
    backend: str | None = None
    problems: tuple[str, ...] = ()


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(value)


def to_query(
    strategy: str,
    params: Mapping[str, Any],
    sample: str | None,
    lang: Lang | None = None,
    backend: str | None = None,
) -> dict[str, str]:
    """Query parameters for a configuration (only the schema's parameters are written)."""
    spec = get_strategy(strategy)
    query = {"strategy": strategy}
    for p in spec.params:
        if p.name in params:
            query[p.name] = _text(params[p.name])
    if sample is not None:
        query["sample"] = sample
    if lang is not None:
        query["lang"] = lang
    if backend is not None:
        query["backend"] = backend
    return query


def _first(value: Any) -> str:
    if isinstance(value, list | tuple):
        return str(value[0]) if value else ""
    return str(value)


def _lang(query: Mapping[str, Any], problems: list[str]) -> Lang | None:
    if "lang" not in query:
        return None
    value = _first(query["lang"])
    for lang in LANGUAGES:
        if value == lang:
            return lang
    problems.append(f"lang={shown(value)} in the link is not a UI language; choose one of "
                    f"{', '.join(LANGUAGES)}")
    return None


def _backend(
    query: Mapping[str, Any], backends: Collection[str] | None, problems: list[str]
) -> str | None:
    if "backend" not in query:
        return None
    value = _first(query["backend"])
    if backends is not None and value not in backends:
        problems.append(f"backend={shown(value)} in the link is not an available backend; "
                        f"choose one of {', '.join(backends)}")
        return None
    return value


def settle_pairs(
    params: Sequence[Param], values: Mapping[str, Any], base: Mapping[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """``values`` without every pair that breaks a declared relation once applied over ``base``.

    A link's values are settled as pairs before any is applied: ``max_size=1`` over the
    default ``min_size`` breaks ``min_size <= max_size``, and applying either side alone
    leaves an invalid pair on the page (and in the link it publishes). Both sides of a broken
    pair keep their ``base`` values (the defaults, or the page's current valid values).

    Returns:
        The values to apply and one message per pair left out.
    """
    kept = dict(values)
    problems: list[str] = []
    for _ in range(len(params) + 1):  # each round removes at least one value
        merged = {**base, **kept}
        broken = broken_relations(params, merged)
        if not broken:
            break
        rel = broken[0]
        given = ", ".join(f"{n}={merged[n]!r}" for n in (rel.small, rel.large))
        problems.append(
            f"{given} in the link break the rule {rel.describe()}; "
            f"{rel.small}={base.get(rel.small)!r} and {rel.large}={base.get(rel.large)!r} are "
            "kept instead"
        )
        kept.pop(rel.small, None)
        kept.pop(rel.large, None)
    return kept, problems


def from_query(
    query: Mapping[str, Any], backends: Collection[str] | None = None
) -> SharedConfig:
    """Read a configuration from query parameters; bad values are reported, not guessed at.

    Args:
        query: The URL's query parameters (values or lists of values).
        backends: The backend names a link may choose (the available ones); None accepts any.
    """
    problems: list[str] = []
    lang = _lang(query, problems)
    backend = _backend(query, backends, problems)
    sample = _first(query["sample"]) if "sample" in query else None
    if sample is not None and sample not in sample_names():
        problems.append(
            f"sample={shown(sample)} in the link is not a built-in sample; choose one of "
            f"{', '.join(sample_names())}"
        )
        sample = None
    if "strategy" not in query:
        return SharedConfig(None, {}, sample, lang, backend, tuple(problems))
    name = _first(query["strategy"])
    try:
        spec = get_strategy(name)
    except ChunkvizError:
        return SharedConfig(None, {}, sample, lang, backend, (
            *problems,
            f"unknown strategy {shown(name)} in the link; choose one of "
            f"{', '.join(sorted(s.name for s in all_strategies()))}",
        ))
    params: dict[str, Any] = {}
    for p in spec.params:
        if p.name not in query:
            continue
        raw = _first(query[p.name])
        try:
            params[p.name] = p.validate(None if raw == "" and p.optional else raw)
        except ChunkvizError as exc:
            problems.append(f"{exc} (from the link; the default {p.default!r} is used)")
    params, paired = settle_pairs(spec.params, params, spec.defaults())
    problems += paired
    for key in query:
        if key not in RESERVED and key not in {p.name for p in spec.params}:
            problems.append(
                f"{shown(key, 40)[1:-1]}={shown(_first(query[key]))} in the link is not a "
                f"parameter of {shown(name)}; "
                "it was ignored"
            )
    return SharedConfig(name, params, sample, lang, backend, tuple(problems))
