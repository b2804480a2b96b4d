"""The Benchmark's lost-questions bar: counts that stay readable above their bars."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkviz.eval.results import load_results
from chunkviz.ui.benchmark.figures import lost_bar
from chunkviz.views.main_table import main_table

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def test_lost_bar_prints_counts_at_a_fixed_size_with_head_room():
    rows = main_table(load_results(FIXTURES / "results_small.json"))
    fig = lost_bar(rows, "lost", "questions")
    bar = fig.data[0]
    assert list(bar.text) == [f"{r.broken:,}" for r in rows]
    # Outside text is neither shrunk to the bar's width nor clipped by the plot area.
    assert bar.constraintext == "none"
    assert bar.textfont.size >= 11
    assert bar.cliponaxis is False
    assert fig.layout.yaxis.range[1] >= 1.15 * max(1, *(r.broken for r in rows))


@pytest.mark.parametrize(
    "title",
    [
        "Recall when every configuration retrieves 5 chunks",
        "すべての構成が同じ文脈量（2,000 文字）を受け取ったときの再現率",
        "short",
        "a" * 100,
    ],
)
def test_a_title_is_wrapped_into_lines_a_phone_shows_whole(title):
    from chunkviz.ui.benchmark.figures import TITLE_WIDTH, _width, wrap_title

    lines = wrap_title(title).split("<br>")
    assert all(_width(line) <= TITLE_WIDTH for line in lines)
    # Nothing lost: the words in order, a break only where a space was or inside a long word.
    assert "".join(lines).replace(" ", "") == title.replace(" ", "")
    assert len(lines) == 1 or _width(title) > TITLE_WIDTH
