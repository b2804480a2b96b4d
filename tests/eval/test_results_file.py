"""The typed results file: every field is checked, and a damaged file names what is wrong."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from chunkviz.errors import ResultsFileError
from chunkviz.eval.results import Results, list_results, load_results

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOOD = json.loads((FIXTURES / "results_small.json").read_text(encoding="utf-8"))
FIRST = GOOD["configs"][0]["label"]


def _set(path: str, value):
    def damage(data):
        *parents, last = path.split(".")
        node = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        elif value is _DELETE:
            del node[last]
        else:
            node[last] = value
    return damage


_DELETE = object()

# (damage, what the message must name), each a way a file was found damaged by hand or by disk.
DAMAGES = [
    (_set("dataset", "jsquad"), "dataset must be an object"),
    (_set("dataset.sample", "0"), "dataset.sample must be a non-negative integer"),
    (_set("dataset.questions", 14), "question_ids has 15 ids but dataset.questions is 14"),
    (_set("backend.name", _DELETE), "backend.name is missing"),
    (_set("configs.0.chunks", -1), "configs[0].chunks must be a non-negative integer"),
    (_set("configs.0.chunks", True), "configs[0].chunks must be a non-negative integer"),
    (_set("configs.1.label", FIRST), "unique labels"),
    (_set("configs", []), "at least one configuration"),
    (_set(f"ranks.{FIRST}", [1, 2]), f"ranks.{FIRST} has 2 ranks for 15 questions"),
    (_set(f"ranks.{FIRST}.0", 0), f"ranks.{FIRST}[0] must be an integer >= 1"),
    (_set(f"ranks.{FIRST}.0", 10**6), "is past the"),
    (_set(f"ranks.{FIRST}.1", None), "broken="),
    (_set(f"metrics.{FIRST}.recall@5.mean", "NaN"), "recall@5.mean must be a finite number"),
    (_set(f"metrics.{FIRST}.recall@5.mean", 0.5), "but the ranks give"),
    (_set(f"metrics.{FIRST}.recall@5.ci_high", 1.5), "ci_high must be a finite number in"),
    (_set(f"metrics.{FIRST}.recall@5", _DELETE), "lacks recall@5"),
    (_set(f"metrics.{FIRST}.map@5", {"mean": 0, "ci_low": 0, "ci_high": 0}),
     "not a known metric"),
    (_set("metrics", {}), "metrics must have one entry per configuration"),
    (_set(f"budget.k.{FIRST}", 0), f"budget.k.{FIRST} must be an integer >= 1"),
    (_set("pairwise.0.a", "nope"), "pairwise[0].a names no configuration"),
    (_set("pairwise.0.diff", 0.9), "pairwise[0].diff is 0.9 but the means give"),
    (_set("pairwise.0.p_holm", 2), "pairwise[0].p_holm must be a finite number in"),
    (_set("pairwise.0.significant", "yes"), "pairwise[0].significant must be true or false"),
    (_set("stats.alpha", 0), "stats.alpha must be between 0 and 1"),
    (_set(f"retrieval.chunk_offsets.{FIRST}.0", [0, 5, 5]), "start < end"),
    (_set(f"retrieval.chunk_offsets.{FIRST}", []), "chunks but configs says"),
    (_set(f"retrieval.topk.{FIRST}.0", [10**6]), "names a chunk past the"),
    (_set("run_id", "../../etc/passwd"), "run_id must be a safe file stem"),
    (_set("timings.total_seconds", -1), "timings.total_seconds must be a finite number"),
]


@pytest.mark.parametrize(("damage", "named"), DAMAGES)
def test_a_damaged_field_is_named(damage, named):
    data = copy.deepcopy(GOOD)
    damage(data)
    with pytest.raises(ResultsFileError) as info:
        Results.from_dict(data, "results file x.json")
    message = str(info.value)
    assert message.startswith("results file x.json: ")
    assert named in message


def test_nan_written_as_a_json_constant_is_refused():
    data = copy.deepcopy(GOOD)
    data["metrics"][FIRST]["recall@5"]["mean"] = float("nan")
    text = json.dumps(data)  # Python writes NaN, which JSON does not allow
    assert '"mean": NaN' in text
    with pytest.raises(ResultsFileError, match="NaN is not a number JSON allows"):
        Results.from_json(text)


def test_the_good_fixture_loads_and_round_trips():
    results = Results.from_dict(GOOD)
    assert Results.from_json(results.to_json()) == results
    assert json.loads(results.to_json()) == GOOD


def test_one_damaged_file_is_listed_with_its_reason_and_the_others_still_load(tmp_path):
    for name in ("results_small.json", "results_small_dense.json"):
        (tmp_path / name).write_bytes((FIXTURES / name).read_bytes())
    data = copy.deepcopy(GOOD)
    data["dataset"] = "jsquad"
    (tmp_path / "damaged.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    listed = {e.path.name: e for e in list_results([tmp_path])}
    assert listed["results_small.json"].results == load_results(FIXTURES / "results_small.json")
    assert listed["results_small_dense.json"].error == ""
    assert listed["damaged.json"].results is None
    assert "dataset must be an object" in listed["damaged.json"].error
    assert "cannot be read as JSON" in listed["binary.json"].error
