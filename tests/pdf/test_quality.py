"""Rotated pages read upright, and the note on how well a PDF could be read (fast: no browser)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from chunkviz.extract import extract
from chunkviz.pdf.layout import PageChars
from chunkviz.pdf.quality import UNMAPPED_WARNING, read_quality
from tests.pdf.printing import simple_pdf

LINES = [
    "A landscape table of retention settings runs across the turned page, and its",
    "second line continues the same sentence to its end.",
    "",
    "Queue   Days   Owner",
]


@pytest.mark.parametrize("rotate", [0, 90])
def test_a_turned_page_reads_upright_as_the_same_text(rotate):
    pages = [LINES, ["The second page is a short one."]]
    got = extract(
        simple_pdf(pages, header="Settings", width=842, height=595, rotate=rotate), "landscape.pdf"
    )
    assert (
        got.text
        == extract(simple_pdf(pages, header="Settings", width=842, height=595), "plain.pdf").text
    )
    assert got.text.startswith(
        "A landscape table of retention settings runs across the turned "
        "page, and its second line continues"
    )
    assert got.quality is not None
    assert got.quality.rotated_pages == ((1, 2) if rotate else ())
    assert got.layout is not None
    # The boxes are where the shown page has the text: the first line near its top left.
    box = got.layout.boxes_of(0, 10)[0]
    assert box.x0 < 100
    assert box.top < 100


def test_text_turned_sideways_on_a_portrait_page_reads_bottom_to_top_as_rows():
    pages = [LINES, ["The second page is a short one."]]
    got = extract(
        simple_pdf(pages, header="Settings", width=842, height=595, rotate=90, sideways=True),
        "sideways.pdf",
    )
    assert (
        got.text
        == extract(simple_pdf(pages, header="Settings", width=842, height=595), "plain.pdf").text
    )
    assert got.quality is not None
    assert got.quality.rotated_pages == got.quality.vertical_pages == ()


def _page(text: str, unmapped: int = 0, rotation: int = 0) -> PageChars:
    boxes = np.array([(10.0 * i, 100.0, 10.0 * i + 9, 111.0) for i in range(len(text))], np.float32)
    return PageChars(595, 842, text, boxes, unmapped=unmapped, rotation=rotation)


def test_the_note_counts_glyphs_without_a_code_point_and_names_the_pages():
    clean = _page("本文は読めるページです。")
    lost = _page("読める字は少し", unmapped=50)
    private = _page("\ue000\ue001\ue002" + "あ" * 20)
    quality = read_quality([clean, lost, private], vertical=[0], ruby=3)
    assert (quality.glyphs, quality.unmapped, quality.unusable) == (12 + 57 + 23, 50, 3)
    assert quality.warn_pages == (2, 3)
    assert quality.vertical_pages == (1,)
    assert quality.ruby == 3
    assert quality.unmapped_share == pytest.approx(53 / 92)
    # At the threshold no warning: more than UNMAPPED_WARNING is needed.
    edge = _page("あ" * 95, unmapped=5)
    assert UNMAPPED_WARNING == 0.05
    assert read_quality([edge]).warn_pages == ()


def test_a_clean_pdf_has_a_clean_note():
    got = extract(simple_pdf([LINES]), "clean.pdf")
    assert got.quality is not None
    assert (got.quality.unmapped, got.quality.unusable, got.quality.warn_pages) == (0, 0, ())
    assert got.quality.vertical_pages == got.quality.rotated_pages == ()
    assert got.layout is not None
    assert got.layout.quality == got.quality


def test_the_cli_prints_the_reading_note(tmp_path, capsys):
    from chunkviz.cli import main

    (tmp_path / "landscape.pdf").write_bytes(
        simple_pdf([LINES], width=842, height=595, rotate=90, numbers=False)
    )
    assert main(["chunk", str(tmp_path / "landscape.pdf"), "--format", "json"]) == 0
    assert (
        "Reading note: 0 vertical pages read as columns, 1 rotated pages turned upright"
        in capsys.readouterr().err
    )


def test_the_page_view_numbers_each_chunk_at_its_first_box():
    import chunkviz
    from chunkviz.views.page_view import page_shapes, page_svg

    got = extract(simple_pdf([LINES, ["The second page is a short one."]]), "numbered.pdf")
    assert got.layout is not None
    result = chunkviz.chunk(got.text, "fixed", size=60, overlap=0)
    svg = page_svg(page_shapes(got.layout, result.chunks, [], 0))
    on_page = sorted({int(n) for n in re.findall(r'data-chunk="(\d+)"', svg)})
    assert re.findall(r'class="pv-num"[^>]*>#(\d+)</text>', svg) == [str(n) for n in on_page]
    assert len(on_page) >= 3


def test_control_characters_for_glyphs_are_counted_not_kept_and_the_page_is_named():
    # Codes 3-8 of a font with no glyph names there: PDFium reads them as control characters.
    lines = ["Readable words then \x03\x04\x05\x06\x07\x08 glyphs without a map."]
    got = extract(simple_pdf([LINES, lines], numbers=False), "controls.pdf")
    assert "Readable words then glyphs without a map." in got.text
    assert not [ch for ch in got.text if ord(ch) < 0x20 and ch != "\n"]
    assert got.quality is not None
    assert got.quality.unmapped == 6
    assert got.quality.warn_pages == (2,)
