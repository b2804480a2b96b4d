from __future__ import annotations

from streamlit.testing.v1 import AppTest

import chunkviz
from chunkviz.document import Document, locate_questions
from chunkviz.samples import load_sample
from tests.app.helpers import app_state, page, set_lang


def _page(**state) -> AppTest:
    return page("2_Compare.py", **state)


def _chunk_counts(at: AppTest) -> list[str]:
    return [m.value for m in at.metric if m.label == "Chunks"]


def test_current_configuration_beside_another_with_counts_and_ranks():
    at = _page()
    assert not at.exception
    text = load_sample("jsquad_tsuyu").text
    current = chunkviz.chunk(text, "fixed", size=400, overlap=0)  # the app state's default
    recursive = chunkviz.chunk(text, "recursive", size=200, overlap=0)
    assert _chunk_counts(at) == [f"{len(current):,}", f"{len(recursive):,}"]
    summary = at.dataframe[0].value
    assert list(summary["chunks"]) == [len(current), len(recursive)]
    ranks = at.dataframe[1].value
    assert len(ranks) == len(load_sample("jsquad_tsuyu").questions)
    # A question fixed windows break has the cell "broken"; ranks are otherwise numbers.
    first = ranks.columns[2]
    broken = int(summary["broken answers"][0])
    assert (ranks[first] == "broken").sum() == broken


def test_four_configurations_include_semantic_and_parent_child():
    at = _page()
    at.slider(key="compare_n").set_value(4).run()
    assert not at.exception
    assert not at.error
    assert len(_chunk_counts(at)) == 4
    strategies = list(at.dataframe[0].value["strategy"])
    assert strategies == ["fixed", "recursive", "semantic", "parent_child"]


def test_the_first_configuration_is_the_apps_current_one():
    at = _page(strategy="paragraph")
    assert not at.exception
    assert at.selectbox(key="compare_0_strategy_en").value == "paragraph"
    assert _chunk_counts(at)[0] == "49"  # 梅雨's own paragraphs, passed by chunk_document
    at.slider(key="compare_1_p_recursive_size").set_value(300).run()
    assert app_state(at).compare[0] == ("recursive", {"size": 300, "overlap": 0,
                                                      "unit": "chars"})
    at.selectbox(key="compare_0_strategy_en").set_value("fixed").run()
    assert app_state(at).strategy == "fixed"


def test_a_bad_configuration_shows_its_error_and_the_other_stays():
    # The controls cannot make overlap >= size (overlap's range ends at size - 1), but a
    # state set by code can hold such a pair.
    assert _page().slider(key="compare_0_p_fixed_overlap").max == 399
    at = _page(params={"fixed": {"size": 400, "overlap": 400}})
    assert not at.exception
    assert any("overlap must be smaller than size" in e.value for e in at.error)
    assert len(_chunk_counts(at)) == 1
    assert len(at.dataframe[0].value) == 1


def test_metric_labels_fit_four_panels_and_say_the_rest_in_help():
    at = _page()
    at.slider(key="compare_n").set_value(4).run()
    broken = [m for m in at.metric if m.help and m.help.startswith("Broken answers:")]
    assert len(broken) == 4
    # At 1400 px a quarter panel's half shows about ten characters ("Broken ans…" before).
    assert all(len(m.label) <= 10 for m in at.metric)


def test_japanese_labels():
    at = set_lang(_page(), "ja")
    assert not at.exception
    assert at.title[0].value == "比較"
    assert any(m.label == "チャンク数" for m in at.metric)


def test_the_current_document_and_its_questions_are_used():
    text = "寒帯ジェット気流が南下する。梅雨前線が停滞する。"
    pairs = ({"question": "何が南下する？", "answer": "寒帯ジェット気流"},)
    document = Document("paste", "", text, origin="paste")
    at = _page(source="paste", pasted=text, user_pairs=pairs,
               document=document.with_questions(locate_questions(text, pairs)))
    assert not at.exception
    ranks = at.dataframe[1].value
    assert list(ranks["answer"]) == ["寒帯ジェット気流"]
    assert list(ranks.iloc[0, 2:]) == ["1", "1"]
