"""The projector palette as Chromium draws it (issue 39): the bands' fills are the palette's.

``tests/views/test_palette.py`` computes the WCAG ratios of the palette's colours; this test
checks that the view on a projector (1280×720 at 150%) draws exactly those colours, with the
underlines, and leaves a screenshot in ``test-artifacts/palette-projector.png``.
"""

from __future__ import annotations

import pytest

from chunkviz.views.highlight import BANDS, UNDERLINES
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser


def _rgb(colour: str) -> str:
    return "rgb({}, {}, {})".format(*(int(colour[i : i + 2], 16) for i in (1, 3, 5)))


def test_a_projector_draws_the_palettes_bands_and_underlines(browser, app_url):
    context = browser.new_context(viewport={"width": 853, "height": 480}, device_scale_factor=1.5)
    page = context.new_page()
    try:
        page.goto(f"{app_url}/Explore?strategy=fixed&size=200&overlap=0&sample=jsquad_tsuyu")
        page.locator(".hl-box .c1").first.wait_for(timeout=120_000)
        for i, (band, line) in enumerate(zip(BANDS, UNDERLINES, strict=True)):
            drawn = page.locator(f".hl-box .c{i}").first.evaluate(
                "e => { const s = getComputedStyle(e); return [s.backgroundColor, s.boxShadow]; }"
            )
            assert drawn[0] == _rgb(band)
            assert _rgb(line) in drawn[1]  # the underline is kept
        page.locator(".hl-box .c1").first.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "palette-projector.png"))
    finally:
        context.close()
