"""Users' QA pairs: reading CSV/JSON, locating answers, reporting what was not found."""

from __future__ import annotations

import json

import pytest

from chunkviz.datasets import load_dataset
from chunkviz.datasets.qa_pairs import (
    locate_qa_pairs,
    occurrences,
    parse_qa_pairs,
    read_qa_pairs,
)
from chunkviz.errors import DatasetError
from chunkviz.model import Span

DOC = (
    "有給休暇は入社6か月後から付与される。"
    "経費精算は毎月末締めで、翌月5日までに申請する。申請は部門長が承認する。"
)


def test_answers_become_spans_in_document_coordinates():
    report = locate_qa_pairs([{"question": "締め日は？", "answer": "毎月末締め"}], DOC)
    (q,) = report.dataset.questions
    assert q.spans == (Span("document", DOC.index("毎月末締め"), DOC.index("毎月末締め") + 5),)
    assert DOC[q.spans[0].start : q.spans[0].end] == "毎月末締め"
    assert report.issues == ()


def test_not_found_and_multiple_are_reported_never_dropped_silently():
    pairs = [
        {"question": "誰が承認する？", "answer": "部門長"},
        {"question": "何を出す？", "answer": "申請"},  # twice in DOC
        {"question": "いつ？", "answer": "翌々月"},  # not in DOC
        {"question": "", "answer": "x"},
    ]
    report = locate_qa_pairs(pairs, DOC)
    kinds = [(i.row, i.kind) for i in report.issues]
    assert kinds == [(2, "multiple"), (3, "not_found"), (4, "empty")]
    assert report.multiple[0].occurrences == 2
    ds = report.dataset
    assert [q.qid for q in ds.questions] == ["qa1", "qa2"]
    multi = ds.questions[1]
    assert [DOC[s.start : s.end] for s in multi.spans] == ["申請", "申請"]
    assert multi.spans[0].start != multi.spans[1].start
    assert set(ds.dropped) == {"qa3", "qa4"}
    assert "not in 'document'" in ds.dropped["qa3"]
    assert len(report.messages()) == 3
    assert "2 of 4 pairs located" in ds.notes[0]


def test_overlapping_occurrences_all_count():
    assert occurrences("。。。", "。。") == [0, 1]
    assert occurrences("abc", "") == []


def test_document_column_picks_among_named_documents():
    docs = {"a.txt": "alpha beta", "b.txt": "gamma beta"}
    pairs = [
        {"question": "q1", "answer": "beta", "document": "b.txt"},
        {"question": "q2", "answer": "beta"},  # two documents: must be named
        {"question": "q3", "answer": "beta", "document": "c.txt"},
    ]
    report = locate_qa_pairs(pairs, docs)
    assert report.dataset.questions[0].spans == (Span("b.txt", 6, 10),)
    assert [i.kind for i in report.issues] == ["unknown_document", "unknown_document"]
    assert "names no document" in report.issues[0].message()


def test_csv_in_shift_jis_with_japanese_headers():
    csv_text = "質問,回答\r\n締め日は？,毎月末締め\r\n誰が承認する？,部門長\r\n"
    pairs = parse_qa_pairs(csv_text.encode("cp932"), name="pairs.csv")
    assert pairs == [
        {"question": "締め日は？", "answer": "毎月末締め", "document": ""},
        {"question": "誰が承認する？", "answer": "部門長", "document": ""},
    ]
    assert len(locate_qa_pairs(pairs, DOC).dataset.questions) == 2


def test_json_list_and_wrapped_object(tmp_path):
    pairs = [{"question": "q", "answer": "a", "document": "d"}]
    assert parse_qa_pairs(json.dumps(pairs).encode(), name="p.json") == pairs
    wrapped = json.dumps({"qa_pairs": pairs}).encode()
    assert parse_qa_pairs(wrapped, name="upload") == pairs
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(pairs[0]) + "\n", encoding="utf-8")
    assert read_qa_pairs(path) == pairs


@pytest.mark.parametrize(
    ("data", "name", "match"),
    [
        (b"question,text\nq,a\n", "p.csv", "no answer column"),
        (b"question\n", "p.csv", "no answer column"),
        (b"", "p.csv", "is empty"),
        (b'{"pairs": 1}', "p.json", "holds a JSON dict"),
        (b"[1]", "p.json", "pair 1 is int"),
        (b"[{", "p.json", "not valid JSON"),
    ],
)
def test_bad_files_name_the_problem(data, name, match):
    with pytest.raises(DatasetError, match=match):
        parse_qa_pairs(data, name=name)


def test_qa_spec_loads_pairs_over_a_document_file(tmp_path):
    doc = tmp_path / "policy.txt"
    doc.write_text(DOC.replace("。", "。\r\n"), encoding="utf-8")
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("question,answer\n締め日は？,毎月末締め\nいつ？,翌々月\n", encoding="utf-8")
    ds = load_dataset(f"qa:{pairs}:{doc}")
    assert [d.doc_id for d in ds.documents] == ["policy.txt"]
    assert "\r" not in ds.documents[0].text
    (q,) = ds.questions
    assert ds.documents[0].text[q.spans[0].start : q.spans[0].end] == "毎月末締め"
    assert list(ds.dropped) == ["qa2"]
    with pytest.raises(DatasetError, match="qa:PAIRS.csv:DOCUMENT.txt"):
        load_dataset(f"qa:{pairs}")


# --- Hostile QA files (issue 14): each raised a bare exception that reached the page ---------


@pytest.mark.parametrize(
    ("data", "name", "fragment"),
    [
        (b"question,answer\nq," + b"a" * 140_000 + b"\n", "long.csv", "fields may hold up to"),
        (b"[" * 100_000 + b"]" * 100_000, "deep.json", "nested too deeply"),
        (b'[{"question": "q", "answer": ' + b"9" * 5000 + b"}]", "digits.json", "5,000 digits"),
        (b'{"question": "q", "answer": ' + b"9" * 5000 + b"}\n", "digits.jsonl", "5,000 digits"),
    ],
    ids=["csv field", "deep json", "long int", "long int jsonl"],
)
def test_malformed_qa_files_are_dataset_errors(data, name, fragment):
    with pytest.raises(DatasetError, match=fragment):
        parse_qa_pairs(data, name=name)


def test_a_lone_surrogate_in_a_qa_json_is_replaced_and_hashes():
    from chunkviz.document import Document, locate_questions
    from chunkviz.ui.resources import document_key

    pairs = parse_qa_pairs(b'[{"question": "q\\ud800", "answer": "a"}]', name="s.json")
    assert pairs[0]["question"] == "q\ufffd"
    # Pairs kept in the session could hold one (typed by hand): the digest must not raise.
    doc = Document("d", "d", "a\ud800", origin="paste")
    typed = locate_questions(doc.text, [{"question": "q\ud800", "answer": "a"}])
    assert len(document_key(doc.with_questions(typed))) == 64


def test_the_number_of_pairs_is_bounded(monkeypatch):
    import chunkviz.datasets.qa_pairs as qa

    monkeypatch.setattr(qa, "MAX_QA_PAIRS", 3)
    data = b"question,answer\n" + b"q,a\n" * 4
    with pytest.raises(DatasetError, match="more than 3 pairs .MAX_QA_PAIRS."):
        parse_qa_pairs(data, name="many.csv")
    assert len(parse_qa_pairs(b"question,answer\n" + b"q,a\n" * 3, name="ok.csv")) == 3
