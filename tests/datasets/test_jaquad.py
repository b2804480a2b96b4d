"""The JaQuAD long-document corpus: counts, spans and types recomputed from the vendored files."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from chunkviz.datasets import BUNDLED, SPEC_HELP, load_dataset
from chunkviz.datasets.jaquad import DEFAULT_PATH, SEPARATOR, build_jaquad, load_jaquad
from chunkviz.datasets.squad import REASON_MISMATCH, REASON_UNANSWERABLE
from chunkviz.errors import DatasetError

QUESTION_TYPES = {
    "Lexical variation (world knowledge)",
    "Lexical variation (synonymy)",
    "Syntactic variation",
    "Multiple sentence reasoning",
    "Logical reasoning",
}


@pytest.fixture(scope="module")
def raw():
    files = sorted(DEFAULT_PATH.glob("jaquad_dev_*.json"))
    return [json.loads(f.read_text(encoding="utf-8")) for f in files]


@pytest.fixture(scope="module")
def corpus():
    return load_dataset("jaquad")


def _articles(raw):
    return [a for part in raw for a in part["data"]]


def test_corpus_counts(corpus, raw):
    assert len(raw) == 4
    assert corpus.name == "jaquad"
    assert len(corpus.documents) == 101
    assert len(corpus.questions) == 3939
    assert corpus.dropped == {}  # every answer of the validation split is where it says
    assert corpus.notes == ("101 documents, 3939 questions kept",)
    assert sum(len(a["paragraphs"]) for a in _articles(raw)) == 1431
    assert len({q.qid for q in corpus.questions}) == 3939
    assert len({d.doc_id for d in corpus.documents}) == 101


def test_every_span_is_its_answer_in_the_document(corpus):
    texts = {d.doc_id: d.text for d in corpus.documents}
    bad = [
        q.qid
        for q in corpus.questions
        for s in q.spans
        if s.doc_id != q.doc_id or texts[s.doc_id][s.start : s.end] != q.answer
    ]
    assert not bad
    assert all(len(q.spans) == 1 and q.answer for q in corpus.questions)


def test_documents_are_the_contexts_in_file_order(corpus, raw):
    # Recomputed independently: join the raw contexts; ids keep the article prefix.
    for article, doc in zip(_articles(raw), corpus.documents, strict=True):
        assert doc.title == article["title"]
        assert doc.text == SEPARATOR.join(p["context"] for p in article["paragraphs"])
        assert {qa["id"].rsplit("-", 2)[0] for p in article["paragraphs"] for qa in p["qas"]} == {
            doc.doc_id
        }


def test_paragraph_starts_are_context_starts_and_blank_lines(corpus, raw):
    assert sum(len(d.paragraph_starts) for d in corpus.documents) == 1705
    for article, doc in zip(_articles(raw), corpus.documents, strict=True):
        at = 0
        for p in article["paragraphs"]:
            assert at in doc.paragraph_starts
            at += len(p["context"]) + len(SEPARATOR)
        for s in doc.paragraph_starts[1:]:
            assert doc.text[s - 2 : s] == "\n\n"
            assert not doc.text[s].isspace()
        assert doc.text.count("\n\n") == len(doc.paragraph_starts) - 1


def test_question_and_answer_types_are_kept(corpus, raw):
    assert Counter(q.question_type for q in corpus.questions) == Counter(
        {
            "Lexical variation (world knowledge)": 930,
            "Syntactic variation": 899,
            "Multiple sentence reasoning": 829,
            "Lexical variation (synonymy)": 809,
            "Logical reasoning": 472,
        }
    )
    answer_types = Counter(q.answer_type for q in corpus.questions)
    assert set(answer_types) == {"Object", "Person", "Date/Time", "Location", "Cause", "Manner"}
    assert answer_types["Object"] == 1968
    by_id = {qa["id"]: qa for a in _articles(raw) for p in a["paragraphs"] for qa in p["qas"]}
    for q in corpus.questions:
        assert q.question_type == by_id[q.qid]["question_type"]
        assert q.answer_type == by_id[q.qid]["answers"][0]["answer_type"]


def test_jsquad_questions_carry_no_types():
    q = load_dataset("jsquad").questions[0]
    assert (q.question_type, q.answer_type) == ("", "")


def _fixture():
    return {
        "version": "x",
        "data": [
            {
                "title": "甲",
                "paragraphs": [
                    {
                        "context": "一段落目。\n\n二段落目の文。",
                        "qas": [
                            {
                                "id": "de-007-00-000",
                                "question": "何?",
                                "question_type": "Logical reasoning",
                                "answers": [
                                    {"text": "二段落目", "answer_start": 7, "answer_type": "Object"}
                                ],
                            },
                            {
                                "id": "de-007-00-001",
                                "question": "ずれ?",
                                "question_type": "Syntactic variation",
                                "answers": [
                                    {"text": "一段", "answer_start": 3, "answer_type": "Object"}
                                ],
                            },
                        ],
                    },
                    {
                        "context": "三つ目。",
                        "qas": [
                            {
                                "id": "de-007-01-000",
                                "question": "三?",
                                "answers": [{"text": "三つ目", "answer_start": 0}],
                            },
                            {"id": "de-007-01-001", "question": "無?", "answers": []},
                        ],
                    },
                ],
            },
        ],
    }


def test_jaquad_path_reads_a_small_file(tmp_path):
    path = tmp_path / "small.json"
    path.write_text(json.dumps(_fixture(), ensure_ascii=False), encoding="utf-8")
    ds = load_dataset(f"jaquad:{path}")
    assert ds.name == "small.json"
    (doc,) = ds.documents
    assert (doc.doc_id, doc.title) == ("de-007", "甲")
    assert doc.text == "一段落目。\n\n二段落目の文。\n\n三つ目。"
    assert doc.paragraph_starts == (0, 7, 16)
    first, third = ds.questions
    assert (first.spans[0].start, first.spans[0].end) == (7, 11)
    assert (first.question_type, first.answer_type) == ("Logical reasoning", "Object")
    assert doc.text[third.spans[0].start : third.spans[0].end] == "三つ目"
    assert (third.question_type, third.answer_type) == ("", "")  # unlabelled: empty, not made up
    assert ds.dropped == {"de-007-00-001": REASON_MISMATCH, "de-007-01-001": REASON_UNANSWERABLE}


def test_jaquad_path_reads_a_folder_in_name_order(tmp_path, raw):
    (tmp_path / "b.json").write_text(json.dumps(_fixture(), ensure_ascii=False), "utf-8")
    (tmp_path / "a.json").write_text(
        json.dumps({"data": raw[0]["data"][:2]}, ensure_ascii=False), "utf-8"
    )
    (tmp_path / "notes.txt").write_text("ignored", "utf-8")
    ds = load_dataset(f"jaquad:{tmp_path}")
    assert [d.doc_id for d in ds.documents] == ["de-000", "de-001", "de-007"]
    assert ds.documents[:2] == build_jaquad({"data": raw[0]["data"][:2]}).documents
    assert len(ds.dropped) == 2


def test_an_article_id_repeated_across_files_is_refused(tmp_path):
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps(_fixture(), ensure_ascii=False), "utf-8")
    with pytest.raises(DatasetError, match=r"b\.json: article 0 .*'de-007' appears twice"):
        load_jaquad(tmp_path)


def test_an_empty_folder_is_a_clear_error(tmp_path):
    with pytest.raises(DatasetError, match="holds no .json file"):
        load_dataset(f"jaquad:{tmp_path}")


def test_ids_not_of_jaquads_form_are_refused():
    data = {
        "data": [
            {
                "title": "T",
                "paragraphs": [
                    {
                        "context": "body",
                        "qas": [
                            {
                                "id": "q17",
                                "question": "?",
                                "answers": [{"text": "body", "answer_start": 0}],
                            }
                        ],
                    }
                ],
            }
        ]
    }
    with pytest.raises(DatasetError, match="squad:PATH"):
        build_jaquad(data)


def test_an_article_mixing_ids_is_refused():
    data = {
        "data": [
            {
                "title": "T",
                "paragraphs": [
                    {
                        "context": "body",
                        "qas": [
                            {
                                "id": "de-001-00-000",
                                "question": "?",
                                "answers": [{"text": "b", "answer_start": 0}],
                            },
                            {
                                "id": "de-002-00-000",
                                "question": "?",
                                "answers": [{"text": "b", "answer_start": 0}],
                            },
                        ],
                    }
                ],
            }
        ]
    }
    with pytest.raises(DatasetError, match="several articles"):
        build_jaquad(data)


def test_missing_vendored_files_name_the_expected_place(monkeypatch, tmp_path):
    import chunkviz.datasets.jaquad as jaquad

    monkeypatch.setattr(jaquad, "DEFAULT_PATH", tmp_path / "jaquad")
    with pytest.raises(DatasetError, match="vendored JaQuAD files are missing"):
        load_dataset("jaquad")


def test_missing_file_is_a_clear_dataset_error(tmp_path):
    with pytest.raises(DatasetError, match=r"nope\.json"):
        load_dataset(f"jaquad:{tmp_path / 'nope.json'}")


def test_both_corpora_are_named_in_the_help():
    assert BUNDLED == ("jsquad", "jaquad")
    assert "jaquad:PATH" in SPEC_HELP
    with pytest.raises(DatasetError, match="jaquad:PATH"):
        load_dataset("nosuch")


def test_licence_and_readme_ship_with_the_data():
    assert (DEFAULT_PATH / "LICENSE").is_file()
    assert "ShareAlike" in (DEFAULT_PATH / "README.md").read_text(encoding="utf-8")
