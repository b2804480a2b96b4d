from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

import chunkviz
from chunkviz.samples import load_sample

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "2_Compare.py")


def _page() -> AppTest:
    return AppTest.from_file(PAGE, default_timeout=120).run()


def _chunk_counts(at: AppTest) -> list[str]:
    return [m.value for m in at.metric if m.label == "Chunks"]


def test_two_configurations_side_by_side_with_counts_and_ranks():
    at = _page()
    assert not at.exception
    text = load_sample("jsquad_tsuyu").text
    fixed = chunkviz.chunk(text, "fixed", size=200, overlap=0)
    recursive = chunkviz.chunk(text, "recursive", size=200, overlap=0)
    assert _chunk_counts(at) == [f"{len(fixed):,}", f"{len(recursive):,}"]
    summary = at.dataframe[0].value
    assert list(summary["chunks"]) == [len(fixed), len(recursive)]
    ranks = at.dataframe[1].value
    assert len(ranks) == len(load_sample("jsquad_tsuyu").qa_pairs)
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


def test_a_bad_configuration_shows_its_error_and_the_other_stays():
    at = _page()
    at.slider(key="compare_p0_fixed_overlap").set_value(200).run()
    assert not at.exception
    assert any("overlap must be smaller than size" in e.value for e in at.error)
    assert len(_chunk_counts(at)) == 1
    assert len(at.dataframe[0].value) == 1


def test_japanese_labels():
    at = _page()
    at.sidebar.radio(key="lang").set_value("ja").run()
    assert not at.exception
    assert at.title[0].value == "比較"
    assert any(m.label == "チャンク数" for m in at.metric)


def test_the_current_explore_document_and_its_questions_are_used():
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state["doc_name"] = "pasted:"
    at.session_state["doc_text"] = "寒帯ジェット気流が南下する。梅雨前線が停滞する。"
    at.session_state["qa_pairs"] = [{"question": "何が南下する？", "answer": "寒帯ジェット気流"}]
    at.run()
    assert not at.exception
    assert at.radio(key="compare_source").value == "session"
    ranks = at.dataframe[1].value
    assert list(ranks["answer"]) == ["寒帯ジェット気流"]
    assert list(ranks.iloc[0, 2:]) == ["1", "1"]
