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
    markup = (
        "<html><head><style>p{}</style><script>alert(1)</script></head>"
        "<body><h1>題名</h1><p>本文 &amp; more</p></body></html>"
    )
    assert extract_text(markup.encode(), "page.html") == "題名\n本文 & more"


def test_docx_paragraphs_and_tables_in_document_order():
    import docx  # python-docx, a runtime requirement

    document = docx.Document()
    document.add_paragraph("第1条 目的")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "勤続年数", "付与日数"
    table.cell(1, 0).text, table.cell(1, 1).text = "6か月", "10|11日"
    document.add_paragraph("附則")
    buffer = io.BytesIO()
    document.save(buffer)
    text = extract_text(buffer.getvalue(), "policy.docx")
    # A table stays a table (Markdown, the first row its header, a | in a cell escaped).
    assert text == (
        "第1条 目的\n\n| 勤続年数 | 付与日数 |\n| --- | --- |\n| 6か月 | 10\\|11日 |\n\n附則"
    )


def test_docx_headings_become_markdown_headings_for_the_markdown_strategy():
    import docx

    from chunkviz.api import chunk

    document = docx.Document()
    document.add_heading("就業規則", level=0)  # style Title
    document.add_heading("第5章 休暇", level=1)
    document.add_paragraph("年次有給休暇は入社6か月後に付与する。")
    document.add_heading("第21条 有給休暇", level=2)
    document.add_paragraph("前項の日数を上限として繰り越すことができる。")
    buffer = io.BytesIO()
    document.save(buffer)
    text = extract_text(buffer.getvalue(), "rules.docx")
    assert text.splitlines()[::2] == [
        "# 就業規則",
        "# 第5章 休暇",
        "年次有給休暇は入社6か月後に付与する。",
        "## 第21条 有給休暇",
        "前項の日数を上限として繰り越すことができる。",
    ]
    result = chunk(text, "markdown", size=200)
    last = result.chunks[-1]
    assert text[last.start : last.end].endswith("繰り越すことができる。")
    assert "第5章 休暇" in last.prefix
    assert "第21条 有給休暇" in last.prefix


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


# --- Hostile files (issue 14) -----------------------------------------------------------------


def _docx_with_document_xml(write_body) -> bytes:
    """A .docx made by python-docx whose word/document.xml is replaced by ``write_body(f)``."""
    import zipfile

    import docx

    base = io.BytesIO()
    docx.Document().save(base)
    out = io.BytesIO()
    with zipfile.ZipFile(base) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            if item.filename == "word/document.xml":
                with dst.open("word/document.xml", "w") as f:
                    write_body(f)
            else:
                dst.writestr(item, src.read(item.filename))
    return out.getvalue()


_BILLION_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">'
    + b"".join(b'<!ENTITY lol%d "' % i + b"&lol%d;" % (i - 1) * 10 + b'">' for i in range(1, 10))
    + b"]>"
)
_W = b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'


def test_a_docx_that_unpacks_to_gigabytes_is_refused_before_it_is_parsed():
    # The reproduction: 2,000 paragraphs of 100,000 "A" (200 MB of XML in a 256 KB file) took
    # the server to 10.5 GB and a MemoryError.
    paragraph = b"<w:p><w:r><w:t>" + b"A" * 100_000 + b"</w:t></w:r></w:p>"

    def body(f):
        f.write(_W)
        for _ in range(2000):
            f.write(paragraph)
        f.write(b"</w:body></w:document>")

    data = _docx_with_document_xml(body)
    assert len(data) < 1_000_000
    with pytest.raises(
        InputTextError,
        match=r"bomb\.docx holds more than 64,000,000 bytes of "
        r"XML.*MAX_DOCX_XML_BYTES",
    ):
        extract_text(data, "bomb.docx")


def test_extracted_characters_are_counted_while_extracting(monkeypatch):
    import chunkviz.textio

    monkeypatch.setattr(chunkviz.textio, "MAX_CHARS", 5_000)
    paragraph = b"<w:p><w:r><w:t>" + b"B" * 1_000 + b"</w:t></w:r></w:p>"
    xml = _W + paragraph * 20 + b"</w:body></w:document>"
    data = _docx_with_document_xml(lambda f: f.write(xml))
    with pytest.raises(InputTextError, match=r"more than 5,000 characters.*MAX_CHARS"):
        extract_text(data, "long.docx")
    with pytest.raises(InputTextError, match="MAX_CHARS"):
        extract_text(b"x" * 6_000, "long.txt")


@pytest.mark.parametrize(
    "xml",
    [
        b"<w:document><w:body><w:p>unclosed",  # not XML
        _BILLION_LAUGHS + _W[:-8] + b"<w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p>"
        b"</w:body></w:document>",
    ],
    ids=["syntax error", "entities"],
)
def test_xml_errors_in_a_docx_are_input_text_errors(xml):
    data = _docx_with_document_xml(lambda f: f.write(xml))
    with pytest.raises(InputTextError, match="cannot read odd.docx as a Word document"):
        extract_text(data, "odd.docx")


def test_an_encrypted_pdf_says_so_without_contradiction():
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(_pdf_with_text("secret"))))
    writer.encrypt("pw")
    buffer = io.BytesIO()
    writer.write(buffer)
    with pytest.raises(InputTextError) as info:
        extract_text(buffer.getvalue(), "locked.pdf")
    message = str(info.value)
    assert message == "locked.pdf is an encrypted PDF; remove the password and upload it again"


def test_text_files_lose_terminal_formatting_unless_asked_to_keep_it():
    from chunkviz.extract import extract

    man = "\x1b[1mNAME\x1b[0m\n    l\bls - list\n    _\bf_\bi_\bl_\be\n\x1b]0;title\x07end"
    got = extract(man.encode(), "ls.txt")
    assert got.text == "NAME\n    ls - list\n    file\nend"
    assert got.terminal_sequences == 8
    kept = extract(man.encode(), "ls.txt", keep_terminal_formatting=True)
    assert kept.text == man
    assert kept.terminal_sequences == 0


def test_the_cli_reads_every_format_the_app_reads(tmp_path, capsys):
    import json

    import docx

    from chunkviz.cli import main

    document = docx.Document()
    document.add_paragraph("第1条 目的")
    document.save(tmp_path / "policy.docx")
    (tmp_path / "guide.pdf").write_bytes(_pdf_with_text("Orbit Queue retention"))
    (tmp_path / "page.html").write_text("<p>本文<script>x()</script></p>", encoding="utf-8")
    (tmp_path / "notes.rst").write_text("Plain text of any name", encoding="utf-8")
    expected = {
        "policy.docx": "第1条 目的",
        "guide.pdf": "Orbit Queue retention",
        "page.html": "本文",
        "notes.rst": "Plain text of any name",
    }
    for name, text in expected.items():
        assert main(["chunk", str(tmp_path / name), "--format", "json"]) == 0
        chunks = json.loads(capsys.readouterr().out)["chunks"]
        assert [r["text"] for r in chunks] == [text]


def test_the_cli_refuses_an_encrypted_pdf_by_name(tmp_path, capsys):
    from pypdf import PdfReader, PdfWriter

    from chunkviz.cli import main

    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(_pdf_with_text("secret"))))
    writer.encrypt("pw")
    writer.write(tmp_path / "locked.pdf")
    assert main(["chunk", str(tmp_path / "locked.pdf")]) == 2
    assert "locked.pdf is an encrypted PDF" in capsys.readouterr().err


def test_the_cli_removes_terminal_formatting_and_says_how_many(tmp_path, capsys):
    import json

    from chunkviz.cli import main

    (tmp_path / "ls.txt").write_bytes(b"\x1b[1mNAME\x1b[0m ls")
    assert main(["chunk", str(tmp_path / "ls.txt"), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert [r["text"] for r in json.loads(captured.out)["chunks"]] == ["NAME ls"]
    assert "removed 2 terminal formatting sequences" in captured.err
    assert (
        main(["chunk", str(tmp_path / "ls.txt"), "--format", "json", "--keep-terminal-formatting"])
        == 0
    )
    kept = json.loads(capsys.readouterr().out)["chunks"]
    assert kept[0]["text"] == "\x1b[1mNAME\x1b[0m ls"
