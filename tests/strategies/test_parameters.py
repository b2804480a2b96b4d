"""Parameter refusals (issue 14): NaN, NumPy integers, strings given as resources, messages."""

from __future__ import annotations

import math

import numpy as np
import pytest

import chunkviz
from chunkviz.errors import ParameterError
from chunkviz.strategies import all_strategies, get_strategy


@pytest.mark.parametrize(
    ("strategy", "name"), [("semantic", "percentile"), ("perplexity", "threshold")]
)
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "nan", np.float64("nan")])
def test_non_finite_floats_are_refused_on_the_fast_path_too(strategy, name, value):
    # percentile=nan raised numpy's ValueError; threshold=nan disabled every cut silently.
    with pytest.raises(ParameterError, match=rf"{name} must be a finite number \(got {name}="):
        chunkviz.chunk("a. b. c.", strategy, **{name: value})


def test_numpy_integers_are_integers():
    result = chunkviz.chunk("abcdefghij", "fixed", size=np.int64(5), overlap=np.int32(0))
    assert [c.end for c in result.chunks] == [5, 10]
    assert type(result.params["size"]) is int


@pytest.mark.parametrize(
    ("strategy", "resource"),
    [
        ("semantic", "embedder"),
        ("fixed", "tokenizer"),
        ("perplexity", "language_model"),
    ],
)
def test_a_string_where_a_resource_object_belongs_is_a_parameter_error(strategy, resource):
    # embedder='x' and tokenizer='x' raised AttributeError.
    params = {"unit": "tokens"} if resource == "tokenizer" else {}
    with pytest.raises(
        ParameterError,
        match=rf"{resource} must be an object with a .*"
        rf"\(got {resource}='x'\); pass ",
    ):
        chunkviz.chunk("a. b. c.", strategy, **{resource: "x"}, **params)


BAD_VALUES = [1.5, "x", [1], True, None, math.nan, -(10**9), 10**9, "1" * 500, object()]


@pytest.mark.parametrize("strategy", [s.name for s in all_strategies()])
def test_every_refusal_names_the_parameter_the_value_the_rule_and_the_fix(strategy):
    spec = get_strategy(strategy)
    refusals = 0
    for param in spec.params:
        for value in BAD_VALUES:
            try:
                param.validate(value)
            except ParameterError as exc:
                refusals += 1
                message = str(exc)
                assert message.startswith(param.name), message
                assert f"(got {param.name}=" in message, message
                rule, _, fix = message.partition("); ")
                assert fix, message
                assert len(message) < 300, message  # a 500-character value is cut
    assert refusals >= len(spec.params) * 3
