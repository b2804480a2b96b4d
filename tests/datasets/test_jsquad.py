"""The JSQuAD long-document corpus: the study's facts, recomputed from the vendored data."""

from __future__ import annotations

import json
import re

import pytest

from chunkviz.datasets import load_dataset
from chunkviz.datasets.jsquad import DEFAULT_PATH, REASON_IN_TITLE, build_jsquad, load_jsquad
from chunkviz.errors import DatasetError


@pytest.fixture(scope="module")
def raw():
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def corpus():
    return load_dataset("jsquad")


def _number(paragraph):
    return int(re.search(r"p(\d+)q\d+$", paragraph["qas"][0]["id"]).group(1))


def _body(article, paragraph):
    return paragraph["context"][len(article["title"] + " [SEP] ") :]


def test_corpus_facts_of_the_study(corpus):
    assert len(corpus.documents) == 59
    assert sum(len(d.paragraph_starts) for d in corpus.documents) == 1145
    assert len(corpus.questions) + len(corpus.dropped) == 4442
    assert len(corpus.dropped) == 469
    assert len(corpus.questions) == 3973
    assert set(corpus.dropped.values()) == {REASON_IN_TITLE}
    assert any("469 questions dropped" in n for n in corpus.notes)


def test_every_kept_answer_is_its_span_in_the_document(corpus):
    texts = {d.doc_id: d.text for d in corpus.documents}
    bad = [
        q.qid
        for q in corpus.questions
        for s in q.spans
        if s.doc_id != q.doc_id or texts[s.doc_id][s.start : s.end] != q.answer
    ]
    assert not bad
    assert all(len(q.spans) == 1 for q in corpus.questions)


def test_documents_hold_the_bodies_in_numeric_paragraph_order(corpus, raw):
    # Recomputed independently of the builder: sort bodies by the integer N of pN.
    docs = {d.title: d for d in corpus.documents}
    for article in raw["data"]:
        expected = [_body(article, p) for p in sorted(article["paragraphs"], key=_number)]
        doc = docs[article["title"]]
        bounds = [*doc.paragraph_starts, len(doc.text)]
        got = [doc.text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
        assert got == expected, article["title"]


def test_lexicographic_concatenation_would_fail(corpus, raw):
    # 梅雨 has 49 paragraphs; its raw order is p0, p1, p10, ... so the third raw paragraph is p10.
    article = next(a for a in raw["data"] if a["title"] == "梅雨")
    raw_numbers = [_number(p) for p in article["paragraphs"]]
    assert raw_numbers[:3] == [0, 1, 10]
    lexicographic = "".join(_body(article, p) for p in article["paragraphs"])
    doc = next(d for d in corpus.documents if d.title == "梅雨")
    assert doc.text != lexicographic
    assert sorted(doc.text) == sorted(lexicographic)  # same characters, different order
    p2 = next(p for p in article["paragraphs"] if _number(p) == 2)
    start = doc.paragraph_starts[2]
    assert doc.text[start : start + len(_body(article, p2))] == _body(article, p2)
    # An answer of paragraph 2 sits where only the numeric order puts it.
    q = next(q for q in corpus.questions if q.qid.startswith(doc.doc_id + "p2q"))
    assert start <= q.spans[0].start < doc.paragraph_starts[3]
    assert lexicographic[q.spans[0].start : q.spans[0].end] != q.answer


def test_the_first_answer_decides_and_other_rules_give_other_counts(raw):
    # Which rule reproduces the study's 469: the first answer starting inside the title prefix.
    def count(rule):
        n = 0
        for article in raw["data"]:
            cut = len(article["title"] + " [SEP] ")
            for p in article["paragraphs"]:
                for qa in p["qas"]:
                    n += rule(a["answer_start"] < cut for a in qa["answers"])
        return n

    assert count(lambda inside: next(inside)) == 469
    assert count(any) != 469
    assert count(all) != 469


def test_jsquad_path_spec_loads_any_file_in_the_format(tmp_path, raw):
    small = {"data": raw["data"][:2]}
    path = tmp_path / "small.json"
    path.write_text(json.dumps(small, ensure_ascii=False), encoding="utf-8")
    ds = load_dataset(f"jsquad:{path}")
    assert ds.name == "small.json"
    assert [d.title for d in ds.documents] == [a["title"] for a in raw["data"][:2]]
    assert ds.documents == build_jsquad(small).documents


def test_missing_file_is_a_clear_dataset_error(tmp_path):
    with pytest.raises(DatasetError, match=r"cannot read .*nope\.json \(No such file"):
        load_jsquad(tmp_path / "nope.json")


def test_missing_vendored_file_names_the_expected_path(monkeypatch, tmp_path):
    import chunkviz.datasets.jsquad as jsquad

    monkeypatch.setattr(jsquad, "DEFAULT_PATH", tmp_path / "valid-v1.3.json")
    with pytest.raises(DatasetError, match="vendored JSQuAD file is missing"):
        load_dataset("jsquad")


def test_context_without_title_prefix_is_refused():
    data = {
        "data": [
            {
                "title": "T",
                "paragraphs": [
                    {
                        "context": "no prefix here",
                        "qas": [
                            {
                                "id": "a1p0q0",
                                "question": "?",
                                "answers": [{"text": "no", "answer_start": 0}],
                            }
                        ],
                    }
                ],
            }
        ]
    }
    with pytest.raises(DatasetError, match="title prefix"):
        build_jsquad(data)


def test_ids_without_paragraph_numbers_are_refused():
    data = {
        "data": [
            {
                "title": "T",
                "paragraphs": [
                    {
                        "context": "T [SEP] body",
                        "qas": [
                            {
                                "id": "q-17",
                                "question": "?",
                                "answers": [{"text": "body", "answer_start": 8}],
                            }
                        ],
                    }
                ],
            }
        ]
    }
    with pytest.raises(DatasetError, match="squad:PATH"):
        build_jsquad(data)


def test_unknown_spec_lists_the_forms():
    with pytest.raises(DatasetError, match="jsquad:PATH"):
        load_dataset("nosuch")
