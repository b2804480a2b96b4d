"""The strategy registry: names, parameter schemas and the pure functions behind them.

The UI builds every control from ``Param`` schemas and the CLI builds every ``--option`` from
them, so a strategy is added in exactly one place: its module, with ``@register``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NoReturn

from chunkviz.errors import Message, ParameterError, UnknownStrategyError, shown
from chunkviz.model import ChunkingResult

ParamType = Literal["int", "float", "bool", "choice", "str"]
Gaps = Literal["none", "whitespace"]


@dataclass(frozen=True, slots=True)
class Param:
    """Schema of one strategy parameter.

    Attributes:
        name: Keyword name (``size``, ``overlap``, ``unit`` ...).
        type: ``int``, ``float``, ``bool``, ``choice`` or ``str``.
        default: Value used when the caller gives none (``None`` means "off").
        min: Smallest allowed value for numbers (inclusive), or None.
        max: Largest allowed value for numbers (inclusive), or None.
        unit: What the number counts (``chars``, ``tokens``, ``sentences``, ``%``) or "".
        help: One-line help in English (``chunkviz.text`` translates it).
        choices: Allowed values for ``choice`` parameters; for ``str`` parameters, the known
            values to offer (any other text is still accepted, e.g. ``st:<model>``).
        optional: Whether ``None`` is accepted (a cap that can be switched off).
        less_than: Name of a parameter this value must stay strictly below (``overlap`` <
            ``size``); the strategy refuses a pair that breaks it, and the UI bounds both.
        at_most: Name of a parameter this value must not exceed (``min_size`` <= ``max_size``).
    """

    name: str
    type: ParamType
    default: Any
    min: float | None = None
    max: float | None = None
    unit: str = ""
    help: str = ""
    choices: tuple[str, ...] = ()
    optional: bool = False
    less_than: str | None = None
    at_most: str | None = None

    def validate(self, value: Any) -> Any:
        """Return ``value`` converted to this parameter's type, or raise ParameterError.

        Integers include NumPy's (``np.int64(5)``); a float must be finite. Every refusal names
        the parameter, shows the value, and states the rule and the fix.
        """
        kind = type(value)
        if kind is int and self.type == "int":
            # The common case, first: a number of the right type needs only its range checked.
            self._check_range(value)
            return value
        if kind is float and self.type == "float":
            if not math.isfinite(value):  # NaN passes every comparison of the range check
                self._refuse(value)
            self._check_range(value)
            return value
        if value is None:
            if self.optional:
                return None
            fix = self._fix()
            raise ParameterError("param_required", name=self.name, rule=fix)
        if self.type == "int":
            return self._as_int(value)
        if self.type == "float":
            if isinstance(value, bool) or not isinstance(value, numbers.Real | str):
                self._refuse(value)
            try:
                number = float(value)
            except (TypeError, ValueError, OverflowError):
                self._refuse(value)
            if not math.isfinite(number):
                self._refuse(value)
            self._check_range(number)
            return number
        if self.type == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in {"true", "1", "yes", "false", "0", "no"}:
                return value.lower() in {"true", "1", "yes"}
            self._refuse(value)
        if self.type == "choice":
            if not isinstance(value, str) or value not in self.choices:
                self._refuse(value)
            return value
        if not isinstance(value, str):
            self._refuse(value)
        return value

    def _as_int(self, value: Any) -> int:
        if isinstance(value, bool):
            self._refuse(value)
        if isinstance(value, numbers.Integral):  # int subclasses, np.int64
            converted = int(value)
        elif isinstance(value, numbers.Real):  # 5.0 is 5; 5.5 is not an integer
            number = float(value)
            if not math.isfinite(number) or not number.is_integer():
                self._refuse(value)
            converted = int(number)
        elif isinstance(value, str):
            try:
                converted = int(value.strip())
            except ValueError:
                self._refuse(value)
        else:
            self._refuse(value)
        self._check_range(converted)
        return converted

    def _kind(self) -> Message:
        return Message(f"kind_{self.type}", choices=self.choices)

    def _fix(self) -> Message:
        if self.type in ("int", "float"):
            rule = self._rule()
            return Message(f"{rule.code}_{self.type}", **rule.params)
        if self.type == "choice":
            return Message("fix_choice", choices=self.choices)
        return Message(f"fix_{self.type}")

    def _refuse(self, value: Any) -> NoReturn:
        fix = Message("fix_those") if self.type == "choice" else self._fix()
        raise ParameterError("param_type", name=self.name, value=value, kind=self._kind(), rule=fix)

    def _rule(self) -> Message:
        if self.min is not None and self.max is not None:
            return Message("rule_between", min=self.min, max=self.max)
        if self.min is not None:
            return Message("rule_at_least", min=self.min)
        if self.max is not None:
            return Message("rule_at_most", max=self.max)
        return Message("rule_any")

    def _check_range(self, value: float) -> None:
        too_small = self.min is not None and value < self.min
        too_large = self.max is not None and value > self.max
        if too_small or too_large:
            raise ParameterError("param_range", name=self.name, value=value, rule=self._rule())


@dataclass(frozen=True, slots=True)
class Relation:
    """``small`` must stay below ``large``: strictly (``<``) or not (``<=``).

    Declared on the schema (``Param.less_than``, ``Param.at_most``); ``Strategy.validate``
    enforces it and the UI bounds both controls by it, so the API, the CLI and the pages share
    one rule and one message.
    """

    small: str
    large: str
    strict: bool

    def holds(self, values: Mapping[str, Any]) -> bool:
        """Whether ``values`` keep the relation (a pair with a switched-off value always does)."""
        a, b = values.get(self.small), values.get(self.large)
        if a is None or b is None:
            return True
        return bool(a < b) if self.strict else bool(a <= b)

    def describe(self) -> str:
        """``overlap < size``."""
        return f"{self.small} {'<' if self.strict else '<='} {self.large}"

    def message(self, values: Mapping[str, Any]) -> str:
        """What a pair that breaks the relation is told: the rule, the values and the fix."""
        return str(self.error(values))

    def error(self, values: Mapping[str, Any]) -> ParameterError:
        """The refusal of a pair that breaks the relation: the rule, the values and the fix.

        overlap < size keeps the code the overlap rule has always had (``error.overlap``).
        """
        small, large = values[self.small], values[self.large]
        if (self.small, self.large) == ("overlap", "size"):
            return ParameterError("overlap", overlap=small, size=large, most=large - 1)
        if self.strict:
            if not isinstance(large, int):
                return ParameterError(
                    "relation_below",
                    small=self.small,
                    large=self.large,
                    small_value=small,
                    large_value=large,
                )
            return ParameterError(
                "relation_less_than",
                small=self.small,
                large=self.large,
                small_value=small,
                large_value=large,
                most=large - 1,
            )
        return ParameterError(
            "relation_at_most",
            small=self.small,
            large=self.large,
            small_value=small,
            large_value=large,
            most=large,
        )


def relations(params: Sequence[Param]) -> tuple[Relation, ...]:
    """Every relation the schemas declare between two parameters of the same strategy."""
    names = {p.name for p in params}
    found = []
    for p in params:
        if p.less_than in names:
            found.append(Relation(p.name, str(p.less_than), strict=True))
        if p.at_most in names:
            found.append(Relation(p.name, str(p.at_most), strict=False))
    return tuple(found)


#: What each resource must be able to do (a string given where an object belongs, such as
#: ``embedder="x"``, failed later with AttributeError): its method, how to make one, and the
#: parameter that makes one instead (or None).
RESOURCE_METHODS: Mapping[str, tuple[str, str, str | None]] = {
    "tokenizer": ("token_spans", 'get_tokenizer("use-m3") from chunkviz.tokenizers', None),
    "embedder": (
        "encode_documents",
        'get_backend("tfidf") from chunkviz.retrieval.backends',
        "model",
    ),
    "language_model": ("perplexities", 'get_language_model("char-ngram") from chunkviz.lm', "lm"),
}


def check_resources(resources: Mapping[str, Any]) -> None:
    """Refuse a resource (``tokenizer``, ``embedder``, ``language_model``) that cannot serve.

    None means "the default" and passes.

    Raises:
        ParameterError: A resource lacks the method it is used through; the message names it.
    """
    for name, value in resources.items():
        if value is None or name not in RESOURCE_METHODS:
            continue
        method, make, option = RESOURCE_METHODS[name]
        if not callable(getattr(value, method, None)):
            if option is None:
                raise ParameterError(
                    "bad_resource", name=name, method=method, value=shown(value), make=make
                )
            raise ParameterError(
                "bad_resource_or",
                name=name,
                method=method,
                value=shown(value),
                make=make,
                option=option,
            )


@dataclass(frozen=True, slots=True)
class Strategy:
    """A registered chunking strategy.

    Attributes:
        name: Snake-case name used by the API, CLI, URL and UI.
        description: One line in English, plain text (``chunkviz.text`` translates it).
        params: Parameter schemas, in the order the UI shows them.
        gaps: What may stay uncovered by chunks: ``"none"`` or ``"whitespace"``.
        fn: Pure function ``fn(text, **params, **resources) -> ChunkingResult``.
        size_param: Name of the parameter that bounds each chunk's length, if any.
        resources: Names of non-schema keyword arguments it accepts (``tokenizer``,
            ``embedder``, ``language_model``): objects, not settings.
    """

    name: str
    description: str
    params: tuple[Param, ...]
    gaps: Gaps
    fn: Callable[..., ChunkingResult] = field(repr=False)
    size_param: str | None = None
    resources: frozenset[str] = frozenset()
    _names: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_names", frozenset(p.name for p in self.params))

    def param(self, name: str) -> Param:
        """The schema of parameter ``name``."""
        for p in self.params:
            if p.name == name:
                return p
        raise ParameterError(
            "no_param", strategy=self.name, name=name, params=[p.name for p in self.params]
        )

    def defaults(self) -> dict[str, Any]:
        """Default value of every parameter."""
        return {p.name: p.default for p in self.params}

    def validate(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Fill defaults, check each value against its schema and each declared relation.

        Raises:
            ParameterError: An unknown parameter, a value that breaks its rule, or a pair that
                breaks a declared relation (``overlap < size``, ``min_size <= max_size``).
        """
        # NOTE: no memo of checked sets on this shared object: bench/chunking.py meets issue 2's
        # targets without one (docs/benchmarks.md), and the check is about 1 µs per call.
        unknown = sorted(params.keys() - self._names)
        if unknown:
            raise ParameterError(
                "no_param_given",
                strategy=self.name,
                name=unknown[0],
                value=params[unknown[0]],
                params=[p.name for p in self.params],
            )
        checked = {p.name: p.validate(params.get(p.name, p.default)) for p in self.params}
        for rel in relations(self.params):
            if not rel.holds(checked):
                raise rel.error(checked)
        return checked


_REGISTRY: dict[str, Strategy] = {}


def register(strategy: Strategy) -> Strategy:
    """Add ``strategy`` to the registry; a duplicate name is a programming error."""
    if strategy.name in _REGISTRY:
        raise ValueError(f"strategy {strategy.name!r} is already registered")
    _REGISTRY[strategy.name] = strategy
    return strategy


def get_strategy(name: str) -> Strategy:
    """The strategy called ``name``.

    Raises:
        UnknownStrategyError: No strategy has that name; the message lists the names.
    """
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownStrategyError(
            "unknown_strategy", name=name, choices=sorted(_REGISTRY)
        ) from None


def all_strategies() -> Sequence[Strategy]:
    """Every registered strategy, in registration order."""
    return tuple(_REGISTRY.values())
