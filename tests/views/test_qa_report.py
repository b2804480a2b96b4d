"""Explore's question report: statuses from one vectorised search, marks for the drawn page only."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

import chunkviz
from chunkviz.document import Question, locate_questions
from chunkviz.model import Span
from chunkviz.samples import load_sample
from chunkviz.views.explore import QAReport, QuestionSpans, assess_qa, is_ambiguous, qa_marks
from chunkviz.views.highlight import page_bounds, render_html
from chunkviz.views.qa_table import QA_FILTERS, shown_questions


def _by_definition(result, item):
    """``(status, containing, cutting)`` of a question straight from the definition."""
    held, cut = set(), set()
    for s in item.spans:
        for i, c in enumerate(result.chunks):
            if c.start <= s.start and s.end <= c.end:
                held.add(i)
            elif c.start < s.end and s.start < c.end:
                cut.add(i)
    status = "not found" if not item.spans else "contained" if held else "broken"
    return status, tuple(sorted(held)), tuple(sorted(cut))


@given(
    st.text(alphabet="ab。", min_size=1, max_size=40),
    st.integers(1, 12),
    st.integers(0, 11),
    st.lists(st.tuples(st.integers(0, 39), st.integers(1, 5)), max_size=5),
)
@example("aaaa", 2, 1, [(0, 1), (9, 2)])  # overlapping windows; an answer not in the text
def test_statuses_are_the_definition_for_every_question(text, size, overlap, picks):
    overlap = min(overlap, size - 1)
    pairs = [
        {"question": f"q{i}", "answer": text[a : a + n] or "zz"} for i, (a, n) in enumerate(picks)
    ]
    items = locate_questions(text, [p for p in pairs if p["answer"].strip()])
    result = chunkviz.chunk(text, "fixed", size=size, overlap=overlap)
    qa = assess_qa(result, items)
    assert isinstance(qa, QAReport)
    assert list(assess_qa(result, QuestionSpans(items))) == list(qa)
    assert len(qa) == len(items)
    for r, item in zip(qa, items, strict=True):
        assert (r.status, r.containing, r.cutting) == _by_definition(result, item)
        assert r.ambiguous == is_ambiguous(item)
    for status in ("contained", "broken", "not found"):
        assert qa.status_count(status) == sum(1 for r in qa if r.status == status)
    for kind in QA_FILTERS:  # from the columns, as from the objects
        assert shown_questions(qa, kind) == shown_questions(list(qa), kind)
    assert [qa[i] for i in range(len(qa))] == list(qa) == qa[:]
    if len(qa):
        assert qa[-1] == list(qa)[-1]


def test_an_empty_span_overlaps_no_chunk():
    text = "梅雨前線"
    result = chunkviz.chunk(text, "fixed", size=2)
    item = Question("q", "doc", "?", "", (Span("doc", 2, 2),))
    (r,) = assess_qa(result, [item])
    assert (r.status, r.containing, r.cutting) == ("broken", (), ())


def test_a_pages_marks_are_the_whole_texts_that_touch_it_and_draw_alike():
    sample = load_sample("jsquad_tsuyu")
    text = sample.text * 3
    pairs = [{"question": q.question, "answer": q.answer} for q in sample.questions]
    items = locate_questions(text, pairs)
    result = chunkviz.chunk(text, "fixed", size=90, overlap=20)
    qa = assess_qa(result, items)
    everything = qa_marks(qa, result)
    assert everything == qa_marks(list(qa), result)  # any sequence of results, same marks
    size = 1000
    for page in range(3):
        a, b = page_bounds(len(text), page, size)
        mine = qa_marks(qa, result, start=a, end=b)
        touching = [m for m in everything if m.end > a and m.start < b]
        assert {(m.start, m.end, m.label) for m in touching} <= {
            (m.start, m.end, m.label) for m in mine
        }
        assert [m for m in mine if m in touching] == touching
        assert render_html(text, result.chunks, mine, start=a, end=b) == render_html(
            text, result.chunks, everything, start=a, end=b
        )
