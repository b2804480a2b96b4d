from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkviz
from chunkviz.model import Chunk
from chunkviz.text import LANGUAGES, catalogue
from chunkviz.views.highlight import (
    STYLE,
    Mark,
    labels_for,
    legend_entries,
    legend_html,
    page_bounds,
    page_count,
    page_of,
    render_html,
    segments,
)
from tests.strategies import texts


class _TextSpans(HTMLParser):
    """The document text of a rendering: only spans with data-s hold it (badges and markers
    around them are the view's own words)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0  # > 0 while inside a data-s span
        self.pieces: list[tuple[int, str]] = []

    def handle_starttag(self, tag, attrs):
        if self.depth:
            self.depth += 1
        elif "data-s" in dict(attrs):
            self.depth = 1
            self.pieces.append((int(dict(attrs)["data-s"]), ""))

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            start, body = self.pieces[-1]
            self.pieces[-1] = (start, body + data)


def _pieces(markup: str) -> list[tuple[int, str]]:
    parser = _TextSpans()
    parser.feed(markup)
    parser.close()
    return parser.pieces


def _visible_text(markup: str) -> str:
    return "".join(body for _, body in _pieces(markup))


def test_segments_mark_overlap_and_gap():
    chunks = [Chunk(0, 5), Chunk(3, 8), Chunk(9, 10)]
    segs = segments(10, chunks)
    assert [(s.start, s.end, s.chunks) for s in segs] == [
        (0, 3, (0,)),
        (3, 5, (0, 1)),
        (5, 8, (1,)),
        (8, 9, ()),
        (9, 10, (2,)),
    ]
    assert [s.chunk_starts for s in segs] == [(0,), (1,), (), (), (2,)]


def test_broken_answer_is_red_and_names_the_cutting_chunks():
    text = "寒帯ジェット気流が合流する"
    result = chunkviz.chunk(text, "fixed", size=5, overlap=0)
    mark = Mark(0, 8, "何気流と合流する？", broken=True, cut_by=(0, 1))
    markup = render_html(text, result.chunks, [mark])
    assert markup.count('class="c0 broken"') == 1
    assert markup.count('class="c1 broken"') == 1
    assert "cut by chunks #0, #1: 何気流と合流する？" in markup
    assert 'id="chunk-0"' in markup
    assert 'id="chunk-2"' in markup


def test_contained_answer_is_marked_but_not_red():
    text = "abcdefghij"
    markup = render_html(text, [Chunk(0, 10)], [Mark(2, 4, "q")])
    assert 'class="c0 ans"' in markup
    assert "broken" not in markup


def test_overlap_region_is_shared():
    text = "0123456789"
    result = chunkviz.chunk(text, "fixed", size=6, overlap=2)
    markup = render_html(text, result.chunks)
    assert '<span class="ov d2" data-s="4" title="chunks #0, #1 (overlap)">45</span>' in markup


def test_script_and_img_are_escaped():
    text = '<script>alert(1)</script> and <img src=x onerror=alert(1)> "quoted"'
    markup = render_html(text, [Chunk(0, len(text))], [Mark(0, 8, '<b onmouseover="x">')])
    assert "<script" not in markup
    assert "<img" not in markup
    assert "&lt;script&gt;" in markup
    assert "&lt;img src=x" in markup
    assert 'onmouseover="x"' not in markup
    assert _visible_text(markup) == text


@given(texts, st.integers(1, 30), st.integers(0, 29), st.integers(1, 50), st.data())
def test_pages_render_exactly_the_text(text, size, overlap, page_size, data):
    overlap = min(overlap, size - 1)
    result = chunkviz.chunk(text, "fixed", size=size, overlap=overlap)
    pages = page_count(len(text), page_size)
    rendered = "".join(
        _visible_text(
            render_html(
                text,
                result.chunks,
                start=page_bounds(len(text), p, page_size)[0],
                end=page_bounds(len(text), p, page_size)[1],
            )
        )
        for p in range(pages)
    )
    assert rendered == text
    if text:
        offset = data.draw(st.integers(0, len(text) - 1))
        a, b = page_bounds(len(text), page_of(offset, page_size), page_size)
        assert a <= offset < b


def test_paragraph_gaps_are_not_banded():
    text = "one\n\ntwo"
    result = chunkviz.chunk(text, "paragraph")
    markup = render_html(text, result.chunks)
    assert 'class="gap"' in markup


def _classes_by_offset(markup: str, offset: int) -> str:
    marker = f'data-s="{offset}"'
    head = markup[: markup.index(marker)]
    return head[head.rindex('class="') + 7 :].split('"')[0]


def test_overlap_depth_is_drawn_darker_with_more_chunks():
    text = "x" * 20
    # Stride 2, size 8: past the first chunks every character lies in 4 chunks.
    result = chunkviz.chunk(text, "fixed", size=8, overlap=6)
    segs = segments(len(text), result.chunks)
    depth = {s.start: len(s.chunks) for s in segs}
    markup = render_html(text, result.chunks)
    assert _classes_by_offset(markup, 0) == "c0"
    assert depth[2] == 2
    assert _classes_by_offset(markup, 2) == "ov d2"
    assert depth[4] == 3
    assert _classes_by_offset(markup, 4) == "ov d3"
    assert depth[6] == 4
    assert _classes_by_offset(markup, 6) == "ov d4"
    for css in (".ov.d3", ".ov.d4"):
        assert css in STYLE


def test_chunk_ends_are_marked_where_the_next_chunk_does_not_start_there():
    text = "0123456789"
    abutting = render_html(text, chunkviz.chunk(text, "fixed", size=5, overlap=0).chunks)
    # 0..5 | 5..10: the badge of #1 marks where #0 ends; only the last end needs a marker.
    assert abutting.count('class="ce"') == 1
    assert abutting.endswith('<span class="ce" title="end of chunk #1">#1]</span>')
    overlapping = render_html(text, chunkviz.chunk(text, "fixed", size=6, overlap=2).chunks)
    assert overlapping.index('id="chunk-1"') < overlapping.index(">#0]<")
    head = overlapping[: overlapping.index('data-s="6"')]
    assert head.endswith('<span class="ce" title="end of chunk #0">#0]</span><span class="c1" ')
    gap = render_html("one\n\ntwo", chunkviz.chunk("one\n\ntwo", "paragraph").chunks)
    assert gap.count('class="ce"') == 2


def test_cut_inside_a_broken_answer_has_a_focusable_marker_naming_the_boundary():
    text = "寒帯ジェット気流が合流する"
    result = chunkviz.chunk(text, "fixed", size=5, overlap=0)
    markup = render_html(
        text, result.chunks, [Mark(0, 8, "<何>気流？", broken=True, cut_by=(0, 1))]
    )
    assert markup.count('class="cut"') == 1  # one cut at 5, none at the answer's own edges
    marker = markup[markup.index('<span class="cut"') :]
    assert marker.startswith('<span class="cut" tabindex="0" data-cut="5">✂#0|#1<span class="tip"')
    assert "chunk #0 ends · chunk #1 starts" in marker
    assert "&lt;何&gt;気流？" in marker
    assert ".cut:focus .tip" in STYLE
    # A contained answer over the same boundary gets no marker.
    assert 'class="cut"' not in render_html(text, result.chunks, [Mark(0, 8, "q")])


def test_cut_copy_and_ambiguous_marks_have_their_own_style_and_words():
    text = "abcdefghij"
    marks = [
        Mark(2, 6, "q", kind="cut_copy", cut_by=(0, 1), whole_in=(1,)),
        Mark(7, 9, "q", kind="ambiguous"),
    ]
    markup = render_html(text, [Chunk(0, 4), Chunk(4, 10)], marks)
    assert _classes_by_offset(markup, 2) == "c0 cutcopy"
    assert _classes_by_offset(markup, 7) == "c1 amb"
    assert "cut by chunks #0, #1 (another copy is whole in #1): q" in markup
    assert "broken" not in markup
    assert 'class="cut"' not in markup


def test_parents_are_drawn_above_their_children():
    text = "一文目です。二文目です。三文目です。四文目です。"
    result = chunkviz.chunk(text, "parent_child", child_size=6, parent_size=12)
    assert len(result.parents) == 2
    markup = render_html(text, result.chunks, parents=result.parents, labels=labels_for("ja"))
    assert markup.count('class="pn"') == 2
    assert '<span class="pn" id="parent-1" title="親チャンク #1">親#1</span>' in markup
    assert _classes_by_offset(markup, 0) == "c0 pa0"
    assert _classes_by_offset(markup, result.parents[1].start).endswith("pa1")
    assert _visible_text(markup) == text


def test_every_text_span_says_where_its_text_starts():
    text = "ab<c>d&e" * 5
    result = chunkviz.chunk(text, "fixed", size=7, overlap=3)
    marks = [Mark(3, 12, "q", broken=True, cut_by=(0, 1))]
    pieces = _pieces(render_html(text, result.chunks, marks, start=2, end=30))
    assert pieces[0][0] == 2
    for start, body in pieces:
        assert text[start : start + len(body)] == body


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_legend_explains_every_mark_in_each_language(lang):
    entries = legend_entries(lang, parents=True)
    keys = [
        k for k in catalogue(lang) if k.startswith("highlight.legend.") and not k.endswith(".title")
    ]
    # The key-phrase entries replace the answer entries on a document without questions.
    phrases = legend_entries(lang, key_phrases=True)
    assert len(entries) + 2 == len(keys)
    assert {words for _, words in entries} | {words for _, words in phrases} == {
        catalogue(lang)[k] for k in keys
    }
    classes = {css.split()[-1] for swatches, _ in entries for css, _ in swatches}
    assert classes >= {
        "c0",
        "c1",
        "d2",
        "d3",
        "d4",
        "cn",
        "ce",
        "ans",
        "amb",
        "cutcopy",
        "broken",
        "cut",
        "pa0",
        "pn",
    }
    legend = legend_html(lang)
    assert "pa0" not in legend  # parents only when the view draws them
    assert legend.count('class="item"') == len(entries) - 1


@given(texts, st.integers(1, 12), st.integers(0, 11), st.data())
def test_renderings_with_marks_and_parents_hold_exactly_the_text(text, size, overlap, data):
    overlap = min(overlap, size - 1)
    result = chunkviz.chunk(text, "fixed", size=size, overlap=overlap)
    n = len(text)
    marks = []
    for _ in range(data.draw(st.integers(0, 3))):
        a = data.draw(st.integers(0, max(n - 1, 0)))
        b = data.draw(st.integers(a, n))
        marks.append(Mark(a, b, "q", broken=data.draw(st.booleans()), cut_by=(0,)))
    parents = [Chunk(0, n)] if n else []
    markup = render_html(text, result.chunks, marks, parents=parents)
    assert _visible_text(markup) == text
    assert markup.count('class="cn"') == len(result.chunks)


def test_a_cut_inside_a_word_is_drawn_apart_and_names_the_word():
    # issue 38: chunks of 梅雨は北海道 cut at 4 (inside 北海道) and at 3 (a clean cut).
    chunks = [Chunk(0, 4), Chunk(4, 6)]
    markup = render_html("梅雨は北海道", chunks, word_cuts={4: "北海道"})
    wc = '<span class="cn wc" id="chunk-1" title="cut inside the word: 北海道">#1</span>'
    assert wc in markup
    assert '<span class="cn" id="chunk-0">#0</span>' in markup
    clean = render_html("梅雨は北海道", [Chunk(0, 3), Chunk(3, 6)])
    assert " wc" not in clean
    # Where a chunk ends inside a word and the next does not start there, the end marker says so.
    overlapping = render_html("梅雨は北海道", [Chunk(0, 4), Chunk(2, 6)], word_cuts={4: "北海道"})
    assert 'class="ce wc" title="end of chunk #0\ncut inside the word: 北海道">#0]' in overlapping
    assert ".cn.wc" in STYLE
