from __future__ import annotations

import chunkviz
from chunkviz.document import locate_questions
from chunkviz.ui.compare.figures import diff_figure
from chunkviz.views.compare import boundary_diff, outcome

TEXT = "abcdefghijkl"
PAIRS = [{"question": "d to f?", "answer": "def"}, {"question": "f to h?", "answer": "fgh"}]


def _pair():
    items = locate_questions(TEXT, PAIRS)
    return (
        outcome("4", chunkviz.chunk(TEXT, "fixed", size=4), items, None),
        outcome("8", chunkviz.chunk(TEXT, "fixed", size=8), items, None),
    )


def test_the_strip_puts_each_kind_of_cut_on_its_row_with_its_offset():
    four, eight = _pair()
    diff = boundary_diff(four, eight)  # cuts 4, 8 against 8: only A 4, both 8
    fig = diff_figure(four, eight, diff, shown=(0, 12), lang="en")
    traces = {t.name: t for t in fig.data}
    assert list(traces["Cuts only A makes"].x) == [4]
    assert list(traces["Cuts only A makes"].y) == ["Configuration A"]
    assert list(traces["Cuts only B makes"].x) == []
    assert list(traces["Cuts both make"].x) == [8, 8]
    assert list(traces["Cuts both make"].y) == ["Configuration A", "Configuration B"]
    # "def" (3-6) is cut at 4 under A and whole under B: a cross at its start on A's row.
    assert list(traces["Broken only in A"].x) == [3]
    assert list(traces["Broken only in B"].x) == []
    assert all(list(t.customdata) == list(t.x) for t in fig.data)  # a click gives the offset
    band = fig.layout.shapes[0]
    assert (band.x0, band.x1) == (0, 12)
    assert tuple(fig.layout.xaxis.range) == (0, len(TEXT))


def test_the_strip_speaks_japanese():
    four, eight = _pair()
    fig = diff_figure(four, eight, boundary_diff(four, eight), shown=(0, 12), lang="ja")
    assert {t.name for t in fig.data} >= {"A だけの切れ目", "共通の切れ目"}
    assert fig.layout.xaxis.title.text == "文字位置"
