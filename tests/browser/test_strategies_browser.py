"""Strategies page in Chromium: clicking a cut on the similarity curve scrolls the highlight."""

from __future__ import annotations

import pytest

from chunkviz.retrieval.backends import get_backend
from chunkviz.samples import load_sample
from chunkviz.strategies.semantic import semantic_curve

pytestmark = pytest.mark.browser


def test_clicking_a_cut_on_the_curve_marks_the_chunk_that_starts_there(app_url, page):
    curve = semantic_curve(
        load_sample("jsquad_tsuyu").text,
        percentile=5,
        min_size=100,
        max_size=1000,
        model="tfidf",
        embedder=get_backend("tfidf"),
    )
    topic = [i for i in curve.cuts if i not in curve.forced]
    expected_chunk = curve.cuts.index(topic[0]) + 1
    page.goto(f"{app_url}/Strategies")
    page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
    page.wait_for_selector(".hl-box .cn", timeout=90_000)
    chart = page.locator("[data-testid='stPlotlyChart']").first
    chart.wait_for(state="visible", timeout=60_000)
    # Trace order: s_i line, topic cuts, forced cuts, skipped; the first topic-cut marker.
    marker = chart.locator(".scatterlayer .trace").nth(1).locator("path.point").first
    marker.wait_for(state="visible", timeout=30_000)
    marker.scroll_into_view_if_needed()
    # Plotly finds the point under the cursor through its drag layer, which covers the markers:
    # click at the marker's position rather than on the element.
    bounds = marker.bounding_box()
    assert bounds is not None
    page.mouse.click(bounds["x"] + bounds["width"] / 2, bounds["y"] + bounds["height"] / 2)
    box = page.locator(".hl-box").first
    # The view lives in a shadow root: look into every one.
    page.wait_for_function(
        "n => [...document.querySelectorAll('*')].some(e => e.shadowRoot && "
        "e.shadowRoot.querySelector('#chunk-' + n + '.target'))",
        arg=expected_chunk,
        timeout=60_000,
    )
    assert box.locator(f"#chunk-{expected_chunk}.target").count() == 1
