"""MTCB in and out: export a corpus in MTCB's layout, read MTCB's folders as a dataset."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chunkviz.cli import main
from chunkviz.datasets import load_dataset
from chunkviz.datasets.mtcb import PASSAGE, read_mtcb, write_mtcb
from chunkviz.datasets.sampling import sample_questions
from chunkviz.errors import DatasetError
from chunkviz.eval.grid import parse_grid
from chunkviz.eval.runner import run_benchmark

GRID = parse_grid("fixed-200-0,fixed-400-80,paragraph")
FAST = {"bootstrap": 50, "permutations": 50}


def test_a_jsquad_sample_exported_and_read_back_scores_the_same(tmp_path):
    jsquad = load_dataset("jsquad")
    original = run_benchmark(jsquad, GRID, "bm25", sample=120, seed=3, **FAST)
    write_mtcb(sample_questions(jsquad, 120, 3), tmp_path / "mtcb")
    back = load_dataset(f"mtcb:{tmp_path / 'mtcb'}")
    assert [d.doc_id for d in back.documents] == [d.doc_id for d in jsquad.documents]
    assert [d.paragraph_starts for d in back.documents] == [
        d.paragraph_starts for d in jsquad.documents
    ]
    again = run_benchmark(back, GRID, "bm25", **FAST)
    assert again.question_ids == original.question_ids
    for label in original.labels:
        assert again.metrics[label]["recall@5"].mean == original.metrics[label]["recall@5"].mean
        assert again.ranks[label] == original.ranks[label]
    assert 0.5 < original.metrics["paragraph"]["recall@5"].mean < 1.0


def test_the_export_is_mtcb_s_layout(tmp_path):
    jsquad = sample_questions(load_dataset("jsquad"), 10, 0)
    folder = write_mtcb(jsquad, tmp_path / "out")
    corpus = [
        json.loads(line)
        for line in (folder / "corpus" / "train-00000-of-00001.jsonl")
        .read_text("utf-8")
        .splitlines()
    ]
    questions = [
        json.loads(line)
        for line in (folder / "questions" / "train-00000-of-00001.jsonl")
        .read_text("utf-8")
        .splitlines()
    ]
    assert len(corpus) == len(jsquad.documents)
    assert len(questions) == 10
    texts = {d["id"]: d["text"] for d in corpus}
    for q, original in zip(questions, jsquad.questions, strict=True):
        assert q["question"] == original.question
        # MTCB's hit rule: the passage is a substring of the chunk; here, of its document.
        assert q[PASSAGE] in texts[q["document_id"]]
        s = original.spans[0]
        assert q[PASSAGE] == texts[s.doc_id][s.start : s.end]
    card = (folder / "README.md").read_text("utf-8")
    assert "config_name: questions" in card
    assert "path: questions/train-*" in card


def _parquet(folder, corpus, questions):
    for name, rows in (("corpus", corpus), ("questions", questions)):
        (folder / name).mkdir(parents=True)
        pq.write_table(pa.Table.from_pylist(rows), folder / name / "train-00000-of-00001.parquet")


def test_mtcb_s_own_parquet_folder_is_read_with_passages_located(tmp_path):
    _parquet(
        tmp_path,
        [
            {"text": "The cat sat on the mat. The cat ran."},
            {"text": "A dog sat on the mat."},
        ],
        [
            {"question": "Who ran?", PASSAGE: "The cat ran."},
            {"question": "Where did it sit?", PASSAGE: "sat on the mat"},
            {"question": "Who flew?", PASSAGE: "The bird flew."},
        ],
    )
    # Older MTCB files name the passage supporting_passage.
    (tmp_path / "questions" / "train-00001-of-00001.jsonl").write_text(
        json.dumps({"question": "Which animal?", "supporting_passage": "The cat"}) + "\n",
        encoding="utf-8",
    )
    data = read_mtcb(tmp_path)
    assert [d.doc_id for d in data.documents] == ["d0", "d1"]
    q = {x.question: x for x in data.questions}
    assert [(s.doc_id, s.start, s.end) for s in q["Who ran?"].spans] == [("d0", 24, 36)]
    # Every exact occurrence in the first document holding the passage counts, as in MTCB.
    assert [(s.start, s.end) for s in q["Which animal?"].spans] == [(0, 7), (24, 31)]
    assert q["Where did it sit?"].doc_id == "d0"
    assert data.dropped == {"q3": "passage found in no document"}
    assert any("1 passages also occur in another document" in n for n in data.notes)


def test_bench_reads_an_mtcb_folder(tmp_path, capsys):
    fuji = "富士山は日本一高い山である。標高は三千七百七十六メートル。"
    _parquet(
        tmp_path / "m",
        [{"text": fuji}],
        [
            {"question": "富士山の標高は", PASSAGE: "三千七百七十六メートル"},
            {"question": "日本一高い山は", PASSAGE: "富士山"},
        ],
    )
    assert (
        main(
            [
                "bench",
                "--dataset",
                f"mtcb:{tmp_path / 'm'}",
                "--grid",
                "fixed-20-0",
                "--out",
                str(tmp_path / "out"),
                "--bootstrap",
                "20",
                "--permutations",
                "20",
                "--quiet",
                "--format",
                "json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["dataset"]["spec"] == f"mtcb:{tmp_path / 'm'}"
    assert data["dataset"]["questions"] == 2


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({}, "has no corpus files"),
        ({"corpus/a.jsonl": '{"text": "x"}\n'}, "has no questions files"),
        ({"corpus/a.jsonl": '{"title": "no text"}\n', "questions/a.jsonl": ""}, "has no text"),
        ({"corpus/a.jsonl": "[1,\n", "questions/a.jsonl": ""}, "is not valid JSON"),
        (
            {"corpus/a.jsonl": '{"text": "x"}\n', "questions/a.jsonl": '{"question": "q"}\n'},
            "has no question whose passage is in its corpus",
        ),
    ],
)
def test_a_broken_folder_is_refused_with_the_fix(tmp_path, files, message):
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    with pytest.raises(DatasetError, match=message) as info:
        read_mtcb(tmp_path)
    assert "corpus/ and questions/" in str(info.value)


def test_export_command_writes_what_bench_reads_back(tmp_path, capsys):
    assert (
        main(
            [
                "export",
                "--dataset",
                "jsquad",
                "--sample",
                "30",
                "--seed",
                "1",
                "--out",
                str(tmp_path / "x"),
            ]
        )
        == 0
    )
    assert "30 questions" in capsys.readouterr().out
    assert len(load_dataset(f"mtcb:{tmp_path / 'x'}").questions) == 30


def test_mtcb_s_own_loader_call_reads_the_export(tmp_path, monkeypatch):
    # MTCB loads a dataset with datasets.load_dataset(<repo>, "corpus" | "questions",
    # split="train"); the export's card makes a local folder answer the same call.
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from datasets import load_dataset as hf_load

    folder = write_mtcb(sample_questions(load_dataset("jsquad"), 12, 0), tmp_path / "x")
    corpus = hf_load(str(folder), "corpus", split="train", cache_dir=str(tmp_path / "hf"))
    questions = hf_load(str(folder), "questions", split="train", cache_dir=str(tmp_path / "hf"))
    texts = [row["text"] for row in corpus]
    assert len(texts) == 59
    assert len(questions) == 12
    assert all(any(q[PASSAGE] in t for t in texts) for q in questions)
