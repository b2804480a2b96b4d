"""Snapped fixed and recursive windows: exact offsets, sizes, overlaps and bounded shifts."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import chunkviz
from chunkviz.eval.grid import config_label, parse_label
from chunkviz.text_boundaries import word_cuts
from chunkviz.tokenizers import WhitespaceTokenizer
from tests.helpers import assert_token_bound, assert_valid_chunking
from tests.strategies import texts

JA = "梅雨は、北海道と小笠原諸島を除く日本でみられる気象現象である。"
snaps = st.sampled_from(["word", "phrase"])


@pytest.mark.parametrize("strategy", ["fixed", "recursive"])
@given(
    text=texts,
    snap=snaps,
    size=st.integers(1, 12),
    overlap=st.integers(0, 11),
    shift=st.integers(0, 6),
)
@example(text="w1 w1 w1", snap="word", size=3, overlap=1, shift=2)
@example(text="あ" * 40, snap="phrase", size=7, overlap=2, shift=3)
@example(
    text="e\u0301" * 9 + "\r\n" + "👨\u200d👩\u200d👧" * 3, snap="word", size=4, overlap=0, shift=3
)
def test_snapped_windows_keep_every_invariant(strategy, text, snap, size, overlap, shift):
    overlap = min(overlap, size - 1)
    result = chunkviz.chunk(text, strategy, size=size, overlap=overlap, snap=snap, max_shift=shift)
    assert_valid_chunking(result, measure=len, size=size)
    assert (
        chunkviz.chunk(text, strategy, size=size, overlap=overlap, snap=snap, max_shift=shift)
        == result
    )
    for a, b in itertools.pairwise(result.chunks):
        assert 0 <= a.end - b.start <= overlap, (a, b)
        if strategy == "fixed" and overlap == 0:
            assert a.end == b.start


@given(
    text=texts,
    snap=snaps,
    size=st.integers(2, 12),
    overlap=st.integers(0, 11),
    shift=st.integers(0, 6),
)
def test_a_fixed_cut_moves_at_most_max_shift(text, snap, size, overlap, shift):
    overlap = min(overlap, size - 1)
    result = chunkviz.chunk(text, "fixed", size=size, overlap=overlap, snap=snap, max_shift=shift)
    chunks = list(result.chunks)
    for a, b in itertools.pairwise(chunks):
        assert a.end >= a.start + size - shift  # ends move back by at most max_shift
        assert b.start <= max(a.end - overlap, a.start + 1) + shift


@pytest.mark.parametrize("strategy", ["fixed", "recursive"])
@given(text=texts, snap=snaps)
@example(text=JA * 3, snap="word")
def test_snapped_token_windows_stay_within_their_tokens(strategy, text, snap):
    tokenizer = WhitespaceTokenizer()
    result = chunkviz.chunk(
        text, strategy, size=4, overlap=1, unit="tokens", snap=snap, tokenizer=tokenizer
    )
    assert_valid_chunking(result)
    assert_token_bound(result, tokenizer, 4)


def test_max_shift_zero_is_no_snap():
    text = JA * 5
    plain = chunkviz.chunk(text, "fixed", size=40, overlap=8)
    zero = chunkviz.chunk(text, "fixed", size=40, overlap=8, snap="word", max_shift=0)
    assert list(zero.chunks) == list(plain.chunks)


@pytest.mark.parametrize("strategy", ["fixed", "recursive"])
def test_snapping_removes_cuts_inside_words(strategy):
    text = JA.replace("、", "").replace("。", "") * 30
    plain = word_cuts(chunkviz.chunk(text, strategy, size=45, overlap=0))
    snapped = word_cuts(chunkviz.chunk(text, strategy, size=45, overlap=0, snap="word"))
    assert plain.count >= 10
    assert snapped.count == 0


def test_snap_is_recorded_only_when_on():
    assert "snap" not in chunkviz.chunk(JA, "fixed", size=10).params
    assert chunkviz.chunk(JA, "fixed", size=10, snap="phrase").params["snap"] == "phrase"


def test_snapped_configurations_have_labels_of_their_own():
    assert config_label("fixed", {"size": 400, "overlap": 80}) == "fixed-400-80"
    label = config_label("fixed", {"size": 400, "overlap": 80, "snap": "phrase"})
    assert label == "fixed-400-80-snap=phrase"
    assert parse_label(label).params == {"size": 400, "overlap": 80, "snap": "phrase"}
    shifted = config_label("recursive", {"size": 200, "snap": "word", "max_shift": 20})
    assert shifted == "recursive-200-0-max_shift=20-snap=word"


def test_links_and_code_name_snap_only_when_it_is_on():
    from chunkviz.strategies.snap import active_params
    from chunkviz.views.codegen import snippet
    from chunkviz.views.share_link import to_query

    off = {"size": 100, "overlap": 0, "unit": "chars", "snap": "none", "max_shift": 10}
    assert active_params(off) == {"size": 100, "overlap": 0, "unit": "chars"}
    assert "snap" not in to_query("fixed", off, None)
    assert "snap" not in snippet("fixed", off, "chunkviz").code
    on = {**off, "snap": "word"}
    assert to_query("fixed", on, None)["snap"] == "word"
    assert to_query("fixed", on, None)["max_shift"] == "10"
