from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkviz
from chunkviz import Chunk, ChunkingResult
from chunkviz.model import ChunkSequence, ClippedRange


def test_chunk_sequence_behaves_as_a_tuple_of_chunks():
    seq = ChunkSequence(range(0, 6, 3), [4, 7])
    assert seq == (Chunk(0, 4), Chunk(3, 7))
    assert (Chunk(0, 4), Chunk(3, 7)) == seq
    assert seq[1] == Chunk(3, 7)
    assert seq[1:] == (Chunk(3, 7),)
    assert list(seq) == [Chunk(0, 4), Chunk(3, 7)]
    assert len(seq) == 2
    assert seq != (Chunk(0, 4),)
    assert pickle.loads(pickle.dumps(seq)) == seq


def test_results_with_lazy_and_plain_chunks_are_equal():
    text = "abcdefg"
    lazy = ChunkingResult(text, ChunkSequence([0, 3], [4, 7]), "fixed", {})
    plain = ChunkingResult(text, (Chunk(0, 4), Chunk(3, 7)), "fixed", {})
    assert lazy == plain
    assert lazy.chunk_texts() == plain.chunk_texts() == ["abcd", "defg"]


@pytest.mark.parametrize(
    ("starts", "ends", "problem"),
    [
        ([0, 3], [3, 3], "start >= end"),
        ([0, 3], [4, 9], "outside 0..7"),
        ([3, 0], [4, 5], "out of order"),
    ],
)
def test_broken_lazy_offsets_are_refused(starts, ends, problem):
    with pytest.raises(ValueError, match=problem):
        ChunkingResult("abcdefg", ChunkSequence(starts, ends), "fixed", {})


def test_fixed_offsets_are_ranges_until_chunks_are_needed():
    result = chunkviz.chunk("x" * 1000, "fixed", size=100, overlap=20)
    assert isinstance(result.chunks, ChunkSequence)
    assert result.chunks[-1] == Chunk(960, 1000)
    assert [c.length for c in result.chunks][:2] == [100, 100]


def test_results_pickle_with_their_params():
    result = chunkviz.chunk("梅雨は日本の気象現象である。", "fixed", size=5, overlap=1)
    copy = pickle.loads(pickle.dumps(result))
    assert copy == result
    assert copy.params["size"] == 5


def test_starts_match_the_chunks():
    text = "梅雨は日本の気象現象である。雨季の一種である。"
    for strategy in ("fixed", "recursive", "sentence"):
        result = chunkviz.chunk(text, strategy, size=8, overlap=2)
        assert result.starts() == [c.start for c in result.chunks]


@given(
    start=st.integers(0, 50),
    step=st.integers(1, 9),
    count=st.integers(0, 30),
    limit=st.integers(0, 120),
)
def test_clipped_range_equals_clipping_each_value(start, step, count, limit):
    values = range(start, start + count * step, step)
    clipped = ClippedRange(values, limit)
    expected = [min(v, limit) for v in values]
    assert list(clipped) == expected
    assert [clipped[i] for i in range(len(clipped))] == expected
    assert clipped == expected
    assert len(clipped) == len(expected)
    assert pickle.loads(pickle.dumps(clipped)) == expected


def test_a_fixed_window_with_a_clipped_end_before_its_start_is_refused():
    with pytest.raises(ValueError, match="start >= end"):
        ChunkingResult(
            "abcdefg", ChunkSequence(range(0, 12, 4), ClippedRange(range(4, 16, 4), 7)), "fixed", {}
        )


def test_parents_given_as_a_list_become_a_tuple_with_either_kind_of_chunks():
    for chunks in (ChunkSequence([0], [2]), (Chunk(0, 2),)):
        result = ChunkingResult("ab", chunks, "test", {}, parents=[])
        assert result.parents == ()
        assert type(result.parents) is tuple


def test_every_result_holds_its_chunks_as_columns_with_parents_and_prefixes():
    chunks = (Chunk(0, 2, parent=0, prefix="# h\n"), Chunk(2, 4, parent=0))
    result = ChunkingResult("abcd", chunks, "test", {}, parents=(Chunk(0, 4),))
    assert isinstance(result.chunks, ChunkSequence)
    assert result.chunks == chunks
    assert result.columns.parents == [0, 0]
    assert result.columns.prefixes == ["# h\n", ""]
    assert result.embed_texts() == ["# h\nab", "cd"]
    assert result.chunk_texts() == ["ab", "cd"]
    copy = pickle.loads(pickle.dumps(result))
    assert copy == result
    assert copy.chunks[0] == Chunk(0, 2, parent=0, prefix="# h\n")
    plain = ChunkingResult("abcd", (Chunk(0, 2), Chunk(2, 4)), "test", {})
    assert plain.columns.parents is None
    assert plain.columns.prefixes is None
    assert plain.chunks != result.chunks  # parents and prefixes count in equality


def test_a_chunk_pointing_past_the_parents_is_refused():
    with pytest.raises(ValueError, match="points at parent 1"):
        ChunkingResult("abcd", (Chunk(0, 2, parent=1),), "test", {}, parents=(Chunk(0, 4),))
