"""Imported chunks in Chromium: upload on Explore, the report, the highlight, Compare, 日本語."""

from __future__ import annotations

import json

import pytest

import chunkviz
from chunkviz.samples import load_sample
from tests.browser.test_app_state_browser import (
    _choose,
    _metric,
    _nav,
    _no_error,
    _open,
    _radio,
    _selected,
    _settle,
)

pytestmark = pytest.mark.browser


def test_uploaded_chunks_are_drawn_and_kept_across_pages_and_languages(app_url, page, tmp_path):
    text = load_sample("jsquad_tsuyu").text
    pieces = chunkviz.chunk(text, "fixed", size=350).chunk_texts()
    upload = tmp_path / "lc.json"
    upload.write_text(
        json.dumps(
            [{"page_content": p, "metadata": {"start_index": text.find(p)}} for p in pieces],
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    _open(page, f"{app_url}/Explore")
    page.get_by_text("Import chunks from another library").first.click()
    page.get_by_role("region", name="Chunk file (JSON or JSONL)").locator(
        "input[type='file']"
    ).set_input_files(str(upload))
    page.get_by_text(f"{len(pieces)} chunks read as langchain", exact=False).first.wait_for(
        timeout=60_000
    )
    _settle(page)
    _choose(page, "Strategy", "imported: lc.json")
    assert _metric(page, "Chunks") == f"{len(pieces)}"
    # The highlight draws one numbered band per imported chunk (the sample is one page).
    assert page.locator(".hl-box .cn").count() == len(pieces)
    _no_error(page)
    _nav(page, "Compare")
    page.get_by_role("heading", name="Compare").first.wait_for(timeout=60_000)
    assert _metric(page, "Chunks") == f"{len(pieces)}"
    _radio(page, "日本語")
    page.get_by_role("heading", name="比較").first.wait_for(timeout=60_000)
    assert _metric(page, "チャンク数") == f"{len(pieces)}"
    assert _selected(page, "分割戦略") == "取り込み：lc.json"
    _no_error(page)
