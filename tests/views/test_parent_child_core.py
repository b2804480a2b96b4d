from __future__ import annotations

import pytest

import chunkviz
from chunkviz import Chunk, ChunkingResult
from chunkviz.views.parent_expansion import (
    Context,
    auto_merge,
    expand_to_parents,
    hit_rows,
    rank_children,
)

# Two parents of 10 characters, each with two children of 5.
TEXT = "aaaaabbbbbcccccddddd"
RESULT = ChunkingResult(
    TEXT,
    tuple(Chunk(5 * i, 5 * i + 5, parent=i // 2) for i in range(4)),
    "parent_child",
    {},
    parents=(Chunk(0, 10), Chunk(10, 20)),
)


def test_child_hits_expand_to_parents_once_in_best_hit_order():
    expansion = expand_to_parents(RESULT, [3, 0, 1, 2], k=3)
    assert expansion.hits == (3, 0, 1)
    assert expansion.contexts == (
        Context("parent", 10, 20, (1,), (3,), 0),
        Context("parent", 0, 10, (0,), (0, 1), 1),
    )
    assert expansion.duplicates_removed == 1
    assert expansion.naive_chars == 30
    assert expansion.context_chars == 20


def test_adjacent_parents_stay_separate_contexts():
    expansion = expand_to_parents(RESULT, [0, 2], k=2)
    assert [c.parents for c in expansion.contexts] == [(0,), (1,)]


def test_auto_merge_promotes_a_parent_only_with_enough_children():
    expansion = auto_merge(RESULT, [0, 2, 1], k=3, min_children=2, merge_overlaps=False)
    assert expansion.contexts == (
        Context("parent", 0, 10, (0,), (0, 1), 0),
        Context("child", 10, 15, (), (2,), 1),
    )
    assert expansion.duplicates_removed == 1


def test_auto_merge_with_a_threshold_of_one_is_small_to_big():
    a = auto_merge(RESULT, [3, 0, 1], k=3, min_children=1)
    b = expand_to_parents(RESULT, [3, 0, 1], k=3)
    assert a.contexts == b.contexts


def test_overlapping_sentence_windows_are_merged():
    text = "s0. s1. s2. s3."
    children = tuple(Chunk(4 * i, 4 * i + 3, parent=i) for i in range(4))
    windows = (Chunk(0, 7), Chunk(0, 11), Chunk(4, 15), Chunk(8, 15))
    result = ChunkingResult(text, children, "parent_child", {}, parents=windows)
    expansion = expand_to_parents(result, [3, 1], k=2)
    assert expansion.contexts == (Context("parent", 0, 15, (1, 3), (3, 1), 0),)
    assert expansion.naive_chars == 7 + 11
    apart = expand_to_parents(result, [3, 1], k=2, merge_overlaps=False)
    assert [c.parents for c in apart.contexts] == [(3,), (1,)]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: expand_to_parents(RESULT, [0], k=0), "k must be at least 1"),
        (lambda: expand_to_parents(RESULT, [0, 9], k=2), "ranked_children must be distinct"),
        (lambda: expand_to_parents(RESULT, [0, 0], k=2), "ranked_children must be distinct"),
        (lambda: auto_merge(RESULT, [0], k=1, min_children=0), "min_children must be at least 1"),
        (
            lambda: expand_to_parents(chunkviz.chunk("abc", "fixed", size=2), [0], k=1),
            "made no parents",
        ),
    ],
)
def test_bad_arguments_name_the_parameter(call, message):
    with pytest.raises(chunkviz.ParameterError, match=message):
        call()


def test_hit_rows_say_which_hit_brought_each_parent_and_which_were_absorbed():
    expansion = expand_to_parents(RESULT, [3, 0, 1, 2], k=4)
    rows = hit_rows(RESULT, expansion)
    assert [(r.rank, r.child, r.parent, r.fate) for r in rows] == [
        (1, 3, 1, "expanded"),
        (2, 0, 0, "expanded"),
        (3, 1, 0, "absorbed"),
        (4, 2, 1, "absorbed"),
    ]
    assert [r.context for r in rows] == [0, 1, 1, 0]
    merged = auto_merge(RESULT, [0, 2, 1], k=3, min_children=2)
    assert [r.fate for r in hit_rows(RESULT, merged)] == ["expanded", "kept", "absorbed"]


def test_children_are_ranked_by_the_backend():
    from chunkviz.retrieval.backends import get_backend

    text = "梅雨前線が停滞する。台風が上陸する。梅雨明けが近い。"
    result = chunkviz.chunk(text, "parent_child", mode="sentence_window", child_size=20)
    order = rank_children(result, "台風", get_backend("bm25"))
    assert order[0] == 1
    assert sorted(order) == [0, 1, 2]
