from __future__ import annotations

import json

import pytest

from chunkviz.cli import main
from chunkviz.errors import UnknownStrategyError
from chunkviz.eval.grid import default_grid, parse_grid
from chunkviz.eval.results import load_results
from chunkviz.views.benchmark_tables import main_table_markdown
from chunkviz.views.main_table import main_table
from chunkviz.views.sentences import sentences

CONTEXT = "富士山は日本一高い山である。標高は三千七百七十六メートル。山頂には浅間大社の奥宮がある。"


@pytest.fixture
def squad_file(tmp_path):
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
    data = {
        "version": "1.1",
        "data": [{"title": "富士山", "paragraphs": [{"context": CONTEXT, "qas": qas}]}],
    }
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_bench_writes_a_results_file_and_prints_the_table(tmp_path, squad_file, capsys):
    out = tmp_path / "out"
    code = main(
        [
            "bench",
            "--dataset",
            f"squad:{squad_file}",
            "--backend",
            "bm25",
            "--grid",
            "fixed-20-4,paragraph",
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
    printed = capsys.readouterr().out
    files = list(out.glob("*.json"))
    assert len(files) == 1
    results = load_results(files[0])
    assert results.labels == ("fixed-20-4", "paragraph")
    assert results.question_ids == ("f1", "f2")
    # the page's own table and sentences, from the page's own functions
    table = main_table_markdown(main_table(results), "en", "col_index_build")
    assert table in printed
    assert "| Configuration | Recall@5 [95% CI] | nDCG@10 [95% CI] | MRR@10 [95% CI] |" in printed
    for sentence in sentences(results, "ndcg@10", "en").shown:
        assert f"  - {sentence}" in printed
    assert "- nDCG@10: " in printed
    assert "pairs differ (Holm, alpha=0.05)" in printed
    assert f"wrote {files[0]}" in printed


def _bench(squad_file, out, grid):
    return main(
        [
            "bench",
            "--dataset",
            f"squad:{squad_file}",
            "--backend",
            "bm25",
            "--grid",
            grid,
            "--out",
            str(out),
            "--bootstrap",
            "50",
            "--permutations",
            "50",
            "--quiet",
        ]
    )


def test_two_runs_that_differ_only_in_grid_leave_two_files(tmp_path, squad_file):
    out = tmp_path / "out"
    assert _bench(squad_file, out, "fixed-20-4") == 0
    first = {p.name: p.read_bytes() for p in out.glob("*.json")}
    assert _bench(squad_file, out, "paragraph") == 0
    files = sorted(out.glob("*.json"))
    assert len(files) == 2
    assert {p.name: p.read_bytes() for p in files if p.name in first} == first  # untouched
    assert sorted(load_results(p).labels for p in files) == [("fixed-20-4",), ("paragraph",)]


def test_an_unwritable_out_stops_before_any_work(tmp_path, squad_file, capsys, monkeypatch):
    from chunkviz.eval import runner

    def refuse(*args, **kwargs):
        raise AssertionError("the benchmark ran before --out was checked")

    monkeypatch.setattr(runner, "run_benchmark", refuse)
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert _bench(squad_file, blocker / "out", "paragraph") == 2
    err = capsys.readouterr().err
    assert "cannot be written" in err
    assert "Traceback" not in err


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
    code = main(
        [
            "bench",
            "--dataset",
            f"squad:{squad_file}",
            "--backend",
            "bm25",
            "--grid",
            "fixed-20-4,paragraph",
            "--out",
            str(out),
            "--bootstrap",
            "50",
            "--permutations",
            "50",
            "--quiet",
            "--unit",
            "question",
            "--margin",
            "recall@5=0.5",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "Inference resamples 2 questions (50 bootstrap resamples, 50 sign flips" in printed
    assert "equivalent within ±0.5" in printed
    assert "Recall@5 at Equal k: 5 chunks each: the best is" in printed
    assert "Recall@budget at Equal context budget: 2,000 characters each" in printed
    results = load_results(next(out.glob("*.json")))
    assert results.stats.unit == "question"
    assert results.stats.margins["recall@5"] == 0.5


def test_a_bad_margin_is_a_message(capsys):
    assert main(["bench", "--margin", "recall@5", "--quiet"]) == 2
    assert "--margin must look like METRIC@K=DELTA" in capsys.readouterr().err


def test_the_report_names_the_conclusions_that_depend_on_a_definition():
    from pathlib import Path

    from msgspec.structs import replace

    from chunkviz.commands.bench_cmd import format_report
    from chunkviz.eval.results import NdcgAll, Sensitivity

    data = load_results(Path(__file__).resolve().parents[1] / "fixtures" / "results_small.json")
    flipped = next(r for r in data.pairwise if r.metric == "recall@5" and r.significant)
    rows = tuple(replace(r, significant=False) if r is flipped else r for r in data.pairwise)
    data = replace(
        data,
        sensitivity=Sensitivity(
            definitions={},
            ranks={},
            ndcg_all=NdcgAll(k=10, places={}, relevant_counts={}),
            pairwise={"ties_optimistic": rows},
        ),
    )
    text = format_report(data)
    assert "Inference resamples 15 questions" in text
    assert f"depends on the definitions: {flipped.a} vs {flipped.b}" in text
    assert "under ties_optimistic: inconclusive" in text
