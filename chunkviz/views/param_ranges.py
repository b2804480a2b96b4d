"""The ranges parameter controls offer, from each ``Param``'s own bounds and its relations.

A relation is declared on the schema (``Param.less_than``, ``Param.at_most``: overlap < size,
min_size <= max_size), so the controls of every strategy bound both sides of a pair from the
current values: overlap's largest value is size - 1 and size's smallest is overlap + 1. Each
control then offers only values that make a valid pair with the other's current value, so no
value is ever changed behind the user's back (no clamping) and no invalid pair can be entered.

Also here: which of a parameter's two widgets (slider, typed input) the user changed, and what
to keep when a rerun brings two changes that together break a relation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chunkviz.strategies.registry import Param, Relation, relations

__all__ = [
    "SLIDER_MAX",
    "Relation",
    "broken_relations",
    "changed_value",
    "control_range",
    "relations",
    "settle",
    "start_within",
]

# Sliders are for moving in front of a class; beyond this a slider's pixels are too coarse to
# pick a value, so the UI stops there (the API and CLI take any value the schema allows).
SLIDER_MAX = 4000


def _narrow(
    params: Sequence[Param],
    values: Mapping[str, Any],
    name: str,
    low: float | None,
    high: float | None,
    *,
    only_holding: bool,
) -> tuple[float | None, float | None]:
    """``(low, high)`` narrowed by the relations of ``name`` with the others' set values."""
    p = {q.name: q for q in params}[name]
    step = 1 if p.type == "int" else 0
    for rel in relations(params):
        if only_holding and not rel.holds(values):
            continue
        gap = step if rel.strict else 0
        if rel.small == name and values.get(rel.large) is not None:
            bound = values[rel.large] - gap
            high = bound if high is None else min(high, bound)
        if rel.large == name and values.get(rel.small) is not None:
            bound = values[rel.small] + gap
            low = bound if low is None else max(low, bound)
    return low, high


def control_range(
    params: Sequence[Param], values: Mapping[str, Any], name: str, cap: float | None = None
) -> tuple[float | None, float | None]:
    """The ``(low, high)`` the controls of parameter ``name`` offer, given the others' values.

    Args:
        params: The strategy's schemas.
        values: The current value of every parameter (None: switched off).
        name: The parameter whose range is wanted.
        cap: The highest value a slider shows (its schema max may be far above).

    Returns:
        The schema's bounds, narrowed by ``cap`` and by every relation with a set value. A
        switched-off parameter is not narrowed (nothing it shows is in effect). When the
        current values already break a relation (a pair from elsewhere), that relation does
        not narrow: the strategy's own error then names the pair.
    """
    p = {q.name: q for q in params}[name]
    low, high = p.min, p.max
    if cap is not None and (high is None or high > cap):
        high = cap
    if values.get(name) is None:
        return low, high
    return _narrow(params, values, name, low, high, only_holding=True)


def start_within(params: Sequence[Param], values: Mapping[str, Any], name: str, start: Any) -> Any:
    """Where a switched-on optional parameter starts: ``start`` moved into what the others allow.

    ``start`` is a starting value the user never picked (the widget was disabled), so moving it
    to the nearest valid value changes nothing the user chose.
    """
    low, high = _narrow(params, values, name, None, None, only_holding=False)
    if low is not None and start < low:
        return type(start)(low)
    if high is not None and start > high:
        return type(start)(high)
    return start


def changed_value(previous: Any, slid: Any, typed: Any) -> Any:
    """The value of a parameter drawn twice (slider and typed input): the one the user changed.

    A rerun follows one widget's change; when neither differs from ``previous`` (or both
    are unset), ``previous`` stands. The slider wins a tie, which only a test can produce.
    """
    if slid is not None and slid != previous:
        return slid
    if typed is not None and typed != previous:
        return typed
    return previous


def settle(
    params: Sequence[Param], previous: Mapping[str, Any], proposed: Mapping[str, Any]
) -> dict[str, Any]:
    """``proposed``, with a changed value put back where it breaks a relation that held before.

    Each control only offers values that keep its relations with the others' current values,
    so this matters only when one rerun brings two changes (a test setting two widgets).
    The bounded side (``overlap`` of ``overlap < size``) is put back first.
    """
    settled = dict(proposed)
    for rel in relations(params):
        if rel.holds(settled) or not rel.holds(previous):
            continue
        for name in (rel.small, rel.large):
            if settled.get(name) != previous.get(name):
                settled[name] = previous.get(name)
                if rel.holds(settled):
                    break
    return settled


def broken_relations(params: Sequence[Param], values: Mapping[str, Any]) -> list[Relation]:
    """The relations that ``values`` break (a shared link's ``overlap=400&size=400``)."""
    return [rel for rel in relations(params) if not rel.holds(values)]


#: Parameters that mean the same in every strategy that has them: they carry over a switch.
SHARED_PARAMS = ("size", "overlap", "unit")


def carried(
    old: Sequence[Param],
    old_values: Mapping[str, Any],
    new: Sequence[Param],
    new_values: Mapping[str, Any],
) -> dict[str, Any]:
    """``new_values`` with the shared parameters (``SHARED_PARAMS``) taken from the old strategy.

    "Same size, another strategy": fixed 150/30 switched to recursive keeps 150 and 30. A value
    the new schema refuses (out of its range, not among its choices) is not carried, and
    neither is one that would break a relation with the others (the new strategy's own value
    stays), so the result is always a valid configuration of the new strategy.
    """
    schema = {p.name: p for p in new}
    old_names = {p.name for p in old}
    result = dict(new_values)
    for name in SHARED_PARAMS:
        p = schema.get(name)
        if p is None or name not in old_names or old_values.get(name) is None:
            continue
        value = old_values[name]
        if p.choices and value not in p.choices:
            continue
        low, high = p.min, p.max
        if p.type in ("int", "float") and (
            (low is not None and value < low) or (high is not None and value > high)
        ):
            continue
        result[name] = value
    # A carried pair that breaks a relation falls back, bounded side first (overlap < size).
    for rel in relations(new):
        for name in (rel.small, rel.large):
            if not rel.holds(result) and result.get(name) != new_values.get(name):
                result[name] = new_values.get(name)
    return result
