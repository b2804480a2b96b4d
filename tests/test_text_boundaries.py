"""Word and phrase boundaries (BudouX) and the count of cuts inside words."""

from __future__ import annotations

import itertools
import json
from importlib import resources

import budoux
import pytest
from hypothesis import example, given

import chunkviz
from chunkviz.errors import ParameterError
from chunkviz.model import ChunkingResult, ChunkSequence
from chunkviz.text_boundaries import (
    _MODEL_FILES,
    budoux_breaks,
    text_boundaries,
    word_cuts,
)
from tests.strategies import texts

JA = "梅雨は、北海道と小笠原諸島を除く日本でみられる気象現象である。"


def _pieces(text: str, level: str) -> list[str]:
    p = text_boundaries(text, level).positions.tolist()  # type: ignore[arg-type]
    return [text[a:b] for a, b in itertools.pairwise(p)]


@pytest.mark.parametrize("level", ["word", "phrase"])
@pytest.mark.parametrize("text", [JA, JA * 3, "今日はいい天気ですね。明日は雨でしょう。", "あ"])
def test_breaks_are_budoux_own(level, text):
    # Pins BudouX's model format: the vectorised scores must give what its parser gives.
    model = json.loads(
        resources.files("budoux")
        .joinpath("models", _MODEL_FILES[level])
        .read_text(encoding="utf-8")
    )
    parsed = budoux.Parser(model).parse(text)
    expected = list(itertools.accumulate(len(p) for p in parsed))[:-1]
    assert [i + 1 for i, b in enumerate(budoux_breaks(text, level).tolist()) if b] == expected


def test_word_and_phrase_levels_differ_on_japanese():
    assert _pieces(JA, "word")[:4] == ["梅雨", "は", "、", "北海道"]
    assert _pieces(JA, "phrase")[:3] == ["梅雨は", "、", "北海道と"]


def test_other_scripts_break_at_spaces_and_keep_graphemes():
    text = "Hello w1 e\u0301x 😀👨\u200d👩\u200d👧🇯🇵 か\u3099"
    assert _pieces(text, "word") == [
        "Hello",
        " ",
        "w1",
        " ",
        "e\u0301x",
        " ",
        "😀",
        "👨\u200d👩\u200d👧",
        "🇯🇵",
        " ",
        "か\u3099",
    ]


def test_a_surrogate_pair_is_never_split():
    assert not text_boundaries("\udbff\udc00", "word").is_boundary(1)


@given(text=texts)
@example(text="")
@example(text="あ" * 500)
def test_boundaries_include_both_ends_and_increase(text):
    for level in ("word", "phrase"):
        p = text_boundaries(text, level).positions.tolist()  # type: ignore[arg-type]
        assert p[0] == 0
        assert p[-1] == len(text)
        assert all(a < b for a, b in itertools.pairwise(p)) or len(text) == 0
        assert all(text_boundaries(text, level).is_boundary(x) for x in p)


def test_an_unknown_level_names_the_choices():
    with pytest.raises(ParameterError, match="level must be one of word, phrase"):
        text_boundaries("x", "morpheme")  # type: ignore[arg-type]


def test_word_cuts_counts_each_cut_once_and_names_the_word():
    # Chunks [0, 3) [3, 6) of 梅雨は、北海道: the cut at 3 falls before 、 (clean); a cut at 5
    # falls inside 北海道.
    text = "梅雨は、北海道"
    clean = ChunkingResult(text, ChunkSequence([0, 3], [3, 7]), "fixed", {})
    assert word_cuts(clean).cuts == (3,)
    assert word_cuts(clean).count == 0
    inside = ChunkingResult(text, ChunkSequence([0, 3], [5, 7]), "fixed", {})
    cuts = word_cuts(inside)
    assert cuts.cuts == (3, 5)
    assert cuts.inside == (5,)
    assert cuts.words(text) == {5: (4, 7)}
    assert cuts.words(text, 0, 4) == {}
    assert cuts.share == 0.5


def test_word_cuts_of_no_cut():
    result = chunkviz.chunk("短い", "fixed", size=10)
    assert word_cuts(result).cuts == ()
    assert word_cuts(result).share == 0.0


def test_fixed_windows_cut_japanese_words_and_snapping_avoids_it():
    text = JA * 20
    plain = word_cuts(chunkviz.chunk(text, "fixed", size=50, overlap=10))
    snapped = word_cuts(chunkviz.chunk(text, "fixed", size=50, overlap=10, snap="word"))
    assert plain.count > 10
    assert snapped.count == 0


def test_a_run_of_one_character_is_segmented_in_one_pass():
    # budoux.Parser.parse is quadratic here (chunks[-1] += char); this must simply finish.
    b = text_boundaries("あ" * 200_000, "phrase")
    assert b.positions[0] == 0
    assert b.positions[-1] == 200_000


@given(text=texts)
@example(text="\udbff\udc00か\u3099🇯🇵e\u0301")
def test_the_mask_at_any_offsets_agrees_with_the_whole_text(text):
    from chunkviz.text_boundaries import boundary_mask

    for level in ("word", "phrase"):
        whole = set(text_boundaries(text, level).positions.tolist())  # type: ignore[arg-type]
        inner = list(range(1, len(text)))
        mask = boundary_mask(text, inner, level).tolist()  # type: ignore[arg-type]
        assert [p for p, m in zip(inner, mask, strict=True) if m] == sorted(whole - {0, len(text)})


def test_words_found_near_a_cut_match_the_whole_texts_words():
    # Few cuts in a long text: word_cuts looks around each cut instead of segmenting it all.
    text = JA * 60
    result = chunkviz.chunk(text, "fixed", size=700)
    cuts = word_cuts(result)
    assert cuts.inside
    assert len(cuts.inside) * 64 < len(text)  # the local path
    positions = text_boundaries(text, "word").positions.tolist()
    for cut, (a, b) in cuts.words(text).items():
        after = next(p for p in positions if p > cut)
        before = max(p for p in positions if p < cut)
        assert (a, b) == (before, after)
