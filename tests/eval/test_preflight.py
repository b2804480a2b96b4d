"""A run checks what it needs before any work: no run fails at 88% on a missing package."""

from __future__ import annotations

import pytest

import chunkviz.datasets
import chunkviz.eval.runner as runner
import chunkviz.eval.tune as tune_module
from chunkviz.cli import main
from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.errors import MissingDependencyError, ResultsFileError
from chunkviz.eval.grid import parse_grid
from chunkviz.eval.preflight import preflight
from chunkviz.model import Span

MISSING = 'sentencepiece is not installed; run pip install "chunkviz[dense]"'


@pytest.fixture
def no_sentencepiece(monkeypatch):
    """The install of the issue: everything but sentencepiece."""

    def missing():
        raise MissingDependencyError(MISSING)

    monkeypatch.setattr(runner, "bundled_sentencepiece", missing)


@pytest.fixture
def work_done(monkeypatch):
    """Records every step of real work a run would start with."""
    calls: list[str] = []

    def record(name, real):
        def wrapper(*args, **kwargs):
            calls.append(name)
            return real(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(
        chunkviz.datasets, "load_dataset", record("load_dataset", chunkviz.datasets.load_dataset)
    )
    monkeypatch.setattr(
        tune_module,
        "document_from_file",
        record("document_from_file", tune_module.document_from_file),
    )
    monkeypatch.setattr(runner, "chunk_stage", record("chunk_stage", runner.chunk_stage))
    return calls


def test_preflight_loads_the_backend_and_the_context_tokenizer(tmp_path):
    ready = preflight("bm25", out_dir=tmp_path / "out")
    assert ready.backend.name == "bm25"
    assert ready.tokenizer.name == "use-m3 (SentencePiece)"
    assert ready.out_dir == tmp_path / "out"
    assert (tmp_path / "out").is_dir()


def test_preflight_refuses_an_unwritable_results_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ResultsFileError, match="--out"):
        preflight("bm25", out_dir=blocker / "out")


def test_bench_without_sentencepiece_stops_before_reading_the_dataset(
    no_sentencepiece, work_done, tmp_path, capsys
):
    code = main(
        ["bench", "--dataset", "jsquad", "--sample", "5", "--quiet", "--out", str(tmp_path)]
    )
    assert code == 2
    assert capsys.readouterr().err.strip() == f"error: {MISSING}"
    assert work_done == []


def test_tune_without_sentencepiece_stops_before_reading_the_document(
    no_sentencepiece, work_done, tmp_path, capsys
):
    doc = tmp_path / "doc.txt"
    doc.write_text("梅雨前線は六月に北上する。" * 20, encoding="utf-8")
    assert main(["tune", str(doc), "--quiet"]) == 2
    assert MISSING in capsys.readouterr().err
    assert work_done == []


def test_run_benchmark_checks_the_tokenizer_before_chunking(no_sentencepiece, work_done):
    text = "富士山は日本一高い山である。"
    data = Dataset(
        "d",
        (Document("a", "a", text),),
        (Question("q", "a", "何が高い", "富士山", (Span("a", 0, 3),)),),
    )
    with pytest.raises(MissingDependencyError, match=r"chunkviz\[dense\]"):
        runner.run_benchmark(data, parse_grid("paragraph"), "bm25")
    assert work_done == []
