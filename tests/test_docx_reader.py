"""Word files read beyond the body: notes, comments, text boxes, content controls, lists, math.

Each file is made with python-docx, plus the raw XML of what python-docx cannot write (notes,
text boxes, content controls, numbering definitions, equations), as Word writes it.
"""

from __future__ import annotations

import io
import re
import zipfile

import pytest

from chunkviz.errors import InputTextError
from chunkviz.extract import extract_text

NS = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:v="urn:schemas-microsoft-com:vml" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"'
)

FOOTNOTES = f"""<w:footnotes {NS}>
<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r>
<w:r><w:t xml:space="preserve"> 労働基準法第三十九条による脚注。</w:t></w:r></w:p></w:footnote>
</w:footnotes>"""
ENDNOTES = f"""<w:endnotes {NS}>
<w:endnote w:id="2"><w:p><w:r><w:endnoteRef/></w:r>
<w:r><w:t>巻末の注記。</w:t></w:r></w:p></w:endnote></w:endnotes>"""

# A text box as Word writes it: the DrawingML shape and its VML copy for old readers.
TEXT_BOX = f"""<w:p {NS}><w:r><w:t>本文の段落。</w:t></w:r><w:r><mc:AlternateContent>
<mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic><a:graphicData><wps:wsp><wps:txbx>
<w:txbxContent><w:p><w:r><w:t>テキストボックスの注意書き</w:t></w:r></w:p></w:txbxContent>
</wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>
<mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r>
<w:t>テキストボックスの注意書き</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict>
</mc:Fallback></mc:AlternateContent></w:r></w:p>"""
CONTROL = f"""<w:sdt {NS}><w:sdtPr><w:alias w:val="申請者"/></w:sdtPr><w:sdtContent>
<w:p><w:r><w:t>申請者氏名 山田太郎</w:t></w:r></w:p></w:sdtContent></w:sdt>"""
INLINE_CONTROL = f"""<w:p {NS}><w:r><w:t xml:space="preserve">提出日 </w:t></w:r><w:sdt>
<w:sdtPr/><w:sdtContent><w:r><w:t>2026年12月4日</w:t></w:r></w:sdtContent></w:sdt></w:p>"""
CITING = f"""<w:p {NS}><w:r><w:t>年次有給休暇を付与する</w:t></w:r>
<w:r><w:footnoteReference w:id="1"/></w:r><w:r><w:t>。詳細は巻末</w:t></w:r>
<w:r><w:endnoteReference w:id="2"/></w:r><w:r><w:t>を参照。</w:t></w:r></w:p>"""
DELETED = f"""<w:p {NS}><w:r><w:t xml:space="preserve">改定 </w:t></w:r><w:del><w:r>
<w:delText>旧文言</w:delText></w:r></w:del><w:ins><w:r><w:t>新文言</w:t></w:r></w:ins>
<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>
<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"""
# Ruby (furigana) in Word: the reading (w:rt) is left out, as in PDFs.
RUBY = f"""<w:p {NS}><w:r><w:ruby><w:rubyPr/><w:rt><w:r><w:t>しゅっきん</w:t></w:r></w:rt>
<w:rubyBase><w:r><w:t>出勤</w:t></w:r></w:rubyBase></w:ruby></w:r><w:r><w:t>する。</w:t></w:r></w:p>"""
EQUATION = f"""<w:p {NS}><w:r><w:t xml:space="preserve">面積は </w:t></w:r><m:oMath>
<m:f><m:num><m:r><m:t>a</m:t></m:r></m:num><m:den><m:r><m:t>2</m:t></m:r></m:den></m:f>
<m:sSup><m:e><m:r><m:t>r</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup>
</m:oMath></w:p>"""
# Articles numbered 第1条, 第2条 ... and a circled sub-list under each, restarting; the level's
# text is followed by a tab (Word's default), read as a space.
NUMBERING = f"""<w:abstractNum {NS} w:abstractNumId="90"><w:lvl w:ilvl="0"><w:start w:val="1"/>
<w:numFmt w:val="decimal"/><w:lvlText w:val="第%1条"/><w:suff w:val="space"/></w:lvl>
<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimalEnclosedCircle"/>
<w:lvlText w:val="%2"/></w:lvl></w:abstractNum>"""
NUM = f"""<w:num {NS} w:numId="90"><w:abstractNumId w:val="90"/></w:num>"""


def _numbered(text: str, level: int) -> str:
    return (
        f'<w:p {NS}><w:pPr><w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="90"/>'
        f"</w:numPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"
    )


def _word_file() -> bytes:
    import docx
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part
    from docx.oxml import parse_xml

    document = docx.Document()
    document.add_heading("就業規則", level=1)
    body = document.element.body
    sect = body[-1]  # w:sectPr stays last
    for xml in (
        CITING,
        TEXT_BOX,
        CONTROL,
        INLINE_CONTROL,
        _numbered("目的", 0),
        _numbered("この規則は従業員に適用する", 1),
        _numbered("役員は除く", 1),
        _numbered("定義", 0),
        _numbered("用語の意味", 1),
        DELETED,
        EQUATION,
        RUBY,
    ):
        sect.addprevious(parse_xml(xml))
    bullet = document.add_paragraph("箇条書きの項目", style="List Bullet")
    first = document.add_paragraph("番号付きの一つ目", style="List Number")
    document.add_paragraph("番号付きの二つ目", style="List Number")
    document.add_comment(first.runs, text="ここは要確認", author="佐藤")
    assert bullet.style is not None
    numbering = document.part.numbering_part.element
    numbering.insert(0, parse_xml(NUMBERING))
    numbering.append(parse_xml(NUM))
    package = document.part.package
    for name, kind, xml in (
        ("footnotes", RT.FOOTNOTES, FOOTNOTES),
        ("endnotes", RT.ENDNOTES, ENDNOTES),
    ):
        part = Part(
            PackURI(f"/word/{name}.xml"),
            f"application/vnd.openxmlformats-officedocument.wordprocessingml.{name}+xml",
            xml.encode(),
            package,
        )
        document.part.relate_to(part, kind)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def word_text() -> str:
    return extract_text(_word_file(), "rules.docx")


def test_every_word_of_notes_boxes_controls_and_lists_is_in_the_text(word_text):
    words = [
        "労働基準法第三十九条による脚注。",
        "巻末の注記。",
        "テキストボックスの注意書き",
        "申請者氏名 山田太郎",
        "提出日 2026年12月4日",
        "この規則は従業員に適用する",
        "役員は除く",
        "用語の意味",
        "箇条書きの項目",
        "番号付きの一つ目",
        "番号付きの二つ目",
        "ここは要確認",
    ]
    assert [w for w in words if w not in word_text] == []
    # The VML copy of the text box is not read twice; deleted text and field codes not at all.
    assert word_text.count("テキストボックスの注意書き") == 1
    assert "旧文言" not in word_text
    assert "PAGE" not in word_text
    assert "改定 新文言" in word_text
    assert "\n\n出勤する。" in word_text


def test_notes_follow_the_paragraph_that_cites_them_marked(word_text):
    blocks = word_text.split("\n\n")
    cited = blocks.index("年次有給休暇を付与する[^1]。詳細は巻末[^e1]を参照。")
    assert blocks[cited + 1] == "[^1]: 労働基準法第三十九条による脚注。\n[^e1]: 巻末の注記。"
    # The text box comes after the paragraph it is anchored in, then the content control.
    assert blocks[cited + 2 : cited + 5] == [
        "本文の段落。",
        "テキストボックスの注意書き",
        "申請者氏名 山田太郎",
    ]
    assert "番号付きの一つ目[^c1]" in blocks[blocks.index("[^c1]: ここは要確認") - 1]


def test_list_numbers_and_bullets_are_kept_as_word_counts_them(word_text):
    lines = word_text.split("\n\n")
    assert [ln for ln in lines if ln.startswith(("第", "①", "②"))] == [
        "第1条 目的",
        "① この規則は従業員に適用する",
        "② 役員は除く",
        "第2条 定義",
        "① 用語の意味",
    ]
    assert "• 箇条書きの項目" in lines  # Word's Symbol-font bullet (U+F0B7) as a bullet
    assert [ln for ln in lines if re.match(r"^\d+\. 番号付き", ln)] == [
        "1. 番号付きの一つ目[^c1]",
        "2. 番号付きの二つ目",
    ]


def test_an_equation_is_linear_text_between_dollar_signs(word_text):
    assert "面積は $(a)/(2)r^(2)$" in word_text


def test_strict_open_xml_is_read_like_transitional():
    strict = {
        b"http://schemas.openxmlformats.org/wordprocessingml/2006/main": b"http://purl.oclc.org/ooxml/wordprocessingml/main",
        b"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument": b"http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument",
        b"http://schemas.openxmlformats.org/officeDocument/2006/relationships": b"http://purl.oclc.org/ooxml/officeDocument/relationships",
    }
    source = io.BytesIO(_word_file())
    out = io.BytesIO()
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename.endswith((".xml", ".rels")):
                for transitional, iso in strict.items():
                    data = data.replace(transitional, iso)
            dst.writestr(item, data)
    text = extract_text(out.getvalue(), "strict.docx")
    assert text == extract_text(source.getvalue(), "rules.docx")


def test_a_document_whose_text_is_all_in_a_text_box_is_read():
    import docx
    from docx.oxml import parse_xml

    document = docx.Document()
    document.element.body[-1].addprevious(parse_xml(TEXT_BOX.replace("本文の段落。", "")))
    buffer = io.BytesIO()
    document.save(buffer)
    assert extract_text(buffer.getvalue(), "box.docx") == "テキストボックスの注意書き"


def test_a_docx_without_a_body_is_damaged():
    import docx

    document = docx.Document()
    buffer = io.BytesIO()
    document.save(buffer)
    out = io.BytesIO()
    with zipfile.ZipFile(buffer) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "word/document.xml":
                data = f"<w:document {NS}/>".encode()
            dst.writestr(item, data)
    with pytest.raises(InputTextError, match="cannot read nobody.docx as a Word document"):
        extract_text(out.getvalue(), "nobody.docx")


def test_lists_sharing_a_definition_go_on_counting_unless_one_restarts():
    import docx
    from docx.oxml import parse_xml

    document = docx.Document()
    numbering = document.part.numbering_part.element
    numbering.insert(0, parse_xml(NUMBERING))
    numbering.append(parse_xml(NUM))
    # Two more lists on the same definition: 91 goes on, 92 restarts at 1 (Word's "Restart").
    numbering.append(parse_xml(NUM.replace('w:numId="90"', 'w:numId="91"')))
    numbering.append(
        parse_xml(
            f'<w:num {NS} w:numId="92"><w:abstractNumId w:val="90"/><w:lvlOverride w:ilvl="0">'
            '<w:startOverride w:val="1"/></w:lvlOverride></w:num>'
        )
    )
    body = document.element.body
    for num, text in (("90", "目的"), ("90", "定義"), ("91", "適用"), ("92", "附則")):
        body[-1].addprevious(parse_xml(_numbered(text, 0).replace('w:val="90"', f'w:val="{num}"')))
    buffer = io.BytesIO()
    document.save(buffer)
    assert extract_text(buffer.getvalue(), "lists.docx").split("\n\n") == [
        "第1条 目的",
        "第2条 定義",
        "第3条 適用",
        "第1条 附則",
    ]
