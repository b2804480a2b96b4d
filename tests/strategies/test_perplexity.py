from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkviz
from chunkviz.strategies.perplexity import perplexity_curve
from tests.helpers import assert_valid_chunking
from tests.strategies import texts
from tests.strategies.test_semantic import PYTHON, TWO_TOPICS, WEATHER


class FixedPerplexities:
    """A language model that gives the i-th sentence a set perplexity."""

    name = "fixed"

    def __init__(self, values):
        self.values = values

    def perplexities(self, text, spans):
        return np.array([self.values[i % len(self.values)] for i in range(len(spans))])


def test_the_offline_model_cuts_where_the_topic_changes():
    curve = perplexity_curve(TWO_TOPICS, threshold=0.8, min_size=0, max_size=2000)
    assert curve.cuts == (len(WEATHER) - 1,)
    assert int(np.nanargmax(curve.changes)) == len(WEATHER) - 1
    assert math.isnan(curve.perplexities[0])
    assert "Kneser-Ney" in curve.model
    result = chunkviz.chunk(TWO_TOPICS, "perplexity", threshold=0.8, min_size=0, max_size=2000)
    assert result.chunk_texts() == ["".join(WEATHER), "".join(PYTHON)]


def test_changes_are_absolute_log_ratios_and_nan_never_cuts():
    lm = FixedPerplexities([10.0, 10.0, 30.0, 10.0, float("nan"), 10.0])
    curve = perplexity_curve(
        "a. b. c. d. e. f.", threshold=0.5, min_size=0, max_size=100, language_model=lm
    )
    assert curve.changes[:3] == pytest.approx([0.0, math.log(3), math.log(3)])
    assert math.isnan(curve.changes[3])
    assert curve.breakpoints == (1, 2)
    assert curve.cuts == (1, 2)
    assert curve.model == "fixed"


def test_min_size_and_max_size_shape_the_cuts():
    lm = FixedPerplexities([10.0, 100.0])
    text = "aa. bb. cc. dd."
    held = perplexity_curve(text, threshold=0.5, min_size=7, max_size=100, language_model=lm)
    assert held.cuts == (1,)
    assert held.suppressed == (0, 2)
    capped = perplexity_curve(text, threshold=50, min_size=0, max_size=7, language_model=lm)
    assert capped.cuts == capped.forced == (1,)


def test_unknown_lm_is_rejected_by_name():
    with pytest.raises(chunkviz.ParameterError, match="lm must be 'char-ngram'"):
        chunkviz.chunk("a. b.", "perplexity", lm="gpt2")


@given(text=texts, threshold=st.floats(0, 3), order=st.integers(1, 5), max_size=st.integers(5, 40))
def test_perplexity_invariants_with_the_offline_model(text, threshold, order, max_size):
    result = chunkviz.chunk(
        text, "perplexity", threshold=threshold, order=order, min_size=0, max_size=max_size
    )
    assert_valid_chunking(result, measure=len, size=max_size)
