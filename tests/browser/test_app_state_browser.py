"""One app state in Chromium: language switches, page moves and shared links change nothing.

The sidebar (language, backend) is the entrypoint's; AppTest cannot see it once a page runs
under ``st.navigation``, so these tests are where it is proven.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

import chunkviz
from chunkviz.samples import load_sample
from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

LINK = "strategy=recursive&size=150&overlap=30&unit=chars&sample=tech_en"


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(".hl-box .cn", timeout=120_000)  # the first run has drawn the text
    _settle(page)


def _settle(page) -> None:
    """Wait until Python's run has finished (no element is left from the previous run)."""
    page.wait_for_selector("[data-testid='stApp']", timeout=90_000)
    page.wait_for_function(
        "() => !document.querySelector('[data-stale=\"true\"]') && "
        "!document.querySelector('[data-testid=\"stStatusWidget\"] svg')",
        timeout=90_000,
    )
    page.wait_for_timeout(500)
    page.wait_for_function("() => !document.querySelector('[data-stale=\"true\"]')", timeout=90_000)


def _metric(page, label: str) -> str:
    block = (
        page.locator("[data-testid='stMetric']")
        .filter(has=page.locator("[data-testid='stMetricLabel']", has_text=label))
        .first
    )
    block.wait_for(timeout=90_000)
    return block.locator("[data-testid='stMetricValue']").inner_text().strip()


def _selected(page, label: str) -> str:
    """The shown value of the select box labelled ``label``."""
    box = (
        page.locator("[data-testid='stSelectbox']")
        .filter(has=page.locator("[data-testid='stWidgetLabel']", has_text=label))
        .first
    )
    return box.locator("input[role='combobox']").input_value().strip()


def _choose(page, label: str, option: str) -> None:
    box = (
        page.locator("[data-testid='stSelectbox']")
        .filter(has=page.locator("[data-testid='stWidgetLabel']", has_text=label))
        .first
    )
    box.locator("input[role='combobox']").click()
    page.get_by_role("option").filter(has_text=option).first.click()
    _settle(page)


def _radio(page, label: str) -> None:
    page.locator("[data-testid='stRadio'] label").filter(has_text=label).first.click()
    _settle(page)


def _query(page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def _no_error(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.locator("[data-testid='stAlertContentError']").count() == 0


def _every_radio_selected(page) -> None:
    radios = page.locator("[data-testid='stRadio']")
    assert radios.count() >= 3
    for i in range(radios.count()):
        assert radios.nth(i).locator("input[type='radio']:checked").count() == 1, i


def _nav(page, title: str) -> None:
    page.locator("[data-testid='stSidebarNav'] a").filter(has_text=title).first.click()
    _settle(page)


def test_language_round_trip_keeps_the_chunks_the_radios_and_the_link(app_url, page):
    expected = len(chunkviz.chunk(load_sample("tech_en").text, "recursive", size=150, overlap=30))
    _open(page, f"{app_url}/Explore?{LINK}")
    assert _metric(page, "Chunks") == f"{expected:,}"
    english_link = _query(page)
    assert english_link["lang"] == ["en"]
    assert english_link["strategy"] == ["recursive"]
    _every_radio_selected(page)

    _radio(page, "日本語")
    page.get_by_role("heading", name="探索").wait_for(timeout=60_000)
    assert _metric(page, "チャンク数") == f"{expected:,}"
    _no_error(page)
    _every_radio_selected(page)
    assert _selected(page, "分割戦略").startswith("recursive")
    assert _query(page) == {**english_link, "lang": ["ja"]}
    page.screenshot(path=str(ARTIFACTS / "explore-japanese.png"), full_page=True)

    _radio(page, "English")
    page.get_by_role("heading", name="Explore").wait_for(timeout=60_000)
    assert _metric(page, "Chunks") == f"{expected:,}"
    _no_error(page)
    _every_radio_selected(page)
    assert _query(page) == english_link


def test_upload_strategy_backend_and_language_survive_moving_between_pages(app_url, page, tmp_path):
    text = "第1条 始業は午前9時。\n\n第2条 終業は午後6時。\n\n" * 40
    upload = tmp_path / "notes.txt"
    upload.write_text(text, encoding="utf-8")
    expected = len(chunkviz.chunk(text, "paragraph"))
    _open(page, f"{app_url}/Explore")
    # The document picker folds under its name (issue 25): open it first.
    page.locator("[data-testid='stExpander'] summary").filter(has_text="Document").first.click()
    _radio(page, "Upload a file")
    page.get_by_role("region", name="Document file").locator("input[type='file']").set_input_files(
        str(upload)
    )
    page.get_by_text("notes.txt:", exact=False).first.wait_for(timeout=60_000)
    _settle(page)
    _choose(page, "Strategy", "paragraph — Natural paragraphs")
    # The document picker folds under a heading that names the document and its size.
    page.get_by_text("notes.txt — 1,120 characters", exact=False).first.wait_for(timeout=60_000)
    assert _metric(page, "Chunks") == f"{expected:,}"
    _choose(page, "Retrieval backend", "TF-IDF, character bigrams, raw vectors — lexical")
    _radio(page, "日本語")
    page.get_by_role("heading", name="探索").wait_for(timeout=60_000)
    assert _metric(page, "チャンク数") == f"{expected:,}"

    for title in ("ベンチマーク", "比較", "類似度"):
        _nav(page, title)
        page.get_by_role("heading", name=title).first.wait_for(timeout=60_000)
        _no_error(page)
        assert _selected(page, "検索バックエンド").startswith("TF-IDF")
    # Compare's first configuration and Similarity's chunks are the same configuration.
    assert _metric(page, "チャンク数") == f"{expected:,}"

    _nav(page, "探索")
    page.get_by_role("heading", name="探索").wait_for(timeout=60_000)
    _no_error(page)
    assert page.get_by_text("notes.txt：", exact=False).count() >= 1
    assert _selected(page, "分割戦略").startswith("paragraph")
    assert _selected(page, "検索バックエンド").startswith("TF-IDF")
    assert _metric(page, "チャンク数") == f"{expected:,}"
    assert _query(page)["backend"] == ["tfidf"]
    assert "sample" not in _query(page)  # the user's file is never in the link
    page.screenshot(path=str(ARTIFACTS / "explore-after-pages.png"), full_page=True)


def test_a_shared_japanese_link_opens_in_japanese_with_the_same_state(app_url, page):
    expected = len(chunkviz.chunk(load_sample("tech_en").text, "recursive", size=150, overlap=30))
    _open(page, f"{app_url}/Explore?{LINK}&lang=ja&backend=tfidf")
    page.get_by_role("heading", name="探索").wait_for(timeout=60_000)
    assert _metric(page, "チャンク数") == f"{expected:,}"
    assert _selected(page, "分割戦略").startswith("recursive")
    assert _selected(page, "サンプル文書") == "運用ガイド（英語・Markdown）"
    assert _selected(page, "検索バックエンド").startswith("TF-IDF・文字バイグラム")
    checked = page.locator(
        "[data-testid='stSidebar'] [data-testid='stRadio'] label:has(input:checked)"
    )
    assert checked.inner_text().strip() == "日本語"
    _every_radio_selected(page)
    _no_error(page)
    assert _query(page)["lang"] == ["ja"]
