"""Crafted share links render as literal text and make the browser fetch nothing (issue 14).

``?strategy=[Session expired - log in again](https://evil.example/login)`` rendered as a working
link inside the app, and ``?sample=![s](http://127.0.0.1:8765/s.png)`` made the browser fetch
the image. Nothing listens on 127.0.0.1:8765 here; every request the page makes is recorded and
none may go to that address or to evil.example.
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit

import pytest

from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

PHISH = "[Session expired - log in again](https://evil.example/login)"
IMAGE = "![s](http://127.0.0.1:8765/s.png)"


def test_crafted_share_links_render_as_literal_text_and_fetch_nothing(app_url, page):
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{app_url}/Explore?strategy={quote(PHISH)}&sample={quote(IMAGE)}")
    page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
    alerts = page.locator("[data-testid='stAlert']")
    alerts.filter(has_text="Session expired").first.wait_for(timeout=60_000)
    alerts.filter(has_text="127.0.0.1:8765").first.wait_for(timeout=60_000)
    page.wait_for_timeout(1500)  # give an injected image the chance to load
    # What a reader sees: the word joiner that keeps GFM from linking URLs has no width.
    text = " ".join(alerts.all_inner_texts()).replace("\u2060", "")
    assert PHISH[:50] in text  # quoted literally (values are cut at 60 characters)
    assert IMAGE in text
    app = page.locator("[data-testid='stApp']")
    assert app.locator("a[href*='evil.example']").count() == 0
    assert app.locator("img[src*='8765']").count() == 0
    hosts = {urlsplit(u).netloc for u in requests} - {""}  # data: and blob: URLs have none
    assert "127.0.0.1:8765" not in hosts
    assert not [h for h in hosts if "evil.example" in h]
    assert hosts == {urlsplit(app_url).netloc}  # nothing but the app itself was fetched
    assert requests  # the recorder saw the app's own requests
    page.screenshot(path=str(ARTIFACTS / "explore-crafted-link.png"), full_page=False)
