"""Lost before retrieval: broken-question counts per configuration, on toy data and the corpus."""

from __future__ import annotations

import json

import pytest

from chunkviz.datasets import load_dataset
from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.datasets.jsquad import DEFAULT_PATH
from chunkviz.document import chunk_document
from chunkviz.eval.grid import Config, default_grid, fixed_config
from chunkviz.eval.lost import format_lost_table, lost_row, lost_table
from chunkviz.eval.spans import analyze_spans
from chunkviz.model import Span

TEXT = "寒帯ジェット気流が南下する。"


def _toy():
    doc = Document("d", "toy", TEXT, (0, 9))
    qs = (
        Question("cut", "d", "?", "ジェット気流", (Span("d", 2, 8),)),
        Question("whole", "d", "?", "寒帯", (Span("d", 0, 2),)),
        # Two occurrences: one cut, one whole -> not broken (any contained span answers it).
        Question("either", "d", "?", "xx", (Span("d", 3, 6), Span("d", 10, 12))),
    )
    return Dataset("toy", (doc,), qs)


def test_a_question_is_broken_only_when_no_span_is_contained():
    row = lost_row(_toy(), fixed_config(5, 0))
    assert row.chunks == 3
    assert row.predicted_chunks == 3
    assert row.questions == 3
    assert row.broken_ids == ("cut",)
    assert row.share == pytest.approx(1 / 3)


def test_paragraph_row_has_no_prediction_and_uses_document_paragraphs():
    row = lost_row(_toy(), Config("paragraph", "paragraph"))
    assert row.chunks == 2
    assert row.predicted_chunks is None
    assert row.broken_ids == ()  # 寒帯ジェット気流が | 南下する。: no answer crosses the boundary


def test_progress_is_reported_per_document_and_table_is_aligned():
    steps = []
    rows = lost_table(_toy(), default_grid(), progress=steps.append)
    assert len(steps) == len(default_grid())
    lines = format_lost_table(rows).splitlines()
    assert lines[0].split() == ["config", "chunks", "predicted", "questions", "broken", "share"]
    assert len(lines) == 1 + len(rows)
    assert len({len(line) for line in lines}) == 1
    assert rows[0].as_dict()["broken_ids"] == list(rows[0].broken_ids)


@pytest.mark.parametrize(("size", "overlap"), [(3, 0), (4, 1), (5, 2), (6, 3), (7, 2)])
def test_span_no_longer_than_overlap_plus_one_is_always_contained(size, overlap):
    # The exact rule behind "20% overlap breaks nothing": with windows [k*s, k*s + c), s = c - o,
    # take k = a // s for a span [a, a + l): it starts at most s - 1 after k*s, so it ends at
    # most k*s + s - 1 + l <= k*s + c exactly when l <= o + 1. Checked here exhaustively, with
    # the bound being tight (some span of length o + 2 is cut).
    text = "あ" * 23
    result = chunk_document(Document("d", "d", text), "fixed", {"size": size, "overlap": overlap})
    spans = [Span("d", a, a + n) for n in range(1, overlap + 3) for a in range(len(text) - n + 1)]
    report = analyze_spans(result, spans)
    for span, status in zip(spans, report.statuses, strict=True):
        if span.end - span.start <= overlap + 1:
            assert status.contained, span
    assert any(s.broken for s in report.statuses if s.span.end - s.span.start == overlap + 2)


@pytest.fixture(scope="module")
def corpus():
    return load_dataset("jsquad")


@pytest.mark.slow
def test_paragraph_chunking_reproduces_the_1145_paragraphs_and_breaks_nothing(corpus):
    raw = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    bodies = sorted(
        p["context"][len(a["title"] + " [SEP] ") :] for a in raw["data"] for p in a["paragraphs"]
    )
    config = Config("paragraph", "paragraph")
    texts = [
        t
        for d in corpus.documents
        for t in chunk_document(d, config.strategy, config.params).chunk_texts()
    ]
    assert len(texts) == 1145
    assert sorted(texts) == bodies
    row = lost_row(corpus, config)
    assert row.chunks == 1145
    assert row.broken == 0


@pytest.mark.slow
def test_every_20_percent_overlap_configuration_breaks_nothing(corpus):
    # WHY, from the data: the longest kept answer is L characters, and the smallest 20% overlap
    # of the grid is o = 20 (size 100); a span of length <= o + 1 always fits in some window
    # (see test_span_no_longer_than_overlap_plus_one_is_always_contained), so L <= o + 1 means
    # no answer can be cut. The max is computed here, not typed in.
    longest = max(len(q.answer) for q in corpus.questions)
    overlapping = [c for c in default_grid() if c.params.get("overlap")]
    assert len(overlapping) == 4
    assert longest <= min(c.params["overlap"] for c in overlapping) + 1
    for row in lost_table(corpus, overlapping):
        assert row.broken == 0, row.config


@pytest.mark.slow
def test_no_overlap_breaks_answers_and_predictions_match_counts(corpus):
    rows = {r.config: r for r in lost_table(corpus, default_grid())}
    for row in rows.values():
        assert row.questions == 3973
        if row.predicted_chunks is not None:
            assert row.predicted_chunks == row.chunks
    # Smaller windows without overlap cut more answers; the study's chunk counts for the
    # 20%-overlap windows (632 at 400, 326 at 800) come out of the same corpus.
    assert rows["fixed-100-0"].broken > rows["fixed-200-0"].broken > rows["fixed-400-0"].broken > 0
    assert rows["fixed-400-80"].chunks == 632
    assert rows["fixed-800-160"].chunks == 326


@pytest.mark.slow
def test_the_study_example_answer_is_cut_in_two_without_overlap(corpus):
    # Seed 000: "寒帯ジェット気流" is split into "寒帯ジェッ" and "ト気流" by 100-character
    # windows without overlap, and rescued by 20 characters of overlap (the cut at offset 2500
    # of 梅雨 falls there only with the paragraphs in numeric order).
    (q,) = [q for q in corpus.questions if q.answer == "寒帯ジェット気流"]
    doc = corpus.document(q.doc_id)
    (span,) = q.spans
    no_overlap = chunk_document(doc, "fixed", {"size": 100, "overlap": 0})
    status = analyze_spans(no_overlap, [span]).statuses[0]
    assert status.broken
    first, second = (no_overlap.chunks[i] for i in status.cutting)
    assert doc.text[span.start : first.end] == "寒帯ジェッ"
    assert doc.text[second.start : span.end] == "ト気流"
    assert q.qid in lost_row(corpus, fixed_config(100, 0)).broken_ids
    overlapping = chunk_document(doc, "fixed", {"size": 100, "overlap": 20})
    assert analyze_spans(overlapping, [span]).statuses[0].contained
