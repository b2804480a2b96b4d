"""Every character of a PDF kept: pairs outside the BMP, ideographic spaces, spacing by script.

Fast tests lay out one line the way PDFium reports Chromium's print (full-width cells, a
narrow glyph box for "・", generated spaces where the printer left a gap); the slow one prints
a page with Chromium and reads it back.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from chunkviz.extract import extract
from chunkviz.pdf.layout import PageChars, assemble
from tests.pdf.printing import CHROMIUM, print_pdfs

EM = 11.0

# Words of one script each; the separators between them are what the printer shows as a gap.
_WORDS = {
    "kanji": st.text("東京大阪名古屋第基本診療料の施設𠮷野家𩸽", min_size=1, max_size=5),
    "kana": st.text("あいうえおカタナレスピアソン・ー。、", min_size=1, max_size=5),
    "latin": st.text("abcxyzBQ𝜀𝑥.", min_size=1, max_size=6),
    "hangul": st.text("한국어문장띄쓰기", min_size=1, max_size=4),
}


def _width(ch: str) -> float:
    if "a" <= ch.lower() <= "z" or ch in ".𝜀𝑥":
        return 6.0
    if "\uac00" <= ch <= "\ud7ff":
        return 10.0
    return EM


def _line(text: str) -> PageChars:
    """``text`` printed on one line mid-page (no page number band) as PDFium reports it.

    A space is PDFium's generated one (a point in the gap); U+3000 is such a space in a gap
    of one em; "・" has a narrow glyph box centred in its full-width cell.
    """
    chars: list[str] = []
    boxes: list[tuple[float, float, float, float]] = []
    x = 56.0
    for ch in text:
        if ch in " \u3000":
            gap = EM if ch == "\u3000" else 3.0
            chars.append(" ")
            boxes.append((x + gap / 2, 408.0, x + gap / 2, 408.0))
            x += gap
            continue
        w = _width(ch)
        if ch == "・":
            boxes.append((x + 4.0, 403.0, x + 6.4, 405.4))
        else:
            boxes.append((x, 400.0, x + w, 411.0))
        chars.append(ch)
        x += w
    return PageChars(
        595,
        842,
        "".join(chars),
        np.array(boxes, np.float32),
        sizes=np.full(len(chars), 14.7, np.float32),
    )


@st.composite
def _mixed(draw: st.DrawFn) -> str:
    """Words of several scripts apart by spaces, ideographic spaces or nothing, as printed."""
    kinds = draw(st.lists(st.sampled_from(sorted(_WORDS)), min_size=1, max_size=8))
    out = ""
    prev = None
    for kind in kinds:
        word = draw(_WORDS[kind])
        if out:
            cjk = {"kanji", "kana"}
            choices = [" "]
            if prev in cjk and kind in cjk:
                choices += ["", "\u3000"]
            elif prev in cjk or kind in cjk:
                choices += [""]  # "Pythonで": no space where none was printed
            sep = draw(st.sampled_from(choices))
            if not sep and prev == kind == "latin":
                sep = " "
            out += sep
        out += word
        prev = kind
    return out


@given(_mixed())
@example("党員・・・を集める")
@example("、 。")
@example("국 국 국 국")
@example("。 。")
@example("・ ・\u3000・")
@example("レスター・B・ピアソン")
@example("第１\u3000基本診療料の施設基準等")
@example("東京 大阪 名古屋")
@example("한국어 문장은 띄어쓰기를 합니다")
@example("葛飾区の𠮷野家で𩸽と𝜀")
def test_a_printed_line_reads_back_character_for_character(text):
    # Six one-capital words in a row look like letter-spaced capitals ("C H A P T E R"): read
    # as one word by design (chunkviz.pdf.layout._letter_spaced).
    assume(not re.search(r"(?:[A-Z] ){5}[A-Z]", text))
    assert assemble([_line(text)]).text == text


def test_a_real_ideographic_space_in_the_pdf_keeps_its_box():
    page = _line("第１基本")
    chars = page.text[:2] + "\u3000" + page.text[2:]
    boxes = np.insert(page.boxes, 2, (79.0, 400.0, 90.0, 411.0), axis=0)
    got = assemble([PageChars(595, 842, chars, boxes)])
    assert got.text == "第１\u3000基本"
    assert got.source.tolist() == [0, 1, 2, 3, 4]


# Printed by Chromium: emoji that its PDF maps to code points (others it prints as bare glyphs,
# counted as unmapped), mathematical letters, CJK Extension B and an ideographic space.
PRINTED = [
    "葛飾区の𠮷野家で𩸽を食べた。𠀋𡈽𢌞𣘺𤭖𥔎𧸐𨸶𪚲も読む。",
    "数式の𝜀と𝑥、𝐀と𝔸と𝒜、絵文字😀と😂と❤も残す。",
    "第１\u3000基本診療料の施設基準等",
    "東京 大阪 名古屋",
    "한국어 문장은 띄어쓰기를 합니다.",
    "党員・・・を集める。レスター・B・ピアソンは首相だった。",
]


@pytest.fixture(scope="module")
def printed_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} and fonts-noto-cjk are needed: run scripts/ensure-chromium.sh")
    markup = (
        "<html><head><meta charset='utf-8'><style>body{font-family:'Noto Sans CJK JP';"
        "font-size:11pt} p{margin:0 0 1.5em 0}</style></head><body>"
        + "".join(f"<p>{p}</p>" for p in PRINTED)
        + "</body></html>"
    )
    pdf = print_pdfs({"chars": markup}, tmp_path_factory.mktemp("chars"))["chars"]
    return extract(pdf.read_bytes(), "chars.pdf").text


@pytest.mark.slow
def test_no_character_of_a_printed_page_is_lost(printed_text):
    def bare(s: str) -> str:
        return re.sub(r"\s+", "", s)

    # The text of the page, whitespace aside, is the printed text (the running header too: a
    # one-page PDF has no furniture to find), character for character.
    assert bare("".join(PRINTED)) in bare(printed_text)
    for paragraph in PRINTED:
        assert paragraph in printed_text
