"""The highlight's projector palette by WCAG 2 contrast ratios (issue 39).

A projector washes pale fills out: the old bands (#bfdbfe, #fde68a) differed by 1.14:1 and by
1.42:1 and 1.25:1 from the white box, so boundaries survived only through the underlines. The
ratios are computed here from the WCAG definition, independently of the code under test.
"""

from __future__ import annotations

import re

import pytest

from chunkviz.views.highlight import (
    BACKGROUND,
    BANDS,
    OVERLAP_STRIPES,
    STYLE,
    TEXT_COLOUR,
    UNDERLINES,
)


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb``."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio, (lighter + 0.05) / (darker + 0.05)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_ratio_matches_wcags_reference_values():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    # The old palette, as the issue measured it.
    assert contrast("#bfdbfe", "#fde68a") == pytest.approx(1.14, abs=0.01)
    assert contrast("#bfdbfe", "#ffffff") == pytest.approx(1.42, abs=0.01)
    assert contrast("#fde68a", "#ffffff") == pytest.approx(1.25, abs=0.01)


def test_neighbouring_bands_differ_by_one_and_a_half_to_one():
    first, second = BANDS
    assert contrast(first, second) >= 1.5


@pytest.mark.parametrize("band", BANDS)
def test_each_band_stands_out_from_the_background(band):
    assert contrast(band, BACKGROUND) >= 1.5


@pytest.mark.parametrize("fill", sorted({*BANDS, *OVERLAP_STRIPES[1]}))
def test_text_stays_readable_on_every_fill(fill):
    assert contrast(TEXT_COLOUR, fill) >= 4.0


@pytest.mark.parametrize(("band", "line"), list(zip(BANDS, UNDERLINES, strict=True)))
def test_each_band_keeps_its_underline(band, line):
    assert contrast(band, line) >= 3.0


def test_the_stylesheet_draws_the_palette():
    """The constants are what the view draws, not a second copy that could drift."""
    assert re.search(r"\.hl-box \{[^}]*background: " + BACKGROUND, STYLE)
    assert re.search(r"\.hl-box \{[^}]*color: " + TEXT_COLOUR, STYLE)
    for i, (band, line) in enumerate(zip(BANDS, UNDERLINES, strict=True)):
        assert f".c{i} {{ background: {band}; box-shadow: inset 0 -2px 0 {line}; }}" in STYLE
    assert (
        f".ov {{ background: repeating-linear-gradient(135deg, {BANDS[0]} 0 5px, "
        f"{BANDS[1]} 5px 10px); }}" in STYLE
    )
    for deep in (".ov.d3", ".ov.d4"):
        rule = re.search(re.escape(deep) + r" \{[^}]*\}", STYLE)
        assert rule is not None
        assert all(c in rule.group(0) for c in OVERLAP_STRIPES[1])
