from __future__ import annotations

import pytest

import chunkviz
from chunkviz.strategies import all_strategies, get_strategy
from chunkviz.views.param_ranges import (
    Relation,
    broken_relations,
    changed_value,
    control_range,
    relations,
    settle,
)

FIXED = get_strategy("fixed").params


def test_overlap_and_size_bound_each_other_from_the_schema():
    assert relations(FIXED) == (Relation("overlap", "size", strict=True),)
    values = {"size": 437, "overlap": 50, "unit": "chars"}
    assert control_range(FIXED, values, "overlap", cap=4000) == (0, 436)
    assert control_range(FIXED, values, "size", cap=4000) == (51, 4000)
    assert control_range(FIXED, values, "size") == (51, 100_000)


def test_a_non_strict_relation_allows_equal_values():
    semantic = get_strategy("semantic").params
    values = {"min_size": 100, "max_size": 1000}
    assert control_range(semantic, values, "min_size", cap=4000) == (0, 1000)
    assert control_range(semantic, values, "max_size", cap=4000) == (100, 4000)


def test_a_switched_off_value_does_not_bound_the_other():
    pc = get_strategy("parent_child").params
    values = {"mode": "hierarchy", "child_size": 200, "parent_size": None, "window": 1}
    assert control_range(pc, values, "child_size", cap=4000) == (1, 4000)
    values["parent_size"] = 500
    assert control_range(pc, values, "child_size", cap=4000) == (1, 500)


def test_an_already_broken_pair_does_not_narrow_and_is_reported():
    values = {"size": 100, "overlap": 100}
    assert control_range(FIXED, values, "overlap", cap=4000) == (0, 4000)
    assert [r.describe() for r in broken_relations(FIXED, values)] == ["overlap < size"]


@pytest.mark.parametrize(
    ("previous", "slid", "typed", "expected"),
    [
        (400, 400, 437, 437),
        (400, 120, 400, 120),
        (400, 400, 400, 400),
        (400, None, None, 400),
        (400, 120, 437, 120),
    ],
)
def test_changed_value_takes_the_widget_the_user_moved(previous, slid, typed, expected):
    assert changed_value(previous, slid, typed) == expected


def test_settle_puts_back_the_bounded_change_only():
    previous = {"size": 400, "overlap": 0, "unit": "chars"}
    assert settle(FIXED, previous, {"size": 200, "overlap": 300, "unit": "tokens"}) == {
        "size": 200,
        "overlap": 0,
        "unit": "tokens",
    }
    valid = {"size": 200, "overlap": 100, "unit": "chars"}
    assert settle(FIXED, previous, valid) == valid


@pytest.mark.parametrize(
    "spec", [s for s in all_strategies() if relations(s.params)], ids=lambda s: s.name
)
def test_every_declared_relation_is_the_strategys_own_rule(spec):
    # The schema tells the truth: the strategy accepts the edge pair and refuses the next one.
    text = "寒帯ジェット気流が南下する。梅雨前線が停滞する。" * 20
    for rel in relations(spec.params):
        large = 300
        edge = large - 1 if rel.strict else large
        params = {**spec.defaults(), rel.large: large, rel.small: edge}
        chunkviz.chunk(text, spec.name, **params)
        with pytest.raises(chunkviz.ParameterError, match=rel.small):
            chunkviz.chunk(text, spec.name, **{**params, rel.small: edge + 1})


def test_a_switched_off_parameter_is_not_narrowed_and_starts_within_bounds_when_on():
    from chunkviz.views.param_ranges import start_within

    pc = get_strategy("parent_child").params
    values = {"mode": "hierarchy", "child_size": 500, "parent_size": None, "window": 1}
    assert control_range(pc, values, "parent_size", cap=4000) == (1, 4000)
    assert start_within(pc, values, "parent_size", 400) == 500
    assert start_within(pc, values, "parent_size", 800) == 800
    assert start_within(FIXED, {"size": 100}, "overlap", 300) == 99


def test_the_plain_strategy_list_carries_the_relations():
    fixed = next(s for s in chunkviz.strategies() if s["name"] == "fixed")
    overlap = next(p for p in fixed["params"] if p["name"] == "overlap")
    assert (overlap["less_than"], overlap["at_most"]) == ("size", None)
