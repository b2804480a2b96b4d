"""Widgets built from a strategy's ``Param`` schemas: one function for every strategy.

A new strategy registered in ``chunkviz.strategies`` gets its controls here without page code:
numbers become sliders (or number inputs when unbounded), booleans toggles, choices radios or
select boxes, text a text input; an optional parameter gets an "on" checkbox. Labels and help
come from the schema in the UI language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from chunkviz.strategies.registry import Param, Strategy
from chunkviz.ui.i18n import current_lang, tr

# Sliders are for moving in front of a class; beyond this a slider's pixels are too coarse to
# pick a value, so the UI stops there (the API and CLI take any value the schema allows).
SLIDER_MAX = 4000

_T = {
    "en": {
        "size": "Size",
        "overlap": "Overlap",
        "unit": "Unit",
        "max_size": "Max size",
        "max_sentences": "Max sentences",
        "chars": "characters",
        "tokens": "tokens",
        "sentences": "sentences",
        "use": "Set {name}",
        "use_help": "Off: no {name} (the strategy's default behaviour).",
        "slider_cap": "The slider stops at {cap}; the API and CLI accept up to {max}.",
    },
    "ja": {
        "size": "サイズ",
        "overlap": "オーバーラップ",
        "unit": "単位",
        "max_size": "最大長",
        "max_sentences": "最大文数",
        "chars": "文字",
        "tokens": "トークン",
        "sentences": "文",
        "use": "{name} を指定する",
        "use_help": "オフ：{name} を指定しない（戦略の既定の動作）。",
        "slider_cap": "スライダーの上限は {cap} です（API と CLI では {max} まで指定できます）。",
    },
}


def param_key(prefix: str, strategy: str, name: str) -> str:
    """The session-state key of a parameter's widget (per strategy, so values survive a switch)."""
    return f"{prefix}{strategy}_{name}"


def _label(p: Param) -> str:
    table = _T.get(current_lang(), _T["en"])
    name = table.get(p.name, p.name)
    unit = p.unit
    if unit in ("chars", "tokens", "sentences"):
        unit = table[unit]
    return f"{name} ({unit})" if unit and unit != "chars/tokens" else name


def _help(p: Param) -> str:
    text = p.help_ja if current_lang() == "ja" and p.help_ja else p.help
    if p.type in ("int", "float") and p.max is not None and p.max > SLIDER_MAX:
        text += "  \n" + tr(_T, "slider_cap", cap=SLIDER_MAX, max=f"{p.max:g}")
    return text


def _choice_label(value: str) -> str:
    table = _T.get(current_lang(), _T["en"])
    return table.get(value, value) if value in ("chars", "tokens") else value


def _number(p: Param, key: str, disabled: bool) -> Any:
    is_int = p.type == "int"
    cast: Callable[[float], Any] = int if is_int else float
    if p.min is not None and p.max is not None:
        top = min(p.max, SLIDER_MAX) if p.max > SLIDER_MAX else p.max
        step = 1 if is_int else (top - p.min) / 100
        return st.slider(
            _label(p), min_value=cast(p.min), max_value=cast(top), step=cast(step),
            key=key, help=_help(p), disabled=disabled,
        )
    kwargs: dict[str, Any] = {}
    if p.min is not None:
        kwargs["min_value"] = cast(p.min)
    if p.max is not None:
        kwargs["max_value"] = cast(p.max)
    return st.number_input(_label(p), key=key, help=_help(p), disabled=disabled, **kwargs)


def _bool(p: Param, key: str, disabled: bool) -> Any:
    return st.toggle(_label(p), key=key, help=_help(p), disabled=disabled)


def _choice(p: Param, key: str, disabled: bool) -> Any:
    if len(p.choices) <= 4:
        return st.radio(_label(p), p.choices, key=key, help=_help(p), horizontal=True,
                        format_func=_choice_label, disabled=disabled)
    return st.selectbox(_label(p), p.choices, key=key, help=_help(p),
                        format_func=_choice_label, disabled=disabled)


def _text(p: Param, key: str, disabled: bool) -> Any:
    return st.text_input(_label(p), key=key, help=_help(p), disabled=disabled)


_WIDGETS: dict[str, Callable[[Param, str, bool], Any]] = {
    "int": _number,
    "float": _number,
    "bool": _bool,
    "choice": _choice,
    "str": _text,
}


def _fallback(p: Param) -> Any:
    """The value a widget starts at when the schema's default is None (an optional parameter)."""
    if p.default is not None:
        return p.default
    if p.type in ("int", "float"):
        # An optional cap starts somewhere useful once switched on: a typical chunk length for
        # lengths, a handful for counts (sentences), never below min or above max.
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


def seed_values(spec: Strategy, values: dict[str, Any], *, prefix: str) -> list[str]:
    """Put ``values`` (from a shared link) into the widgets' state before they are drawn.

    Returns:
        One message per value the controls cannot show (above a slider's end); those keep
        their current value.
    """
    problems = []
    for p in spec.params:
        if p.name not in values:
            continue
        value = values[p.name]
        bounded = p.type in ("int", "float") and p.min is not None and p.max is not None
        if bounded and value is not None and value > min(p.max or 0, SLIDER_MAX):
            problems.append(
                f"{p.name}={value} from the link is above the slider's end ({SLIDER_MAX}); "
                "use the API or the CLI for larger values"
            )
            continue
        if p.optional:
            st.session_state[param_key(prefix, spec.name, p.name) + "__on"] = value is not None
        if value is not None:
            st.session_state[param_key(prefix, spec.name, p.name)] = value
    return problems


def param_controls(spec: Strategy, *, prefix: str, columns: int = 3) -> dict[str, Any]:
    """Draw one widget per parameter of ``spec`` and return the chosen values by name.

    Values persist in ``st.session_state`` under ``param_key(prefix, spec.name, p.name)``;
    a parameter's schema default seeds its widget the first time.
    """
    values: dict[str, Any] = {}
    if not spec.params:
        return values
    cols = st.columns(min(columns, len(spec.params)))
    for i, p in enumerate(spec.params):
        key = param_key(prefix, spec.name, p.name)
        st.session_state.setdefault(key, _fallback(p))
        with cols[i % len(cols)]:
            enabled = True
            if p.optional:
                on_key = key + "__on"
                st.session_state.setdefault(on_key, p.default is not None)
                enabled = st.checkbox(tr(_T, "use", name=_label(p)), key=on_key,
                                      help=tr(_T, "use_help", name=p.name))
            value = _WIDGETS[p.type](p, key, not enabled)
        values[p.name] = value if enabled else None
    return values
