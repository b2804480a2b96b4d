from __future__ import annotations

import json

import pytest

from chunkviz.cli import main
from chunkviz.commands.bench_cmd import parse_grid
from chunkviz.errors import UnknownStrategyError
from chunkviz.eval.grid import default_grid
from chunkviz.eval.runner import load_results

CONTEXT = "富士山は日本一高い山である。標高は三千七百七十六メートル。山頂には浅間大社の奥宮がある。"


@pytest.fixture
def squad_file(tmp_path):
    qas = [
        {"id": "f1", "question": "富士山の標高は", "answers": [
            {"text": "三千七百七十六メートル", "answer_start": CONTEXT.index("三千")}]},
        {"id": "f2", "question": "山頂には何がある", "answers": [
            {"text": "浅間大社の奥宮", "answer_start": CONTEXT.index("浅間")}]},
    ]
    data = {"version": "1.1", "data": [
        {"title": "富士山", "paragraphs": [{"context": CONTEXT, "qas": qas}]}
    ]}
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_bench_writes_a_results_file_and_prints_the_table(tmp_path, squad_file, capsys):
    out = tmp_path / "out"
    code = main(["bench", "--dataset", f"squad:{squad_file}", "--backend", "bm25",
                 "--grid", "fixed-20-4,paragraph", "--out", str(out), "--bootstrap", "50",
                 "--permutations", "50", "--quiet"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "| config | Recall@5 | nDCG@10 | MRR@10 | chunks | broken | encode s |" in printed
    assert "- nDCG@10: " in printed
    assert "pairs differ (Holm, alpha=0.05)" in printed
    files = list(out.glob("*.json"))
    assert len(files) == 1
    results = load_results(files[0])
    assert [c["label"] for c in results["configs"]] == ["fixed-20-4", "paragraph"]
    assert results["question_ids"] == ["f1", "f2"]


def test_unknown_backend_is_an_error_message_not_a_traceback(capsys):
    code = main(["bench", "--backend", "nope", "--quiet"])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: backend must be one of")
    assert "Traceback" not in err


def test_backends_lists_availability(capsys):
    assert main(["backends"]) == 0
    out = capsys.readouterr().out
    assert "bm25  [lexical, available]" in out
    assert "st:cl-nagoya/ruri-v3-130m" in out


def test_parse_grid():
    assert parse_grid("default") == default_grid()
    assert [c.label for c in parse_grid("fixed-100-20, paragraph")] == ["fixed-100-20", "paragraph"]
    with pytest.raises(UnknownStrategyError):
        parse_grid("nonsense")


def test_bench_prints_the_unit_and_verdict_and_takes_margins(tmp_path, squad_file, capsys):
    out = tmp_path / "out"
    code = main(["bench", "--dataset", f"squad:{squad_file}", "--backend", "bm25",
                 "--grid", "fixed-20-4,paragraph", "--out", str(out), "--bootstrap", "50",
                 "--permutations", "50", "--quiet", "--unit", "question",
                 "--margin", "recall@5=0.5"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "Inference resamples 2 questions (50 bootstrap resamples, 50 sign flips" in printed
    assert "equivalent within ±0.5" in printed
    assert "bm25 (Recall@5, inference over 2 questions" in printed
    results = load_results(next(out.glob("*.json")))
    assert results["stats"]["unit"] == "question"
    assert results["stats"]["margins"]["recall@5"] == 0.5


def test_a_bad_margin_is_a_message(capsys):
    assert main(["bench", "--margin", "recall@5", "--quiet"]) == 2
    assert "--margin must look like METRIC=DELTA" in capsys.readouterr().err


def test_format_significance_names_the_conclusions_that_depend_on_a_definition():
    from pathlib import Path

    from chunkviz.commands.bench_cmd import format_significance

    data = json.loads((Path(__file__).parent / "fixtures" / "results_small.json").read_text(
        encoding="utf-8"))
    rows = json.loads(json.dumps(data["pairwise"]))
    flipped = next(r for r in rows if r["metric"] == "recall@5" and r["significant"])
    flipped["significant"] = False
    data["sensitivity"] = {"pairwise": {"ties_optimistic": rows}}
    text = format_significance(data)
    assert "Inference resamples 15 questions" in text
    assert (f"depends on the definitions: {flipped['a']} vs {flipped['b']}" in text)
    assert "under ties_optimistic: inconclusive" in text
