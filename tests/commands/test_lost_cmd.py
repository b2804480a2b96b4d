"""``python -m chunkviz lost``: table and JSON output, sampling, errors without traceback."""

from __future__ import annotations

import json

import pytest

from chunkviz.cli import main
from chunkviz.eval.grid import default_grid


def _json(capsys, *args):
    assert main(["lost", *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_json_has_one_object_per_grid_configuration(capsys):
    rows = _json(capsys, "--dataset", "jsquad", "--sample", "500", "--seed", "0")
    assert [r["config"] for r in rows] == [c.label for c in default_grid()]
    for r in rows:
        assert {"config", "chunks", "predicted_chunks", "questions", "broken", "share"} <= set(r)
        assert r["questions"] == 500
        assert r["broken"] == len(r["broken_ids"])
        assert r["share"] == pytest.approx(r["broken"] / 500)
    by = {r["config"]: r for r in rows}
    assert by["paragraph"]["predicted_chunks"] is None
    assert by["paragraph"]["chunks"] == 1145
    assert by["fixed-100-0"]["broken"] > 0


@pytest.mark.slow
def test_default_sample_is_500_with_seed_0_and_zero_means_all(capsys):
    default = _json(capsys)
    assert default == _json(capsys, "--sample", "500", "--seed", "0")
    assert _json(capsys, "--sample", "0")[0]["questions"] == 3973
    other = _json(capsys, "--seed", "1")
    assert [r["broken_ids"] for r in other] != [r["broken_ids"] for r in default]


def test_table_on_a_small_qa_dataset(capsys, tmp_path):
    doc = tmp_path / "doc.txt"
    doc.write_text("寒帯ジェット気流が南下する。" * 10, encoding="utf-8")
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("question,answer\n何が南下する？,寒帯ジェット気流\n", encoding="utf-8")
    assert main(["lost", "--dataset", f"qa:{pairs}:{doc}"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "# dataset pairs.csv: 1 documents"
    assert any("occurs 10 times" in line for line in out)  # the repeated answer is reported
    header = next(i for i, line in enumerate(out) if line.startswith("config"))
    rows = [line.split() for line in out[header + 1 :]]
    assert [r[0] for r in rows] == [c.label for c in default_grid()]
    assert all(r[3] == "1" for r in rows)  # fewer than 500 questions: all of them by default


def test_bad_dataset_is_one_line_and_status_2(capsys):
    assert main(["lost", "--dataset", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: unknown dataset nosuch;")
    assert "Traceback" not in err


def test_sample_too_large_is_a_parameter_error(capsys, tmp_path):
    doc = tmp_path / "d.txt"
    doc.write_text("abc", encoding="utf-8")
    pairs = tmp_path / "p.json"
    pairs.write_text('[{"question": "q", "answer": "b"}]', encoding="utf-8")
    assert main(["lost", "--dataset", f"qa:{pairs}:{doc}", "--sample", "2"]) == 2
    assert "sample must be between 0 and 1" in capsys.readouterr().err
