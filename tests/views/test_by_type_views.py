"""Type labels in the reader's language; unknown labels shown as written, escaped."""

from __future__ import annotations

import pytest

from chunkviz.eval.by_type import TypeMetric
from chunkviz.eval.stats import Estimate
from chunkviz.views.by_type import lost_markdown, metric_markdown, type_slug, type_text

JAQUAD_TYPES = (
    "Lexical variation (world knowledge)",
    "Lexical variation (synonymy)",
    "Syntactic variation",
    "Multiple sentence reasoning",
    "Logical reasoning",
    "Object",
    "Person",
    "Date/Time",
    "Location",
    "Cause",
    "Manner",
)


def test_slugs():
    assert type_slug("Lexical variation (world knowledge)") == "lexical_variation_world_knowledge"
    assert type_slug("Date/Time") == "date_time"


@pytest.mark.parametrize("name", JAQUAD_TYPES)
def test_every_jaquad_type_has_a_name_in_both_languages(name):
    assert type_text("en", name) != type_text("ja", name)


def test_an_unknown_type_is_shown_as_written_and_escaped():
    assert type_text("ja", "Opinion") == "Opinion"
    row = TypeMetric("*bold* | pipe", 25, 3, {"p": Estimate(0.5, 0.4, 0.6)}, {"p": 5})
    table = metric_markdown([row], ["p"], "en")
    assert table.splitlines()[0] == "| Configuration | \\*bold\\* \\| pipe (25) |"
    assert table.splitlines()[2] == "| p | **0.500** [0.400,\u00a00.600] |"
    assert lost_markdown([row], ["p"], "en").splitlines()[2] == "| p | 5 (20.0%) |"
