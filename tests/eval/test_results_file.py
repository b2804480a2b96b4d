"""The typed results file: every field is checked, and a damaged file names what is wrong."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import msgspec
import pytest

from chunkviz.errors import ResultsFileError
from chunkviz.eval.results import (
    PairwiseResult,
    list_results,
    load_results,
    results_from_dict,
    results_from_json,
    results_to_json,
)
from chunkviz.text.messages import error_text

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
    (_set("dataset.sample", "0"), 'dataset.sample must be an integer (got "0")'),
    (_set("dataset.questions", 14), "question_ids has 15 ids but dataset.questions is 14"),
    (_set("backend.name", _DELETE), "backend.name is missing"),
    (_set("configs.0.chunks", -1), "configs[0].chunks must be an integer >= 0 (got -1)"),
    (_set("configs.0.chunks", True), "configs[0].chunks must be an integer (got true)"),
    (_set("configs.1.label", FIRST), "unique labels"),
    (_set("configs", []), "configs must be a list of length >= 1 (got [])"),
    (_set(f"ranks.{FIRST}", [1, 2]), f"ranks.{FIRST} has 2 ranks for 15 questions"),
    (_set(f"ranks.{FIRST}.0", 0), f"ranks.{FIRST}[0] must be an integer >= 1 (got 0)"),
    (_set(f"ranks.{FIRST}.0", 10**6), "is past the"),
    (_set(f"ranks.{FIRST}.1", None), "broken="),
    (
        _set(f"metrics.{FIRST}.recall@5.mean", "NaN"),
        f'metrics.{FIRST}.recall@5.mean must be a number (got "NaN")',
    ),
    (_set(f"metrics.{FIRST}.recall@5.mean", 0.5), "but the ranks give"),
    (
        _set(f"metrics.{FIRST}.recall@5.ci_high", 1.5),
        "ci_high must be a finite number in [0.0, 1.0] (got 1.5)",
    ),
    (_set(f"metrics.{FIRST}.recall@5", _DELETE), "lacks recall@5"),
    (_set(f"metrics.{FIRST}.map@5", {"mean": 0, "ci_low": 0, "ci_high": 0}), "not a known metric"),
    (_set("metrics", {}), "metrics must have one entry per configuration"),
    (_set(f"budget.k.{FIRST}", 0), f"budget.k.{FIRST} must be a number > 0.0 (got 0)"),
    (_set("pairwise.0.a", "nope"), "pairwise[0].a names no configuration"),
    (_set("pairwise.0.diff", 0.9), "pairwise[0].diff is 0.9 but the means give"),
    (_set("pairwise.0.p_holm", 2), "pairwise[0].p_holm must be a number <= 1.0 (got 2)"),
    (
        _set("pairwise.0.significant", "yes"),
        'pairwise[0].significant must be true or false (got "yes")',
    ),
    (_set("stats.alpha", 0), "stats.alpha must be a number > 0.0 (got 0)"),
    (_set(f"retrieval.chunk_offsets.{FIRST}.0", [0, 5, 5]), "start < end"),
    (_set(f"retrieval.chunk_offsets.{FIRST}", []), "chunks but configs says"),
    (_set(f"retrieval.topk.{FIRST}.0", [10**6]), "names a chunk past the"),
    (
        _set("run_id", "../../etc/passwd"),
        "run_id must be text matching regex '^[A-Za-z0-9._-]+$' (got \"../../etc/passwd\")",
    ),
    (_set("timings.total_seconds", -1), "timings.total_seconds must be a number >= 0.0 (got -1)"),
]


@pytest.mark.parametrize(("damage", "named"), DAMAGES)
def test_a_damaged_field_is_named(damage, named):
    data = copy.deepcopy(GOOD)
    damage(data)
    with pytest.raises(ResultsFileError) as info:
        results_from_dict(data, "results file x.json")
    message = str(info.value)
    assert message.startswith("results file x.json: ")
    assert named in message
    assert "\n" not in message


@pytest.mark.parametrize(("damage", "named"), DAMAGES)
def test_the_same_damage_in_a_file_gives_the_same_message(damage, named):
    data = copy.deepcopy(GOOD)
    damage(data)
    with pytest.raises(ResultsFileError) as info:
        results_from_json(json.dumps(data).encode("utf-8"), "results file x.json")
    assert named in str(info.value)
    assert str(info.value).endswith("python -m chunkviz bench")


def test_a_broken_rule_between_fields_reads_in_japanese_with_the_same_values():
    data = copy.deepcopy(GOOD)
    data["ranks"][FIRST] = [1, 2]
    with pytest.raises(ResultsFileError) as info:
        results_from_dict(data, "x.json")
    assert f"x.json: ranks.{FIRST} has 2 ranks for 15 questions; see docs/" in str(info.value)
    ja = error_text("ja", info.value)
    assert f"x.json：ranks.{FIRST} は質問 15 件に対して順位が 2 件です。" in ja
    assert "ranks for" not in ja  # the problem, not only its frame, is worded in Japanese


def test_nan_written_as_a_json_constant_is_refused():
    data = copy.deepcopy(GOOD)
    data["metrics"][FIRST]["recall@5"]["mean"] = float("nan")
    text = json.dumps(data)  # Python writes NaN, which JSON does not allow
    assert '"mean": NaN' in text
    with pytest.raises(ResultsFileError, match="NaN is not a number JSON allows"):
        results_from_json(text)


def test_the_good_fixture_loads_and_round_trips():
    results = results_from_dict(GOOD)
    assert results_from_json(results_to_json(results)) == results
    again, good = json.loads(results_to_json(results)), copy.deepcopy(GOOD)
    rows, good_rows = again.pop("pairwise"), good.pop("pairwise")
    assert again == good
    # A version-2 row (its first nine fields) is written back whole, the others at defaults.
    assert [{key: row[key] for key in g} for row, g in zip(rows, good_rows, strict=True)] == (
        good_rows
    )


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


# ------------------------------------------------------------------ rules between fields

SHIPPED = sorted((Path(__file__).resolve().parents[2] / "chunkviz" / "results").glob("*.json"))
#: A shipped file of version 3 or later: what version 3 added is required from then on.
V3 = next(p for p in SHIPPED if json.loads(p.read_bytes())["schema_version"] >= 3)


@pytest.fixture(scope="module")
def v3() -> dict:
    return json.loads(V3.read_bytes())


def _refused(data: dict, named: str) -> None:
    with pytest.raises(ResultsFileError) as info:
        results_from_dict(data, "results file x.json")
    assert named in str(info.value)


def test_a_version_3_file_must_carry_what_version_3_added(v3):
    data = copy.deepcopy(v3)
    del data["budget"]["tokenizer"]
    _refused(data, "budget.tokenizer is missing (required from schema version 3)")
    data = copy.deepcopy(v3)
    del data["configs"][1]["mean_chunk_tokens"]
    _refused(data, f"configs entry {v3['configs'][1]['label']} lacks mean_chunk_tokens")


def test_a_stored_outcome_is_the_rules_and_a_stored_equivalence_must_be(v3):
    data = copy.deepcopy(v3)
    row = data["pairwise"][0]
    rule = row["outcome"]
    row["outcome"] = "equivalent" if rule != "equivalent" else "inconclusive"
    assert results_from_dict(data).pairwise[0].outcome == rule  # never read back
    data = copy.deepcopy(v3)
    i, row = next((i, r) for i, r in enumerate(data["pairwise"]) if not r["equivalent"])
    row["equivalent"] = True
    row.pop("outcome")
    _refused(data, f"pairwise[{i}] is marked equivalent but the decision rule says it is not")


def test_budget_rows_are_checked_like_the_equal_k_rows(v3):
    data = copy.deepcopy(v3)
    data["budget"]["pairwise"][0]["diff"] = 0.5
    _refused(data, "budget.pairwise[0].diff is 0.5 but the means give")


def test_document_level_inference_needs_each_questions_document(v3):
    data = copy.deepcopy(v3)
    del data["question_docs"]
    _refused(data, "stats.unit is 'document' but question_docs is missing")
    data = copy.deepcopy(v3)
    data["question_docs"] = data["question_docs"][:3]
    _refused(data, "question_docs has 3 ids for")


def test_question_types_need_one_entry_per_question(v3):
    n = len(v3["question_ids"])
    data = copy.deepcopy(v3)
    data["question_types"] = ["Logical reasoning"] * n
    data["answer_types"] = [""] * n  # an unlabelled question's type is the empty string
    assert results_from_dict(data).question_types == ("Logical reasoning",) * n
    for name in ("question_types", "answer_types"):
        data = copy.deepcopy(v3)
        data[name] = ["Object"] * (n - 1)
        _refused(data, f"{name} has {n - 1} entries for {n} questions")


def test_sensitivity_entries_name_every_configuration(v3):
    data = copy.deepcopy(v3)
    first = v3["configs"][0]["label"]
    del data["sensitivity"]["ndcg_all"]["places"][first]
    _refused(data, "sensitivity.ndcg_all.places must have one entry per configuration")
    data = copy.deepcopy(v3)
    name = next(iter(data["sensitivity"]["ranks"]))
    data["sensitivity"]["ranks"][name][first] = [1]
    _refused(data, f"sensitivity.ranks.{name}.{first} must list one rank per question")


def test_a_hybrid_lists_its_components_and_only_a_hybrid_does():
    data = copy.deepcopy(GOOD)
    data["backend"]["kind"] = "hybrid"
    _refused(data, "backend.components must list the fused backends of a hybrid")
    data = copy.deepcopy(GOOD)
    data["backend"]["components"] = [copy.deepcopy(GOOD["backend"])]
    _refused(data, "backend.components must list the fused backends of a hybrid")


def test_an_offset_must_point_into_the_index():
    data = copy.deepcopy(GOOD)
    data["retrieval"]["chunk_offsets"][FIRST][2][0] = GOOD["dataset"]["documents"]
    _refused(data, f"retrieval.chunk_offsets.{FIRST}[2] must have document < ")


# ------------------------------------------------------------------ bounds and the two forms


def test_a_file_over_the_size_bound_is_refused_before_it_is_decoded(monkeypatch):
    import chunkviz.eval.results as results_module

    monkeypatch.setattr(results_module, "MAX_BYTES", 100)
    with pytest.raises(ResultsFileError, match="has 101 bytes; at most 100 are accepted"):
        results_from_json(b"[" + b"1," * 49 + b"1]", "big.json")


def test_a_deeply_nested_or_numerically_absurd_value_gives_one_message():
    data = copy.deepcopy(GOOD)
    data["configs"][0]["params"]["x"] = [1]
    with pytest.raises(
        ResultsFileError,
        match=r"configs\[0\]\.params\.x must be an integer or a "
        r"number or true or false or text or null \(got \[1\]\)",
    ):
        results_from_json(json.dumps(data), "x.json")
    text = json.dumps(GOOD).replace('"params": {', '"params": {"x": ' + "9" * 5000 + ", ", 1)
    with pytest.raises(
        ResultsFileError, match=r"configs\[0\]\.params\.x must be an integer in range \(got \"999"
    ):
        results_from_json(text, "x.json")
    text = json.dumps(GOOD).replace(
        '"engine"', '"junk": ' + "[" * 100_000 + "]" * 100_000 + ', "engine"', 1
    )
    with pytest.raises(ResultsFileError, match="nested too deeply"):
        results_from_json(text, "x.json")


def test_a_byte_order_mark_is_read_past():
    text = "\ufeff" + json.dumps(GOOD)
    assert results_from_json(text.encode("utf-8")) == results_from_dict(GOOD)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_each_shipped_file_reads_and_writes_back_what_it_holds(path):
    raw = json.loads(path.read_bytes())
    results = results_from_json(path.read_bytes())
    again = json.loads(results_to_json(results))
    if raw["schema_version"] >= 3:  # written by this reader's writer: the same fields
        assert again == raw
    assert results_from_json(results_to_json(results)) == results


def test_a_pairwise_row_is_one_record_in_the_code_and_in_the_file():
    for row in json.loads(V3.read_bytes())["pairwise"][:3]:
        read = msgspec.convert(row, PairwiseResult)
        assert json.loads(msgspec.json.encode(read)) == row
        assert (read.eq_ci_low, read.eq_ci_high) == tuple(row["eq_ci"])
        # The outcome is the rule's, whatever a file states.
        stated = msgspec.convert({**row, "outcome": "saturated", "verdict": "x"}, PairwiseResult)
        assert (stated.outcome, stated.verdict) == (read.outcome, read.verdict)
    legacy = msgspec.convert(GOOD["pairwise"][0], PairwiseResult)
    assert (legacy.unit, legacy.delta, legacy.equivalent, legacy.p_equiv, legacy.a_wins) == (
        "question",
        None,
        False,
        None,
        None,
    )
    assert math.isnan(legacy.eq_ci_low)
    flipped = msgspec.structs.replace(legacy, wins=(1, 2)).flipped()
    assert (flipped.a, flipped.b, flipped.wins, flipped.diff) == (
        legacy.b,
        legacy.a,
        (2, 1),
        -legacy.diff,
    )


def test_a_bad_value_among_many_keys_is_named_within_a_bounded_search():
    data = copy.deepcopy(GOOD)
    data["versions"] = {f"pkg{i}": "1.0" for i in range(5000)}
    data["versions"]["pkg4321"] = 7
    with pytest.raises(ResultsFileError, match=r"versions\.pkg4321 must be text \(got 7\)"):
        results_from_json(json.dumps(data), "x.json")


# --- issue 41: fields that drive work are bounded as the CLI and the page bound them -----------


@pytest.mark.parametrize(
    ("path", "value", "named"),
    [
        ("budget.chars", 50, "budget.chars must be an integer >= 100 (got 50)"),
        ("budget.chars", 10**6, "budget.chars must be an integer <= 100000"),
        ("stats.bootstrap", 10**9, "stats.bootstrap must be an integer <= 100000"),
        ("stats.permutations", 10**9, "stats.permutations must be an integer <= 100000"),
        ("ks", list(range(1, 300_001)), "ks must be a list of length <= 100"),
        ("ks", [1, 5, 10**6], "ks[2] must be an integer <= 1000"),
    ],
    ids=["budget-low", "budget-high", "bootstrap", "permutations", "ks-count", "ks-value"],
)
def test_fields_that_drive_work_are_bounded_by_the_shared_limits(v3, path, value, named):
    # Findings 9-11: the schema allowed budget.chars 50 (the page's input starts at 100),
    # 300,000 cut-offs and 10^9 resamples (the CLI caps them at 100,000).
    data = copy.deepcopy(v3)
    _set(path, value)(data)
    _refused(data, named)


def test_the_shared_limits_are_the_clis_and_the_pages():
    import inspect

    from chunkviz.commands import options
    from chunkviz.limits import MAX_BUDGET_CHARS, MAX_RESAMPLES, MIN_BUDGET_CHARS
    from chunkviz.ui import verdict_view

    assert options.MAX_RESAMPLES is MAX_RESAMPLES
    source = inspect.getsource(verdict_view.budget_input)
    assert "min_value=MIN_BUDGET_CHARS" in source
    assert "max_value=MAX_BUDGET_CHARS" in source
    assert (MIN_BUDGET_CHARS, MAX_BUDGET_CHARS) == (100, 100_000)


def test_a_sensitivity_row_must_name_a_metric_of_the_file(v3):
    # Finding 12: a sensitivity row naming a metric the file lacks raised on the page.
    data = copy.deepcopy(v3)
    name = next(iter(data["sensitivity"]["pairwise"]))
    data["sensitivity"]["pairwise"][name][0]["metric"] = "recall@7"
    _refused(
        data, f"sensitivity.pairwise.{name}[0].metric is not a metric of the file (got recall@7)"
    )
