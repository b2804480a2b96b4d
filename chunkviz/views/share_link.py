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
from urllib.parse import urlencode

from chunkviz.errors import ChunkvizError, Message
from chunkviz.samples import load_sample, sample_names
from chunkviz.strategies import all_strategies, get_strategy
from chunkviz.strategies.registry import Param, Strategy
from chunkviz.strategies.snap import active_params
from chunkviz.text import LANGUAGES, Lang
from chunkviz.views.param_ranges import SLIDER_MAX, broken_relations

#: A page's own keys (the Benchmark page's run, metric, δ and view), read by that page
#: (``chunkviz.views.bench_link``).
PAGE_KEYS = ("run", "metric", "delta", "view", "budget")
RESERVED = ("strategy", "sample", "lang", "backend", *PAGE_KEYS)


@dataclass(frozen=True)
class SharedConfig:
    """What a link restores.

    Attributes:
        strategy: The strategy name, or None when the link names none (or an unknown one).
        params: Parameter values that passed their schema.
        sample: A built-in sample name, or None.
        lang: A UI language, or None.
        backend: A backend name (one of those the reader accepts), or None.
        problems: One message per value that was ignored, for the page to show (a ``Message``:
            English text with a catalogue code, rendered by ``chunkviz.text.messages``).
    """

    strategy: str | None
    params: dict[str, Any] = field(default_factory=dict)
    sample: str | None = None
    lang: Lang | None = None
    backend: str | None = None
    problems: tuple[Message, ...] = ()


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
    params = active_params(params)  # snap's parameters only when it is on
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


def page_query(query: Mapping[str, Any]) -> dict[str, str]:
    """The page-owned keys of a URL's query (``PAGE_KEYS``, first value of each)."""
    return {key: _first(query[key]) for key in PAGE_KEYS if key in query}


def _first(value: Any) -> str:
    if isinstance(value, list | tuple):
        return str(value[0]) if value else ""
    return str(value)


def _lang(query: Mapping[str, Any], problems: list[Message]) -> Lang | None:
    if "lang" not in query:
        return None
    value = _first(query["lang"])
    for lang in LANGUAGES:
        if value == lang:
            return lang
    problems.append(Message("link_lang", value=value, choices=list(LANGUAGES)))
    return None


def _backend(
    query: Mapping[str, Any], backends: Collection[str] | None, problems: list[Message]
) -> str | None:
    if "backend" not in query:
        return None
    value = _first(query["backend"])
    if backends is not None and value not in backends:
        problems.append(Message("link_backend", value=value, choices=list(backends)))
        return None
    return value


def settle_pairs(
    params: Sequence[Param], values: Mapping[str, Any], base: Mapping[str, Any]
) -> tuple[dict[str, Any], list[Message]]:
    """``values`` without every pair that breaks a declared relation once applied over ``base``.

    A link's values are settled as pairs before any is applied: ``max_size=1`` over the
    default ``min_size`` breaks ``min_size <= max_size``, and applying either side alone
    leaves an invalid pair on the page (and in the link it publishes). Both sides of a broken
    pair keep their ``base`` values (the defaults, or the page's current valid values).

    Returns:
        The values to apply and one message per pair left out.
    """
    kept = dict(values)
    problems: list[Message] = []
    for _ in range(len(params) + 1):  # each round removes at least one value
        merged = {**base, **kept}
        broken = broken_relations(params, merged)
        if not broken:
            break
        rel = broken[0]
        problems.append(
            Message(
                "link_pair_less_than" if rel.strict else "link_pair_at_most",
                small=rel.small,
                large=rel.large,
                small_value=merged[rel.small],
                large_value=merged[rel.large],
                small_kept=base.get(rel.small),
                large_kept=base.get(rel.large),
            )
        )
        kept.pop(rel.small, None)
        kept.pop(rel.large, None)
    return kept, problems


def from_query(query: Mapping[str, Any], backends: Collection[str] | None = None) -> SharedConfig:
    """Read a configuration from query parameters; bad values are reported, not guessed at.

    Args:
        query: The URL's query parameters (values or lists of values).
        backends: The backend names a link may choose (the available ones); None accepts any.
    """
    problems: list[Message] = []
    lang = _lang(query, problems)
    backend = _backend(query, backends, problems)
    sample = _first(query["sample"]) if "sample" in query else None
    if sample is not None and sample not in sample_names():
        problems.append(Message("link_sample", value=sample, choices=list(sample_names())))
        sample = None
    if "strategy" not in query:
        return SharedConfig(None, {}, sample, lang, backend, tuple(problems))
    name = _first(query["strategy"])
    try:
        spec = get_strategy(name)
    except ChunkvizError:
        return SharedConfig(
            None,
            {},
            sample,
            lang,
            backend,
            (
                *problems,
                Message(
                    "link_strategy", value=name, choices=sorted(s.name for s in all_strategies())
                ),
            ),
        )
    params: dict[str, Any] = {}
    for p in spec.params:
        if p.name not in query:
            continue
        raw = _first(query[p.name])
        try:
            params[p.name] = p.validate(None if raw == "" and p.optional else raw)
        except ChunkvizError as exc:
            problems.append(Message("link_param", detail=exc.message, default=p.default))
    params, paired = settle_pairs(spec.params, params, spec.defaults())
    problems += paired
    for key in query:
        if key not in RESERVED and key not in {p.name for p in spec.params}:
            problems.append(
                Message("link_not_param", field=key, value=_first(query[key]), strategy=name)
            )
    return SharedConfig(name, params, sample, lang, backend, tuple(problems))


def link_problems(spec: Strategy, values: Mapping[str, Any]) -> dict[str, Message]:
    """Values (from a shared link) that the controls cannot show, with a message for each."""
    problems = {}
    for p in spec.params:
        value = values.get(p.name)
        bounded = p.type in ("int", "float") and p.min is not None and p.max is not None
        if bounded and value is not None and value > min(p.max or 0, SLIDER_MAX):
            problems[p.name] = Message("link_slider", name=p.name, value=value, cap=SLIDER_MAX)
    # Pairs that break a relation are settled by ``share_link.settle_pairs``, as pairs.
    return problems


def explore_sample_for(document_text: str) -> str | None:
    """The built-in Explore sample whose text is exactly ``document_text`` (None: no sample is).

    Explore's links name a built-in sample, never a document of a dataset, so a question's
    document can be opened there only when it is one of the samples (JSQuAD's 梅雨 article is).
    """
    return next((n for n in sample_names() if load_sample(n).text == document_text), None)


def explore_query(strategy: str, params: Mapping[str, Any], sample: str | None) -> str:
    """Query string that opens Explore under one configuration (and on a built-in sample).

    Built with Explore's own ``to_query``: ``strategy``, the strategy's schema parameters by
    name (``size``, ``overlap``, ``unit`` ...) and ``sample``.
    """
    return urlencode(to_query(strategy, dict(params), sample))
