"""Strategy.validate: every call checks, and every caller gets its own dict."""

from __future__ import annotations

import pytest

import chunkviz
from chunkviz.strategies import get_strategy


def test_validated_settings_are_returned_as_fresh_dicts():
    spec = get_strategy("fixed")
    first = spec.validate({"size": 400, "overlap": 80})
    first["size"] = -1  # a caller editing its copy must not reach the next caller
    assert spec.validate({"size": 400, "overlap": 80}) == {
        "size": 400,
        "overlap": 80,
        "unit": "chars",
        "snap": "none",
        "max_shift": 10,
    }


def test_equal_keys_of_other_types_are_checked_on_their_own():
    # 1 == 1.0 == True as dict keys; a bool is still refused after the int was accepted.
    spec = get_strategy("fixed")
    assert spec.validate({"size": 1})["size"] == 1
    assert spec.validate({"size": 1.0})["size"] == 1
    with pytest.raises(chunkviz.ParameterError, match="size must be an integer"):
        spec.validate({"size": True})


def test_a_refused_value_is_refused_every_time():
    spec = get_strategy("recursive")
    for _ in range(2):
        with pytest.raises(chunkviz.ParameterError, match="size is out of range"):
            spec.validate({"size": 0})


def test_unhashable_values_are_still_checked():
    spec = get_strategy("fixed")
    with pytest.raises(chunkviz.ParameterError, match="size must be an integer"):
        spec.validate({"size": [400]})


def _declared():
    from chunkviz.strategies import all_strategies
    from chunkviz.strategies.registry import relations

    return [(spec, rel) for spec in all_strategies() for rel in relations(spec.params)]


def test_every_strategy_declares_its_pairs():
    found = {(spec.name, rel.describe()) for spec, rel in _declared()}
    assert {
        ("fixed", "overlap < size"),
        ("recursive", "overlap < size"),
        ("semantic", "min_size <= max_size"),
        ("perplexity", "min_size <= max_size"),
        ("parent_child", "child_size <= parent_size"),
    } <= found


@pytest.mark.parametrize(
    ("spec", "rel"), _declared(), ids=lambda x: getattr(x, "name", None) or x.describe()
)
def test_validate_refuses_a_pair_that_breaks_a_declared_relation(spec, rel):
    large = 10
    small = large if rel.strict else large + 1
    params = {rel.large: large, rel.small: small}
    message = rel.message({**spec.defaults(), **params})
    with pytest.raises(chunkviz.ParameterError) as info:
        spec.validate(params)
    assert str(info.value) == message
    assert str(info.value).startswith(f"{rel.small} must ")
    # The boundary itself is allowed: one below (strict) or equal (at most).
    ok = spec.validate({**params, rel.small: large - 1 if rel.strict else large})
    assert ok[rel.small] < ok[rel.large] if rel.strict else ok[rel.small] <= ok[rel.large]


def test_a_relation_declared_by_any_strategy_is_enforced_by_validate():
    from chunkviz.strategies.registry import Param, Strategy

    spec = Strategy(
        "toy",
        "a test strategy",
        (
            Param("low", "int", 1, min=0, max=100, at_most="high"),
            Param("high", "int", 5, min=0, max=100),
        ),
        "none",
        fn=lambda text, **kw: None,
    )
    assert spec.validate({"low": 5})["low"] == 5
    with pytest.raises(
        chunkviz.ParameterError,
        match=r"^low must not exceed high \(got low=6, "
        r"high=5\); lower low to at most 5 or raise high$",
    ):
        spec.validate({"low": 6})
