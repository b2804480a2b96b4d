from __future__ import annotations

import pytest

import chunkviz
from chunkviz.document import locate_questions
from chunkviz.retrieval.backends import get_backend
from chunkviz.views.compare import (
    boundary_diff,
    config_label,
    cut_offsets,
    diff_rows,
    mark_cuts,
    outcome,
    rank_rows,
    summary_rows,
    table_words,
)
from chunkviz.views.highlight import render_html

TEXT = "梅雨は日本の雨季である。寒帯ジェット気流が南下する。台風は夏から秋に来る。"
PAIRS = [
    {"question": "寒帯ジェット気流はどうなる？", "answer": "寒帯ジェット気流が南下する"},
    {"question": "台風はいつ来る？", "answer": "夏から秋"},
    {"question": "雪はいつ降る？", "answer": "冬"},
]


@pytest.fixture(scope="module")
def bm25():
    return get_backend("bm25")


def test_a_cut_answer_has_no_rank_and_a_whole_one_has_its_rank(bm25):
    items = locate_questions(TEXT, PAIRS)
    fixed = outcome("fixed 14", chunkviz.chunk(TEXT, "fixed", size=14), items, bm25)
    sentences = outcome("sentence", chunkviz.chunk(TEXT, "sentence", size=40), items, bm25)
    assert [q.status for q in fixed.qa] == ["broken", "contained", "not found"]
    assert fixed.ranks[0] is None
    assert fixed.ranks[2] is None
    assert sentences.ranks[:2] == (1, 1)  # each question shares most bigrams with its sentence
    assert sentences.recall_at(1) == 1.0
    assert fixed.recall_at(5) == 0.5  # one of the two found questions is broken
    rows = rank_rows([fixed, sentences])
    assert rows[0] == {
        "question": PAIRS[0]["question"],
        "answer": PAIRS[0]["answer"],
        "fixed 14": "broken",
        "sentence": "1",
    }
    assert rows[2]["sentence"] == "not found"


def test_summary_counts_chunks_broken_answers_and_uncovered_characters(bm25):
    items = locate_questions(TEXT, PAIRS)
    paragraph = outcome("p", chunkviz.chunk("a b\n\nc d", "paragraph"), [], None)
    fixed = outcome("f", chunkviz.chunk(TEXT, "fixed", size=14), items, None)
    rows = summary_rows([paragraph, fixed])
    assert rows[0]["chunks"] == 2
    assert rows[0]["chars in no chunk"] == 2  # the blank line between the paragraphs
    assert rows[0]["Recall@1"] is None
    assert rows[1]["broken answers"] == 1
    assert rows[1]["chunks"] == 3
    assert rows[1]["Recall@5"] == 0.0  # no backend: no ranks


def test_config_label_skips_switched_off_parameters():
    assert config_label("sentence", {"size": 400, "max_sentences": None}) == "sentence size=400"


def test_cuts_are_chunk_starts_and_ends_inside_the_text():
    overlapping = chunkviz.chunk("abcdefghij", "fixed", size=4, overlap=1)
    assert [(c.start, c.end) for c in overlapping.chunks] == [(0, 4), (3, 7), (6, 10)]
    assert cut_offsets(overlapping) == {3, 4, 6, 7}  # a start and an end around each overlap
    paragraphs = chunkviz.chunk("a b\n\nc d", "paragraph")
    assert cut_offsets(paragraphs) == {3, 5}  # both sides of the blank line
    assert cut_offsets(chunkviz.chunk("abc", "fixed", size=10)) == frozenset()
    assert cut_offsets(chunkviz.chunk("", "fixed", size=10)) == frozenset()


ABC = "abcdefghijkl"
ABC_PAIRS = [
    {"question": "d to f?", "answer": "def"},
    {"question": "f to h?", "answer": "fgh"},
    {"question": "j to k?", "answer": "jk"},
]


def _abc(size: int, label: str):
    return outcome(
        label, chunkviz.chunk(ABC, "fixed", size=size), locate_questions(ABC, ABC_PAIRS), None
    )


def test_boundary_diff_splits_cuts_and_answers_broken_in_only_one():
    four, six, eight = _abc(4, "4"), _abc(6, "6"), _abc(8, "8")
    diff = boundary_diff(four, six)
    assert (diff.only_a, diff.only_b, diff.shared) == ((4, 8), (6,), ())
    # "def" (3-6) is cut at 4 and whole in 0-6; "fgh" (5-8) is whole in 4-8 and cut at 6.
    assert (diff.broken_only_a, diff.broken_only_b) == ((0,), (1,))
    assert boundary_diff(four, eight).shared == (8,)
    assert boundary_diff(four, eight).only_a == (4,)
    assert boundary_diff(six, four).broken_only_a == (1,)  # the pair's order is kept
    rows = diff_rows(four, six, diff, {"broken in": "in"})
    assert rows == [
        {"question": "d to f?", "answer": "def", "in": "4"},
        {"question": "f to h?", "answer": "fgh", "in": "6"},
    ]


def test_boundary_diff_needs_the_same_text():
    other = outcome("x", chunkviz.chunk("another text", "fixed", size=4), [], None)
    with pytest.raises(ValueError, match="same text"):
        boundary_diff(_abc(4, "4"), other)


def _document_text(markup: str) -> str:
    """The text of the spans that carry ``data-s``: the document's own characters, no badges."""
    import html
    import re

    return "".join(
        html.unescape(body)
        for body in re.findall(r'<span [^>]*data-s="\d+"[^>]*>([^<]*)</span>', markup)
    )


def test_mark_cuts_puts_a_marker_before_each_cut_and_keeps_the_text():
    text = "ab<c>&defgh"
    result = chunkviz.chunk(text, "fixed", size=4)  # cuts at 4 and 8
    markup = render_html(text, result.chunks, start=2, end=11)
    # 8 is this configuration's cut; 6 (inside the span 4-8) and 1 (before the range) another's.
    marked = mark_cuts(markup, [8], [6, 1], here_title="only <here>", there_title="other")
    assert _document_text(markup) == text[2:]
    assert _document_text(marked) == text[2:]
    assert marked.count('class="bd bd-here"') == 1
    assert marked.count('class="bd bd-there"') == 1
    assert '<span class="bd bd-here" role="img" aria-label="only &lt;here&gt;"' in marked
    # The span 4-8 is split at 6: the same classes and tooltip, the second part with data-s 6.
    assert (
        '<span class="c1" data-s="4" title="chunk #1">&gt;&amp;</span>'
        '<span class="bd bd-there" role="img" aria-label="other" title="other"></span>'
        '<span class="c1" data-s="6" title="chunk #1">de</span>'
    ) in marked
    assert mark_cuts(markup, [], [], here_title="", there_title="") == markup


def test_summary_counts_cuts_inside_words():
    # issue 38: fixed windows cut inside 北海道 and 気象現象; snapped ones do not.
    text = "梅雨は、北海道と小笠原諸島を除く日本でみられる気象現象である。" * 4
    plain = outcome("f", chunkviz.chunk(text, "fixed", size=15), [], None)
    snapped = outcome("s", chunkviz.chunk(text, "fixed", size=15, snap="word"), [], None)
    rows = summary_rows([plain, snapped], words=table_words("ja"))
    assert rows[0]["単語内の切れ目"] == plain.words_cut > 0
    assert rows[1]["単語内の切れ目"] == 0
