from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkviz
from chunkviz.document import Document, Question, locate_questions
from chunkviz.errors import DatasetError
from chunkviz.model import Span
from chunkviz.samples import load_sample, sample_names
from chunkviz.tokenizers import WhitespaceTokenizer
from chunkviz.views.explore import (
    assess_qa,
    chunk_rows,
    chunk_stats,
    chunk_token_counts,
    document_tokens,
    qa_marks,
    qa_report,
    summary,
)


@pytest.mark.parametrize("name", sample_names())
def test_every_sample_has_questions_whose_answers_are_in_the_text(name):
    sample = load_sample(name)
    assert len(sample.text) > 1500
    assert isinstance(sample, Document)
    assert (sample.origin, sample.doc_id) == ("sample", name)
    assert len(sample.questions) >= 10
    for item in sample.questions:
        assert item.spans, f"{item.answer!r} not found in {name}"
        for span in item.spans:
            assert sample.text[span.start : span.end] == item.answer


def test_policy_sample_has_headings_and_a_table():
    text = load_sample("policy_ja").text
    assert text.startswith("# ")
    assert "\n## " in text
    assert "| 勤続年数 | 付与日数 |" in text


def test_jsquad_sample_is_the_corpus_document():
    from chunkviz.datasets import load_dataset

    sample = load_sample("jsquad_tsuyu")
    dataset = load_dataset("jsquad")
    doc = next(d for d in dataset.documents if d.title == "梅雨")
    assert sample.text == doc.text
    assert sample.paragraph_starts == doc.paragraph_starts
    questions = [q for q in dataset.questions if q.doc_id == doc.doc_id]
    assert [(q.question, q.spans[0].start) for q in sample.questions] == [
        (q.question, q.spans[0].start) for q in questions
    ]


def test_known_broken_answer_at_fixed_100():
    sample = load_sample("jsquad_tsuyu")
    result = chunkviz.chunk(sample.text, "fixed", size=100, overlap=0)
    qa = assess_qa(result, sample.questions)
    jet = next(r for r in qa if r.item.answer == "寒帯ジェット気流")
    assert jet.status == "broken"
    assert jet.cutting == (24, 25)
    marks = [m for m in qa_marks(qa, result) if m.broken]
    assert len(marks) == sum(1 for r in qa if r.status == "broken")


def test_user_answers_every_occurrence_and_not_found():
    text = "AB。AB。CD"
    items = locate_questions(
        text, [{"question": "q1", "answer": "AB"}, {"question": "q2", "answer": "ZZ"}]
    )
    assert [len(i.spans) for i in items] == [2, 0]
    result = chunkviz.chunk(text, "fixed", size=4, overlap=0)  # AB。A | B。CD
    qa = assess_qa(result, items)
    assert [r.status for r in qa] == ["contained", "not found"]
    assert qa[0].containing == (0,)


def test_bad_pairs_raise_dataset_errors():
    with pytest.raises(DatasetError, match="needs a non-empty question and answer"):
        locate_questions("text", [{"question": "q", "answer": "  "}])
    with pytest.raises(DatasetError, match="does not point at the answer"):
        locate_questions("abc", [{"question": "q", "answer": "b", "start": 0}])


def test_stats_prediction_cost_and_limit():
    text = "w " * 500
    result = chunkviz.chunk(text, "fixed", size=100, overlap=20)
    tokens = chunk_token_counts(result, WhitespaceTokenizer())
    stats = chunk_stats(
        result,
        token_lengths=tokens,
        doc_tokens=document_tokens(text, WhitespaceTokenizer()),
        max_input_tokens=49,
    )
    assert stats.count == len(result) == chunkviz.predicted_chunk_count(1000, 100, 20)
    assert stats.predicted == stats.count
    assert stats.cost_factor == pytest.approx(1.25)
    assert stats.embedded_chars == sum(c.length for c in result.chunks)
    assert stats.actual_factor == pytest.approx(stats.embedded_chars / 1000)
    assert stats.over_limit == tuple(i for i, n in enumerate(tokens) if n > 49)
    assert stats.over_limit  # 100-char windows of "w " hold 50 tokens
    assert summary(stats.char_lengths) == (min(stats.char_lengths), 100.0, 100)


def test_paragraph_has_no_prediction_and_rows_preview():
    text = "一段落目。\n\n二段落目。"
    result = chunkviz.chunk(text, "paragraph")
    stats = chunk_stats(result)
    assert stats.predicted is None
    assert stats.cost_factor is None
    rows = chunk_rows(result, None)
    assert [(r["start"], r["end"], r["preview"]) for r in rows] == [
        (0, 5, "一段落目。"),
        (7, 12, "二段落目。"),
    ]
    assert summary(()) is None


def test_export_formats_agree_with_offsets():
    import csv
    import io
    import json

    from chunkviz.views import export

    text = 'a,b\n"c"' * 5
    result = chunkviz.chunk(text, "fixed", size=7, overlap=2)
    records = export.chunk_records(result)
    assert json.loads(export.to_json(result))["chunks"] == records
    assert [json.loads(line) for line in export.to_jsonl(result).splitlines()] == records
    rows = list(csv.DictReader(io.StringIO(export.to_csv(result))))
    assert [r["text"] for r in rows] == result.chunk_texts()


def test_token_counts_include_the_backends_document_prefix():
    text = "a b c d e f"
    result = chunkviz.chunk(text, "fixed", size=6, overlap=0)
    plain = chunk_token_counts(result, WhitespaceTokenizer())
    prefixed = chunk_token_counts(result, WhitespaceTokenizer(), "検索文書: ")
    assert [p - n for p, n in zip(prefixed, plain, strict=True)] == [1] * len(result)


@pytest.mark.parametrize("lead", ["=", "+", "-", "@", "\t", "\r"])
def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(lead):
    # OWASP CSV injection: a leading quote makes the cell text; every cell is quoted.
    import csv
    import io

    from chunkviz.views import export

    text = lead + 'HYPERLINK("https://evil.example","x")'
    result = chunkviz.chunk(text, "fixed", size=len(text), overlap=0)
    out = export.to_csv(result)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0]["text"] == "'" + text
    assert rows[0]["start"] == "0"
    assert out.splitlines()[1].startswith('"0","0"')
    assert export.csv_cell(-3) == -3


def test_cli_csv_is_neutralised_too(tmp_path, capsys):
    import csv
    import io

    from chunkviz.cli import main

    (tmp_path / "f.txt").write_text("=1+1", encoding="utf-8")
    assert main(["chunk", str(tmp_path / "f.txt"), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert rows[0]["text"] == "'=1+1"


def test_a_cut_copy_beside_a_whole_copy_is_contained_and_not_red():
    text = "共和国連合。" + "あ" * 10 + "共和国連合。"  # copies at 0..5 and 16..21
    items = locate_questions(text, [{"question": "何の連合？", "answer": "共和国連合"}])
    result = chunkviz.chunk(text, "fixed", size=18, overlap=0)  # 0..18 | 18..22
    qa, marks = qa_report(result, items)
    assert (qa[0].status, qa[0].containing, qa[0].ambiguous) == ("contained", (0,), True)
    assert [(m.start, m.style, m.cut_by, m.whole_in) for m in marks] == [
        (0, "ambiguous", (), ()),
        (16, "cut_copy", (0, 1), (0,)),
    ]
    # Every copy cut: the question is broken and each copy is red.
    qa, marks = qa_report(chunkviz.chunk(text, "fixed", size=3, overlap=0), items)
    assert qa[0].status == "broken"
    assert [m.style for m in marks] == ["broken", "broken"]


def test_short_answers_found_many_times_are_ambiguous_and_not_underlined():
    text = "第2条。2日。2回。南海と南海。"
    items = locate_questions(
        text,
        [
            {"question": "何条？", "answer": "2"},
            {"question": "どこ？", "answer": "南海"},
            {"question": "何日？", "answer": "2日"},
        ],
    )
    items.append(Question("known", "doc", "何回？", "2", (Span("doc", 7, 8),)))
    qa, marks = qa_report(chunkviz.chunk(text, "fixed", size=100), items)
    assert [r.ambiguous for r in qa] == [True, True, True, True]
    assert [len(r.item.spans) for r in qa] == [3, 2, 1, 1]
    # Only the answers that point at one place are underlined, each there.
    assert [(m.start, m.end, m.style) for m in marks] == [(4, 6, "answer"), (7, 8, "answer")]


def test_a_long_answer_found_once_is_not_ambiguous():
    text = "梅雨前線が停滞する。"
    items = locate_questions(text, [{"question": "何が停滞？", "answer": "梅雨前線"}])
    qa, marks = qa_report(chunkviz.chunk(text, "fixed", size=100), items)
    assert not qa[0].ambiguous
    assert [m.style for m in marks] == ["answer"]


@given(
    st.text(alphabet="ab。", min_size=1, max_size=40),
    st.integers(1, 12),
    st.integers(0, 11),
    st.lists(st.tuples(st.integers(0, 39), st.integers(1, 5)), min_size=1, max_size=4),
)
def test_red_marks_are_exactly_the_spans_of_broken_questions(text, size, overlap, picks):
    overlap = min(overlap, size - 1)
    pairs = [
        {"question": f"q{i}", "answer": text[a : a + n]}
        for i, (a, n) in enumerate(picks)
        if text[a : a + n].strip()
    ]
    items = locate_questions(text, pairs) if pairs else []
    result = chunkviz.chunk(text, "fixed", size=size, overlap=overlap)
    qa, marks = qa_report(result, items)
    by_question = {r.item.question: r for r in qa}
    for mark in marks:
        r = by_question[mark.label]
        assert mark.broken == (r.status == "broken")
        whole = any(c.start <= mark.start and mark.end <= c.end for c in result.chunks)
        assert (mark.style == "cut_copy") == (not whole and r.status == "contained")
    for r in qa:
        if r.status == "broken":
            assert sum(1 for m in marks if m.label == r.item.question) == len(r.item.spans)
        assert r.ambiguous == (
            len(r.item.spans) > 1 or (len(r.item.spans) == 1 and len(r.item.answer) <= 2)
        )
