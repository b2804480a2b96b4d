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
        "size": 400, "overlap": 80, "unit": "chars"
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
