"""A refused results file is worded from the schema; of msgspec's message only the path is read."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import msgspec
import pytest

from chunkviz.errors import ResultsFileError
from chunkviz.eval import results_errors
from chunkviz.eval.results import results_from_json
from chunkviz.eval.results_errors import error_path, problem
from chunkviz.text.messages import error_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOOD = json.loads((FIXTURES / "results_small.json").read_text(encoding="utf-8"))
FIRST = GOOD["configs"][0]["label"]


@pytest.mark.parametrize(
    ("message", "steps"),
    [
        ("Expected `int` >= 0 - at `$.configs[0].chunks`", ["configs", 0, "chunks"]),
        ("Expected `str` - at `$.ranks[...][2]`", ["ranks", None, 2]),
        ("Object missing required field `run_id`", []),
        ("anything - at `$.a[x]`", []),
        ("anything - at `$a`", []),
    ],
)
def test_error_path_reads_only_the_path_suffix(message, steps):
    assert error_path(msgspec.ValidationError(message)) == steps


class Inner(msgspec.Struct):
    n: int


class Outer(msgspec.Struct):
    items: list[dict[str, Inner]]


def test_msgspec_still_ends_its_message_with_the_path():
    # Pins the one thing read from msgspec's message: if a release moves the path, this fails.
    with pytest.raises(msgspec.ValidationError) as info:
        msgspec.json.decode(b'{"items": [{"k": {"n": "x"}}]}', type=Outer)
    assert error_path(info.value) == ["items", 0, None, "n"]


def test_the_rule_comes_from_the_schema_not_from_msgspecs_words():
    data = copy.deepcopy(GOOD)
    data["configs"][0]["chunks"] = -1
    words = msgspec.ValidationError("Some other wording entirely - at `$.configs[0].chunks`")
    assert problem(words, lambda: data, "x.json") == (
        "x.json: configs[0].chunks must be an integer >= 0 (got -1)"
    )
    del data["configs"][0]["label"]
    at_config = msgspec.ValidationError("Another wording - at `$.configs[0]`")
    assert problem(at_config, lambda: data, "x.json") == "x.json: configs[0].label is missing"


def test_a_file_too_large_to_search_gives_the_whole_rule_of_the_field(monkeypatch):
    monkeypatch.setattr(results_errors, "NARROW_BYTES", 100)
    data = copy.deepcopy(GOOD)
    data["ranks"][FIRST][0] = 0
    with pytest.raises(ResultsFileError) as info:
        results_from_json(json.dumps(data), "x.json")
    assert "x.json: ranks[...][0] must be an integer >= 1 or null;" in str(info.value)


def test_a_path_the_schema_lacks_still_names_the_field():
    odd = msgspec.ValidationError("Expected `int` - at `$.configs[0].chunks[3]`")
    assert problem(odd, lambda: GOOD, "x.json") == (
        "x.json: configs[0].chunks[3] does not have the type docs/results-schema.md gives it"
    )


def test_the_rule_reads_in_the_readers_language_with_the_same_values():
    data = copy.deepcopy(GOOD)
    data["configs"] = []
    with pytest.raises(ResultsFileError) as info:
        results_from_json(json.dumps(data), "x.json")
    assert "x.json: configs must be a list of length >= 1 (got [])" in str(info.value)
    ja = error_text("ja", info.value)
    assert "x.json：configs はリスト（長さ >= 1）でなければなりません（[]）" in ja
    assert "must be" not in ja
    assert "a list" not in ja
