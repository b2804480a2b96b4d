"""An Explore configuration as URL query parameters, and back.

The link carries the strategy, its parameters (``unit`` is one of them) and the name of a
built-in sample: ``?strategy=fixed&size=100&overlap=0&unit=chars&sample=jsquad_tsuyu``. A user's
own pasted or uploaded document is never put into the URL.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from chunkviz.errors import ChunkvizError, shown
from chunkviz.samples import sample_names
from chunkviz.strategies import all_strategies, get_strategy

RESERVED = ("strategy", "sample")


@dataclass(frozen=True)
class SharedConfig:
    """What a link restores.

    Attributes:
        strategy: The strategy name, or None when the link names none (or an unknown one).
        params: Parameter values that passed their schema.
        sample: A built-in sample name, or None.
        problems: One message per value that was ignored, for the page to show.
    """

    strategy: str | None
    params: dict[str, Any] = field(default_factory=dict)
    sample: str | None = None
    problems: tuple[str, ...] = ()


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(value)


def to_query(strategy: str, params: Mapping[str, Any], sample: str | None) -> dict[str, str]:
    """Query parameters for a configuration (only the schema's parameters are written)."""
    spec = get_strategy(strategy)
    query = {"strategy": strategy}
    for p in spec.params:
        if p.name in params:
            query[p.name] = _text(params[p.name])
    if sample is not None:
        query["sample"] = sample
    return query


def _first(value: Any) -> str:
    if isinstance(value, list | tuple):
        return str(value[0]) if value else ""
    return str(value)


def from_query(query: Mapping[str, Any]) -> SharedConfig:
    """Read a configuration from query parameters; bad values are reported, not guessed at."""
    problems: list[str] = []
    sample = _first(query["sample"]) if "sample" in query else None
    if sample is not None and sample not in sample_names():
        problems.append(
            f"sample={shown(sample)} in the link is not a built-in sample; choose one of "
            f"{', '.join(sample_names())}"
        )
        sample = None
    if "strategy" not in query:
        return SharedConfig(None, {}, sample, tuple(problems))
    name = _first(query["strategy"])
    try:
        spec = get_strategy(name)
    except ChunkvizError:
        return SharedConfig(None, {}, sample, (
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
    for key in query:
        if key not in RESERVED and key not in {p.name for p in spec.params}:
            problems.append(
                f"{shown(key, 40)[1:-1]}={shown(_first(query[key]))} in the link is not a "
                f"parameter of {shown(name)}; "
                "it was ignored"
            )
    return SharedConfig(name, params, sample, tuple(problems))
