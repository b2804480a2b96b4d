"""Japanese as people print it: vertical text (縦書き) in one or two tiers, ruby (furigana).

JSQuAD validation articles printed by Chromium with ``writing-mode: vertical-rl`` (one tier,
two tiers) and with a ``<ruby>`` reading on every kanji word (vertical and horizontal) read back
in reading order: the printed text whitespace aside at 99.5% or more, 99% or more of the real
answers found, no reading in the text.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from pathlib import Path

import pytest

from chunkviz.extract import ExtractedText, extract
from chunkviz.locate import locate
from tests.pdf.printing import (
    CHROMIUM,
    article_html,
    jsquad_article,
    print_pdfs,
    readings,
    ruby_markup,
    vertical_html,
)

pytestmark = pytest.mark.slow

ARTICLES = (0, 1)
KINDS = ("vertical", "two_tiers", "vertical_ruby", "ruby")


def _markup(kind: str, parts: list[str]) -> str:
    if kind == "vertical":
        return vertical_html(parts)
    if kind == "two_tiers":
        return vertical_html(parts, tiers=2)
    if kind == "vertical_ruby":
        return vertical_html(parts, markup=ruby_markup)
    # Horizontal, each paragraph's text with readings (headings without).
    return re.sub(
        r"<p>(.*?)</p>",
        lambda m: f"<p>{ruby_markup(_unescape(m.group(1)))}</p>",
        article_html(parts),
    )


def _unescape(text: str) -> str:
    import html

    return html.unescape(text)


@pytest.fixture(scope="module")
def printed(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[tuple[int, str], tuple[ExtractedText, list[str], list[str], list[str]]]:
    """(article, kind) -> (what was read, paragraphs, answers, readings printed)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} and fonts-noto-cjk are needed: run scripts/ensure-chromium.sh")
    markups = {}
    sources = {}
    for index in ARTICLES:
        parts, answers = jsquad_article(index)
        for kind in KINDS:
            markups[f"a{index}_{kind}"] = _markup(kind, parts)
            sources[(index, kind)] = (parts, answers)
    paths = print_pdfs(markups, tmp_path_factory.mktemp("vertical"))
    out = {}
    for (index, kind), (parts, answers) in sources.items():
        name = f"a{index}_{kind}"
        got = extract(paths[name].read_bytes(), f"{name}.pdf")
        out[(index, kind)] = (got, parts, answers, readings(markups[name]))
    return out


def _bare(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("index", ARTICLES)
def test_the_printed_text_comes_back_in_reading_order(printed, index, kind):
    got, parts, answers, printed_readings = printed[(index, kind)]
    source = _bare("".join(parts))
    text = _bare(got.text)
    matcher = SequenceMatcher(None, source, text, autojunk=False)
    assert matcher.ratio() >= 0.995
    assert len(answers) >= 20
    assert sum(1 for a in answers if locate(got.text, a)) >= 0.99 * len(answers)
    # No reading in the text: what the text has that the printed text has not holds none.
    extra = "".join(text[b1:b2] for op, _, _, b1, b2 in matcher.get_opcodes() if op != "equal")
    assert [r for r in printed_readings if len(r) >= 2 and r in extra] == []
    assert got.quality is not None
    if printed_readings:
        assert len(printed_readings) >= 100
        assert got.layout is not None
        ruby = got.layout.ruby
        assert got.quality.ruby == len(ruby)
        # Every reading is kept, in order (readings of neighbouring words touch: one run).
        assert "".join(r.reading for r in ruby) == "".join(printed_readings)
        # Each run is kept with its base: the first article's 梅雨 with つゆ.
        bases = {(got.text[r.start : r.end], r.reading) for r in ruby}
        assert index != 0 or ("梅雨", "つゆ") in bases
    vertical = kind != "ruby"
    assert got.quality.vertical_pages == (tuple(range(1, got.pages + 1)) if vertical else ())
    # The page view draws a chunk on its printed lines: columns, taller than wide, right to
    # left, in vertical text.
    assert got.layout is not None
    boxes = got.layout.boxes_of(0, 300)
    assert len(boxes) >= 5
    if vertical:
        columns = [b for b in boxes if b.bottom - b.top > 3 * (b.x1 - b.x0)]
        assert len(columns) >= 4
        assert [b.x0 for b in columns] == sorted((b.x0 for b in columns), reverse=True)
    # The running header and the page numbers were printed beside vertical text: left out.
    assert "チャンキング戦略" not in got.text
    assert got.furniture == 2 * got.pages
