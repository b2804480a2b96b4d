from __future__ import annotations

import html
import re

from hypothesis import given
from hypothesis import strategies as st

import chunkviz
from chunkviz.model import Chunk
from chunkviz.views.highlight import Mark, page_bounds, page_count, page_of, render_html, segments
from tests.strategies import texts


def _visible_text(markup: str) -> str:
    without_badges = re.sub(r'<span class="cn"[^>]*>#\d+</span>', "", markup)
    return html.unescape(re.sub(r"<[^>]+>", "", without_badges))


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
    assert '<span class="ov" data-s="4" title="chunks #0, #1 (overlap)">45</span>' in markup


def test_script_and_img_are_escaped():
    text = "<script>alert(1)</script> and <img src=x onerror=alert(1)> \"quoted\""
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
            render_html(text, result.chunks, start=page_bounds(len(text), p, page_size)[0],
                        end=page_bounds(len(text), p, page_size)[1])
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
