"""Provenance of a run's questions in the results file: written, read, checked, shown."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import pytest

from chunkviz.errors import ResultsFileError
from chunkviz.eval.grid import tune_grid
from chunkviz.eval.results import QuestionsSource, Results, load_results
from chunkviz.eval.runner import shipped_results_dir
from chunkviz.eval.tune import questions_source, tune
from chunkviz.samples import load_sample
from chunkviz.views.tune_report import provenance_lines

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOOD = json.loads((FIXTURES / "results_small.json").read_text(encoding="utf-8"))
CLOZE = QuestionsSource("both", 3, 40, "cloze", 7, "synthetic questions ...",
                        "cloze questions favour lexical retrieval", 0.6, "rho 0.60")


@pytest.mark.parametrize("path", sorted(shipped_results_dir().glob("*.json")))
def test_the_shipped_files_still_load_and_record_no_source(path):
    assert load_results(path).questions_source is None


def test_a_source_survives_the_round_trip_and_old_files_write_none():
    old = Results.from_dict(GOOD)
    assert "questions_source" not in old.to_dict()
    new = replace(old, questions_source=CLOZE)
    data = json.loads(new.to_json())
    assert data["questions_source"]["form"] == "cloze"
    assert Results.from_dict(data).questions_source == CLOZE


@pytest.mark.parametrize(("field", "value", "message"), [
    ("kind", "made-up", "questions_source.kind must be one of own, synthetic, both"),
    ("kind", "own", "questions_source.kind is 'own' but own=3 and synthetic=40"),
    ("synthetic", -1, "questions_source.synthetic must be a non-negative integer"),
    ("validation_rho", 2.0, "questions_source.validation_rho must be a finite number in"),
    ("seed", "7", "questions_source.seed must be a non-negative integer"),
])
def test_a_damaged_source_names_its_field(field, value, message):
    data = copy.deepcopy(json.loads(replace(Results.from_dict(GOOD),
                                            questions_source=CLOZE).to_json()))
    data["questions_source"][field] = value
    with pytest.raises(ResultsFileError, match=message):
        Results.from_dict(data)


def test_tune_records_synthetic_form_and_seed_and_its_sentences_say_so(tmp_path):
    result = tune(load_sample("tech_en"), synthetic=30, form="cloze", seed=3,
                  configs=tune_grid()[:2], bootstrap=100, permutations=200,
                  cache_dir=tmp_path)
    source = result.results.questions_source
    assert source == questions_source(result.source)
    assert source is not None
    assert (source.kind, source.own, source.synthetic, source.form, source.seed) == \
        ("synthetic", 0, 30, "cloze", 3)
    assert "favour lexical retrieval" in source.caveat
    lines = provenance_lines("en", source, "bm25")
    assert lines[0].startswith("Synthetic questions: 30 cloze questions (seed 3)")
    assert "favour lexical retrieval" in lines[1]
    assert "Spearman ρ" in lines[2]
    assert provenance_lines("ja", source, "bm25")[0].startswith("合成質問")
    assert provenance_lines("en", None, "bm25") == []
    own = provenance_lines("en", QuestionsSource("own", 5, 0), "bm25")
    assert own == ["Questions: your own question/answer pairs (5)."]
