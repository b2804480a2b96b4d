"""What the real-file corpus (bench/corpus, bench/real_corpus.py) showed, on small PDFs made here.

- A font whose CMap takes UTF-8 bytes as character codes (Adobe's ``Uni…-UTF8-H``, pdf.js
  issue 18117): PDFium does not look such 3- and 4-byte codes up in the ToUnicode map and gives
  the code itself (𠮷 as 0xF0A0AEB7). The reader raised OverflowError on it (a traceback for a
  user); it now reads the bytes as UTF-8, so no character outside the BMP is lost.
- A Chinese table of contents sets a space glyph after every character and kerns it away
  (``[(关 ) 1000 (于 )...] TJ``): the glyphs touch, and "关 于 红 军" is read "关于红军".
- Vertical text from LuaTeX-ja names the vertical presentation forms (︒ ︑ ﹁ ﹂ ︵ ︶): they
  matched no "。" (no sentence rule, no search); they are read as the punctuation they stand for.
"""

from __future__ import annotations

import unicodedata

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkviz.extract import extract
from chunkviz.pdf.compat import VERTICAL_FORMS, fold_vertical
from chunkviz.pdf.reader import _kept, _packed
from tests.pdf.printing import pdf_of

_SPACE = (
    b"4 begincodespacerange <00> <7F> <C080> <DFBF> <E08080> <EFBFBF> <F0808080> "
    b"<F7BFBFBF> endcodespacerange\n"
)
_CMAP = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << "
    b"/Registry (Adobe) /Ordering (Identity) /Supplement 0 >> def /CMapName /%s def "
    b"/CMapType %d def\n"
)
_END = b"endcmap CMapName currentdict /CMap defineresource pop end end"


def _stream(body: bytes) -> bytes:
    return b"<< /Length %d >>\nstream\n" % len(body) + body + b"\nendstream"


def utf8_cmap_pdf(text: str, shown: bytes | None = None) -> bytes:
    """One line of ``text`` in a Type0 font whose character codes are UTF-8 bytes.

    ``shown`` replaces the ``Tj`` that shows ``text`` (a ``TJ`` array with kerning).
    """
    chars = sorted(set(text))
    hexes = [c.encode("utf-8").hex().encode() for c in chars]
    encoding = (
        _CMAP % (b"Uni-Utf8-H", 1)
        + _SPACE
        + b"%d begincidchar\n" % len(chars)
        + b"".join(b"<%s> %d\n" % (h, i + 1) for i, h in enumerate(hexes))
        + b"endcidchar "
        + _END
    )
    to_unicode = (
        _CMAP % (b"Adobe-Identity-UCS", 2)
        + _SPACE
        + b"%d beginbfchar\n" % len(chars)
        + b"".join(
            b"<%s> <%s>\n" % (h, c.encode("utf-16-be").hex().encode())
            for h, c in zip(hexes, chars, strict=True)
        )
        + b"endbfchar "
        + _END
    )
    shown = shown or b"<%s> Tj" % text.encode("utf-8").hex().encode()
    content = b"BT /F1 12 Tf 56 700 Td " + shown + b" ET"
    return pdf_of(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
            b"<< /Type /Font /Subtype /Type0 /BaseFont /NotoSansCJKjp /Encoding 6 0 R "
            b"/DescendantFonts [8 0 R] /ToUnicode 7 0 R >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 5 0 R "
            b"/Resources << /Font << /F1 3 0 R >> >> >>",
            _stream(content),
            _stream(encoding),
            _stream(to_unicode),
            b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /NotoSansCJKjp /CIDSystemInfo << "
            b"/Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 9 0 R "
            b"/DW 1000 /CIDToGIDMap /Identity >>",
            b"<< /Type /FontDescriptor /FontName /NotoSansCJKjp /Flags 4 "
            b"/FontBBox [0 -120 1000 880] "
            b"/ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>",
        ]
    )


def test_a_font_with_utf8_codes_keeps_every_character_outside_the_bmp():
    got = extract(utf8_cmap_pdf("葛飾区の𠮷野家、𩸽と𝜀"), "utf8.pdf")
    assert got.text == "葛飾区の𠮷野家、𩸽と𝜀"
    assert got.quality is not None
    assert got.quality.unmapped == 0


@given(st.characters(min_codepoint=0x80, max_codepoint=0x10FFFF, exclude_categories=("Cs",)))
def test_a_packed_code_above_the_unicode_range_is_read_as_its_utf8_bytes(ch):
    packed = int.from_bytes(ch.encode("utf-8"), "big")
    if packed > 0x10FFFF:
        assert _packed(packed) == ord(ch)


def test_a_code_that_is_no_character_is_counted_not_kept():
    assert _packed(0xFFFFFFFF) == -1
    codes = np.array([0x41, 0xD842, 0xDFB7, 0x0A, 0x02, -1, 0xFFFE, 0xDC00, 0x42], np.int64)
    keep, newline, unmapped = _kept(codes)
    assert "".join(chr(c) for c in codes[keep]) == "A𠮷-B"
    assert newline == frozenset({2})  # the line end falls before "-", the third kept character
    assert unmapped == 3


@pytest.mark.parametrize("text", ["abc xyz0123", "東京、大阪。"])
def test_text_in_a_utf8_font_reads_as_it_was_written(text):
    assert extract(utf8_cmap_pdf(text), "utf8.pdf").text == text


def test_vertical_presentation_forms_read_as_the_punctuation_they_stand_for():
    printed = "吾輩は猫である︒名前はまだ無い︒﹁ニャー︑ニャー﹂︵猫︶"
    got = extract(utf8_cmap_pdf(printed), "v.pdf")
    assert got.text == "吾輩は猫である。名前はまだ無い。「ニャー、ニャー」（猫）"


def test_the_vertical_forms_table_is_one_to_one_and_nfkc_equivalent():
    for form, plain in VERTICAL_FORMS.items():
        assert unicodedata.normalize("NFKC", chr(form)) == unicodedata.normalize("NFKC", chr(plain))
        assert unicodedata.east_asian_width(chr(plain)) in ("W", "F", "A")  # full width
    assert fold_vertical("︙﹃本﹄") == ("…『本』", 3)
    assert fold_vertical("plain") == ("plain", 0)


def test_a_space_kerned_away_between_cjk_characters_is_not_read():
    def code(text: str) -> str:
        return text.encode("utf-8").hex()

    # Each space is one em wide (the font's default width) and taken back by the kerning.
    kerned = " 1000 ".join(f"<{code(c)}{code(' ')}>" for c in "关于红") + f" 1000 <{code('军')}>"
    got = extract(utf8_cmap_pdf("关于红军 ", f"[{kerned}] TJ".encode()), "k.pdf")
    assert got.text == "关于红军"
    # The same space not kerned away is a space one em wide: an ideographic space.
    assert extract(utf8_cmap_pdf("关 于"), "s.pdf").text == "关\u3000于"
