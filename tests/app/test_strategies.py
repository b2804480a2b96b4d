from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from chunkviz.retrieval.backends import get_backend
from chunkviz.samples import load_sample
from chunkviz.strategies.perplexity import perplexity_curve
from chunkviz.strategies.semantic import semantic_curve
from chunkviz.ui.state import STATE_KEY, AppState
from chunkviz.views.parent_expansion import auto_merge, expand_to_parents, rank_children
from tests.app.helpers import app_state, page

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "5_Strategies.py")
TEXT = load_sample("jsquad_tsuyu").text


def _page(tab: str | None = None) -> AppTest:
    """The page, with the tab labelled ``tab`` open (None: the first, semantic)."""
    at = AppTest.from_file(PAGE, default_timeout=120)
    if tab is not None:
        at.session_state["strategies_tab"] = tab
    return at.run()


def test_controls_come_from_the_schema_with_the_registrys_defaults():
    from chunkviz.strategies import get_strategy
    from chunkviz.ui.controls import widget_key

    for name, tab in (
        ("semantic", None),
        ("perplexity", "Perplexity"),
        ("parent_child", "Parent-child"),
    ):
        at = _page(tab)
        assert not at.exception
        for p in get_strategy(name).params:
            # Widgets with translated option labels are keyed per language.
            key = widget_key("strategies_p_", name, p, "en")
            assert at.session_state[key] == (
                p.default if p.default is not None else at.session_state[key]
            )
            if p.optional:
                assert at.session_state[key + "__on"] is (p.default is not None)
    assert _page().slider(key="strategies_p_semantic_percentile").value == 5.0
    assert _page("Perplexity").slider(key="strategies_p_perplexity_threshold").max == 20.0
    at = _page("Parent-child")
    assert at.slider(key="strategies_p_parent_child_child_size").value == 200
    assert at.slider(key="strategies_p_parent_child_parent_size").disabled  # off: 5 x child


def _metrics(at: AppTest) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for m in at.metric:
        out.setdefault(m.label, []).append(m.value)
    return out


def test_semantic_picture_shows_the_documents_own_threshold_and_cuts():
    at = _page()
    assert not at.exception
    curve = semantic_curve(
        TEXT,
        percentile=5,
        min_size=100,
        max_size=1000,
        model="tfidf",
        embedder=get_backend("tfidf"),
    )
    metrics = _metrics(at)
    assert metrics["Threshold"] == [f"{curve.threshold:.3f}"]
    assert metrics["Sentences"][0] == f"{len(curve.units):,}"
    assert metrics["Forced by max_size"][0] == f"{len(curve.forced):,}"
    assert len(at.get("plotly_chart")) == 1  # the open tab's only: the others do not run
    jump = at.selectbox(key="strategies_sem_jump")
    assert len(jump.options) == len(curve.cuts) + 1
    jump.set_value(2).run()
    assert not at.exception
    assert at.selectbox(key="strategies_sem_jump").value == 2


def test_semantic_percentile_moves_the_threshold():
    at = _page()
    at.slider(key="strategies_p_semantic_percentile").set_value(50.0).run()
    assert not at.exception
    curve = semantic_curve(
        TEXT,
        percentile=50,
        min_size=100,
        max_size=1000,
        model="tfidf",
        embedder=get_backend("tfidf"),
    )
    assert _metrics(at)["Threshold"] == [f"{curve.threshold:.3f}"]


def test_perplexity_picture_names_the_language_model_and_counts_the_cuts():
    at = _page("Perplexity")
    curve = perplexity_curve(TEXT, threshold=1.0, min_size=100, max_size=1000)
    assert any("Language model in use" in i.value and "Kneser-Ney" in i.value for i in at.info)
    assert _metrics(at)["Sentences"] == [f"{len(curve.units):,}"]
    assert _metrics(at)["Topic cuts"] == [f"{len(curve.cuts) - len(curve.forced):,}"]
    # The curve's chunks are the strategy's chunks.
    import chunkviz

    assert _metrics(at)["Chunks by this splitter"] == [
        f"{len(chunkviz.chunk(TEXT, 'perplexity')):,}"
    ]


def test_the_current_configurations_chunks_are_told_apart_from_each_splitters():
    at = _page()
    metrics = _metrics(at)
    # Explore's configuration (fixed 400/0 by default) and the splitters' own counts.
    current = app_state(at).configuration()
    import chunkviz

    assert metrics["Chunks of the current configuration"] == [
        f"{len(chunkviz.chunk(TEXT, current[0], **current[1]).chunks):,}"
    ]
    assert len(metrics["Chunks by this splitter"]) == 1  # the open tab's splitter
    assert "Chunks" not in metrics


def test_japanese_strategies_page_names_its_models_in_japanese():
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state[STATE_KEY] = AppState(lang="ja")
    at.session_state["strategies_tab"] = "パープレキシティ"
    at.run()
    assert not at.exception
    (info,) = [i.value for i in at.info if "言語モデル" in i.value]
    assert "文字 3-gram" in info
    assert "Kneser-Ney" in info  # a name, kept
    assert "reads the document" not in info
    # The model as recorded sits in a details expander, not in a chart title.
    assert any(e.label == "モデルの詳細" for e in at.expander)
    titles = [c.proto.spec for c in at.get("plotly_chart")]
    assert not any("hash16384" in spec for spec in titles)


def test_a_missing_transformers_model_is_a_clear_error():
    at = _page("Perplexity")
    at.text_input(key="strategies_p_perplexity_lm").set_value("hf:/no/such/model").run()
    assert not at.exception
    assert any("not available offline" in e.value for e in at.error)


def test_parent_child_hits_expand_to_deduplicated_parents():
    at = _page("Parent-child")
    assert not at.exception
    import chunkviz

    query = load_sample("jsquad_tsuyu").questions[0].question
    result = chunkviz.chunk(TEXT, "parent_child")  # the registry's defaults
    ranking = rank_children(result, query, get_backend("bm25"))
    expected = expand_to_parents(result, ranking, 5)
    metrics = _metrics(at)
    assert metrics["Contexts sent"] == [f"{len(expected.contexts):,}"]
    assert metrics["Duplicate parents removed"] == [f"{expected.duplicates_removed:,}"]
    table = at.dataframe[0].value
    assert len(table) == 5
    absorbed = table["what happens"].str.startswith("its parent is already sent").sum()
    assert absorbed == expected.duplicates_removed

    at.radio(key="strategies_pc_exp_en").set_value("merge").run()
    assert not at.exception
    merged = auto_merge(result, ranking, 5, min_children=2)
    assert _metrics(at)["Contexts sent"] == [f"{len(merged.contexts):,}"]


def test_japanese_labels():
    from tests.app.helpers import set_lang

    at = set_lang(_page(), "ja")
    assert not at.exception
    assert at.title[0].value == "分割戦略"  # the sidebar's name (issue 25)
    assert "文の数" in _metrics(at)


def test_semantic_sentence_vectors_from_the_model_parameter():
    at = _page()
    # The model is a select box of the known models (keyed per language: translated labels).
    at.selectbox(key="strategies_p_semantic_model_en").set_value("use-m3").run()
    assert not at.exception
    curve = semantic_curve(
        TEXT,
        percentile=5,
        min_size=100,
        max_size=1000,
        model="use-m3",
        embedder=get_backend("use-m3"),
    )
    assert _metrics(at)["Threshold"] == [f"{curve.threshold:.3f}"]


def test_semantic_model_offers_the_known_models_and_takes_a_named_one():
    at = _page()
    box = at.selectbox(key="strategies_p_semantic_model_en")
    assert box.value == "tfidf"
    assert box.options[:2] == [
        "tfidf: TF-IDF of character bigrams (fast, lexical)",
        "use-m3: bundled multilingual encoder (offline)",
    ]
    # A model the list does not know is still accepted (accept_new_options; AppTest cannot
    # type into a select box, so the model comes from the state) and shown as an option.
    at = page("5_Strategies.py", params={"semantic": {"model": "st:/no/such/model"}})
    assert not at.exception
    assert at.selectbox(key="strategies_p_semantic_model_en").value == "st:/no/such/model"
    assert app_state(at).params_of("semantic")["model"] == "st:/no/such/model"
    assert any("/no/such/model" in e.value for e in at.error)


def test_the_hidden_parent_child_tab_ranks_nothing(monkeypatch):
    """Issue 39: only the open tab runs; parent-child ranking waits until its tab is opened."""
    import chunkviz.ui.strategies.view as view

    calls: list[str] = []

    def counting(result, query, backend):
        calls.append(query)
        return rank_children(result, query, backend)

    monkeypatch.setattr(view, "rank_children", counting)
    at = _page()
    assert not at.exception
    assert calls == []
    assert "Contexts sent" not in _metrics(at)
    at.session_state["strategies_tab"] = "Parent-child"
    at.run()
    assert not at.exception
    assert len(calls) == 1
    assert "Contexts sent" in _metrics(at)
    assert "Threshold" not in _metrics(at)  # the semantic tab does not run now
