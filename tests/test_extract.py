from __future__ import annotations

import io

import pytest

from chunkviz.errors import InputTextError
from chunkviz.extract import extract_text


def test_txt_in_shift_jis_with_crlf_is_decoded_and_normalised():
    data = "就業規則\r\n第1条 目的\r\n".encode("cp932")
    assert extract_text(data, "policy.txt") == "就業規則\n第1条 目的\n"


def test_markdown_is_kept_as_written():
    assert extract_text("# 見出し\n\n本文".encode(), "a.md") == "# 見出し\n\n本文"


def test_html_text_without_scripts_or_styles():
    markup = ("<html><head><style>p{}</style><script>alert(1)</script></head>"
              "<body><h1>題名</h1><p>本文 &amp; more</p></body></html>")
    assert extract_text(markup.encode(), "page.html") == "題名\n本文 & more"


def test_docx_paragraphs_and_tables_in_document_order():
    import docx  # python-docx, a runtime requirement
    document = docx.Document()
    document.add_paragraph("第1条 目的")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "勤続年数", "付与日数"
    table.cell(1, 0).text, table.cell(1, 1).text = "6か月", "10日"
    document.add_paragraph("附則")
    buffer = io.BytesIO()
    document.save(buffer)
    text = extract_text(buffer.getvalue(), "policy.docx")
    assert text == "第1条 目的\n\n勤続年数 | 付与日数\n\n6か月 | 10日\n\n附則"


def _pdf_with_text(text: str) -> bytes:
    # A minimal one-page PDF whose content stream draws ``text`` (ASCII) with Helvetica.
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def test_pdf_text_is_extracted():
    assert extract_text(_pdf_with_text("Orbit Queue retention"), "guide.pdf") == (
        "Orbit Queue retention"
    )


@pytest.mark.parametrize(
    ("data", "name", "fragment"),
    [
        (b"%PDF-1.4 garbage", "broken.pdf", "cannot read broken.pdf as a PDF"),
        (b"PK\x03\x04 not really a zip", "broken.docx", "cannot read broken.docx as a Word"),
        (b"\x00\x01\x02binary", "blob.txt", "looks like a binary file"),
        (b"hello", "table.xlsx", "files of type .xlsx are not supported"),
        (b"<html><body> </body></html>", "empty.html", "contains no extractable text"),
    ],
)
def test_failures_are_input_text_errors(data, name, fragment):
    with pytest.raises(InputTextError) as info:
        extract_text(data, name)
    assert fragment in str(info.value)
