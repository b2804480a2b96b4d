from __future__ import annotations

import chunkviz
from chunkviz import Span
from chunkviz.eval.spans import analyze_spans


def test_span_cut_by_a_boundary_is_broken_and_names_the_chunks():
    text = "寒帯ジェット気流が南下する。"
    result = chunkviz.chunk(text, "fixed", size=5, overlap=0)
    span = Span("d", 0, 6)  # 寒帯ジェット
    report = analyze_spans(result, [span, Span("d", 0, 5), Span("d", 6, 8)])
    broken, whole, second = report.statuses
    assert broken.broken
    assert broken.cutting == (0, 1)
    assert whole.containing == (0,)
    assert second.containing == (1,)
    assert report.broken_count == 1


def test_overlap_rescues_the_same_span():
    text = "寒帯ジェット気流が南下する。"
    span = Span("d", 2, 6)  # ジェット
    assert analyze_spans(chunkviz.chunk(text, "fixed", size=4), [span]).broken_count == 1
    result = chunkviz.chunk(text, "fixed", size=6, overlap=3)
    assert analyze_spans(result, [span]).statuses[0].containing == (0,)
