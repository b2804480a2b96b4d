"""Drag the query point of the Similarity plane in headless Chromium.

The "long vs short" preset is the default. The test drags the query through an intermediate
position to a drop position, checks the component's live badges while the button is still down,
releases, and checks the rankings Python renders against ``chunkviz.views.plane`` computed from the
drop position converted to plane coordinates.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkviz.views.plane import (
    DEFAULT_QUERY,
    from_polar,
    preset,
    rankings,
    screen_to_plane,
)
from tests.helpers import plane_to_screen

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


def _open(page, app_url: str):
    """Open the Similarity page; return the plane's box and the query point's centre."""
    page.goto(f"{app_url}/Similarity")
    plane = page.locator('rect[data-role="plane"]')
    # The machine running the tests may be busy: the first script run can take a while.
    plane.wait_for(state="visible", timeout=120_000)
    page.locator('[data-role="query"]').scroll_into_view_if_needed()
    handle = page.locator('[data-role="query"]').bounding_box()
    return plane.bounding_box(), (
        handle["x"] + handle["width"] / 2,
        handle["y"] + handle["height"] / 2,
    )


def _wait_for_python(page, at) -> None:
    """Wait until Python has rerun with the query at ``at`` and finished that run.

    The heading showing the position comes before the ranking tables, and until the run
    reaches them the tables on screen are the previous run's (Streamlit marks them
    ``data-stale``), so the wait lasts until no element is stale.
    """
    page.get_by_text(f"Rankings at the query ({at[0]:.2f}, {at[1]:.2f})").wait_for(
        state="visible", timeout=90_000
    )
    page.wait_for_function("() => !document.querySelector('[data-stale=\"true\"]')", timeout=90_000)


def test_drag_query_dot_and_cosine_disagree_and_python_matches_the_drop(app_url, page):
    box, start = _open(page, app_url)
    points = preset("long_vs_short")
    labels = [p.label for p in points]
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
    _wait_for_python(page, dropped_at)
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

    # The real-embedding part below renders its charts and table (TF-IDF, offline).
    table_caption = page.get_by_text("Ranks per chunk")
    table_caption.wait_for(state="visible", timeout=90_000)
    table_caption.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "similarity_real.png"))


def test_touch_drag_moves_the_query(app_url, page):
    box, start = _open(page, app_url)
    points = preset("long_vs_short")
    labels = [p.label for p in points]
    target = plane_to_screen(-2.0, 2.5, box)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})

    def touch(kind: str, at) -> None:
        pts = [] if kind == "touchEnd" else [{"x": at[0], "y": at[1]}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})

    touch("touchStart", start)
    for i in range(1, 9):
        touch(
            "touchMove",
            (start[0] + (target[0] - start[0]) * i / 8, start[1] + (target[1] - start[1]) * i / 8),
        )
    touch("touchEnd", target)
    dropped_at = screen_to_plane(*target, box)
    _wait_for_python(page, dropped_at)
    expected = rankings(points, dropped_at)
    assert {m: _python_ranking(page, m) for m in MEASURES} == {
        m: [labels[i] for i in expected[m]] for m in MEASURES
    }


def test_keyboard_moves_the_query_and_a_preset_switch_redraws(app_url, page):
    _open(page, app_url)
    page.locator('[data-role="query"]').focus()
    for _ in range(3):
        page.keyboard.press("Shift+ArrowUp")
    # Each key release reports the position; Python reruns after each and focus stays on the point.
    at = (round(DEFAULT_QUERY[0], 3), round(DEFAULT_QUERY[1] + 1.5, 3))
    _wait_for_python(page, at)
    points = preset("long_vs_short")
    assert _python_ranking(page, "cosine") == [
        points[i].label for i in rankings(points, at)["cosine"]
    ]

    assert page.locator("g.cv-chunk").count() == len(points)
    page.get_by_text("All normalised").click()
    page.locator("g.cv-chunk").nth(len(points)).wait_for(state="attached", timeout=90_000)
    assert page.locator("g.cv-chunk").count() == len(preset("normalised"))
    _wait_for_python(page, DEFAULT_QUERY)
    shown = {m: _python_ranking(page, m) for m in MEASURES}
    assert shown["dot"] == shown["cosine"] == shown["l2"]


def test_a_move_under_way_when_python_redraws_is_kept_and_sent(app_url, page):
    _open(page, app_url)
    page.locator('[data-role="query"]').focus()
    drawn = page.locator('[data-role="query"]').element_handle()
    page.keyboard.down("Shift")
    page.keyboard.press("ArrowUp")  # released: sent, Python reruns and redraws the plane
    page.keyboard.down("ArrowUp")  # a second move, its key still down during that redraw
    page.wait_for_function("point => !point.isConnected", arg=drawn, timeout=90_000)
    page.keyboard.up("ArrowUp")
    page.keyboard.up("Shift")
    _wait_for_python(page, (round(DEFAULT_QUERY[0], 3), round(DEFAULT_QUERY[1] + 1.0, 3)))
