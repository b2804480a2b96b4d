"""SQuAD-format files and Hugging Face ``datasets`` (offline, on local files)."""

from __future__ import annotations

import json

import pytest

from chunkviz.datasets import load_dataset
from chunkviz.datasets.hub import load_hub, parse_hub_spec
from chunkviz.datasets.squad import REASON_MISMATCH, REASON_UNANSWERABLE
from chunkviz.errors import ChunkvizError, DatasetError

EN = "The cold polar jet stream moves south in winter."
JA = "寒帯ジェット気流が冬に南下する。梅雨前線が停滞する。"

SQUAD = {
    "version": "v2.0",
    "data": [
        {
            "title": "Weather",
            "paragraphs": [
                {
                    "context": EN,
                    "qas": [
                        {
                            "id": "q1",
                            "question": "What moves south?",
                            "answers": [
                                {"text": "polar jet stream", "answer_start": 9},
                                {"text": "jet stream", "answer_start": 15},
                            ],
                        },
                        {
                            "id": "q2",
                            "question": "Unanswerable?",
                            "answers": [],
                            "is_impossible": True,
                        },
                        {
                            "id": "q3",
                            "question": "Wrong offset?",
                            "answers": [{"text": "winter", "answer_start": 3}],
                        },
                    ],
                },
                {
                    "context": JA,
                    "qas": [
                        {
                            "id": "q4",
                            "question": "何が停滞する？",
                            "answers": [{"text": "梅雨前線", "answer_start": 16}],
                        },
                    ],
                },
            ],
        },
    ],
}


@pytest.fixture
def squad_file(tmp_path):
    path = tmp_path / "mini-squad.json"
    path.write_text(json.dumps(SQUAD, ensure_ascii=False), encoding="utf-8")
    return path


def _check_spans(ds):
    texts = {d.doc_id: d.text for d in ds.documents}
    for q in ds.questions:
        for s in q.spans:
            assert texts[s.doc_id][s.start : s.end] == q.answer


def test_squad_file_gives_one_document_per_context(squad_file):
    ds = load_dataset(f"squad:{squad_file}")
    assert [d.text for d in ds.documents] == [EN, JA]
    assert [q.qid for q in ds.questions] == ["q1", "q4"]
    assert ds.questions[0].answer == "polar jet stream"  # the first answer
    assert ds.dropped == {"q2": REASON_UNANSWERABLE, "q3": REASON_MISMATCH}
    _check_spans(ds)


def test_squad_not_in_format_is_a_dataset_error(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"rows": []}', encoding="utf-8")
    with pytest.raises(DatasetError, match="'data' list"):
        load_dataset(f"squad:{path}")
    path.write_text("not json", encoding="utf-8")
    with pytest.raises(DatasetError, match="not valid JSON"):
        load_dataset(f"squad:{path}")


def test_spec_without_path_is_refused():
    with pytest.raises(DatasetError, match="names no file"):
        load_dataset("squad:")


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("json:/a/b.json", ("json", "/a/b.json", "train")),
        ("rajpurkar/squad", ("rajpurkar/squad", None, "validation")),
        ("rajpurkar/squad:train", ("rajpurkar/squad", None, "train")),
    ],
)
def test_parse_hub_spec(spec, expected):
    assert parse_hub_spec(spec) == expected


def _hub_rows():
    rows = []
    for article in SQUAD["data"]:
        for p in article["paragraphs"]:
            for qa in p["qas"]:
                rows.append(
                    {
                        "id": qa["id"],
                        "title": article["title"],
                        "context": p["context"],
                        "question": qa["question"],
                        "answers": {
                            "text": [a["text"] for a in qa["answers"]],
                            "answer_start": [a["answer_start"] for a in qa["answers"]],
                        },
                    }
                )
    return rows


def test_hf_json_goes_through_datasets_offline(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in _hub_rows()), encoding="utf-8"
    )
    ds = load_hub(f"json:{path}", cache_dir=tmp_path / "cache")
    assert (tmp_path / "cache").exists()  # datasets itself built the table
    assert [d.text for d in ds.documents] == [EN, JA]
    assert [q.qid for q in ds.questions] == ["q1", "q4"]
    assert set(ds.dropped) == {"q2", "q3"}
    _check_spans(ds)


def test_hf_rows_without_squad_columns_name_the_column(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({"question": "q", "answer": "a"}), encoding="utf-8")
    with pytest.raises(DatasetError, match="no column 'context'"):
        load_hub(f"json:{path}", cache_dir=tmp_path / "cache")


def test_hf_hub_unreachable_is_a_clear_error_not_a_traceback(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    import datasets.config
    import huggingface_hub.constants

    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(ChunkvizError, match="offline"):
        load_hub("chunkviz-no-such-org/no-such-dataset", cache_dir=tmp_path / "cache")


def test_hf_missing_local_file(tmp_path):
    with pytest.raises(DatasetError, match=r"cannot read .*none\.json \(No such file"):
        load_dataset(f"hf:json:{tmp_path / 'none.json'}")
