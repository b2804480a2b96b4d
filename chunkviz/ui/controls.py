"""Widgets built from a strategy's ``Param`` schemas: one function for every strategy.

A new strategy registered in ``chunkviz.strategies`` gets its controls here without page code:
numbers become sliders (or number inputs when unbounded), booleans toggles, choices radios or
select boxes, text a text input; an optional parameter gets an "on" checkbox. Labels, help and
choice names come from the text catalogues in the UI language, all formed one way
("Size (characters)"); values start at the app state's, which start at the registry's defaults.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

from chunkviz.strategies.registry import Param, Strategy
from chunkviz.strategies.snap import active_params
from chunkviz.text import Lang, has
from chunkviz.ui.i18n import tr
from chunkviz.ui.resources import backend_infos
from chunkviz.ui.state import bind
from chunkviz.views.param_ranges import (
    SLIDER_MAX,
    changed_value,
    control_range,
    settle,
    start_within,
)


def param_key(prefix: str, strategy: str, name: str) -> str:
    """The widget key of a parameter (per strategy, so each keeps its own value)."""
    return f"{prefix}{strategy}_{name}"


def _word(lang: Lang, section: str, value: str) -> str:
    key = f"{section}.{value}"
    return tr(key, lang=lang) if has("en", key) else value


def param_label(lang: Lang, p: Param, unit: str = "chars", tokenizer: str | None = None) -> str:
    """``Size (characters)``: the parameter's name and unit in ``lang``.

    Args:
        lang: The UI language.
        p: The parameter.
        unit: The strategy's current ``unit`` value, for lengths counted in either unit.
        tokenizer: The tokenizer that counts tokens, named in a length in tokens.
    """
    name = _word(lang, "param", p.name)
    shown = unit if p.unit == "chars/tokens" else p.unit
    if not shown:
        return name
    word = (
        tr("unit.tokens_of", tokenizer=tokenizer, lang=lang)
        if shown == "tokens" and tokenizer
        else _word(lang, "unit", shown)
    )
    return tr("param.label", name=name, unit=word, lang=lang)


def param_help(lang: Lang, spec: Strategy, p: Param) -> str:
    """The parameter's help in ``lang``, with the slider's end when it stops short of the max."""
    key = f"strategy.{spec.name}.help.{p.name}"
    # A strategy outside the registry (a test's, a plug-in's) has only its own English help.
    help_text = tr(key, lang=lang) if has("en", key) else p.help
    if p.type in ("int", "float") and p.max is not None and p.max > SLIDER_MAX:
        help_text += "  \n" + tr("param.slider_cap", cap=SLIDER_MAX, max=f"{p.max:g}", lang=lang)
    return help_text


def strategy_description(lang: Lang, spec: Strategy) -> str:
    """The strategy's one-line description in ``lang``."""
    key = f"strategy.{spec.name}.description"
    return tr(key, lang=lang) if has("en", key) else spec.description


def _fallback(p: Param) -> Any:
    """The value an optional parameter's widget starts at once switched on."""
    if p.default is not None:
        return p.default
    if p.type in ("int", "float"):
        # An optional cap starts somewhere useful: a typical chunk length for lengths, a
        # handful for counts (sentences), never below min or above max.
        start = 400 if "chars" in p.unit or "tokens" in p.unit else 5
        low = p.min if p.min is not None else 0
        high = min(p.max, SLIDER_MAX) if p.max is not None else start
        value = min(max(start, low), high)
        return int(value) if p.type == "int" else float(value)
    if p.type == "bool":
        return False
    if p.type == "choice":
        return p.choices[0]
    return ""


def typed_key(key: str) -> str:
    """The key of the typed input drawn beside the slider ``key`` (same value, exact entry)."""
    return f"{key}__typed"


def widget_key(prefix: str, strategy: str, p: Param, lang: Lang) -> str:
    """The key of ``p``'s main widget; one with translated option labels ends in ``_<lang>``."""
    key = param_key(prefix, strategy, p.name)
    return f"{key}_{lang}" if p.type == "choice" or p.choices else key


def _slid(p: Param) -> bool:
    return p.type in ("int", "float") and p.min is not None and p.max is not None


def _typed(p: Param) -> bool:
    # Integers are what people type exactly (size 437); a float slider's 100 steps suffice.
    return p.type == "int" and _slid(p)


def _number(
    p: Param,
    key: str,
    label: str,
    help_text: str,
    disabled: bool,
    lang: Lang,
    bounds: tuple[float | None, float | None],
    beside: bool,
) -> Any:
    cast: Callable[[float], Any] = int if p.type == "int" else float
    low, high = bounds
    if low is not None and high is not None:
        typed = None
        if _typed(p):
            # Beside the slider in a wide column; under it in a narrow one (five per row),
            # where a third of the width would clip "1000" to "10".
            slider_col, typed_col = (
                st.columns([2, 1], vertical_alignment="bottom")
                if beside
                else (st.container(), st.container())
            )
            typed = typed_col.number_input(
                tr("param.typed", name=label, lang=lang),
                min_value=cast(low),
                max_value=cast(high),
                step=1,
                key=typed_key(key),
                disabled=disabled,
                label_visibility="collapsed",
            )
        else:
            slider_col = st.container()
        if low == high:
            # A slider needs two ends (overlap when size is 1): the typed input alone shows it.
            return cast(low) if typed is None else typed
        # The step comes from the schema's range, not the narrowed one, so it does not jump.
        top = min(p.max or high, SLIDER_MAX)
        step = 1 if p.type == "int" else (top - (p.min or 0)) / 100
        return slider_col.slider(
            label,
            min_value=cast(low),
            max_value=cast(high),
            step=cast(step),
            key=key,
            help=help_text,
            disabled=disabled,
        )
    given: dict[str, Any] = {}
    if low is not None:
        given["min_value"] = cast(low)
    if high is not None:
        given["max_value"] = cast(high)
    return st.number_input(label, key=key, help=help_text, disabled=disabled, **given)


def _choice(p: Param, key: str, label: str, help_text: str, disabled: bool, lang: Lang) -> Any:
    names = {c: _word(lang, "choice", c) for c in p.choices}
    if len(p.choices) <= 4:
        return st.radio(
            label,
            p.choices,
            key=key,
            help=help_text,
            horizontal=True,
            format_func=names.__getitem__,
            disabled=disabled,
        )
    return st.selectbox(
        label, p.choices, key=key, help=help_text, format_func=names.__getitem__, disabled=disabled
    )


def _offered(p: Param) -> list[str]:
    """A text parameter's known values, less those naming a backend that cannot load here."""
    missing = {i.name for i in backend_infos() if not i.available}
    return [c for c in p.choices if c not in missing]


def _text(p: Param, key: str, label: str, help_text: str, disabled: bool, lang: Lang) -> Any:
    if not p.choices:
        return st.text_input(label, key=key, help=help_text, disabled=disabled)
    # Known values in a list, and any other the user types (st:<model>): the schema allows it.
    options = _offered(p)
    current = st.session_state.get(key)
    if isinstance(current, str) and current and current not in options:
        options.append(current)
    return st.selectbox(
        label,
        options,
        key=key,
        help=help_text,
        disabled=disabled,
        accept_new_options=True,
        format_func=lambda c: _word(lang, "choice", c),
    )


def _resolve(spec: Strategy, values: Mapping[str, Any], keys: Mapping[str, str]) -> dict[str, Any]:
    """Every parameter's value before any widget is drawn, so each range can follow the others.

    A number drawn as slider and typed input takes the one the user changed; a change that
    breaks a relation with another change of the same rerun is put back (``settle``). Returns
    the values in effect (None for a switched-off optional parameter).
    """
    ss = st.session_state
    previous: dict[str, Any] = {}
    proposed: dict[str, Any] = {}
    for p in spec.params:
        key = keys[p.name]
        start = values.get(p.name, p.default)
        previous[p.name] = start
        value = ss[key]
        if _typed(p):
            bind(typed_key(key), value)
            value = changed_value(
                _fallback(p) if start is None else start, value, ss[typed_key(key)]
            )
        on = ss.get(key + "__on", True) if p.optional else True
        proposed[p.name] = value if on else None
    for p in spec.params:
        if p.optional and previous[p.name] is None and proposed[p.name] is not None:
            # Just switched on: its disabled widget's value starts within the others' bounds.
            proposed[p.name] = start_within(spec.params, proposed, p.name, proposed[p.name])
        if _typed(p) and proposed[p.name] is not None:
            # Both widgets show the one value; written before either is drawn in this run.
            ss[keys[p.name]] = ss[typed_key(keys[p.name])] = proposed[p.name]
    settled = settle(spec.params, previous, proposed)
    for p in spec.params:
        if _typed(p) and settled[p.name] is not None:
            ss[keys[p.name]] = ss[typed_key(keys[p.name])] = settled[p.name]
    return settled


def param_controls(
    spec: Strategy,
    values: Mapping[str, Any],
    *,
    prefix: str,
    lang: Lang,
    columns: int = 3,
    tokenizer: str | None = None,
) -> dict[str, Any]:
    """Draw the widgets of every parameter of ``spec`` and return the chosen values by name.

    An integer with a range gets a slider and, beside it, a typed input bound to the same value
    (``typed_key``). The range of each number follows the schema's relations with the others'
    current values (``chunkviz.views.param_ranges``): overlap offers at most size - 1 and size
    at least overlap + 1, so the controls cannot make an invalid pair.

    Args:
        spec: The strategy.
        values: Where the widgets start (the app state's values; defaults for the rest).
        prefix: Widget keys are ``param_key(prefix, spec.name, p.name)`` (a widget with
            translated option labels ends in ``_<lang>``, see ``widget_key``).
        lang: The UI language of labels and help.
        columns: Widgets per row.
        tokenizer: Name of the tokenizer that counts tokens, shown in labels of lengths in
            tokens ("Size (tokens of char-2gram)").
    """
    chosen: dict[str, Any] = {}
    if not spec.params:
        return chosen
    unit_key = param_key(prefix, spec.name, "unit") + f"_{lang}"
    unit = st.session_state.get(unit_key, values.get("unit", "chars"))
    keys = {p.name: widget_key(prefix, spec.name, p, lang) for p in spec.params}
    for p in spec.params:
        value = values.get(p.name, p.default)
        bind(keys[p.name], _fallback(p) if value is None else value)
        if p.optional:
            bind(keys[p.name] + "__on", value is not None)
    settled = _resolve(spec, values, keys)
    # A parameter that only matters when another is on (``max_shift`` without ``snap``) is not
    # drawn, by the same rule that leaves it out of labels and links: it keeps its value.
    idle = set(settled) - set(active_params(settled)) - {"snap"}
    shown = [p for p in spec.params if p.name not in idle]
    chosen.update({name: settled[name] for name in idle})
    cols = st.columns(min(columns, max(1, len(shown))))
    for i, p in enumerate(shown):
        key = keys[p.name]
        label = param_label(lang, p, unit, tokenizer)
        help_text = param_help(lang, spec, p)
        with cols[i % len(cols)]:
            enabled = True
            if p.optional:
                enabled = st.checkbox(
                    tr("param.use", name=label, lang=lang),
                    key=key + "__on",
                    help=tr("param.use_help", name=label, lang=lang),
                )
            if p.type in ("int", "float"):
                bounds = (
                    control_range(spec.params, settled, p.name, SLIDER_MAX)
                    if _slid(p)
                    else (p.min, p.max)
                )
                result = _number(
                    p, key, label, help_text, not enabled, lang, bounds, beside=columns <= 3
                )
            else:
                result = _WIDGETS[p.type](p, key, label, help_text, not enabled, lang)
        chosen[p.name] = result if enabled else None
    return chosen


def _bool(p: Param, key: str, label: str, help_text: str, disabled: bool, lang: Lang) -> Any:
    return st.toggle(label, key=key, help=help_text, disabled=disabled)


Widget = Callable[[Param, str, str, str, bool, Lang], Any]

_WIDGETS: dict[str, Widget] = {
    "bool": _bool,
    "choice": _choice,
    "str": _text,
}
