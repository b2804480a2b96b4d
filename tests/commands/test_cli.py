from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import chunkviz
from chunkviz.cli import main
from chunkviz.strategies import all_strategies
from chunkviz.views import export

ROOT = Path(__file__).resolve().parents[2]
DOC = "# 就業規則\n\n第1条 目的。この規則は服務を定める。\n\n## 第2章\n\n休暇を与える。\n"


@pytest.fixture
def doc(tmp_path):
    path = tmp_path / "doc.md"
    path.write_text(DOC, encoding="utf-8")
    return path


def test_strategies_json_from_a_subprocess_lists_every_strategy_with_its_schema():
    out = subprocess.run(
        [sys.executable, "-m", "chunkviz", "strategies", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    data = json.loads(out.stdout)
    assert [s["name"] for s in data] == [s.name for s in all_strategies()]
    recursive = next(s for s in data if s["name"] == "recursive")
    assert recursive["description"]
    size = next(p for p in recursive["params"] if p["name"] == "size")
    assert {k: size[k] for k in ("type", "default", "min", "unit")} == {
        "type": "int",
        "default": 400,
        "min": 1,
        "unit": "chars/tokens",
    }
    for strategy in data:
        for param in strategy["params"]:
            assert {"name", "type", "default", "min", "max", "unit"} <= set(param)


def test_chunk_jsonl_has_offsets_text_and_prefix(doc, capsys):
    assert main(["chunk", str(doc), "--strategy", "markdown", "--size", "100"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["index"] for r in lines] == [0, 1]
    for r in lines:
        assert DOC[r["start"] : r["end"]] == r["text"]
    assert lines[0]["prefix"] == "就業規則\n"
    assert lines[1]["prefix"] == "就業規則 > 第2章\n"
    assert lines[1]["text"] == "## 第2章\n\n休暇を与える。"


def test_chunk_json_and_csv_carry_the_same_chunks(doc, capsys):
    assert (
        main(
            [
                "chunk",
                str(doc),
                "--strategy",
                "recursive",
                "--size",
                "20",
                "--overlap",
                "5",
                "--format",
                "json",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    result = chunkviz.chunk(DOC, "recursive", size=20, overlap=5)
    assert out == export.to_json(result) + "\n"  # Explore's JSON download, byte for byte
    payload = json.loads(out)
    assert (payload["strategy"], payload["params"]["size"]) == ("recursive", 20)
    records = payload["chunks"]
    assert (
        main(
            [
                "chunk",
                str(doc),
                "--strategy",
                "recursive",
                "--size=20",
                "--overlap",
                "5",
                "--format",
                "csv",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out == export.to_csv(result)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(records) > 1
    for record, row in zip(records, rows, strict=True):
        assert int(row["start"]) == record["start"]
        assert int(row["end"]) == record["end"]
        assert row["text"] == record["text"] == DOC[record["start"] : record["end"]]
        assert row["prefix"] == ""


def test_overlap_equal_to_size_exits_2_with_the_named_message(doc, capsys):
    code = main(["chunk", str(doc), "--strategy", "recursive", "--overlap", "200", "--size", "200"])
    err = capsys.readouterr().err
    assert code == 2
    assert "overlap must be smaller than size (got overlap=200, size=200)" in err
    assert "Traceback" not in err


def test_unknown_option_names_the_strategy_parameters(doc, capsys):
    assert main(["chunk", str(doc), "--strategy", "sentence", "--foo", "1"]) == 2
    err = capsys.readouterr().err
    assert "has no parameter foo" in err
    assert "size, overlap, unit, max_sentences" in err


def test_optional_parameter_accepts_none(doc, capsys):
    assert main(["chunk", str(doc), "--strategy", "paragraph", "--max-size", "none"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 4
