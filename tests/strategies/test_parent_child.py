from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkviz
from chunkviz import Chunk
from tests.helpers import assert_valid_chunking
from tests.strategies import texts

TEXT = "一つ目。二つ目。三つ目。四つ目。五つ目。"


def test_hierarchy_packs_children_inside_parents():
    result = chunkviz.chunk(TEXT, "parent_child", child_size=8, parent_size=12)
    assert result.parents == (Chunk(0, 12), Chunk(12, 20))
    assert result.chunks == (
        Chunk(0, 8, parent=0),
        Chunk(8, 12, parent=0),
        Chunk(12, 20, parent=1),
    )


def test_sentence_window_parents_are_the_neighbouring_sentences():
    result = chunkviz.chunk(TEXT, "parent_child", mode="sentence_window", child_size=8, window=1)
    assert result.chunks == tuple(Chunk(4 * i, 4 * i + 4, parent=i) for i in range(5))
    assert result.parents == (Chunk(0, 8), Chunk(0, 12), Chunk(4, 16), Chunk(8, 20), Chunk(12, 20))


def test_identical_windows_are_stored_once():
    result = chunkviz.chunk("a. b. c.", "parent_child", mode="sentence_window", window=5)
    assert result.parents == (Chunk(0, 8),)
    assert [c.parent for c in result.chunks] == [0, 0, 0]


def test_child_size_above_parent_size_is_rejected_by_name():
    with pytest.raises(chunkviz.ParameterError, match="child_size must not exceed parent_size"):
        chunkviz.chunk(TEXT, "parent_child", child_size=50, parent_size=10)


@given(
    text=texts,
    mode=st.sampled_from(["hierarchy", "sentence_window"]),
    child=st.integers(1, 15),
    extra=st.integers(0, 30),
    window=st.integers(0, 3),
)
def test_every_child_lies_inside_its_parent(text, mode, child, extra, window):
    result = chunkviz.chunk(
        text, "parent_child", mode=mode, child_size=child, parent_size=child + extra, window=window
    )
    assert_valid_chunking(result, measure=len, size=child)
    for c in result.chunks:
        parent = result.parents[c.parent]
        assert parent.start <= c.start
        assert c.end <= parent.end
    assert list(result.parents) == sorted(set(result.parents), key=lambda p: (p.start, p.end))
    if mode == "hierarchy":
        assert all(p.length <= child + extra for p in result.parents)
