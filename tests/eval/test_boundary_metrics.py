"""Pk, WindowDiff, size compliance and sentences cut, on hand-checked segmentations."""

from __future__ import annotations

import pytest

import chunkviz
from chunkviz.errors import ParameterError
from chunkviz.eval.boundary_metrics import (
    pk,
    reference_k,
    sentences_cut,
    size_compliance,
    window_diff,
)


def test_identical_segmentations_score_zero():
    assert pk(20, [5, 12], [5, 12], 3) == 0.0
    assert window_diff(20, [5, 12], [5, 12], 3) == 0.0


def test_a_missed_boundary_is_counted_by_hand():
    # Reference cut at 5 over 10 characters, none in the hypothesis, k = 2: the pairs (i, i+2)
    # for i = 0..7 straddle 5 when i = 3 or 4: 2 of 8.
    assert pk(10, [5], [], 2) == pytest.approx(2 / 8)
    # Windows (i, i+2] holding the boundary 5 (i.e. i < 5 <= i + 2): i = 3, 4: 2 of 8.
    assert window_diff(10, [5], [], 2) == pytest.approx(2 / 8)


def test_window_diff_counts_extra_boundaries_that_pk_forgives():
    # Two hypothesis cuts inside one window where the reference has one: Pk sees the same
    # "different segment" verdict, WindowDiff sees 2 != 1.
    assert pk(10, [5], [4, 5], 2) < window_diff(10, [5], [4, 5], 2)


def test_reference_k_is_half_the_mean_segment():
    assert reference_k(100, [0, 50, 100]) == 25
    assert reference_k(3, []) == 2


def test_k_below_one_is_refused():
    with pytest.raises(ParameterError, match="k must be at least 1"):
        pk(10, [5], [5], 0)


def test_size_compliance_and_sentences_cut():
    text = "梅雨は日本の雨季である。台風は夏に来る。"
    fixed = chunkviz.chunk(text, "fixed", size=8)  # 8 8 4: the last is not counted
    assert size_compliance(fixed, 8) == 1.0
    assert size_compliance(fixed, 20) == 0.0
    assert size_compliance(fixed, None) == 1.0
    assert sentences_cut(fixed) == 1.0  # cuts at 8 and 16 fall inside sentences
    by_sentence = chunkviz.chunk(text, "sentence", size=12, overlap=0)
    assert sentences_cut(by_sentence) == 0.0
