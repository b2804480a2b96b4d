from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

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


@given(
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 30), st.integers(0, 30)), max_size=25),
    st.lists(st.tuples(st.integers(1, 12), st.integers(0, 6)), min_size=1, max_size=3),
    st.integers(1, 12),
)
def test_containing_ranges_agree_with_analyze_spans(raw_spans, windows, text_len):
    """Vectorised containment (all documents at once) against analyze_spans, per document."""
    import numpy as np

    from chunkviz.eval.spans import containing_ranges

    text = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよ"[:text_len]
    results = []
    for size, overlap in windows:  # one document per window setting, all of the same text
        results.append(chunkviz.chunk(text, "fixed", size=size, overlap=min(overlap, size - 1)))
    offsets = np.asarray(
        [(d, c.start, c.end) for d, r in enumerate(results) for c in r.chunks], dtype=np.int64
    ).reshape(-1, 3)
    first = np.cumsum([0] + [len(r.chunks) for r in results])
    spans = [
        (d % len(results), min(a, b, len(text)), min(max(a, b), len(text))) for d, a, b in raw_spans
    ]
    found = containing_ranges(offsets, np.asarray(spans, dtype=np.int64).reshape(-1, 3))
    assert found is not None
    lo, hi = found
    for (d, a, b), low, high in zip(spans, lo.tolist(), hi.tolist(), strict=True):
        (status,) = analyze_spans(results[d], [Span("doc", a, b)]).statuses
        assert list(range(low, max(low, high))) == [first[d] + i for i in status.containing]


def test_containing_ranges_refuse_chunks_out_of_order():
    import numpy as np

    from chunkviz.eval.spans import containing_ranges

    nested = np.asarray([(0, 0, 10), (0, 2, 5)], dtype=np.int64)  # ends go back: a parent
    assert containing_ranges(nested, np.asarray([(0, 3, 4)], dtype=np.int64)) is None
