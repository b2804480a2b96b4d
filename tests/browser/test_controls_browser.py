"""Typed parameter inputs in a real browser: an exact size, and an overlap bounded by it."""

from __future__ import annotations

import re

import pytest

import chunkviz
from chunkviz.samples import load_sample
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

SIZE = ".st-key-explore_p_fixed_size"
OVERLAP = ".st-key-explore_p_fixed_overlap"


def _chunks_metric(page):  # type: ignore[no-untyped-def]
    metric = page.locator("[data-testid='stMetric']").filter(has_text="Chunks").first
    return metric.locator("[data-testid='stMetricValue']")


def _slider(page, key: str):  # type: ignore[no-untyped-def]
    # Streamlit's slider thumb is a visually hidden <input type=range> with min, max and value.
    # While a rerun draws the new slider the previous one can stay in the page for a moment
    # (seen once on a loaded machine: max 399 beside max 436): wait until one is left.
    selector = f"{key} input[type='range']"
    page.wait_for_function(
        "sel => document.querySelectorAll(sel).length === 1", arg=selector, timeout=30_000
    )
    return page.locator(selector)


def _wait_prop(page, selector: str, prop: str, want: str) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_function(
        "([sel, prop, want]) => document.querySelector(sel)?.[prop] === want",
        arg=[selector, prop, want],
        timeout=30_000,
    )


def _wait_metric(page, want: str) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_function(
        "want => [...document.querySelectorAll(\"[data-testid='stMetric']\")].some(m => "
        "m.textContent.includes('Chunks') && "
        "m.querySelector(\"[data-testid='stMetricValue']\").textContent.trim() === want)",
        arg=want,
        timeout=60_000,
    )


def test_type_437_into_size_and_overlap_stays_below_it(app_url, page):
    page.goto(f"{app_url}/Explore?strategy=fixed&size=400&overlap=0&sample=jsquad_tsuyu")
    page.wait_for_selector(".hl-box .cn", timeout=60_000)
    text = load_sample("jsquad_tsuyu").text
    size_range, overlap_range = f"{SIZE} input[type='range']", f"{OVERLAP} input[type='range']"

    typed = page.locator(f"{SIZE}__typed input")
    typed.fill("437")
    typed.press("Enter")
    _wait_prop(page, size_range, "value", "437")
    expected = f"{len(chunkviz.chunk(text, 'fixed', size=437, overlap=0)):,}"
    _wait_metric(page, expected)
    assert _chunks_metric(page).inner_text().strip() == expected
    page.wait_for_function("() => /[?&]size=437(&|$)/.test(location.search)", timeout=30_000)
    # Overlap's range ends at size - 1, on the slider and on the typed input.
    _wait_prop(page, overlap_range, "max", "436")
    assert page.locator(f"{OVERLAP}__typed input").get_attribute("max") == "436"

    # The slider's far end is the largest valid overlap; the typed input follows it.
    handle = _slider(page, OVERLAP)
    handle.focus()
    handle.press("End")
    page.wait_for_function("() => /[?&]overlap=436(&|$)/.test(location.search)", timeout=30_000)
    _wait_prop(page, f"{OVERLAP}__typed input", "value", "436")
    _wait_metric(page, f"{len(chunkviz.chunk(text, 'fixed', size=437, overlap=436)):,}")
    # Size now cannot be set to the overlap or below.
    _wait_prop(page, size_range, "min", "437")

    # Typing size or more into overlap is refused by the input; the pair in use stays valid
    # and no error replaces the view.
    over = page.locator(f"{OVERLAP}__typed input")
    over.fill("437")
    over.press("Enter")
    page.wait_for_timeout(1500)  # let a rerun, if one was sent, finish
    assert _slider(page, OVERLAP).input_value() == "436"
    assert re.search(r"[?&]overlap=436(&|$)", page.url)
    assert page.get_by_text("overlap must be smaller than size").count() == 0
    assert page.locator(".hl-box .cn").count() > 0
    page.screenshot(path=str(ARTIFACTS / "explore-typed-inputs.png"), full_page=False)
    assert not page.dialogs


def test_semantic_model_box_lists_models_and_takes_a_typed_one(app_url, page):
    page.goto(f"{app_url}/Strategies")
    page.wait_for_selector(".hl-box .cn", timeout=90_000)
    box = page.locator(".st-key-strategies_p_semantic_model_en")
    box.locator("input").click()
    # The known models are offered (use-m3 only where it loads; it does here).
    options = page.get_by_role("option")
    options.first.wait_for(timeout=30_000)
    shown = options.all_inner_texts()
    assert any(o.startswith("tfidf:") for o in shown)
    assert any(o.startswith("use-m3:") for o in shown)
    # Any other model can still be named: typed, it reaches the strategy (and here fails to
    # load, with a message naming it, not a traceback).
    box.locator("input").fill("st:/no/such/model")
    box.locator("input").press("Enter")
    alert = page.locator("[data-testid='stAlert']").filter(has_text="/no/such/model")
    alert.first.wait_for(timeout=60_000)
    assert "give st:<path> an existing model folder" in alert.first.inner_text()
    assert page.locator("[data-testid='stException']").count() == 0
    assert not page.dialogs
