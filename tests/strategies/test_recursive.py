from __future__ import annotations

import re

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

import chunkviz
from chunkviz import Chunk
from chunkviz.segment import SENTENCE_SEPARATORS
from chunkviz.strategies import recursive
from chunkviz.tokenizers import WhitespaceTokenizer
from tests.strategies import texts


def test_recursive_golden_on_repeated_words():
    result = chunkviz.chunk("w1 w1 w1", "recursive", size=3)
    assert result.chunks == (Chunk(0, 3), Chunk(3, 6), Chunk(6, 8))


def test_recursive_golden_on_repeated_words_with_overlap_of_a_whole_piece():
    result = chunkviz.chunk("w1 w1 w1", "recursive", size=6, overlap=3)
    assert result.chunks == (Chunk(0, 6), Chunk(3, 8))
    assert result.chunk_texts() == ["w1 w1 ", "w1 w1"]


def test_recursive_golden_on_repeated_japanese_full_stops():
    # A run of 。 is one separator; too long for size 2, it is cut between characters.
    assert chunkviz.chunk("。。。。", "recursive", size=2).chunks == (Chunk(0, 2), Chunk(2, 4))
    result = chunkviz.chunk("。。。。", "recursive", size=2, overlap=1)
    assert result.chunks == (Chunk(0, 2), Chunk(1, 3), Chunk(2, 4))


def test_recursive_prefers_sentence_ends_to_japanese_commas():
    text = "今日は晴れ、明日は雨。明後日は曇り、その後は雪。"
    result = chunkviz.chunk(text, "recursive", size=15)
    assert result.chunk_texts() == ["今日は晴れ、明日は雨。", "明後日は曇り、その後は雪。"]


def test_recursive_falls_back_to_commas_inside_an_over_long_sentence():
    text = "今日は晴れ、明日は雨、明後日は曇り。"
    result = chunkviz.chunk(text, "recursive", size=12)
    assert result.chunk_texts() == ["今日は晴れ、明日は雨、", "明後日は曇り。"]


def test_recursive_keeps_abbreviations_and_decimals_inside_pieces():
    text = "Mr. Smith paid 3.14 yen. He left."
    result = chunkviz.chunk(text, "recursive", size=25)
    assert result.chunk_texts() == ["Mr. Smith paid 3.14 yen. ", "He left."]


def test_recursive_prefers_blank_lines_and_keeps_them_with_the_piece_before():
    text = "First para.\n\nSecond para. More."
    result = chunkviz.chunk(text, "recursive", size=20)
    assert result.chunk_texts() == ["First para.\n\n", "Second para. More."]


def test_recursive_in_whitespace_tokens():
    text = "alpha beta gamma delta epsilon"
    result = chunkviz.chunk(
        text, "recursive", size=2, unit="tokens", tokenizer=WhitespaceTokenizer()
    )
    assert result.chunk_texts() == ["alpha beta ", "gamma delta ", "epsilon"]


def test_recursive_overlap_is_shortened_so_the_next_piece_fits():
    # Pieces "aa. " (4), "b. " (3), "cccccc." (7): carrying "b. " would make 10 > 8.
    text = "aa. b. cccccc."
    result = chunkviz.chunk(text, "recursive", size=8, overlap=3)
    assert result.chunk_texts() == ["aa. b. ", "cccccc."]


def test_recursive_rejects_overlap_not_smaller_than_size():
    with pytest.raises(chunkviz.ParameterError, match=r"overlap must be smaller than size"):
        chunkviz.chunk("abc", "recursive", size=5, overlap=5)


@given(text=texts, size=st.integers(1, 25), overlap=st.integers(0, 24))
@example(text="w1 w1 w1", size=6, overlap=3)
@example(text="。。。。", size=2, overlap=1)
def test_recursive_chunks_tile_the_text_with_bounded_overlap(text, size, overlap):
    assume(overlap < size)
    chunks = chunkviz.chunk(text, "recursive", size=size, overlap=overlap).chunks
    if text:
        assert chunks[0].start == 0
        assert chunks[-1].end == len(text)
    for prev, nxt in zip(chunks, chunks[1:], strict=False):
        assert nxt.start > prev.start
        assert nxt.end > prev.end
        assert 0 <= prev.end - nxt.start <= overlap
        if overlap == 0:
            assert nxt.start == prev.end


@given(length=st.integers(0, 120), size=st.integers(1, 30), overlap=st.integers(0, 29))
def test_recursive_without_any_separator_is_the_fixed_window(length, size, overlap):
    # Single-character pieces: the overlap rule gives exactly the fixed window's overlap.
    assume(overlap < size)
    text = "字" * length
    recursive = chunkviz.chunk(text, "recursive", size=size, overlap=overlap).chunks
    fixed = chunkviz.chunk(text, "fixed", size=size, overlap=overlap).chunks
    assert recursive == fixed


def _cuts(separator, text, start, end):
    return [int(e) for e in separator.cut_array(text, start, end)]


@given(text=texts)
@example(text="。。」と言った。「はい。」　次。\u3000")
@example(text="！。x？」")
def test_long_range_fast_path_finds_the_same_sentence_ends_as_the_regex(text):
    level = recursive.DEFAULT_SEPARATORS[2]
    by_regex = _cuts(level, text, 0, len(text))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(recursive, "_VECTOR_MIN", 0)
        assert _cuts(level, text, 0, len(text)) == by_regex
        fast_region = _cuts(level, text, 1, max(len(text) - 1, 1))
    assert fast_region == _cuts(level, text, 1, max(len(text) - 1, 1))


@given(
    text=texts,
    level=st.integers(0, len(recursive.DEFAULT_SEPARATORS) - 1),
    per_candidate=st.sampled_from([0, 10**9]),
)
@example(text="a...  b. Mr. X! y?\r\n\r\n z", level=2, per_candidate=0)
@example(text="x\n \n\n y\r\r\n", level=0, per_candidate=0)
def test_long_range_fast_path_gives_every_level_the_regex_cuts(text, level, per_candidate):
    # per_candidate 0: a regex match at every occurrence of the literal; 10**9: the regex scan.
    separator = recursive.DEFAULT_SEPARATORS[level]
    by_regex = _cuts(separator, text, 0, len(text))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(recursive, "_VECTOR_MIN", 0)
        mp.setattr(recursive, "_CHARS_PER_CANDIDATE", per_candidate)
        assert _cuts(separator, text, 0, len(text)) == by_regex
        inner = _cuts(separator, text, 1, max(len(text) - 1, 1))
    assert inner == _cuts(separator, text, 1, max(len(text) - 1, 1))


@given(text=texts, size=st.integers(1, 40), overlap=st.integers(0, 39))
def test_recursive_chunks_are_the_same_on_the_long_range_fast_path(text, size, overlap):
    assume(overlap < size)
    plain = chunkviz.chunk(text, "recursive", size=size, overlap=overlap).chunks
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(recursive, "_VECTOR_MIN", 0)
        mp.setattr(recursive, "_CHARS_PER_CANDIDATE", 0)
        assert chunkviz.chunk(text, "recursive", size=size, overlap=overlap).chunks == plain


def test_long_range_fast_path_on_a_long_document():
    text = "梅雨は「雨季。」と呼ばれる。夏が来る！？  秋。。\u3000冬」。と。" * 3000
    level = recursive.DEFAULT_SEPARATORS[2]
    expected = list(
        dict.fromkeys(sorted(m.end() for _, p in level.patterns for m in p.finditer(text)))
    )
    assert _cuts(level, text, 0, len(text)) == expected


_RUN = "。！？」』）】〕〉》\"'”’)]"


@given(st.text(alphabet="。！？」』）とっa \n\u3000", max_size=14))
@example("。」と")
@example("。。って")
@example("「はい。」\u3000次")
def test_japanese_separator_regex_matches_its_lookahead_definition(text):
    # The separator takes the run of terminators and brackets whole unless a quotative と/っ
    # follows it; it is written with a possessive run (and a terminator right after another
    # one starts no match: the run's first terminator decides), checked here against the plain
    # lookahead form of the same rule. Separator ends are what splitters use.
    run = re.escape(_RUN)
    ends = set()
    expected = set()
    for literal, pattern in SENTENCE_SEPARATORS[:3]:
        assert literal in "。！？"
        reference = re.compile(f"{literal}(?![{run}]*[とっ])[{run}]*\\s*")
        ends |= {m.end() for m in pattern.finditer(text)}
        expected |= {m.end() for m in reference.finditer(text)}
    assert ends == expected


@given(
    run=st.sampled_from([" ", ".", ",", "\n", "。", "x", "😀", "\ud800"]),
    length=st.integers(2, 300),
    size=st.integers(1, 40),
    overlap=st.integers(0, 39),
    vector_min=st.sampled_from([0, 2, 50]),
)
def test_runs_kept_as_ranges_chunk_like_python_ints(run, length, size, overlap, vector_min):
    # Long runs of one-character pieces are int64 ranges packed with searchsorted (issue 14);
    # the chunks must be those of the list-and-bisect path, Python ints included.
    assume(overlap < size)
    text = "a" + run * length + "b" + " tail. " * (length % 7)
    plain = chunkviz.chunk(text, "recursive", size=size, overlap=overlap).chunks
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(recursive, "_VECTOR_MIN", vector_min)
        ranged = chunkviz.chunk(text, "recursive", size=size, overlap=overlap).chunks
    assert ranged == plain
    assert all(type(c.start) is int and type(c.end) is int for c in ranged)
