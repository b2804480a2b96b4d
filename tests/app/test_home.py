from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def _home() -> AppTest:
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()


def test_home_renders_and_links_to_existing_pages():
    at = _home()
    assert not at.exception
    assert at.title[0].value.startswith("chunkviz")
    links = at.get("page_link")
    existing = sorted(p.name for p in (ROOT / "pages").glob("[0-9]_*.py"))
    assert len(links) == len(existing)
    assert any("Explore" in link.proto.label for link in links)


def test_switching_language_translates_home_and_sidebar():
    at = _home()
    english = [m.value for m in at.markdown]
    assert at.sidebar.selectbox(key="backend_en").label == "Retrieval backend"
    at.sidebar.radio(key="lang").set_value("ja").run()
    assert not at.exception
    japanese = [m.value for m in at.markdown]
    assert japanese != english
    assert japanese[0].startswith("チャンク分割が")
    assert at.sidebar.selectbox(key="backend_ja").label == "検索バックエンド"
    assert at.sidebar.radio(key="lang").label == "言語 / Language"


def test_sidebar_offers_available_backends_and_explains_the_others():
    from chunkviz.retrieval.backends import list_backends
    from chunkviz.text.messages import render
    from chunkviz.views.markup import escape_markdown

    at = _home()
    infos = list_backends()
    offered = at.sidebar.selectbox(key="backend_en").options
    assert len(offered) == sum(1 for i in infos if i.available)
    assert at.sidebar.selectbox(key="backend_en").value == "bm25"
    missing = [i for i in infos if not i.available]
    captions = " ".join(c.value for c in at.sidebar.caption)
    for info in missing:  # the reason from the catalogue, escaped for Markdown
        assert escape_markdown(render("en", info.reason)) in captions


def test_backend_names_follow_the_language():
    at = _home()
    assert "BM25, character bigrams (no weights) — lexical" in (
        at.sidebar.selectbox(key="backend_en").options
    )
    at.sidebar.radio(key="lang").set_value("ja").run()
    assert not at.exception
    options = at.sidebar.selectbox(key="backend_ja").options
    assert "BM25・文字バイグラム（重み不要） — 語彙ベース" in options
    assert at.sidebar.selectbox(key="backend_ja").value == "bm25"
