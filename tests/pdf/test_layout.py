"""Reading a PDF by layout, on small PDFs drawn line by line (fast: no browser)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from chunkviz.errors import InputTextError
from chunkviz.extract import extract
from chunkviz.pdf.compat import compat_table, fold_compat
from chunkviz.pdf.layout import PageChars, assemble
from chunkviz.pdf.reader import MAX_PDF_PAGES
from tests.pdf.printing import simple_pdf

ONE = [
    "The retention policy keeps every message for seven days unless the queue is",
    "configured otherwise; the operator may shorten it for sensitive infor-",
    "mation or lengthen it for audit trails.",
    "",
    "A second paragraph starts here and is short.",
    "",
    "Code sample:",
    "  retention = 7",
    "  compact = true",
]
TWO = [
    "Page two opens with a sentence that runs on to the very end of this line and",
    "then continues here.",
]


def test_a_printed_page_reads_as_paragraphs_without_its_header_and_page_numbers():
    got = extract(simple_pdf([ONE, TWO], header="Orbit Queue Handbook"), "handbook.pdf")
    assert got.text == (
        "The retention policy keeps every message for seven days unless the queue is configured"
        " otherwise; the operator may shorten it for sensitive information or lengthen it for"
        " audit trails.\n\nA second paragraph starts here and is short.\n\n"
        "Code sample:\nretention = 7\ncompact = true\n\n"
        "Page two opens with a sentence that runs on to the very end of this line and then "
        "continues here."
    )
    assert (got.furniture, got.pages, got.pages_without_text) == (4, 2, 0)
    kept = extract(
        simple_pdf([ONE, TWO], header="Orbit Queue Handbook"), "handbook.pdf", keep_furniture=True
    )
    assert kept.text.startswith("Orbit Queue Handbook\n\nThe retention policy")
    assert "\n\n1 / 2\n\n" in kept.text
    assert kept.furniture == 0


def test_every_offset_keeps_its_page_and_box():
    got = extract(simple_pdf([ONE, TWO], header="Orbit Queue Handbook"), "handbook.pdf")
    layout = got.layout
    assert layout is not None
    text = got.text
    assert len(layout.page) == len(layout.line) == len(layout.boxes) == len(text)
    start = text.index("Page two")
    assert layout.page_range(1) == (text.index("\n\nPage two") + 2, len(text))
    assert layout.pages_of(0, len(text)) == (0, 1)
    # The second paragraph is one line: one box, left margin, below the first paragraph.
    second = text.index("A second")
    boxes = layout.boxes_of(second, second + len("A second paragraph starts here and is short."))
    assert len(boxes) == 1
    assert boxes[0].page == 0
    assert 54 < boxes[0].x0 < 58
    # A sentence over two printed lines has a box on each.
    two = layout.boxes_of(start, len(text))
    assert [b.page for b in two] == [1, 1]
    assert two[0].bottom <= two[1].top
    assert layout.point_of(start) is not None


def test_two_columns_are_read_left_column_first():
    # Drawn row by row across both columns, as some PDF writers do.
    chars, boxes = [], []
    for i in range(8):
        for x, words in (
            (56.0, f"left {i} of the first column"),
            (320.0, f"right {i} of the second column"),
        ):
            for k, ch in enumerate(words):
                chars.append(ch)
                boxes.append((x + 6 * k, 100 + 15 * i, x + 6 * k + 5, 111 + 15 * i))
    page_chars = PageChars(595, 842, "".join(chars), np.array(boxes, np.float32))
    text = assemble([page_chars]).text
    order = re.findall(r"(left|right) (\d)", text)
    assert order == [("left", str(i)) for i in range(8)] + [("right", str(i)) for i in range(8)]


def test_compatibility_ideographs_are_folded_one_to_one():
    # Kangxi ⽂ (U+2F42), supplement ⻑ (U+2ED1), ⼾ drawn as 戸, compatibility U+F900.
    text = "\u2f42書の\u2ed1さと\u2f3e籍、\uf900"
    folded, count = fold_compat(text)
    assert folded == "文書の長さと戸籍、\u8c48"
    assert count == 4
    assert len(folded) == len(text)
    assert all(0x2E80 <= cp <= 0x2FD5 or 0xF900 <= cp <= 0xFAFF for cp in compat_table())


def test_a_scanned_pdf_says_how_many_pages_have_no_text():
    with pytest.raises(InputTextError) as info:
        extract(simple_pdf([[], [], []], numbers=False), "scan.pdf")
    assert str(info.value) == (
        "scan.pdf has no text layer on any of its 3 pages (a scanned PDF?); run OCR on it (for "
        "example ocrmypdf) or paste its text"
    )
    partly = extract(simple_pdf([ONE, [], TWO], numbers=False), "partly.pdf")
    assert partly.pages_without_text == 1


def test_a_pdf_with_too_many_pages_is_refused_before_it_is_read():
    pdf = simple_pdf([[]] * 2_000, numbers=False)
    with pytest.raises(InputTextError) as info:
        extract(pdf, "long.pdf")
    assert str(info.value) == (
        f"long.pdf has 2,000 pages; PDFs of up to {MAX_PDF_PAGES:,} pages are "
        "read (MAX_PDF_PAGES); split it into parts and upload one"
    )


@pytest.mark.parametrize("data", [b"%PDF-1.4\n1 0 obj <<", simple_pdf([ONE])[:200]])
def test_a_malformed_pdf_names_the_file_and_the_fix(data):
    with pytest.raises(InputTextError, match=r"^cannot read bad\.pdf as a PDF .*valid PDF"):
        extract(data, "bad.pdf")


def test_the_cli_reads_a_pdf_by_layout_and_says_what_it_left_out(tmp_path, capsys):
    import json

    from chunkviz.cli import main

    (tmp_path / "handbook.pdf").write_bytes(simple_pdf([ONE, TWO], header="Orbit Queue Handbook"))
    assert (
        main(
            ["chunk", str(tmp_path / "handbook.pdf"), "--format", "json", "--strategy", "paragraph"]
        )
        == 0
    )
    captured = capsys.readouterr()
    chunks = [r["text"] for r in json.loads(captured.out)["chunks"]]
    assert chunks[0].endswith("sensitive information or lengthen it for audit trails.")
    assert "Orbit Queue Handbook" not in captured.out
    assert "read 2 PDF pages by layout: 0 compatibility ideographs replaced, 4 header" in (
        captured.err
    )
    assert (
        main(["chunk", str(tmp_path / "handbook.pdf"), "--format", "json", "--keep-furniture"]) == 0
    )
    assert "Orbit Queue Handbook" in capsys.readouterr().out


def test_a_pdf_of_nothing_but_headers_and_page_numbers_says_so():
    with pytest.raises(InputTextError, match="^empty.pdf has no text besides its running"):
        extract(simple_pdf([[], []], header="Orbit Queue Handbook"), "empty.pdf")
    kept = extract(
        simple_pdf([[], []], header="Orbit Queue Handbook"), "empty.pdf", keep_furniture=True
    )
    assert kept.text.count("Orbit Queue Handbook") == 2
