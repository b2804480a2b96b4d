"""Tune page in Chromium: a small grid runs and the page names tune()'s recommendation."""

from __future__ import annotations

import pytest

from chunkviz.eval.synthetic import DEFAULT_FORM
from chunkviz.eval.tune import tune
from chunkviz.samples import load_sample
from chunkviz.ui.tune.view import grid_configs
from tests.browser.test_app_state_browser import _metric, _no_error, _radio, _settle

pytestmark = pytest.mark.browser

GRID = ["fixed-200-0", "paragraph"]


def test_a_small_grid_runs_and_shows_the_recommendation(app_url, page):
    result = tune(
        load_sample("tech_en"), synthetic=30, configs=grid_configs(GRID), backend="bm25", seed=0
    )
    expected = result.recommendation
    page.goto(f"{app_url}/Tune?sample=tech_en&backend=bm25")
    page.wait_for_selector("[data-testid='stMultiSelect']", timeout=120_000)
    _settle(page)
    _radio(page, "Synthetic")
    count = page.locator("[data-testid='stNumberInput'] input").first
    count.fill("30")
    count.press("Enter")
    _settle(page)
    grid = page.locator("[data-testid='stMultiSelect']").first
    # Empty the grid (Backspace removes the last chosen option), then choose two.
    grid.locator("input").click()
    for _ in range(16):
        page.keyboard.press("Backspace")
    for label in GRID:
        page.keyboard.type(label)
        page.get_by_role("option").filter(has_text=label).first.click()
    page.keyboard.press("Escape")
    _settle(page)
    chosen = grid.locator(".react-aria-ComboBox [data-tag] span[title]")
    assert sorted(chosen.all_inner_texts()) == sorted(GRID)
    page.get_by_role("button", name="Run tune").click()
    assert _metric(page, "Recommended at 2,000 characters") == result.pick
    _settle(page)
    _no_error(page)
    body = page.inner_text("body")
    assert f"Synthetic questions: 30 {DEFAULT_FORM} questions (seed 0)" in body
    rule = (
        "Rule: these questions cannot separate"
        if expected.saturated
        else "Rule: the smallest index among"
        if expected.rule == "equivalent"
        else "Rule: the best itself"
    )
    assert rule in body  # the rule used is said, as the page renders it
    assert "checked on held-out real questions of JSQuAD and JaQuAD" in body
    assert "Held out (bench/verdict_holdout.py)" in body
    assert page.locator("[data-testid='stPlotlyChart']").count() == 3  # verdict and two fronts
    page.get_by_role("button", name="Open in Explore").click()
    page.wait_for_selector(".hl-box .cn", timeout=120_000)
    _settle(page)
    assert page.locator("h1").first.inner_text().strip() == "Explore"
    _no_error(page)
