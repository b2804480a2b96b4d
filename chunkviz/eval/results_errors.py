"""Why msgspec refused a results file, in our words: the field, its value and the rule.

msgspec's ``ValidationError`` carries no structured location (checked on msgspec 0.23.0, the
newest release; upstream issues msgspec#264 and msgspec#1158 ask for one): its message ends with
the path of the field, `` - at `$.configs[0].chunks` ``. ``error_path`` reads that suffix and
nothing else of the message. The rule is then worded from the results file's own JSON Schema
(generated from the structs, ``results_schema.results_json_schema``) and the value found at
that path: a wrong type names the types allowed, a broken bound names the bound, a missing
field is named. Nothing depends on msgspec's English wording, so another release of msgspec
that words its messages differently changes none of ours. The words are the catalogues'
(``error.schema_*`` for a rule's pieces, ``error.results_schema_*`` for the sentence), so a
page reads the problem in its own language.

A mapping's key is shown by msgspec as ``[...]``; it is found again by typing the file with
that mapping narrowed by halves (only on this path, only for a file of at most
``NARROW_BYTES``, and at most ``NARROW_TRIES`` times: else it stays ``[...]``).
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from chunkviz.errors import Message, Whole
from chunkviz.eval.results_schema import Results, results_json_schema

#: One step of a path: a field or key, an index, or a mapping key msgspec does not name.
Step = str | int | None

#: Largest file whose mapping keys are looked for, and how many decodes that may take.
NARROW_BYTES = 8 * 1024 * 1024
NARROW_TRIES = 24
#: The integers msgspec decodes (int64 and uint64).
_INT_RANGE = (-(2**63), 2**64 - 1)
_AT = " - at `$"
_TYPES = {
    "integer": Message("schema_integer"),
    "number": Message("schema_number"),
    "string": Message("schema_string"),
    "boolean": Message("schema_boolean"),
    "object": Message("schema_object"),
    "array": Message("schema_array"),
    "null": Message("schema_null"),
}
#: What a field is called when msgspec names no path: the file as a whole.
_TOP = Message("schema_top_level")


class Digits:
    """An integer too long for Python to convert (over 4,300 digits): of no type msgspec takes."""

    def __init__(self, digits: str) -> None:
        self.digits = digits

    def __str__(self) -> str:
        return f"{self.digits[:20]}... ({len(self.digits):,} digits)"


def parse_small(raw: bytes) -> Any:
    """``raw`` parsed to find a field's value, when it is small enough for that.

    Raises:
        LookupError: Larger than ``NARROW_BYTES``.
    """
    if len(raw) > NARROW_BYTES:
        raise LookupError("too large to narrow")
    return json.loads(raw, parse_int=lambda d: int(d) if len(d) <= 4000 else Digits(d))


def error_path(exc: msgspec.ValidationError) -> list[Step]:
    """The path msgspec names at the end of its message, as steps.

    `` - at `$.configs[0].chunks` `` -> ``["configs", 0, "chunks"]``; `` `$.ranks[...][2]` `` ->
    ``["ranks", None, 2]`` (a mapping key msgspec does not name). msgspec (through 0.23) offers
    the location only in this suffix; nothing else of its message is read. A message without
    one (an error at the top level) or with one of another form gives the top level, ``[]``.
    """
    _head, sep, tail = str(exc).rpartition(_AT)
    if not sep or not tail.endswith("`"):
        return []
    path, i = tail[:-1], 0
    steps: list[Step] = []
    while i < len(path):
        if path[i] == ".":
            end = next((j for j in range(i + 1, len(path)) if path[j] in ".["), len(path))
            steps.append(path[i + 1 : end])
        elif path[i] == "[" and "]" in path[i:]:
            end = path.index("]", i) + 1
            inner = path[i + 1 : end - 1]
            if inner != "..." and not inner.isdigit():
                return []
            steps.append(None if inner == "..." else int(inner))
        else:
            return []
        i = end
    return steps


def problem(exc: msgspec.ValidationError, parse: Callable[[], Any], where: str) -> Message:
    """The sentence that says what breaks which rule: ``x.json: configs[0].chunks must be ...``.

    Args:
        exc: What msgspec raised while typing the file.
        parse: Gives the file as parsed JSON (may raise: the value is then not shown, and the
            rule is given whole).
        where: What to call the file (a ``Message`` is rendered in the reader's language).
    """
    steps = error_path(exc)
    try:
        return _worded(steps, parse, shown_where(where))
    except (LookupError, StopIteration, TypeError, ValueError):  # a path the schema lacks
        return Message("results_schema_type", where=shown_where(where), field=_field(steps))


def shown_where(where: str) -> str:
    """``where`` (what a file is called) as shown: a ``Message`` worded, else whole."""
    return where if isinstance(where, Message) else Whole(where)


def _field(steps: Sequence[Step]) -> str:
    text = _path_text(steps)
    return Whole(text) if text else _TOP


def _worded(steps: list[Step], parse: Callable[[], Any], where: str) -> Message:
    try:
        steps, value = _locate(parse(), steps)
    except Exception:  # noqa: BLE001 - showing the value is a courtesy; the rule still stands
        return Message(
            "results_schema_rule", where=where, field=_field(steps), rule=_rule(_schema_at(steps))
        )
    node = _schema_at(steps)
    field = _path_text(steps)
    missing = _missing(node, value)
    if missing:
        return Message(
            "results_at",
            where=where,
            problem=Message(
                "results_field_missing", field=Whole(f"{field}.{missing}" if field else missing)
            ),
        )
    text = json.dumps(value, ensure_ascii=False, default=str)
    shown = text if len(text) <= 60 else text[:57] + "..."
    return Message(
        "results_schema_got",
        where=where,
        field=_field(steps),
        rule=_broken(node, value),
        value=Whole(shown),
    )


# ---------------------------------------------------------------------------- the schema


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    root = results_json_schema()
    while "$ref" in node:
        node = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _alternatives(node: dict[str, Any]) -> list[dict[str, Any]]:
    node = _resolve(node)
    return [_resolve(n) for n in node["anyOf"]] if "anyOf" in node else [node]


def _schema_at(steps: Sequence[Step]) -> dict[str, Any]:
    """The JSON Schema of the field at ``steps``."""
    node = _resolve(results_json_schema())
    for step in steps:
        options = _alternatives(node)
        if isinstance(step, int):
            node = next(n for n in options if n.get("type") == "array")
            items = node.get("prefixItems", [])
            node = items[step] if step < len(items) else node["items"]
        else:
            node = next(n for n in options if n.get("type") == "object")
            node = node.get("properties", {}).get(step) or node["additionalProperties"]
    return node


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | Digits):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list | tuple) else "object"


def _fits(node: dict[str, Any], value: Any) -> bool:
    """Whether ``value`` has the type of ``node`` (an enum: is one of its values)."""
    if "enum" in node:
        return value in node["enum"]
    kind, found = node.get("type"), _json_type(value)
    return kind == found or (kind == "number" and found == "integer")


def _type_words(node: dict[str, Any]) -> Message:
    if "enum" in node:
        return Message("schema_enum", choices=[Whole(str(v)) for v in node["enum"]])
    return _TYPES.get(str(node.get("type"))) or Message("schema_other")


def _joined(parts: Sequence[Message | str], *, either: bool = False) -> Message | str:
    """``parts`` joined two at a time by ``error.schema_and`` (``schema_or`` if ``either``)."""
    out = parts[0]
    for part in parts[1:]:
        out = (
            Message("schema_or", first=out, second=part)
            if either
            else Message("schema_and", first=out, second=part)
        )
    return out


def _bounded(kind: Message, bounds: Sequence[Message | str]) -> Message:
    """``an integer >= 0``: a type with its bounds (the type alone when it has none)."""
    return Message("schema_bounded", type=kind, bounds=_joined(bounds)) if (bounds) else kind


def _bounds(node: dict[str, Any], value: Any = None) -> list[tuple[Message | str, bool]]:
    """Each bound of ``node``: its words, and whether ``value`` keeps it (any, for no value)."""
    number = node.get("type") == "number"
    kept = value is None
    out: list[tuple[Message | str, bool]] = []
    for name, sign, test in (
        ("minimum", ">=", operator.ge),
        ("exclusiveMinimum", ">", operator.gt),
        ("maximum", "<=", operator.le),
        ("exclusiveMaximum", "<", operator.lt),
    ):
        if name in node:
            bound = node[name]
            words = Whole(f"{sign} {float(bound)!r}" if number else f"{sign} {bound}")
            out.append((words, kept or bool(test(value, bound))))
    sized = {"string": ("minLength", "maxLength"), "array": ("minItems", "maxItems")}
    low, high = sized.get(str(node.get("type")), ("", ""))
    size = len(value) if isinstance(value, str | list | tuple) else 0
    if low in node and node[low] == node.get(high):
        out.append((Message("schema_length", n=node[low]), kept or size == node[low]))
    else:
        if low in node:
            out.append((Message("schema_length_at_least", n=node[low]), kept or size >= node[low]))
        if high in node:
            out.append((Message("schema_length_at_most", n=node[high]), kept or size <= node[high]))
    if "pattern" in node:
        pattern = node["pattern"]
        out.append(
            (
                Message("schema_pattern", pattern=Whole(repr(pattern))),
                kept or _matches(pattern, value),
            )
        )
    return out


def _matches(pattern: str, value: str) -> bool:
    import re  # the schema's own pattern, applied to the value: never to a message

    return re.search(pattern, value) is not None


def _rule(node: dict[str, Any]) -> Message | str:
    """The whole rule of ``node``: ``an integer >= 0``, ``an integer >= 1 or null``."""
    return _joined(
        [_bounded(_type_words(n), [w for w, _ in _bounds(n)]) for n in _alternatives(node)],
        either=True,
    )


def _broken(node: dict[str, Any], value: Any) -> Message | str:
    """What ``value`` breaks: the types allowed, else the bound it fails, else the whole rule."""
    options = _alternatives(node)
    fitting = [n for n in options if _fits(n, value)]
    if not fitting:
        return _joined([_type_words(n) for n in options], either=True)
    fit = fitting[0]
    if fit.get("type") in ("integer", "number") and (
        isinstance(value, Digits)
        or not math.isfinite(value)
        or (fit.get("type") == "integer" and not _INT_RANGE[0] <= value <= _INT_RANGE[1])
    ):
        return Message("schema_in_range", type=_type_words(fit))
    failed = [words for words, ok in _bounds(fit, value) if not ok]
    if failed:
        return _bounded(_type_words(fit), failed[:1])
    return _rule(node)


def _missing(node: dict[str, Any], value: Any) -> str:
    """The first required field an object lacks ("" when none is lacking)."""
    if not isinstance(value, dict):
        return ""
    for option in _alternatives(node):
        if option.get("type") == "object":
            lacking = [name for name in option.get("required", ()) if name not in value]
            if lacking:
                return str(lacking[0])
    return ""


# ---------------------------------------------------------------------------- the path


def _locate(data: Any, steps: Sequence[Step]) -> tuple[list[Step], Any]:
    """The full path and the value at ``steps`` (keys found for msgspec's ``[...]``).

    Raises:
        LookupError: A step is not in the data, or a key could not be found within the bounds.
    """
    out: list[Step] = []
    node = data
    narrowed: list[tuple[dict[str, Any], dict[str, Any]]] = []
    tries = [NARROW_TRIES]
    try:
        for step in steps:
            if step is None:
                step = _failing_key(data, node, narrowed, tries)
            out.append(step)
            node = node[step]
    except (KeyError, IndexError, TypeError) as exc:
        raise LookupError("the path is not in the data") from exc
    finally:
        for mapping, saved in reversed(narrowed):
            mapping.clear()
            mapping.update(saved)
    return out, node


def _failing_key(
    root: Any,
    mapping: dict[str, Any],
    narrowed: list[tuple[dict[str, Any], dict[str, Any]]],
    tries: list[int],
) -> str:
    """The first key of ``mapping`` whose value fails to type, found by halving the keys.

    ``mapping`` is left narrowed to it, so that deeper keys are found within it; ``_locate``
    restores it. The first failing key is msgspec's: every key before it types.
    """
    saved = dict(mapping)
    narrowed.append((mapping, saved))
    keys = list(saved)
    while len(keys) > 1:
        if tries[0] <= 0:
            raise LookupError("too many tries")
        tries[0] -= 1
        half = keys[: len(keys) // 2]
        mapping.clear()
        mapping.update((k, saved[k]) for k in half)
        try:
            msgspec.convert(root, Results)
            keys = keys[len(keys) // 2 :]
        except msgspec.ValidationError:
            keys = half
    mapping.clear()
    mapping[keys[0]] = saved[keys[0]]
    return keys[0]


def _path_text(steps: Sequence[Step]) -> str:
    """``["configs", 0, "chunks"]`` -> ``configs[0].chunks``; an unnamed key is ``[...]``."""
    text = ""
    for s in steps:
        if s is None or isinstance(s, int):
            text += "[...]" if s is None else f"[{s}]"
        else:
            text += f".{s}" if text else s
    return text
