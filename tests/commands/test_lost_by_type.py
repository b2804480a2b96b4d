"""``chunkviz lost --by-type``: lost answers per JaQuAD type, the same as the shipped run's."""

from __future__ import annotations

import json

import pytest

from chunkviz.cli import main
from chunkviz.datasets import load_dataset
from chunkviz.errors import ParameterError
from chunkviz.eval.by_type import metric_by_type
from chunkviz.eval.lost import lost_by_type
from chunkviz.eval.results import load_results
from chunkviz.eval.runner import shipped_results_dir


def test_lost_by_question_type_agrees_with_the_benchmark_file(capsys):
    assert (
        main(
            [
                "lost",
                "--dataset",
                "jaquad",
                "--sample",
                "0",
                "--by-type",
                "question",
                "--format",
                "json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    (path,) = shipped_results_dir().glob("jaquad-bm25-all-s0-*.json")
    from_file = {
        r.type: (r.questions, dict(r.lost))
        for r in metric_by_type(load_results(path), "recall@5", "question")
    }
    assert {e["type"]: (e["questions"], e["broken"]) for e in out["by_type"]} == from_file
    assert sum(e["broken"]["fixed-100-0"] for e in out["by_type"]) == next(
        c["broken"] for c in out["configs"] if c["config"] == "fixed-100-0"
    )


def test_the_table_names_each_type(capsys):
    assert main(["lost", "--dataset", "jaquad", "--sample", "200", "--by-type", "answer"]) == 0
    printed = capsys.readouterr().out
    assert "# lost by answer type" in printed
    assert "\nObject " in printed


def test_a_dataset_without_types_says_so(capsys):
    assert main(["lost", "--dataset", "jsquad", "--sample", "50", "--by-type", "question"]) == 0
    assert "# no question carries a question type" in capsys.readouterr().out
    with pytest.raises(ParameterError, match="kind must be one of question, answer"):
        lost_by_type(load_dataset("jsquad"), [], "topic")
