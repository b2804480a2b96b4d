"""``--format json`` on bench, tune, chunk, audit and lost: one document docs/cli-schema.json
describes (``x-commands`` names each command's)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from chunkviz.cli import main
from chunkviz.commands.schema_cmd import schema_text

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "docs" / "cli-schema.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def _valid(data, command):
    """Validate ``data`` against the command's own schema, and against the whole file."""
    jsonschema.validate(data, {"$defs": SCHEMA["$defs"], **SCHEMA["x-commands"][command]})
    jsonschema.validate(data, SCHEMA)


CONTEXT = "富士山は日本一高い山である。標高は三千七百七十六メートル。山頂には浅間大社の奥宮がある。"


def test_the_committed_schema_is_the_generated_one():
    # Regenerate: python -m chunkviz schema --cli --out docs/cli-schema.json
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(cli=True)
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_tune_json_is_one_valid_document(tmp_path, capsys):
    doc = tmp_path / "x.txt"
    doc.write_text(
        (ROOT / "chunkviz" / "samples" / "tech_en.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    assert main(["tune", str(doc), "--synthetic", "20", "--quiet", "--format", "json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)  # the whole of standard output is the one document
    _valid(data, "tune")
    assert data["schema"] == "chunkviz.tune"
    assert data["pick"] in {c["label"] for c in data["configs"]}
    assert data["questions"]["synthetic"] == 20
    data.pop("pick")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)


def test_tune_json_needs_questions(tmp_path, capsys):
    doc = tmp_path / "x.txt"
    doc.write_text("梅雨前線は六月に北上する。", encoding="utf-8")
    assert main(["tune", str(doc), "--synthetic", "0", "--format", "json"]) == 2
    assert "--format json reports a recommendation" in capsys.readouterr().err


def test_bench_json_is_the_results_file(tmp_path, capsys):
    qas = [
        {
            "id": "f1",
            "question": "富士山の標高は",
            "answers": [{"text": "三千七百七十六メートル", "answer_start": CONTEXT.index("三千")}],
        },
        {
            "id": "f2",
            "question": "山頂には何がある",
            "answers": [{"text": "浅間大社の奥宮", "answer_start": CONTEXT.index("浅間")}],
        },
    ]
    squad = tmp_path / "tiny.json"
    squad.write_text(
        json.dumps(
            {
                "version": "1.1",
                "data": [{"title": "富士山", "paragraphs": [{"context": CONTEXT, "qas": qas}]}],
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    assert (
        main(
            [
                "bench",
                "--dataset",
                f"squad:{squad}",
                "--grid",
                "fixed-20-4,paragraph",
                "--out",
                str(out),
                "--bootstrap",
                "50",
                "--permutations",
                "50",
                "--quiet",
                "--format",
                "json",
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    _valid(data, "bench")
    assert data["schema"] == "chunkviz.benchmark"
    (written,) = out.glob("*.json")
    assert json.loads(written.read_text(encoding="utf-8")) == data
    assert captured.err.strip() == f"wrote {written}"


def test_chunk_json_is_valid_and_an_unknown_field_is_refused(tmp_path, capsys):
    doc = tmp_path / "doc.txt"
    doc.write_text(CONTEXT * 3, encoding="utf-8")
    assert (
        main(
            [
                "chunk",
                str(doc),
                "--strategy",
                "fixed",
                "--size",
                "30",
                "--overlap",
                "5",
                "--format",
                "json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    _valid(data, "chunk")
    assert [c["start"] for c in data["chunks"]][:2] == [0, 25]
    data["chunks"][0]["surprise"] = 1
    with pytest.raises(jsonschema.ValidationError):
        _valid(data, "chunk")


def test_audit_json_is_valid(tmp_path, capsys):
    doc = tmp_path / "doc.txt"
    doc.write_text(CONTEXT, encoding="utf-8")
    chunks = tmp_path / "chunks.json"
    chunks.write_text(
        json.dumps([CONTEXT[:14], "どこにもない文", CONTEXT[20:]], ensure_ascii=False),
        encoding="utf-8",
    )
    assert main(["audit", str(doc), str(chunks), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    _valid(data, "audit")
    assert data["chunks"] == 3
    assert data["not_as_is"]
    assert data["uncovered"]


def test_lost_json_is_valid(tmp_path, capsys):
    squad = tmp_path / "tiny.json"
    qas = [
        {
            "id": "f1",
            "question": "標高は",
            "answers": [{"text": "三千七百七十六メートル", "answer_start": CONTEXT.index("三千")}],
        }
    ]
    squad.write_text(
        json.dumps(
            {
                "version": "1.1",
                "data": [{"title": "富士山", "paragraphs": [{"context": CONTEXT, "qas": qas}]}],
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    assert main(["lost", "--dataset", f"squad:{squad}", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    _valid(data, "lost")
    assert len(data) == 8


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path):
    import os
    import subprocess
    import sys

    doc = tmp_path / "big.txt"
    doc.write_text(CONTEXT * 3000, encoding="utf-8")  # far more output than a pipe holds
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(
        [
            sys.executable,
            "-m",
            "chunkviz",
            "chunk",
            str(doc),
            "--strategy",
            "fixed",
            "--size",
            "10",
            "--format",
            "json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    ) as proc:
        assert proc.stdout.read(10).startswith(b"{")
        proc.stdout.close()  # as head does
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) == 141
    assert "Traceback" not in err
    assert err == ""
