"""In Japanese, no page shows a catalogue string in English (labels, options, text, tabs)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from chunkviz.text import catalogue
from chunkviz.ui.state import STATE_KEY, AppState
from tests.app.helpers import ROOT, WIDGETS

PAGES = ["app.py", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))]
TEXTS = ("title", "header", "subheader", "markdown", "caption", "info", "warning", "success")


def _english() -> tuple[set[str], list[str]]:
    """English catalogue strings that Japanese says differently: whole texts and long pieces."""
    en, ja = catalogue("en"), catalogue("ja")
    whole, pieces = set(), []
    for key, value in en.items():
        if value == ja[key]:
            continue
        for part in re.split(r"\{[^}]*\}", value):
            part = part.strip(" .:()—-")
            if len(part) >= 4 and not part.isdigit():
                whole.add(part)
                if len(part) >= 16:
                    pieces.append(part)
    return whole, pieces


def _shown(at: AppTest) -> Iterator[str]:
    for kind in TEXTS:
        for el in at.get(kind):
            yield str(el.value)
    for kind in WIDGETS:
        for el in getattr(at, kind):
            yield str(el.label)
            yield from (str(o) for o in getattr(el, "options", ()) or ())
    for frame in at.dataframe:
        yield from (str(c) for c in frame.value.columns)


@pytest.mark.parametrize("path", PAGES)
def test_no_english_catalogue_text_on_a_japanese_page(path):
    at = AppTest.from_file(str(ROOT / path), default_timeout=180)
    at.session_state[STATE_KEY] = AppState(lang="ja")
    at.run()
    assert not at.exception
    whole, pieces = _english()
    shown = [s for s in _shown(at) if s]
    assert len(shown) > 10
    leaks = sorted(
        {s for s in shown if s.strip(" .:()—-*") in whole}
        | {p for s in shown for p in pieces if p in s}
    )
    assert leaks == []


def _leaks(at: AppTest) -> list[str]:
    whole, pieces = _english()
    shown = [s for s in _shown(at) if s]
    return sorted(
        {s for s in shown if s.strip(" .:()—-*") in whole}
        | {p for s in shown for p in pieces if p in s}
    )


def test_no_english_on_the_japanese_tune_page_with_a_recommendation():
    from chunkviz.samples import load_sample

    # Pasted text: the questions start as synthetic (the radio's labels are translated).
    at = AppTest.from_file(str(ROOT / "pages" / "6_Tune.py"), default_timeout=300)
    at.session_state[STATE_KEY] = AppState(
        lang="ja", source="paste", backend="bm25", pasted=load_sample("tech_en").text
    )
    at.run()
    at.number_input(key="tune_count").set_value(30).run()
    at.multiselect(key="tune_grid").set_value(["fixed-200-0", "fixed-400-80", "paragraph"]).run()
    at.button(key="tune_run").click().run()
    assert not at.exception
    assert any(m.label == "2,000 文字での推奨" for m in at.metric)
    reason = at.success[0].value
    assert "最良は" in reason
    assert any("規則：" in c.value for c in at.caption)
    assert _leaks(at) == []


def test_no_english_on_japanese_explore_with_imported_chunks():
    import json

    import chunkviz
    from chunkviz.samples import load_sample

    text = load_sample("jsquad_tsuyu").text
    pieces = chunkviz.chunk(text, "fixed", size=300).chunk_texts()
    data = json.dumps(
        [{"page_content": p, "metadata": {"start_index": 0}} for p in pieces], ensure_ascii=False
    ).encode("utf-8")
    at = AppTest.from_file(str(ROOT / "pages" / "1_Explore.py"), default_timeout=180)
    at.session_state[STATE_KEY] = AppState(lang="ja")
    at.run()
    at.file_uploader(key="explore_chunks_upload").upload("lc.json", data, "application/json")
    at.run()
    (ident,) = at.session_state[STATE_KEY].imported
    at.selectbox(key="explore_strategy_ja").set_value(f"imported:{ident}").run()
    assert not at.exception
    assert any("誤った開始位置" in m.value for m in at.markdown)
    assert _leaks(at) == []
