from __future__ import annotations

import csv
import hashlib
import io
import json

import chunkviz
from chunkviz.document import Document, locate_questions
from chunkviz.views import export
from chunkviz.views.explore import qa_report

TEXT = "寒帯ジェット気流が南下する。梅雨前線が停滞する。オホーツク海高気圧が張り出す。"
PAIRS = (
    {"question": "何が南下する？", "answer": "寒帯ジェット気流"},
    {"question": "何が停滞する？", "answer": "梅雨前線"},
)


def _chunking(size: int, name: str = "notes.txt"):
    document = Document("upload-1", name, TEXT, origin="upload")
    document = document.with_questions(locate_questions(TEXT, PAIRS, doc_id="upload-1"))
    result = chunkviz.chunk(TEXT, "fixed", size=size, overlap=0)
    qa, _marks = qa_report(result, document.questions)
    return document, result, qa


def test_json_names_the_document_and_configuration_and_each_chunks_qa():
    document, result, qa = _chunking(size=5)
    payload = json.loads(export.to_json(result, document, qa))
    # An upload is named by its text's hash, never by the browser's upload id (issue 25).
    digest = hashlib.sha256(TEXT.encode()).hexdigest()[:16]
    assert payload["document"] == {
        "name": "notes.txt",
        "id": f"sha256:{digest}",
        "origin": "upload",
        "chars": len(TEXT),
        "questions": 2,
    }
    assert (payload["strategy"], payload["params"]) == ("fixed", dict(result.params))
    # 寒帯ジェット気流 (0..8) is cut by chunks 0 and 1 at size 5; 梅雨前線 (14..18) by 2 and 3.
    assert [q["status"] for q in payload["questions"]] == ["broken", "broken"]
    chunks = payload["chunks"]
    first, second = (r.item.qid for r in qa)
    assert [c["answers_broken"] for c in chunks[:4]] == [[first], [first], [second], [second]]
    assert all(c["answers_contained"] == [] for c in chunks)
    assert payload["questions"][0]["cut_by_chunks"] == [0, 1]


def test_a_whole_answer_is_listed_under_the_chunk_that_holds_it():
    document, result, qa = _chunking(size=20)
    records = export.chunk_records(result, qa)
    ids = [r.item.qid for r in qa]
    assert records[0]["answers_contained"] == ids  # both answers lie in TEXT[0:20]
    assert all(r["answers_broken"] == [] for r in records)
    for record in records:
        held = [r.item.qid for r in qa if record["index"] in r.containing]
        assert record["answers_contained"] == held


def test_jsonl_lines_carry_the_document_and_configuration():
    document, result, qa = _chunking(size=20)
    lines = [json.loads(line) for line in export.to_jsonl(result, document, qa).splitlines()]
    assert len(lines) == len(result.chunks)
    for line, record in zip(lines, export.chunk_records(result, qa), strict=True):
        assert line == {
            "document": "notes.txt",
            "strategy": "fixed",
            "params": dict(result.params),
            **record,
        }


def test_csv_rows_carry_context_and_a_hostile_document_name_is_neutralised():
    document, result, qa = _chunking(size=5, name='=HYPERLINK("https://evil.example")')
    out = export.to_csv(result, document, qa)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == [*export.CSV_FIELDS, *export.CONTEXT_FIELDS]
    assert rows[0]["document"] == "'" + document.title
    assert json.loads(rows[0]["params"]) == dict(result.params)
    assert rows[0]["answers_broken"] == qa[0].item.qid
    assert [r["text"] for r in rows] == result.chunk_texts()


def test_without_a_document_the_exports_are_the_chunks_alone():
    _document, result, _qa = _chunking(size=5)
    assert list(json.loads(export.to_json(result))) == ["strategy", "params", "chunks"]
    assert export.to_csv(result).splitlines()[0] == ",".join(f'"{f}"' for f in export.CSV_FIELDS)


def test_the_file_name_stem_keeps_only_safe_characters():
    document, result, _qa = _chunking(size=5, name="../私の 文書?.txt")
    assert export.export_stem(result, document) == "chunks-私の_文書_.txt-fixed"
    assert export.export_stem(result) == "chunks-fixed"


def test_exports_say_which_chunk_edges_fall_inside_a_word():
    # issue 38: 梅雨は北海道 cut at 4 falls inside 北海道.
    from chunkviz.text_boundaries import word_cuts

    result = chunkviz.chunk("梅雨は北海道", "fixed", size=4)
    cuts = word_cuts(result)
    assert cuts.inside == (4,)
    payload = json.loads(export.to_json(result, word_cuts=cuts))
    assert payload["word_cuts"] == {"level": "word", "cuts": 1, "inside_words": 1}
    assert [(r["start_in_word"], r["end_in_word"]) for r in payload["chunks"]] == [
        (False, True),
        (True, False),
    ]
    rows = list(csv.DictReader(io.StringIO(export.to_csv(result, word_cuts=cuts))))
    assert [r["end_in_word"] for r in rows] == ["True", "False"]
    assert "word_cuts" not in json.loads(export.to_json(result))
