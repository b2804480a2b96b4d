"""Every Streamlit DOM selector chunkviz uses still matches, on the page that uses it (issue 40).

``chunkviz.ui.dom`` is the one list of them. A Streamlit upgrade that renames a test id or a class
fails here, not as a page that quietly lost its layout. Screenshots go to
``test-artifacts/dom-*.png``.
"""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from chunkviz.ui import dom
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

#: The page each selector is used on (its URL path and query), and what the page must have drawn
#: before it is looked for. App-wide ones (the sidebar, the chart toolbars) on a page that has
#: what they target.
WHERE: dict[str, tuple[str, str]] = {
    "MAIN_BLOCK": ("Explore", "explore"),
    "COLUMN": ("Explore", "explore"),
    "METRIC_VALUE": ("Explore", "explore"),
    "EXPLORE_NUMBERS": ("Explore", "explore"),
    "TYPED_TWIN": ("Explore", "explore"),
    "SIDEBAR_FOLD_BUTTON": ("Explore", "explore"),
    "MARKDOWN": ("Benchmark", "benchmark"),
    "PLOTLY_CHART": ("Benchmark", "benchmark"),
    "PLOTLY_PLOT": ("Benchmark", "benchmark"),
    "PLOTLY_MODEBAR": ("Benchmark", "benchmark"),
    "ELEMENT_TOOLBAR": ("Benchmark", "benchmark"),
    "LAYOUT_WRAPPER": ("Explore", "explore"),
    "EXPLORE_NUMBERS_SLOT": ("Explore", "explore"),
    "TITLE": ("Explore", "explore"),
    "KEYED": ("Explore", "explore"),
    "UPLOADER_BUTTON_TEXT": ("Explore", "explore"),
    "UPLOADER_INSTRUCTIONS": ("Explore", "explore"),
    "UPLOADER_LIMITS": ("Explore", "explore"),
}
#: A selector that is the start of others (``KEYED + key``) is checked as that prefix.
PREFIXES = {"KEYED": '[class*="st-key-"]'}
#: How each page is opened, and an element it draws last among those the selectors need.
PAGES = {
    "explore": ("Explore?strategy=fixed&size=400&overlap=0&sample=jsquad_tsuyu", ".hl-box .cn"),
    "benchmark": ("Benchmark", ".js-plotly-plot .main-svg"),
}


def _selectors() -> dict[str, str]:
    return {
        name: value
        for name, value in vars(dom).items()
        if name.isupper() and isinstance(value, str)
    }


def test_every_selector_has_a_page_to_be_checked_on():
    assert set(_selectors()) == set(WHERE), "name the page a new selector is used on in WHERE"


@pytest.mark.parametrize("where", sorted(PAGES))
def test_each_selector_matches_on_its_page(page, app_url, where):
    path, ready = PAGES[where]
    page.goto(f"{app_url}/{path}")
    page.wait_for_selector(ready, timeout=120_000)
    # Streamlit draws an element's toolbar while the pointer is over the element.
    chart = page.locator(dom.PLOTLY_CHART)
    if chart.count():
        chart.first.scroll_into_view_if_needed()
        chart.first.hover()
    wanted = {
        name: PREFIXES.get(name, value)
        for name, value in _selectors().items()
        if WHERE[name][1] == where
    }
    assert wanted
    counts = {}
    for name, selector in wanted.items():
        # A selector that never matches is counted below, where the assertion names it.
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_selector(selector, state="attached", timeout=10_000)
        counts[name] = page.locator(selector).count()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"dom-{where}.png"))
    assert {name: n for name, n in counts.items() if n == 0} == {}, counts


@pytest.mark.parametrize(("width", "folded"), [(900, True), (1400, False)])
def test_the_fold_button_selector_folds_the_sidebar_of_a_narrow_window(
    browser, app_url, width, folded
):
    # chunkviz.ui.narrow clicks dom.SIDEBAR_FOLD_BUTTON below NARROW_PX (1000); Streamlit folds
    # the sidebar by itself only below its phone breakpoint, far under 900 px.
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/Explore?sample=jsquad_tsuyu")
        page.wait_for_selector(".hl-box .cn", timeout=120_000)
        sidebar = page.locator("[data-testid='stSidebar']")
        page.wait_for_function(
            "([sel, folded]) => { const b = document.querySelector(sel)"
            "?.getBoundingClientRect(); return !!b && (b.right <= 0) === folded; }",
            arg=["[data-testid='stSidebar']", folded],
            timeout=30_000,
        )
        box = sidebar.bounding_box()
        assert box is not None
        assert (box["x"] + box["width"] <= 0) is folded, box
    finally:
        context.close()
