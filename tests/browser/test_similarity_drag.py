"""Drag the query point of the Similarity plane in headless Chromium.

The "long vs short" preset is the default. The test drags the query through an intermediate
position to a drop position, checks the component's live badges while the button is still down,
releases, and checks the rankings Python renders against ``chunkviz.plane`` computed from the
drop position converted to plane coordinates.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkviz.plane import from_polar, plane_to_screen, preset, rankings, screen_to_plane

pytestmark = pytest.mark.browser

MEASURES = ("dot", "cosine", "l2")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _component_top(page, measure: str, k: int) -> list[str]:
    return [
        page.locator(f'[data-testid="cv-top-{measure}-{r}"]').inner_text() for r in range(1, k + 1)
    ]


def _badge_top1(page) -> dict[str, str]:
    """Label of the chunk whose SVG badge says rank 1, per measure."""
    out = {}
    for m in MEASURES:
        g = page.locator(f'g.cv-chunk:has(g.cv-badge[data-measure="{m}"][data-rank="1"])')
        assert g.count() == 1
        out[m] = g.get_attribute("data-label")
    return out


def _python_ranking(page, measure: str) -> list[str]:
    rows = page.locator(f".st-key-sim_rank_{measure} table tbody tr")
    return [rows.nth(i).locator("td").nth(1).inner_text().strip() for i in range(rows.count())]


def test_drag_query_dot_and_cosine_disagree_and_python_matches_the_drop(app_url, page):
    page.goto(f"{app_url}/Similarity")
    plane = page.locator('rect[data-role="plane"]')
    plane.wait_for(state="visible")
    page.locator('[data-role="query"]').scroll_into_view_if_needed()
    points = preset("long_vs_short")
    labels = [p.label for p in points]

    box = plane.bounding_box()
    handle = page.locator('[data-role="query"]').bounding_box()
    start = (handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    middle = plane_to_screen(-2.0, 2.5, box)
    # Drop the query at 25°, length 1.2: short A points that way, long C 50° away.
    target = from_polar("q", 25.0, 1.2)
    drop = plane_to_screen(target.x, target.y, box)

    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*middle, steps=8)
    # Live, while the button is down: the component's table and badges follow the pointer.
    here = rankings(points, screen_to_plane(*middle, box))
    for m in MEASURES:
        assert _component_top(page, m, 2) == [labels[i] for i in here[m][:2]]
    page.mouse.move(*drop, steps=8)
    dropped_at = screen_to_plane(*drop, box)
    expected = rankings(points, dropped_at)
    live_top1 = _badge_top1(page)
    assert live_top1 == {m: labels[expected[m][0]] for m in MEASURES}
    assert live_top1["dot"] != live_top1["cosine"]
    assert _component_top(page, "dot", 1) != _component_top(page, "cosine", 1)
    page.screenshot(path=str(ARTIFACTS / "similarity_drag_live.png"))
    page.mouse.up()

    # Python reruns with the released position and renders the three rankings.
    heading = page.get_by_text(f"Rankings at the query ({dropped_at[0]:.2f}, {dropped_at[1]:.2f})")
    heading.wait_for(state="visible")
    shown = {m: _python_ranking(page, m) for m in MEASURES}
    assert shown == {m: [labels[i] for i in expected[m]] for m in MEASURES}
    assert shown["dot"][0] != shown["cosine"][0]
    assert shown["dot"][0] == "C"
    assert shown["cosine"][0] == "A"
    sentence = page.locator(".st-key-sim_change").inner_text()
    assert "Dot product puts C first where cosine puts A" in sentence
    assert "Since the previous position" in sentence

    page.locator(".st-key-sim_change").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "similarity_drag.png"), full_page=True)
