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
        "x: 1,200 characters, 3 questions")
