"""PDFs printed by Chromium read back as they were printed (issue 23's acceptance).

Each PDF has a running header, a page-number footer, headings and paragraphs (``printing``).
Read back, its text has no compatibility ideographs, no header, footer or page-number line, no
line break the printed text does not have, the printed text whitespace aside at 99.5% or more,
its paragraphs within 10% and 99% or more of its real answers found.
"""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher

import pytest

from chunkviz.extract import extract
from chunkviz.locate import locate
from chunkviz.pdf.compat import compat_table
from tests.pdf.conftest import JSQUAD_ARTICLES, SEEDS, Printed
from tests.pdf.printing import HEADER

pytestmark = pytest.mark.slow

NAMES = [f"seed{p.stem[:3]}" for p in sorted(SEEDS.glob("*.txt"))] + [
    f"jsquad{n}"
    for n in range(
        len(sorted(SEEDS.glob("*.txt"))), len(sorted(SEEDS.glob("*.txt"))) + JSQUAD_ARTICLES
    )
]


def _bare(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _breaks(text: str, context: int = 6) -> list[tuple[str, str]]:
    """Each line break as the visible characters around it.

    Whitespace aside, and symbols too: the printed emoji are pictures without text in the PDF.
    """
    kept = "".join(
        ch
        for ch in text
        if ch == "\n" or not (ch.isspace() or unicodedata.category(ch) in ("So", "Mn"))
    )
    bare = kept.replace("\n", "")
    out = []
    seen = 0
    for ch in kept:
        if ch == "\n":
            out.append((bare[max(0, seen - context) : seen], bare[seen : seen + context]))
        else:
            seen += 1
    return out


def _read(item: Printed) -> tuple[str, int, int]:
    got = extract(item.pdf.read_bytes(), item.pdf.name)
    return got.text, got.furniture, got.pages


@pytest.fixture(scope="module")
def reads(printed: dict[str, Printed]) -> dict[str, tuple[str, int, int]]:
    return {name: _read(item) for name, item in printed.items()}


@pytest.mark.parametrize("name", NAMES)
def test_the_printed_text_comes_back(name, printed, reads):
    item = printed[name]
    text, furniture, pages = reads[name]
    source = "\n\n".join(item.paragraphs)
    assert not [ch for ch in text if ord(ch) in compat_table()]
    # The running header and every "n / N" footer were printed on each page and left out.
    assert pages >= 2
    assert furniture == 2 * pages
    assert HEADER not in text
    assert not re.search(r"^\s*\d+\s*/\s*\d+\s*$", text, re.MULTILINE)
    similarity = SequenceMatcher(None, _bare(source), _bare(text), autojunk=False).ratio()
    assert similarity >= 0.995
    # No line break that the printed text does not have (a break inside a sentence): each break
    # has the printed text of one of the printed breaks on one side (a side may hold a character
    # the PDF has no text for, an emoji).
    lefts, rights = map(set, zip(*_breaks(source), strict=True))
    assert [(a, b) for a, b in _breaks(text) if a not in lefts and b not in rights] == []
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    assert abs(len(paragraphs) - len(item.paragraphs)) <= 0.1 * len(item.paragraphs)


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("jsquad")])
def test_real_answers_are_found(name, printed, reads):
    item = printed[name]
    text = reads[name][0]
    assert len(item.answers) >= 20
    found = sum(1 for answer in item.answers if locate(text, answer))
    assert found >= 0.99 * len(item.answers)
