"""The note on how well an uploaded PDF was read, shown with the document (issue 36)."""

from __future__ import annotations

from dataclasses import replace

from chunkviz.document import Document
from chunkviz.extract import extract
from chunkviz.pdf.quality import ReadQuality
from tests.app.helpers import page, set_lang
from tests.pdf.printing import simple_pdf
from tests.pdf.test_layout import ONE, TWO


def _document(quality: ReadQuality | None = None) -> Document:
    got = extract(simple_pdf([ONE, TWO], header="Orbit Queue Handbook"), "handbook.pdf")
    assert got.layout is not None
    layout = got.layout if quality is None else replace(got.layout, quality=quality)
    return Document("up:1", "handbook.pdf", got.text, origin="upload", layout=layout)


def test_a_clean_pdf_shows_its_note_and_no_warning():
    at = page("1_Explore.py", timeout=90, source="upload", document=_document())
    assert not at.exception
    notes = [c.value for c in at.caption if c.value.startswith("Reading note:")]
    assert notes == [
        "Reading note: 0 vertical pages read as columns, 0 rotated pages turned "
        "upright, 0 ruby readings (furigana) left out of the text, 0.0% of the "
        "characters without a Unicode mapping."
    ]
    assert not [w for w in at.warning if "Unicode mapping" in w.value]


def test_pages_without_a_unicode_map_are_named_in_a_warning_in_both_languages():
    quality = ReadQuality(1_000, 590, 0, vertical_pages=(2,), ruby=12, warn_pages=(1, 2))
    at = page("1_Explore.py", timeout=90, source="upload", document=_document(quality))
    assert not at.exception
    assert any("59.0% of the characters" in c.value for c in at.caption)
    assert [w.value for w in at.warning if "Unicode mapping" in w.value] == [
        "Pages 1, 2: more than 5% of the characters have no Unicode mapping (a font without a "
        "ToUnicode map), so the text there is incomplete or garbled. Run OCR on those pages "
        "(for example ocrmypdf --force-ocr) or paste their text."
    ]
    at = set_lang(at, "ja")
    assert not at.exception
    assert any(w.value.startswith("1、2 ページでは") for w in at.warning)
    assert any("縦書き 1 ページ" in c.value for c in at.caption)
