"""``chunkviz bench --dataset jaquad`` runs offline and writes a file that validates, with types."""

from __future__ import annotations

import json

import pytest

from chunkviz.cli import main
from chunkviz.datasets import load_dataset
from chunkviz.eval.results import load_results


@pytest.fixture(scope="module")
def jaquad_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    code = main(
        [
            "bench",
            "--dataset",
            "jaquad",
            "--backend",
            "bm25",
            "--sample",
            "60",
            "--grid",
            "fixed-200-0,paragraph",
            "--out",
            str(out),
            "--bootstrap",
            "50",
            "--permutations",
            "50",
            "--quiet",
        ]
    )
    assert code == 0
    (path,) = out.glob("*.json")
    return path


def test_the_file_validates_and_is_named_like_jsquads(jaquad_run):
    results = load_results(jaquad_run)  # every check of the results file runs here
    assert jaquad_run.name.startswith("jaquad-bm25-n60-s0-")
    assert (results.dataset.name, results.dataset.spec) == ("jaquad", "jaquad")
    assert results.dataset.questions == 60
    assert results.labels == ("fixed-200-0", "paragraph")


def test_each_question_keeps_its_types_in_the_file(jaquad_run):
    results = load_results(jaquad_run)
    by_id = {q.qid: q for q in load_dataset("jaquad").questions}
    assert len(results.question_types) == len(results.question_ids) == 60
    assert results.question_types == tuple(by_id[q].question_type for q in results.question_ids)
    assert results.answer_types == tuple(by_id[q].answer_type for q in results.question_ids)
    assert all(results.question_types)
    assert all(results.answer_types)


def test_a_dataset_without_types_writes_no_type_fields(tmp_path):
    context = "富士山は日本一高い山である。標高は三千七百七十六メートル。"
    data = {
        "data": [
            {
                "title": "富士山",
                "paragraphs": [
                    {
                        "context": context,
                        "qas": [
                            {
                                "id": "f1",
                                "question": "標高は",
                                "answers": [
                                    {
                                        "text": "三千七百七十六メートル",
                                        "answer_start": context.index("三千"),
                                    }
                                ],
                            }
                        ],
                    }
                ],
            }
        ]
    }
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert (
        main(
            [
                "bench",
                "--dataset",
                f"squad:{path}",
                "--backend",
                "bm25",
                "--grid",
                "paragraph",
                "--out",
                str(tmp_path / "out"),
                "--bootstrap",
                "20",
                "--permutations",
                "20",
                "--quiet",
            ]
        )
        == 0
    )
    (written,) = (tmp_path / "out").glob("*.json")
    raw = json.loads(written.read_text(encoding="utf-8"))
    assert "question_types" not in raw
    assert "answer_types" not in raw
    assert load_results(written).question_types == ()
