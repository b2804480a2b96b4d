"""One grid module, one label format: bench, tune and the dashboard's Recompute agree."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkviz.errors import ParameterError, UnknownStrategyError
from chunkviz.eval.grid import (
    Config,
    build_grid,
    config_label,
    default_grid,
    fixed_config,
    make_config,
    paragraph_grid,
    parse_grid,
    parse_label,
    tune_grid,
)
from chunkviz.paths import package_path

GRIDS = {"default": default_grid(), "paragraph": paragraph_grid(), "tune": tune_grid()}


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_every_grid_label_is_the_one_format_and_reads_back(name):
    grid = GRIDS[name]
    assert len({c.label for c in grid}) == len(grid)
    for config in grid:
        assert config.label == config_label(config.strategy, config.params)
        assert parse_label(config.label) == config


def test_bench_reads_the_grids_by_name_and_by_their_labels():
    for name, grid in GRIDS.items():
        assert parse_grid(name) == grid
        assert parse_grid(",".join(c.label for c in grid)) == grid


def test_recompute_builds_the_same_configurations_as_bench_and_tune():
    recompute = {
        c.label: c
        for c in build_grid(
            ["fixed", "recursive", "sentence", "paragraph"], [100, 200, 400, 800], [0, 20]
        )
    }
    for config in (*default_grid(), *tune_grid()):
        assert recompute[config.label] == config


def test_shipped_results_labels_are_the_one_format():
    files = sorted(package_path("results").glob("*.json"))
    assert files
    for path in files:
        for record in json.loads(path.read_text(encoding="utf-8"))["configs"]:
            assert config_label(record["strategy"], record["params"]) == record["label"]
            config = parse_label(record["label"])
            assert (config.strategy, dict(config.params)) == (record["strategy"], record["params"])


def test_labels_fill_defaults_and_name_other_parameters():
    assert config_label("sentence", {"size": 400}) == "sentence-400-0"
    assert config_label("paragraph", {}) == "paragraph"
    assert config_label("paragraph", {"max_size": 800}) == "paragraph-800"
    assert config_label("fixed", {"size": 400, "overlap": 80, "unit": "chars"}) == "fixed-400-80"
    label = config_label("fixed", {"size": 40, "overlap": 8, "unit": "tokens"})
    assert label == "fixed-40-8-unit=tokens"
    assert parse_label(label) == make_config("fixed", {"size": 40, "overlap": 8, "unit": "tokens"})
    assert parse_label("fixed-400") == Config("fixed-400-0", "fixed", {"size": 400})
    assert fixed_config(400, 80) == Config("fixed-400-80", "fixed", {"size": 400, "overlap": 80})


def test_bad_labels_are_refused_with_the_piece_named():
    with pytest.raises(ParameterError, match="'x'"):
        parse_label("fixed-x")
    with pytest.raises(ParameterError, match="'5'"):
        parse_label("fixed-400-80-5")
    with pytest.raises(ParameterError, match="overlap"):
        parse_label("fixed-400-400")
    with pytest.raises(UnknownStrategyError):
        parse_grid("nonsense")
    with pytest.raises(ParameterError, match="no configuration"):
        parse_grid(" , ")


def test_a_repeated_label_runs_once():
    assert parse_grid("paragraph,fixed-100-0,paragraph") == (
        make_config("paragraph"),
        fixed_config(100, 0),
    )


@given(
    strategy=st.sampled_from(["fixed", "recursive", "sentence", "markdown"]),
    size=st.integers(1, 5000),
    percent=st.integers(0, 99),
)
def test_label_round_trip(strategy, size, percent):
    config = make_config(strategy, {"size": size, "overlap": size * percent // 100})
    assert parse_label(config.label) == config
    assert build_grid([strategy], [size], [percent]) == (config,)


def test_snapped_windows_join_the_recompute_grid_as_configurations_of_their_own():
    # issue 38: fixed and recursive get a snapped twin per level; paragraph has no snap.
    grid = build_grid(["fixed", "recursive", "paragraph"], [400], [20], ("none", "phrase"))
    assert [c.label for c in grid] == [
        "fixed-400-80",
        "fixed-400-80-snap=phrase",
        "recursive-400-80",
        "recursive-400-80-snap=phrase",
        "paragraph",
    ]
    assert build_grid(["fixed"], [400], [20]) == (fixed_config(400, 80),)


def test_snapped_twins_leave_the_default_grids_alone():
    from chunkviz.eval.grid import snapped

    twins = snapped(tune_grid())
    assert twins
    assert all(c.params["snap"] == "phrase" and c.label.endswith("-snap=phrase") for c in twins)
    assert not {c.label for c in twins} & {c.label for c in tune_grid()}
    assert all("snap" not in c.params for c in (*tune_grid(), *default_grid()))


# --- issue 41: a grid's size is checked before any work ----------------------------------------


def test_a_grid_of_thousands_of_labels_is_refused_before_a_label_is_read(monkeypatch):
    # Finding 14: 9,000 labels on 10 questions ran out of memory after 19 s.
    import chunkviz.eval.grid as grid
    from chunkviz.limits import MAX_GRID_CONFIGS

    labels = ",".join(f"fixed-{100 + i}-0" for i in range(9_000))
    read = []
    monkeypatch.setattr(grid, "parse_label", lambda item: read.append(item))
    with pytest.raises(
        ParameterError,
        match=r"--grid makes 9,000 configurations; a grid holds "
        rf"at most {MAX_GRID_CONFIGS} \(MAX_GRID_CONFIGS",
    ):
        grid.parse_grid(labels)
    assert read == []


def test_every_grid_maker_holds_the_same_bound():
    from chunkviz.eval.grid import build_grid, parse_grid, tune_grid, with_context
    from chunkviz.limits import MAX_GRID_CONFIGS

    assert len(with_context(tune_grid(), ["none", "title", "headings"])) <= MAX_GRID_CONFIGS
    labels = [f"fixed-{100 + i}-0" for i in range(MAX_GRID_CONFIGS)]
    assert len(parse_grid(",".join(labels))) == MAX_GRID_CONFIGS
    with pytest.raises(ParameterError, match="--grid x --context makes 200 configurations"):
        with_context(parse_grid(",".join(labels)), ["none", "title"])
    with pytest.raises(ParameterError, match="strategies x sizes x overlaps makes 2,000"):
        build_grid(["fixed", "recursive"], list(range(100, 1100)), [0])
