"""Provenance of a run's questions in the results file: written, read, checked, shown."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from msgspec.structs import replace

from chunkviz.errors import ResultsFileError
from chunkviz.eval.grid import tune_grid
from chunkviz.eval.results import (
    QuestionsSource,
    load_results,
    results_from_dict,
    results_to_dict,
    results_to_json,
)
from chunkviz.eval.runner import shipped_results_dir
from chunkviz.eval.tune import questions_source, tune
from chunkviz.samples import load_sample
from chunkviz.views.tune_report import provenance_lines

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOOD = json.loads((FIXTURES / "results_small.json").read_text(encoding="utf-8"))
CLOZE = QuestionsSource(
    kind="both",
    own=3,
    synthetic=40,
    form="cloze",
    seed=7,
    note="synthetic questions ...",
    caveat="cloze questions favour lexical retrieval",
    validation_rho=0.6,
    validation="rho 0.60",
)


@pytest.mark.parametrize("path", sorted(shipped_results_dir().glob("*.json")))
def test_the_shipped_files_still_load_and_record_no_source(path):
    assert load_results(path).questions_source is None


def test_a_source_survives_the_round_trip_and_old_files_write_none():
    old = results_from_dict(GOOD)
    assert "questions_source" not in results_to_dict(old)
    new = replace(old, questions_source=CLOZE)
    data = json.loads(results_to_json(new))
    assert data["questions_source"]["form"] == "cloze"
    assert results_from_dict(data).questions_source == CLOZE


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("kind", "made-up", "questions_source.kind must be one of both, own, synthetic"),
        ("kind", "own", "questions_source.kind is own but own=3 and synthetic=40"),
        ("synthetic", -1, "questions_source.synthetic must be an integer >= 0"),
        (
            "validation_rho",
            2.0,
            r"questions_source.validation_rho must be a number <= 1.0 \(got 2.0\)",
        ),
        ("seed", "7", "questions_source.seed must be an integer or null"),
    ],
)
def test_a_damaged_source_names_its_field(field, value, message):
    data = copy.deepcopy(
        json.loads(results_to_json(replace(results_from_dict(GOOD), questions_source=CLOZE)))
    )
    data["questions_source"][field] = value
    with pytest.raises(ResultsFileError, match=message):
        results_from_dict(data)


def test_tune_records_synthetic_form_and_seed_and_its_sentences_say_so(tmp_path):
    result = tune(
        load_sample("tech_en"),
        synthetic=30,
        form="cloze",
        seed=3,
        configs=tune_grid()[:2],
        bootstrap=100,
        permutations=200,
        cache_dir=tmp_path,
    )
    source = result.results.questions_source
    assert source == questions_source(result.source)
    assert source is not None
    assert (source.kind, source.own, source.synthetic, source.form, source.seed) == (
        "synthetic",
        0,
        30,
        "cloze",
        3,
    )
    assert "favour lexical retrieval" in source.caveat
    lines = provenance_lines("en", source, "bm25")
    assert lines[0].startswith("Synthetic questions: 30 cloze questions (seed 3)")
    assert "favour lexical retrieval" in lines[1]
    assert "held-out real questions of JSQuAD and JaQuAD" in lines[2]
    assert provenance_lines("ja", source, "bm25")[0].startswith("合成質問")
    assert provenance_lines("en", None, "bm25") == []
    own = provenance_lines("en", QuestionsSource(kind="own", own=5, synthetic=0), "bm25")
    assert own == ["Questions: your own question/answer pairs (5)."]
