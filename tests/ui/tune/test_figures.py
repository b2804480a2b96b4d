"""Tune's Pareto chart: readable ticks on its log axes."""

from __future__ import annotations

import pytest

from chunkviz.eval.tune import TunePoint
from chunkviz.ui.tune.view import front_figure


def _point(label: str, size: int, context: float, quality: float) -> TunePoint:
    return TunePoint(
        label,
        quality,
        quality - 0.05,
        quality + 0.05,
        chunks=10,
        index_bytes=size,
        context_chars=context,
        context_tokens=context / 2,
        probes_cut=0,
    )


@pytest.mark.parametrize(
    ("cost", "expected"),
    [
        ("context_chars", ["1,000", "2,000", "5,000"]),
        ("index_bytes", ["1000 B", "2.0 KiB", "4.9 KiB"]),
    ],
)
def test_front_ticks_are_round_values_written_in_full(cost, expected):
    # Plotly's own ticks on this range read "1000 … 2": the 2 meaning 2,000.
    points = [
        _point("a", 900, 900.0, 0.8),
        _point("b", 2600, 2600.0, 0.85),
        _point("c", 6000, 6000.0, 0.9),
    ]
    axis = front_figure(points, cost, "en").layout.xaxis
    assert axis.type == "log"
    assert list(axis.ticktext) == expected
    assert list(axis.tickvals) == [1000, 2000, 5000]
