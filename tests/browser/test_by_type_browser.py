"""Benchmark page in Chromium: a JaQuAD run's breakdown by question type, with a screenshot."""

from __future__ import annotations

import pytest

from chunkviz.eval.runner import shipped_results_dir
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser


def test_the_by_type_section_renders_for_a_jaquad_run(browser, app_url):
    (path,) = shipped_results_dir().glob("jaquad-bm25-all-s0-*.json")
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/Benchmark?run={path.stem}")
        # The section is drawn when its tab is opened (issue 39).
        page.get_by_role("tab", name="Robustness").click()
        heading = page.get_by_role("heading", name="By question type")
        heading.wait_for(timeout=180_000)
        # The per-type table: a column per question type of JaQuAD, a row per configuration.
        table = page.locator("table:has-text('Multiple-sentence reasoning (829)')").first
        table.wait_for(timeout=120_000)
        for name in (
            "Lexical variation (world knowledge) (930)",
            "Syntactic variation (899)",
            "Logical reasoning (472)",
        ):
            assert table.get_by_text(name, exact=True).count() == 1
        assert table.locator("tbody tr").count() == 8
        losses = page.get_by_text("fixed-100-0 loses", exact=False).first
        losses.wait_for(timeout=60_000)
        heading.evaluate("e => e.scrollIntoView({block: 'start'})")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "benchmark-by-type-1400x1000.png"))
    finally:
        context.close()
