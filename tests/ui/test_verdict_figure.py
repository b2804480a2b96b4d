"""The verdict's chart keeps its promise: the ±δ band, both margin lines and zero on each panel."""

from __future__ import annotations

import pytest

from chunkviz.eval.results import load_results
from chunkviz.eval.runner import shipped_results_dir
from chunkviz.eval.verdict import choose
from chunkviz.ui.verdict_figure import verdict_figure, verdict_heading
from chunkviz.views.verdict import median_detectable


@pytest.fixture(scope="module")
def choices():  # type: ignore[no-untyped-def]
    path = next(shipped_results_dir().glob("jsquad-bm25-*.json"))
    results = load_results(path)
    return [
        choose(results, "recall@5", "budget", 0.01),
        choose(results, "recall@5", "equal_k", 0.01),
    ]


def _panel_shapes(fig, axis: str):  # type: ignore[no-untyped-def]
    return [
        s
        for s in fig.layout.shapes
        if s.yref in (axis, f"{axis} domain")
        and s.xref in (axis.replace("y", "x"), f"{axis.replace('y', 'x')} domain")
    ]


def test_each_panel_has_the_band_both_margin_lines_and_zero(choices) -> None:  # type: ignore[no-untyped-def]
    fig = verdict_figure(choices, ["budget", "equal k"], "en")
    for axis, choice in zip(("y", "y2"), choices, strict=True):
        shapes = _panel_shapes(fig, axis)
        rects = [s for s in shapes if s.type == "rect"]
        assert [(r.y0, r.y1) for r in rects] == [(-choice.delta, choice.delta)]
        margin = median_detectable(choice)
        assert margin is not None
        lines = sorted(s.y0 for s in shapes if s.type == "line")
        assert lines == pytest.approx(sorted([-margin, 0.0, margin]))
        assert [s.line.dash for s in shapes if s.type == "line" and s.y0 != 0] == ["dash", "dash"]
    # The heading's promise is the first panel's band and margin.
    title = verdict_heading(choices, "en")
    assert f"±δ = ±{choices[0].delta:g}" in title
    assert f"detectable margin ±{median_detectable(choices[0]):.3f}" in title


def test_labels_are_in_the_hover_never_printed_on_the_points(choices) -> None:  # type: ignore[no-untyped-def]
    fig = verdict_figure(choices, ["budget", "equal k"], "en")
    assert all(t.mode == "markers" for t in fig.data)
    labels = {row[0] for t in fig.data for row in t.customdata}
    assert labels == {o.label for o in choices[0].options}
