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
from chunkviz.text import Lang, has, text
from chunkviz.ui.state import bind

# Sliders are for moving in front of a class; beyond this a slider's pixels are too coarse to
# pick a value, so the UI stops there (the API and CLI take any value the schema allows).
SLIDER_MAX = 4000


def param_key(prefix: str, strategy: str, name: str) -> str:
    """The widget key of a parameter (per strategy, so each keeps its own value)."""
    return f"{prefix}{strategy}_{name}"


def _word(lang: Lang, section: str, value: str) -> str:
    key = f"{section}.{value}"
    return text(lang, key) if has("en", key) else value


def param_label(lang: Lang, p: Param, unit: str = "chars") -> str:
    """``Size (characters)``: the parameter's name and unit in ``lang``.

    Args:
        lang: The UI language.
        p: The parameter.
        unit: The strategy's current ``unit`` value, for lengths counted in either unit.
    """
    name = _word(lang, "param", p.name)
    shown = unit if p.unit == "chars/tokens" else p.unit
    if not shown:
        return name
    return text(lang, "param.label", name=name, unit=_word(lang, "unit", shown))


def param_help(lang: Lang, spec: Strategy, p: Param) -> str:
    """The parameter's help in ``lang``, with the slider's end when it stops short of the max."""
    key = f"strategy.{spec.name}.help.{p.name}"
    # A strategy outside the registry (a test's, a plug-in's) has only its own English help.
    help_text = text(lang, key) if has("en", key) else p.help
    if p.type in ("int", "float") and p.max is not None and p.max > SLIDER_MAX:
        help_text += "  \n" + text(lang, "param.slider_cap", cap=SLIDER_MAX, max=f"{p.max:g}")
    return help_text


def strategy_description(lang: Lang, spec: Strategy) -> str:
    """The strategy's one-line description in ``lang``."""
    key = f"strategy.{spec.name}.description"
    return text(lang, key) if has("en", key) else spec.description


def link_problems(spec: Strategy, values: Mapping[str, Any]) -> dict[str, str]:
    """Values (from a shared link) that the controls cannot show, with a message for each."""
    problems = {}
    for p in spec.params:
        value = values.get(p.name)
        bounded = p.type in ("int", "float") and p.min is not None and p.max is not None
        if bounded and value is not None and value > min(p.max or 0, SLIDER_MAX):
            problems[p.name] = (
                f"{p.name}={value} from the link is above the slider's end ({SLIDER_MAX}); "
                "use the API or the CLI for larger values"
            )
    return problems


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


Widget = Callable[[Param, str, str, str, bool, Lang], Any]


def _number(p: Param, key: str, label: str, help_text: str, disabled: bool, lang: Lang) -> Any:
    cast: Callable[[float], Any] = int if p.type == "int" else float
    if p.min is not None and p.max is not None:
        top = min(p.max, SLIDER_MAX)
        step = 1 if p.type == "int" else (top - p.min) / 100
        return st.slider(label, min_value=cast(p.min), max_value=cast(top), step=cast(step),
                         key=key, help=help_text, disabled=disabled)
    bounds: dict[str, Any] = {}
    if p.min is not None:
        bounds["min_value"] = cast(p.min)
    if p.max is not None:
        bounds["max_value"] = cast(p.max)
    return st.number_input(label, key=key, help=help_text, disabled=disabled, **bounds)


def _bool(p: Param, key: str, label: str, help_text: str, disabled: bool, lang: Lang) -> Any:
    return st.toggle(label, key=key, help=help_text, disabled=disabled)


def _choice(p: Param, key: str, label: str, help_text: str, disabled: bool, lang: Lang) -> Any:
    names = {c: _word(lang, "choice", c) for c in p.choices}
    if len(p.choices) <= 4:
        return st.radio(label, p.choices, key=key, help=help_text, horizontal=True,
                        format_func=names.__getitem__, disabled=disabled)
    return st.selectbox(label, p.choices, key=key, help=help_text,
                        format_func=names.__getitem__, disabled=disabled)


def _text(p: Param, key: str, label: str, help_text: str, disabled: bool, lang: Lang) -> Any:
    return st.text_input(label, key=key, help=help_text, disabled=disabled)


_WIDGETS: dict[str, Widget] = {
    "int": _number,
    "float": _number,
    "bool": _bool,
    "choice": _choice,
    "str": _text,
}


def param_controls(
    spec: Strategy,
    values: Mapping[str, Any],
    *,
    prefix: str,
    lang: Lang,
    columns: int = 3,
) -> dict[str, Any]:
    """Draw one widget per parameter of ``spec`` and return the chosen values by name.

    Args:
        spec: The strategy.
        values: Where the widgets start (the app state's values; defaults for the rest).
        prefix: Widget keys are ``param_key(prefix, spec.name, p.name)`` (a choice widget's
            key ends in ``_<lang>``: its labels are translated).
        lang: The UI language of labels and help.
        columns: Widgets per row.
    """
    chosen: dict[str, Any] = {}
    if not spec.params:
        return chosen
    cols = st.columns(min(columns, len(spec.params)))
    unit_key = param_key(prefix, spec.name, "unit") + f"_{lang}"
    unit = st.session_state.get(unit_key, values.get("unit", "chars"))
    for i, p in enumerate(spec.params):
        key = param_key(prefix, spec.name, p.name)
        if p.type == "choice":
            key += f"_{lang}"
        value = values.get(p.name, p.default)
        bind(key, _fallback(p) if value is None else value)
        label = param_label(lang, p, unit)
        with cols[i % len(cols)]:
            enabled = True
            if p.optional:
                bind(key + "__on", value is not None)
                enabled = st.checkbox(text(lang, "param.use", name=label), key=key + "__on",
                                      help=text(lang, "param.use_help", name=label))
            result = _WIDGETS[p.type](p, key, label, param_help(lang, spec, p), not enabled,
                                      lang)
        chosen[p.name] = result if enabled else None
    return chosen
