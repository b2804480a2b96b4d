"""Explore in Chromium: cuts inside words are drawn apart and name the word (issue 38)."""

from __future__ import annotations

import pytest

import chunkviz
from chunkviz.samples import load_sample
from chunkviz.text_boundaries import word_cuts
from tests.browser.conftest import ARTIFACTS
from tests.browser.test_app_state_browser import _metric, _settle

pytestmark = pytest.mark.browser

# The badge of every chunk that starts inside a word: its drawn outline and its title.
_BADGES = """() => {
  const host = [...document.querySelectorAll('*')].find(
    (e) => e.shadowRoot && e.shadowRoot.querySelector('.hl-box'));
  return [...host.shadowRoot.querySelectorAll('.hl-box .cn')].map((b) => ({
    wc: b.classList.contains('wc'), title: b.title,
    outline: getComputedStyle(b).outlineStyle, colour: getComputedStyle(b).backgroundColor}));
}"""


def test_the_jsquad_sample_shows_its_cuts_inside_words(app_url, page):
    text = load_sample("jsquad_tsuyu").text
    cuts = word_cuts(chunkviz.chunk(text, "fixed", size=400, overlap=0))
    page.goto(f"{app_url}/Explore?strategy=fixed&size=400&overlap=0&unit=chars&sample=jsquad_tsuyu")
    page.wait_for_selector(".hl-box .cn", timeout=120_000)
    _settle(page)
    assert _metric(page, "Cuts inside words") == f"{cuts.count:,} / {len(cuts.cuts):,}"
    badges = page.evaluate(_BADGES)
    marked = [b for b in badges if b["wc"]]
    plain = [b for b in badges if not b["wc"]]
    assert marked
    assert plain
    # Drawn apart: a dashed outline and another fill than a clean cut's badge.
    assert {b["outline"] for b in marked} == {"dashed"}
    assert {b["outline"] for b in plain} == {"none"}
    assert marked[0]["colour"] != plain[0]["colour"]
    a, b = cuts.words(text)[cuts.inside[0]]
    assert marked[0]["title"] == f"cut inside the word: {text[a:b]}"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "explore-word-cuts.png"))
