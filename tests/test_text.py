"""The text catalogues: every key in both languages, and no English on a page in Japanese."""

from __future__ import annotations

import string

import pytest

from chunkviz.strategies import all_strategies
from chunkviz.text import LANGUAGES, catalogue, text


def _fields(template: str) -> set[str]:
    # Case folded: English may ask for a capitalised form of the same value ({After}).
    return {name.lower() for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_key_exists_in_both_languages_with_the_same_fields():
    en, ja = catalogue("en"), catalogue("ja")
    assert set(LANGUAGES) == {"en", "ja"}
    assert sorted(set(en) - set(ja)) == []
    assert sorted(set(ja) - set(en)) == []
    for key in en:
        assert en[key].strip(), key
        assert ja[key].strip(), key
        assert _fields(en[key]) == _fields(ja[key]), key


def test_every_registered_strategy_and_parameter_is_translated():
    for spec in all_strategies():
        assert text("en", f"strategy.{spec.name}.description") == spec.description
        assert text("ja", f"strategy.{spec.name}.description") != spec.description
        assert "`" not in spec.description  # shown as plain text in a select box
        for p in spec.params:
            assert text("en", f"strategy.{spec.name}.help.{p.name}") == p.help
            assert text("ja", f"strategy.{spec.name}.help.{p.name}") != p.help


def test_unknown_key_is_an_error_and_a_missing_translation_falls_back():
    with pytest.raises(KeyError):
        text("en", "no.such.key")
    assert text("ja", "nav.explore") == "探索"
    assert text("en", "document.info", name="x", chars=1200, questions=3) == (
        "x: 1,200 characters, 3 questions"
    )


# Characters that browsers draw from a colour emoji font (Unicode Emoji_Presentation, the
# pictograph planes, and the emoji variation selector): with no such font installed they were
# empty boxes ("❓ which copy is a guess").
_EMOJI_BMP = {
    0x231A,
    0x231B,
    *range(0x23E9, 0x23ED),
    0x23F0,
    0x23F3,
    0x25FD,
    0x25FE,
    0x2614,
    0x2615,
    *range(0x2648, 0x2654),
    0x267F,
    0x2693,
    0x26A1,
    0x26AA,
    0x26AB,
    0x26BD,
    0x26BE,
    0x26C4,
    0x26C5,
    0x26CE,
    0x26D4,
    0x26EA,
    0x26F2,
    0x26F3,
    0x26F5,
    0x26FA,
    0x26FD,
    0x2705,
    0x270A,
    0x270B,
    0x2728,
    0x274C,
    0x274E,
    0x2753,
    0x2754,
    0x2755,
    0x2757,
    0x2795,
    0x2796,
    0x2797,
    0x27B0,
    0x27BF,
    0x2B1B,
    0x2B1C,
    0x2B50,
    0x2B55,
    0xFE0F,
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalogue_text_needs_an_emoji_font(lang):
    emoji = {
        key: value
        for key, value in catalogue(lang).items()
        if any(ord(c) in _EMOJI_BMP or 0x1F000 <= ord(c) <= 0x1FAFF for c in value)
    }
    assert emoji == {}


def test_every_run_stage_has_progress_words_in_both_languages():
    """Issue 39: a page shows a run's step from the catalogue, not the runner's English."""
    from typing import get_args

    from chunkviz.eval.engine import Stage
    from chunkviz.text.messages import progress_text

    for stage in get_args(Stage):
        en, ja = progress_text("en", stage, 3, 7), progress_text("ja", stage, 3, 7)
        assert en.endswith("(3/7)")
        assert ja.endswith("（3/7）")
        assert en != ja
