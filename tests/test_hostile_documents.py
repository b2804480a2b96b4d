"""Bombs and odd sizes in PDFs and Word files (issue 41, findings 1-7): each refused by the limit
it breaks (``chunkviz.limits``), before the work it asks for, or read in bounded work."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

from chunkviz.errors import InputTextError
from chunkviz.extract import extract, extract_text
from chunkviz.limits import (
    CONTENT_STREAM_BYTES,
    DOCX_XML_BYTES,
    INFLATED_BYTES,
    LIMITS,
    RENDER_PIXELS,
    RENDER_SIDE,
    TABLE_COLUMNS,
    LimitError,
)
from chunkviz.text import has, text
from tests.helpers import one_page_pdf

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


# --- PDF ---------------------------------------------------------------------------------------


def test_an_inflate_bomb_is_refused_while_it_is_unpacked():
    # Finding 1: a content stream that inflates past MAX_INFLATED_BYTES (here 600 MiB of
    # spaces in a 2.7 MB file; no text, so only the total counts) is refused before PDFium
    # unpacks it.
    data = one_page_pdf(b" " * (600 << 20), flate=True, level=1)
    assert len(data) < 3_000_000
    with pytest.raises(LimitError) as info:
        extract(data, "bomb.pdf")
    assert "MAX_INFLATED_BYTES" in str(info.value)
    assert info.value.code == "limit_inflated"
    assert info.value.params["max"] == f"{INFLATED_BYTES.value:,}"


def test_flate_inside_flate_is_unpacked_twice_when_measured():
    import zlib

    from chunkviz.pdf.bounds import check_streams

    inner = zlib.compress(b"BT " + (b"(" + b"A" * 10_000 + b") Tj ") * 500 + b"ET", 9)
    data = one_page_pdf(inner, flate=True)  # Flate of Flate: the text stream hides twice over
    with pytest.raises(LimitError, match="MAX_CONTENT_STREAM_BYTES"):
        check_streams(data, "twice.pdf")


def test_a_page_of_millions_of_characters_is_refused_before_its_text_layer_is_built():
    # Finding 2: 20 million characters on one page (24 KB) aborted the process. Its text
    # stream is measured first; 5 million here, past MAX_CONTENT_STREAM_BYTES (4 MiB).
    shown = (b"(" + b"A" * 10_000 + b") Tj ") * 500
    data = one_page_pdf(b"BT /F1 1 Tf 0 700 Td " + shown + b"ET", flate=True)
    assert len(data) < 100_000
    with pytest.raises(LimitError) as info:
        extract(data, "dense.pdf")
    assert info.value.code == "limit_content_stream"
    assert "MAX_CONTENT_STREAM_BYTES" in str(info.value)
    assert int(info.value.params["value"].replace(",", "")) > CONTENT_STREAM_BYTES.value


def test_a_page_over_the_character_limit_is_refused_before_its_characters_are_read(monkeypatch):
    import dataclasses

    import chunkviz.pdf.reader

    small = dataclasses.replace(chunkviz.pdf.reader.PAGE_CHARS, value=1_000)
    monkeypatch.setattr(chunkviz.pdf.reader, "PAGE_CHARS", small)
    data = one_page_pdf(b"BT /F1 1 Tf 0 700 Td (" + b"A" * 2_000 + b") Tj ET")
    with pytest.raises(LimitError, match=r"2,000 characters on page 1.*MAX_PAGE_CHARS"):
        extract(data, "page.pdf")


def test_a_one_point_wide_page_is_drawn_within_the_pixel_limits():
    # Finding 3: a 1 x 14,400 pt page at 900 px wide asked for a 900 x 12,960,000 image.
    from PIL import Image

    from chunkviz.pdf.render import render_page

    data = one_page_pdf(b"BT /F1 1 Tf 0 700 Td (A) Tj ET", width=1, height=14_400)
    image = Image.open(io.BytesIO(render_page(data, 0, width_px=900)))
    assert image.width * image.height <= RENDER_PIXELS.value
    assert max(image.size) <= RENDER_SIDE.value
    assert image.height > 10_000  # drawn, as large as the limits allow


def test_an_ordinary_page_is_drawn_at_the_width_asked():
    from PIL import Image

    from chunkviz.pdf.render import render_page

    data = one_page_pdf(b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET")
    image = Image.open(io.BytesIO(render_page(data, 0, width_px=900)))
    assert 900 <= image.width <= 901  # PDFium rounds the page's edge up


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_character_boxes_of_a_turned_page_lie_on_the_ink_of_the_image(rotate):
    # Finding 4: a /Rotate 90 page drew its character boxes outside the page.
    from PIL import Image

    from chunkviz.pdf.render import render_page

    data = one_page_pdf(b"BT /F1 40 Tf 72 650 Td (HHHH) Tj ET", rotate=rotate)
    got = extract(data, "turned.pdf")
    assert got.text == "HHHH"
    width, height = got.layout.sizes[0]
    x0, top, x1, bottom = (
        got.layout.boxes[:4].min(0)[:2].tolist() + got.layout.boxes[:4].max(0)[2:].tolist()
    )
    assert 0 <= x0 < x1 <= width
    assert 0 <= top < bottom <= height
    image = np.asarray(Image.open(io.BytesIO(render_page(data, 0, width_px=600))).convert("L"))
    scale = image.shape[1] / width
    inside = image[
        int(top * scale) : int(bottom * scale) + 1, int(x0 * scale) : int(x1 * scale) + 1
    ]
    ink = (image < 128).sum()
    assert ink > 0
    assert (inside < 128).sum() == ink  # every dark pixel of the page is inside the boxes


def test_a_pdf_with_no_pages_is_refused_for_that_reason():
    # A misleading message: a 0-page PDF was refused "(PDFium: Success)".
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    data = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(data))
        data += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(data)
    data += b"xref\n0 3\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    data += b"trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    with pytest.raises(InputTextError) as info:
        extract(bytes(data), "empty.pdf")
    assert "Success" not in str(info.value)
    assert "no pages" in str(info.value)


# --- DOCX --------------------------------------------------------------------------------------


def _docx(edit=None, *, rename: str | None = None, table: tuple[int, int] | None = None) -> bytes:
    """A .docx from python-docx; ``edit(document)`` changes it, ``rename`` moves its main part."""
    import docx

    document = docx.Document()
    document.add_paragraph("before the table")
    if table:
        document.add_table(rows=table[0], cols=table[1])
    if edit:
        edit(document)
    buffer = io.BytesIO()
    document.save(buffer)
    if not rename:
        return buffer.getvalue()
    out = io.BytesIO()
    with zipfile.ZipFile(buffer) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            body = src.read(item.filename)
            name = rename if item.filename == "word/document.xml" else item.filename
            body = body.replace(b"/word/document.xml", b"/" + rename.encode())
            body = body.replace(b'Target="word/document.xml"', b'Target="' + rename.encode() + b'"')
            dst.writestr(name, body)
    return out.getvalue()


def test_a_main_part_not_named_xml_is_measured_as_xml():
    # Finding 5: the same bomb in word/document.bin reached 4 GB; in document.xml it was refused.
    def grow(document):
        body = document.element.body
        paragraph = body[0]
        for _ in range(7_000):
            body.append(__import__("copy").deepcopy(paragraph))
        paragraph.xpath("./w:r/w:t")[0].text = "A" * 10_000

    def huge(document):
        grow(document)
        for p in document.element.body.xpath("./w:p"):
            for t in p.xpath("./w:r/w:t"):
                t.text = "A" * 10_000

    plain = _docx(huge)
    renamed = _docx(huge, rename="word/document.bin")
    assert b"word/document.bin" in renamed
    assert len(renamed) < 2_000_000
    for data in (plain, renamed):
        with pytest.raises(LimitError) as info:
            extract_text(data, "big.docx")
        assert info.value.code == "limit_docx_xml"
        assert int(info.value.params["value"].replace(",", "")) > DOCX_XML_BYTES.value


def test_a_renamed_main_part_is_still_read():
    data = _docx(rename="word/main.bin")
    assert extract_text(data, "renamed.docx") == "before the table"


def _set_span(document, span: str) -> None:
    from docx.oxml.ns import qn
    from docx.oxml.parser import OxmlElement

    tc = document.tables[0]._tbl.tr_lst[0].tc_lst[0]
    grid = OxmlElement("w:gridSpan")
    grid.set(qn("w:val"), span)
    tc.get_or_add_tcPr().append(grid)


def test_a_cell_spanning_two_billion_columns_is_refused_before_the_row_is_built():
    # Finding 6: gridSpan 2,147,483,647 in 954 bytes: a MemoryError traceback after 16 s. The
    # first cell alone is wider than any row may be: refused before a column is added.
    data = _docx(lambda d: _set_span(d, "2147483647"), table=(2, 2))
    with pytest.raises(LimitError) as info:
        extract_text(data, "wide.docx")
    assert info.value.code == "limit_table_columns"
    assert info.value.params["value"] == "2,147,483,647"
    assert info.value.params["max"] == f"{TABLE_COLUMNS.value:,}"


def test_a_spanning_cell_keeps_its_columns_and_says_its_text_once():
    def fill(document):
        _set_span(document, "2")
        document.tables[0]._tbl.tr_lst[0].remove(document.tables[0]._tbl.tr_lst[0].tc_lst[1])
        document.tables[0].rows[0].cells[0].text = "wide"
        document.tables[0].rows[1].cells[0].text = "a"
        document.tables[0].rows[1].cells[1].text = "b"

    got = extract_text(_docx(fill, table=(2, 2)), "span.docx")
    # The text is the document's once (a repeat would be text the author did not write).
    assert got.endswith("| wide |  |\n| --- | --- |\n| a | b |")


def _merge_down(rows: int):
    def edit(document):
        from docx.table import _Cell

        table = document.tables[0]
        for i, tr in enumerate(table._tbl.tr_lst):  # by element: table.cell() follows merges
            tr.tc_lst[0].get_or_add_tcPr().vMerge_val = "restart" if i == 0 else "continue"
            _Cell(tr.tc_lst[1], table).text = f"r{i}"
        _Cell(table._tbl.tr_lst[0].tc_lst[0], table).text = "merged"

    return edit


@pytest.mark.parametrize("rows", [3, 1_500])
def test_a_long_vertical_merge_is_read_in_one_pass(rows):
    # Finding 7: 1,500 rows under one merge were refused as damaged (RecursionError); 900 rows
    # took 21.6 s of CPU. A continued cell holds nothing of its own: one step a row.
    got = extract_text(_docx(_merge_down(rows), table=(rows, 2)), "merged.docx")
    lines = got.split("\n")
    assert lines[2] == "| merged | r0 |"
    assert lines[-1] == f"|  | r{rows - 1} |"
    assert len(lines) == 2 + rows + 1  # the paragraph, a blank line, header rule, rows
    assert got.count("merged") == 1


def test_the_merged_table_holds_every_cell_text_python_docx_reads():
    import docx

    data = _docx(_merge_down(4), table=(4, 2))
    table = docx.Document(io.BytesIO(data)).tables[0]
    texts = {c.text for row in table.rows for c in row.cells}
    got = extract_text(data, "t.docx")
    assert all(f"| {t} |" in got for t in texts)


# --- The limits themselves -------------------------------------------------------------------


def test_every_limit_has_a_refusal_in_both_languages_and_a_documented_reason():
    from pathlib import Path

    reference = (Path(__file__).resolve().parents[1] / "docs" / "reference.md").read_text()
    import tomllib

    from chunkviz.paths import package_path

    english = tomllib.loads(package_path("text", "en.toml").read_text(encoding="utf-8"))
    for limit in LIMITS:
        refusal = limit.error(limit.value + 1, "f", page=1)  # worded by the catalogue only
        assert str(refusal) == english["error"][f"limit_{limit.key}"].format(
            file="f", value=f"{limit.value + 1:,}", max=f"{limit.value:,}", page=1
        )
        for lang in ("en", "ja"):
            assert has(lang, f"error.limit_{limit.key}"), (lang, limit.name)
            assert limit.name in text(
                lang,
                f"error.limit_{limit.key}",
                file="f",
                value="1",
                max="0",
                limit=limit.name,
                page=1,
            )
        assert f"| `{limit.name}` | {limit.value:,} | {limit.reason} |" in reference, limit.name


def test_a_page_stored_without_a_filter_is_measured_as_it_stands():
    shown = (b"(" + b"A" * 10_000 + b") Tj ") * 500
    data = one_page_pdf(b"BT /F1 1 Tf 0 700 Td " + shown + b"ET")  # 5 MB, no Flate
    with pytest.raises(LimitError, match="MAX_CONTENT_STREAM_BYTES"):
        extract(data, "plain.pdf")


def test_stream_keywords_inside_a_stream_cost_one_pass():
    from chunkviz.pdf.bounds import check_streams

    # 200,000 stray "stream" keywords inside one unfiltered stream: skipped, not each searched
    # to the end of the file.
    junk = b"xx stream\n" * 200_000
    data = one_page_pdf(b"BT /F1 12 Tf 72 700 Td (a) Tj ET " + junk)
    assert check_streams(data, "junk.pdf") == 0  # no Flate stream; the text stream is small


def test_a_zip_of_thousands_of_entries_is_refused_before_it_is_opened(monkeypatch):
    # 600,000 empty entries took 7 s and 680 MB before anything was refused.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for i in range(12_000):
            archive.writestr(str(i), b"")
    opened = []
    monkeypatch.setattr(zipfile.ZipFile, "__init__", lambda *a, **k: opened.append(a))
    with pytest.raises(LimitError, match=r"many\.docx is a zip of 12,000 entries.*MAX_ZIP_ENTR"):
        extract_text(buffer.getvalue(), "many.docx")
    assert opened == []


@pytest.mark.parametrize(
    ("offsets", "value", "reason"),
    [((6, 8), 1, "RuntimeError"), ((8, 10), 99, "NotImplementedError")],
    ids=["encrypted entry", "unknown compression"],
)
def test_zip_entries_python_cannot_open_are_refused_by_name(offsets, value, reason):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("word/document.xml", b"<x/>")
    data = bytearray(buffer.getvalue())
    local, central = data.find(b"PK\x03\x04"), data.find(b"PK\x01\x02")
    data[local + offsets[0]] |= value  # the local header's flags or method
    data[central + offsets[1]] |= value  # and the central directory's
    with pytest.raises(
        InputTextError, match=f"cannot read odd.docx as a Word document \\({reason}\\)"
    ):
        extract_text(bytes(data), "odd.docx")


def test_a_page_of_a_million_rectangles_is_refused_before_pdfium_parses_it():
    # PDFium built about 25 times a content stream's bytes in page objects (13 MB of "re f"
    # reached 374 MB): a content stream is bounded whatever it draws, not only text.
    data = one_page_pdf(b"0 0 1 1 re f\n" * 400_000, flate=True)  # 5.2 MB of paths
    with pytest.raises(LimitError, match="MAX_CONTENT_STREAM_BYTES"):
        extract(data, "paths.pdf")


def test_a_large_stream_of_image_like_bytes_is_not_taken_for_content():
    import random

    from chunkviz.pdf.bounds import check_streams

    noise = random.Random(0).randbytes(8 << 20)  # as dense in chance operators as data gets
    data = one_page_pdf(noise, flate=True, level=1)
    assert check_streams(data, "image.pdf") == 8 << 20
