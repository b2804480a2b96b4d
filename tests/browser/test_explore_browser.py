from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser


def _wait_for_app(page) -> None:
    page.wait_for_selector("[data-testid='stApp']", timeout=60_000)
    page.wait_for_selector(".hl-box .cn", timeout=60_000)


def test_broken_answer_is_red_in_the_highlight(app_url, page):
    query = "strategy=fixed&size=100&overlap=0&unit=chars&sample=jsquad_tsuyu"
    page.goto(f"{app_url}/Explore?{query}")
    _wait_for_app(page)
    # The tooltip names the cutting chunks and the question whose answer is 寒帯ジェット気流.
    broken = page.locator(".hl-box .broken[title*='#24, #25: 分かれた亜熱帯']").first
    broken.wait_for(state="visible", timeout=30_000)
    assert broken.is_visible()
    colour = broken.evaluate("el => getComputedStyle(el).backgroundColor")
    assert colour == "rgb(220, 38, 38)"
    title = broken.get_attribute("title")
    assert "cut by chunks #24, #25" in title
    # The two halves of 寒帯ジェット気流 are in two different chunk bands.
    halves = page.locator(".hl-box .broken[title*='#24, #25: 分かれた亜熱帯']")
    assert halves.count() == 2
    assert halves.nth(0).inner_text() + halves.nth(1).inner_text() == "寒帯ジェット気流"
    broken.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "explore-broken-answer.png"), full_page=False)
    page.screenshot(path=str(ARTIFACTS / "explore-page.png"), full_page=True)
    assert not page.dialogs


def test_script_and_img_in_a_document_render_as_text(app_url, page):
    page.goto(f"{app_url}/Explore")
    _wait_for_app(page)
    # The document picker folds under its name (issue 25): open it first.
    page.locator("[data-testid='stExpander'] summary").filter(has_text="Document").first.click()
    page.get_by_text("Paste text", exact=True).click()
    area = page.get_by_role("textbox", name="Your text")
    area.wait_for(timeout=30_000)
    hostile = "Before <script>alert(1)</script> middle <img src=x onerror=alert(1)> after."
    area.fill(hostile)
    area.press("Control+Enter")
    box = page.locator(".hl-box")
    page.wait_for_function(
        "() => [...document.querySelectorAll('*')].some(e => e.shadowRoot && "
        "e.shadowRoot.querySelector('.hl-box') && "
        "e.shadowRoot.querySelector('.hl-box').textContent.includes('onerror=alert(1)'))",
        timeout=30_000,
    )
    text = box.inner_text()
    assert "<script>alert(1)</script>" in text
    assert "<img src=x onerror=alert(1)>" in text
    assert box.locator("img").count() == 0
    assert box.locator("script").count() == 0
    page.wait_for_timeout(1000)  # give an injected handler the chance to fire
    assert page.dialogs == []
    page.screenshot(path=str(ARTIFACTS / "explore-escaped-html.png"), full_page=False)


def test_jump_to_chunk_scrolls_the_highlight(app_url, page):
    query = "strategy=fixed&size=100&overlap=0&unit=chars&sample=jsquad_tsuyu"
    page.goto(f"{app_url}/Explore?{query}")
    _wait_for_app(page)
    jump = page.get_by_role("spinbutton", name="Jump to chunk")
    jump.fill("60")
    jump.press("Enter")
    badge = page.locator(".hl-box #chunk-60")
    page.wait_for_function(
        "() => [...document.querySelectorAll('*')].some(e => e.shadowRoot && "
        "e.shadowRoot.querySelector('#chunk-60.target'))",
        timeout=30_000,
    )
    box = page.locator(".hl-box").bounding_box()
    target = badge.bounding_box()
    assert box is not None
    assert target is not None
    # The badge of chunk 60 (far below the first screen of text) is inside the visible box.
    assert box["y"] <= target["y"] <= box["y"] + box["height"]
    assert page.locator(".hl-box").evaluate("el => el.scrollTop") > 0


def test_a_pasted_document_without_questions_shows_a_cut_key_phrase_in_red(app_url, page):
    """Issue 39: no QA pairs, still something red: the key phrases a boundary cuts."""
    from chunkviz.samples import load_sample

    page.goto(f"{app_url}/Explore")
    _wait_for_app(page)
    page.locator("[data-testid='stExpander'] summary").filter(has_text="Document").first.click()
    page.get_by_text("Paste text", exact=True).click()
    area = page.get_by_role("textbox", name="Your text")
    area.wait_for(timeout=30_000)
    area.fill(load_sample("jsquad_tsuyu").text[:3000])
    area.press("Control+Enter")
    page.get_by_text("key phrases are cut").first.wait_for(state="visible", timeout=60_000)
    cut = page.locator(".hl-box .broken[title*='KEY PHRASE cut']").first
    cut.wait_for(state="visible", timeout=30_000)
    assert cut.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(220, 38, 38)"
    assert "BROKEN answer" not in (cut.get_attribute("title") or "")
    legend = page.locator(".hl-legend").first
    assert "key phrase cut" in legend.inner_text()
    cut.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "explore-key-phrase-cut.png"), full_page=False)
    assert not page.dialogs
