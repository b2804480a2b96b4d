from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from chunkviz.retrieval.backends import get_backend
from chunkviz.samples import load_sample
from chunkviz.strategies.perplexity import perplexity_curve
from chunkviz.strategies.semantic import semantic_curve
from chunkviz.views.parent_expansion import auto_merge, expand_to_parents, rank_children

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "5_Strategies.py")
TEXT = load_sample("jsquad_tsuyu").text


def _page() -> AppTest:
    return AppTest.from_file(PAGE, default_timeout=120).run()


def _metrics(at: AppTest) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for m in at.metric:
        out.setdefault(m.label, []).append(m.value)
    return out


def test_semantic_picture_shows_the_documents_own_threshold_and_cuts():
    at = _page()
    assert not at.exception
    curve = semantic_curve(TEXT, percentile=10, min_size=100, max_size=1000, model="tfidf")
    metrics = _metrics(at)
    assert metrics["Threshold"] == [f"{curve.threshold:.3f}"]
    assert metrics["Sentences"][0] == f"{len(curve.units):,}"
    assert metrics["Forced by max_size"][0] == f"{len(curve.forced):,}"
    assert len(at.get("plotly_chart")) == 2
    jump = at.selectbox(key="strategies_sem_jump")
    assert len(jump.options) == len(curve.cuts) + 1
    jump.set_value(2).run()
    assert not at.exception
    assert at.selectbox(key="strategies_sem_jump").value == 2


def test_semantic_percentile_moves_the_threshold():
    at = _page()
    at.slider(key="strategies_sem_p").set_value(50.0).run()
    assert not at.exception
    curve = semantic_curve(TEXT, percentile=50, min_size=100, max_size=1000, model="tfidf")
    assert _metrics(at)["Threshold"] == [f"{curve.threshold:.3f}"]


def test_perplexity_picture_names_the_language_model_and_counts_the_cuts():
    at = _page()
    curve = perplexity_curve(TEXT, threshold=1.0, min_size=100, max_size=1000)
    assert any("Language model in use" in i.value and "Kneser-Ney" in i.value for i in at.info)
    assert _metrics(at)["Sentences"][1] == f"{len(curve.units):,}"
    assert _metrics(at)["Topic cuts"][1] == f"{len(curve.cuts) - len(curve.forced):,}"


def test_a_missing_transformers_model_is_a_clear_error():
    at = _page()
    at.text_input(key="strategies_ppl_lm").set_value("hf:/no/such/model").run()
    assert not at.exception
    assert any("not available offline" in e.value for e in at.error)


def test_parent_child_hits_expand_to_deduplicated_parents():
    at = _page()
    assert not at.exception
    import chunkviz

    query = load_sample("jsquad_tsuyu").qa_pairs[0]["question"]
    result = chunkviz.chunk(TEXT, "parent_child", child_size=150, parent_size=600)
    ranking = rank_children(result, query, get_backend("bm25"))
    expected = expand_to_parents(result, ranking, 5)
    metrics = _metrics(at)
    assert metrics["Contexts sent"] == [f"{len(expected.contexts):,}"]
    assert metrics["Duplicate parents removed"] == [f"{expected.duplicates_removed:,}"]
    table = at.dataframe[0].value
    assert len(table) == 5
    absorbed = table["what happens"].str.startswith("its parent is already sent").sum()
    assert absorbed == expected.duplicates_removed

    at.radio(key="strategies_pc_exp").set_value("merge").run()
    assert not at.exception
    merged = auto_merge(result, ranking, 5, min_children=2)
    assert _metrics(at)["Contexts sent"] == [f"{len(merged.contexts):,}"]


def test_japanese_labels():
    at = _page()
    at.sidebar.radio(key="lang").set_value("ja").run()
    assert not at.exception
    assert at.title[0].value == "戦略"
    assert "文の数" in _metrics(at)


def test_semantic_uses_the_active_dense_backend():
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.session_state["backend"] = "use-m3"
    at.run()
    assert not at.exception
    assert any("active dense backend **use-m3**" in m.value for m in at.markdown)
    curve = semantic_curve(TEXT, percentile=10, min_size=100, max_size=1000, model="use-m3")
    assert _metrics(at)["Threshold"] == [f"{curve.threshold:.3f}"]
