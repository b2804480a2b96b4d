"""The public API: read a file, evaluate a corpus, tune a document, each with to_json()."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import chunkviz
from chunkviz.document import content_id
from chunkviz.errors import ParameterError

ROOT = Path(__file__).resolve().parents[1]
CLI_SCHEMA = json.loads((ROOT / "docs" / "cli-schema.json").read_text(encoding="utf-8"))
RESULTS_SCHEMA = json.loads((ROOT / "docs" / "results-schema.json").read_text(encoding="utf-8"))
TEXT = (
    "富士山は日本一高い山である。標高は三千七百七十六メートル。山頂には浅間大社の奥宮がある。"
    "\n\n"
    "琵琶湖は日本一大きい湖である。面積は六百七十平方キロメートル。滋賀県にある。"
)
PAIRS = [
    {"question": "富士山の標高は", "answer": "三千七百七十六メートル"},
    {"question": "琵琶湖はどこにある", "answer": "滋賀県"},
]
FAST = {"seed": 0}


def test_the_package_exports_the_api():
    for name in ("read", "evaluate", "tune", "Recommendation", "Document", "chunk"):
        assert name in chunkviz.__all__
        assert getattr(chunkviz, name) is not None


def test_read_gives_the_document_the_cli_and_the_app_read(tmp_path):
    path = tmp_path / "fuji.txt"
    path.write_text(TEXT, encoding="utf-8")
    doc = chunkviz.read(path)
    assert (doc.doc_id, doc.title, doc.text, doc.origin) == (
        content_id(TEXT),
        "fuji.txt",
        TEXT,
        "upload",
    )
    data = json.loads(doc.to_json())
    assert data["text"] == TEXT
    assert data["doc_id"] == doc.doc_id
    assert data["questions"] == []


def test_evaluate_documents_with_their_questions_at_a_budget(tmp_path):
    doc = chunkviz.read(_write(tmp_path))
    from chunkviz.document import locate_questions

    doc = doc.with_questions(locate_questions(doc.text, PAIRS, doc_id=doc.doc_id))
    results = chunkviz.evaluate(
        doc, ["fixed-20-4", "paragraph"], budget=120, cache_dir=tmp_path / "cache", **FAST
    )
    assert results.labels == ("fixed-20-4", "paragraph")
    assert results.budget.chars == 120
    assert len(results.question_ids) == 2
    data = json.loads(results.to_json())
    jsonschema.validate(data, RESULTS_SCHEMA)
    jsonschema.validate(data, CLI_SCHEMA)
    assert data["schema"] == "chunkviz.benchmark"


def test_evaluate_reads_a_dataset_spec_and_refuses_a_bad_budget():
    with pytest.raises(
        ParameterError, match="budget must be a whole number of characters from 100 to 100,000"
    ):
        chunkviz.evaluate("jsquad", "paragraph", budget=0)
    with pytest.raises(ParameterError, match=r"got budget=60\); try 2000"):
        chunkviz.evaluate("jsquad", "paragraph", budget=60)
    results = chunkviz.evaluate("jsquad", "paragraph", sample=20, **FAST)
    assert results.budget.chars == 2000  # the runner's default budget
    assert results.dataset.spec == "jsquad"
    assert results.dataset.questions == 20


def test_tune_recommends_from_text_and_pairs_and_writes_the_tune_document():
    rec = chunkviz.tune(TEXT, questions=PAIRS, synthetic=0)
    labels = [p.label for p in rec.configs]
    assert len(labels) == 16
    assert rec.pick in labels
    assert rec.pick == rec.result.pick
    data = json.loads(rec.to_json())
    jsonschema.validate(data, CLI_SCHEMA)
    assert data["schema"] == "chunkviz.tune"
    assert data["pick"] == rec.pick
    assert data["questions"] == {"own": 2, "synthetic": 0, "form": "", "asked": 0}
    assert data["budget_chars"] == 2000
    assert data["driver"] in ("prior", "questions")
    assert set(data["ineligible"]) <= set(labels)
    assert data["run_id"] == rec.results.run_id
    # The schema can fail: a share above 1 is refused.
    data["configs"][0]["quality"] = 2.0
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, CLI_SCHEMA)


def test_tune_refuses_what_is_not_a_document():
    with pytest.raises(ParameterError, match="chunkviz.read"):
        chunkviz.tune(b"bytes")  # type: ignore[arg-type]


def _write(tmp_path: Path) -> Path:
    path = tmp_path / "doc.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path
