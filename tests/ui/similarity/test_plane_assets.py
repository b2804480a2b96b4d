"""The plane component's assets fetch nothing: no URL but the SVG namespace name, no iframe."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ASSETS = Path(__file__).resolve().parents[3] / "chunkviz" / "ui" / "similarity" / "assets"
SVG_NAMESPACE = "http://www.w3.org/2000/svg"  # a name for createElementNS, never requested


@pytest.mark.parametrize("name", ["plane.js", "plane.css"])
def test_assets_reference_no_external_resource(name):
    text = (ASSETS / name).read_text(encoding="utf-8")
    urls = set(re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"'`)]*", text))
    assert urls <= {SVG_NAMESPACE}
    for banned in ("<iframe", "import(", "fetch(", "XMLHttpRequest", "@import", "url(http"):
        assert banned not in text


def test_component_js_never_uses_inner_html():
    # Point labels are user text: the component builds the DOM with textContent only.
    assert "innerHTML" not in (ASSETS / "plane.js").read_text(encoding="utf-8")
