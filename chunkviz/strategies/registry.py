"""The strategy registry: names, parameter schemas and the pure functions behind them.

The UI builds every control from ``Param`` schemas and the CLI builds every ``--option`` from
them, so a strategy is added in exactly one place: its module, with ``@register``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from chunkviz.errors import ParameterError, UnknownStrategyError
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
        help: One-line help in English.
        help_ja: The same help in Japanese.
        choices: Allowed values for ``choice`` parameters.
        optional: Whether ``None`` is accepted (a cap that can be switched off).
    """

    name: str
    type: ParamType
    default: Any
    min: float | None = None
    max: float | None = None
    unit: str = ""
    help: str = ""
    help_ja: str = ""
    choices: tuple[str, ...] = ()
    optional: bool = False

    def validate(self, value: Any) -> Any:
        """Return ``value`` converted to this parameter's type, or raise ParameterError."""
        kind = type(value)
        if (kind is int and self.type == "int") or (kind is float and self.type == "float"):
            # The common case, first: a number of the right type needs only its range checked.
            self._check_range(value)
            return value
        if value is None:
            if self.optional:
                return None
            raise ParameterError(f"{self.name} is required (got None); {self._rule()}")
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise ParameterError(f"{self.name} must be an integer (got {value!r})")
            try:
                converted = int(value) if not isinstance(value, float) else value
            except ValueError:
                raise ParameterError(f"{self.name} must be an integer (got {value!r})") from None
            if isinstance(converted, float):
                if not converted.is_integer():
                    raise ParameterError(f"{self.name} must be an integer (got {value!r})")
                converted = int(converted)
            self._check_range(converted)
            return converted
        if self.type == "float":
            if isinstance(value, bool):
                raise ParameterError(f"{self.name} must be a number (got {value!r})")
            try:
                number = float(value)
            except (TypeError, ValueError):
                raise ParameterError(f"{self.name} must be a number (got {value!r})") from None
            if number != number:  # NaN compares unequal to itself
                raise ParameterError(f"{self.name} must be a number (got {value!r})")
            self._check_range(number)
            return number
        if self.type == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in {"true", "1", "yes", "false", "0", "no"}:
                return value.lower() in {"true", "1", "yes"}
            raise ParameterError(f"{self.name} must be true or false (got {value!r})")
        if self.type == "choice":
            if value not in self.choices:
                raise ParameterError(
                    f"{self.name} must be one of {', '.join(self.choices)} (got {value!r})"
                )
            return value
        if not isinstance(value, str):
            raise ParameterError(f"{self.name} must be text (got {value!r})")
        return value

    def _rule(self) -> str:
        if self.min is not None and self.max is not None:
            return f"use a value from {self.min:g} to {self.max:g}"
        if self.min is not None:
            return f"use a value of at least {self.min:g}"
        if self.max is not None:
            return f"use a value of at most {self.max:g}"
        return "give a value"

    def _check_range(self, value: float) -> None:
        too_small = self.min is not None and value < self.min
        too_large = self.max is not None and value > self.max
        if too_small or too_large:
            raise ParameterError(f"{self.name} is out of range (got {self.name}={value!r}); "
                                 f"{self._rule()}")


@dataclass(frozen=True, slots=True)
class Strategy:
    """A registered chunking strategy.

    Attributes:
        name: Snake-case name used by the API, CLI, URL and UI.
        description: One line in English.
        description_ja: One line in Japanese.
        params: Parameter schemas, in the order the UI shows them.
        gaps: What may stay uncovered by chunks: ``"none"`` or ``"whitespace"``.
        fn: Pure function ``fn(text, **params, **resources) -> ChunkingResult``.
        size_param: Name of the parameter that bounds each chunk's length, if any.
        resources: Names of non-schema keyword arguments it accepts (``tokenizer``,
            ``embedder``, ``language_model``): objects, not settings.
    """

    name: str
    description: str
    description_ja: str
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
            f"strategy {self.name!r} has no parameter {name!r}; its parameters are "
            f"{', '.join(p.name for p in self.params) or 'none'}"
        )

    def defaults(self) -> dict[str, Any]:
        """Default value of every parameter."""
        return {p.name: p.default for p in self.params}

    def validate(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Fill defaults and check each value against its schema.

        Raises:
            ParameterError: An unknown parameter or a value that breaks its rule.
        """
        # NOTE: no memo of checked sets on this shared object: bench/chunking.py meets issue 2's
        # targets without one (docs/benchmarks.md), and the check is about 1 µs per call.
        unknown = sorted(params.keys() - self._names)
        if unknown:
            raise ParameterError(
                f"strategy {self.name!r} has no parameter {unknown[0]!r} (got "
                f"{unknown[0]}={params[unknown[0]]!r}); its parameters are "
                f"{', '.join(p.name for p in self.params) or 'none'}"
            )
        return {p.name: p.validate(params.get(p.name, p.default)) for p in self.params}

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
            f"unknown strategy {name!r}; choose one of {', '.join(sorted(_REGISTRY))}"
        ) from None


def all_strategies() -> Sequence[Strategy]:
    """Every registered strategy, in registration order."""
    return tuple(_REGISTRY.values())
