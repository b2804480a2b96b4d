"""Regenerate the README's screenshots (docs/images/explore.png and benchmark.png).

Starts the app on a free port, opens Explore cold (the default sample and configuration: the
lesson's red answer on the first screen) and the Benchmark page's verdict in headless Chromium
at 1400x900, and writes the two PNGs. Run from the repository root:

    python scripts/readme_screenshots.py [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a file from the checkout: the browser tests' helpers

from tests.browser.conftest import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    start_app,
    stop_app,
)

IMAGES = ROOT / "docs" / "images"


def shoot(url: str, chromium: str) -> None:
    """Write explore.png and benchmark.png from the app at ``url``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        page.goto(f"{url}/Explore")
        page.locator(".hl-box .broken").first.wait_for(timeout=180_000)
        page.locator("[data-testid='stMetric']").nth(5).wait_for(timeout=60_000)
        page.wait_for_timeout(2500)  # fonts and the component's first scroll
        page.mouse.move(5, 895)
        page.screenshot(path=str(IMAGES / "explore.png"))
        page.goto(f"{url}/Benchmark")
        page.wait_for_function(
            "() => document.querySelectorAll('.js-plotly-plot .gtitle').length >= 1",
            timeout=180_000,
        )
        page.wait_for_timeout(2500)
        page.mouse.move(5, 895)
        page.screenshot(path=str(IMAGES / "benchmark.png"))
        browser.close()


def main() -> None:
    """Start the app, take both screenshots, stop the app."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args()
    proc, url = start_app(ROOT)
    try:
        shoot(url, args.chromium)
    finally:
        stop_app(proc)
    print(f"wrote {IMAGES / 'explore.png'} and {IMAGES / 'benchmark.png'}")


if __name__ == "__main__":
    main()
