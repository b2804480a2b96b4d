"""A document without questions: Explore marks the key phrases a boundary cuts (issue 39)."""

from __future__ import annotations

import chunkviz
from chunkviz.document import Document
from chunkviz.samples import load_sample
from chunkviz.views.explore import assess_qa
from chunkviz.views.key_phrases import key_phrases
from tests.app.helpers import component_data, page

TEXT = load_sample("jsquad_tsuyu").text[:3000]


def _pasted(lang: str = "en"):
    document = Document("paste", "", TEXT, origin="paste")
    return page(
        "1_Explore.py", timeout=90, source="paste", pasted=TEXT, document=document, lang=lang
    )


def test_a_pasted_document_without_questions_shows_its_cut_key_phrases_in_red():
    at = _pasted()
    assert not at.exception
    result = chunkviz.chunk(TEXT, "fixed", size=400, overlap=0)  # the default configuration
    report = assess_qa(result, key_phrases(Document("paste", "", TEXT, origin="paste")))
    cut = report.status_count("broken")
    assert cut > 0
    line = next(m.value for m in at.markdown if "key phrases are cut" in m.value)
    assert f"{cut:,} of {len(report):,} key phrases are cut" in line
    html = component_data(at, "explore_highlight")["html"]
    assert html.count('class="broken') + html.count(" broken") > 0
    assert "KEY PHRASE cut" in html
    assert "BROKEN answer" not in html
    legend = component_data(at, "explore_highlight")["legend"]
    assert "key phrase cut" in legend
    # A document with questions keeps its answers (the sample has 180).
    sample = page("1_Explore.py", timeout=90)
    assert not any("key phrases" in m.value for m in sample.markdown)
    assert "KEY PHRASE" not in component_data(sample, "explore_highlight")["html"]


def test_the_key_phrase_line_is_japanese_in_japanese():
    at = _pasted("ja")
    assert not at.exception
    assert any("キーフレーズのうち" in m.value for m in at.markdown)
