"""Explore's question table: the broken filter and a selected row moving the highlight."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

import chunkviz
from chunkviz.samples import load_sample
from chunkviz.views.explore import assess_qa, is_ambiguous
from chunkviz.views.qa_table import answer_place
from tests.app.helpers import app_state, component_data, page, set_lang

SIZE = "explore_p_fixed_size"


def _table(at: AppTest):
    return next(df for df in at.dataframe if "status" in df.value.columns)


def _broken_at(size: int) -> list[int]:
    sample = load_sample("jsquad_tsuyu")
    qa = assess_qa(chunkviz.chunk(sample.text, "fixed", size=size), sample.questions)
    return [i for i, r in enumerate(qa) if r.status == "broken"]


def test_the_broken_filter_shows_only_broken_questions_and_stays_in_the_app_state():
    at = page("1_Explore.py", timeout=90)
    at.slider(key=SIZE).set_value(100).run()
    assert len(_table(at).value) == 180
    at.segmented_control(key="explore_qa_filter_en").set_value("broken").run()
    assert not at.exception
    assert app_state(at).qa_filter == "broken"
    broken = _broken_at(100)
    table = _table(at).value
    assert len(broken) > 0
    assert len(table) == len(broken)
    assert set(table["status"]) == {"✗ broken"}
    sample = load_sample("jsquad_tsuyu")
    assert list(table["question"]) == [sample.questions[i].question for i in broken]
    # The filter is the reader's: kept when the configuration or the language changes.
    at.slider(key=SIZE).set_value(150).run()
    assert app_state(at).qa_filter == "broken"
    assert _broken_at(150) != broken
    assert list(_table(at).value["question"]) == [
        sample.questions[i].question for i in _broken_at(150)
    ]
    # A click on the chosen segment does not leave the table without a filter.
    at.segmented_control(key="explore_qa_filter_en").set_value(None).run()
    assert at.segmented_control(key="explore_qa_filter_en").value == "broken"
    assert app_state(at).qa_filter == "broken"
    at = set_lang(at, "ja")
    assert not at.exception
    assert at.segmented_control(key="explore_qa_filter_ja").value == "broken"


def test_a_broken_filter_without_broken_questions_says_so():
    at = page("1_Explore.py", timeout=90, strategy="paragraph", qa_filter="broken")
    assert not at.exception
    assert not [df for df in at.dataframe if "status" in df.value.columns]
    assert any("No broken question" in i.value for i in at.info)


def test_selecting_a_filtered_row_moves_the_highlight_to_that_answer():
    at = page("1_Explore.py", timeout=90, qa_filter="broken")
    at.slider(key=SIZE).set_value(100).run()
    table = _table(at).value
    row = int((table["answer"] == "寒帯ジェット気流").to_numpy().nonzero()[0][0])
    assert row != _broken_at(100)[row]  # a filtered row is not the question's index
    at.session_state["explore_qa_table_broken"] = {"selection": {"rows": [row], "columns": []}}
    at.run()
    assert not at.exception
    # 寒帯ジェット気流 is cut by chunks #24 and #25: the view goes to the first that cuts it.
    assert at.session_state["explore_scroll"] == 24
    assert component_data(at, "explore_highlight")["scroll_to"] == 24
    # Another row of the same table moves it again.
    at.session_state["explore_qa_table_broken"] = {"selection": {"rows": [0], "columns": []}}
    at.run()
    first = load_sample("jsquad_tsuyu").questions[_broken_at(100)[0]]
    # Fixed 100/0: chunk i is characters 100i to 100i+100, so the first cutting chunk is this one.
    assert at.session_state["explore_scroll"] == first.spans[0].start // 100 != 24


def test_a_followed_row_does_not_pull_the_view_back_until_it_is_selected_again():
    at = page("1_Explore.py", timeout=90)
    at.slider(key=SIZE).set_value(100).run()
    at.session_state["explore_qa_table_all"] = {"selection": {"rows": [0], "columns": []}}
    at.run()
    chunk = at.session_state["explore_scroll"]
    assert chunk is not None
    # The reader jumps elsewhere; reruns with the row still selected leave the view there.
    at.number_input(key="explore_jump").set_value(chunk + 5).run()
    at.slider(key="explore_p_fixed_overlap").set_value(10).run()
    assert at.session_state["explore_scroll"] == chunk + 5
    # Cleared and selected again: the view goes back to the answer.
    at.session_state["explore_qa_table_all"] = {"selection": {"rows": [], "columns": []}}
    at.run()
    at.session_state["explore_qa_table_all"] = {"selection": {"rows": [0], "columns": []}}
    at.run()
    assert not at.exception
    sample = load_sample("jsquad_tsuyu")
    result = chunkviz.chunk(sample.text, "fixed", size=100, overlap=10)
    holding = assess_qa(result, sample.questions[:1])[0]
    assert at.session_state["explore_scroll"] == (holding.containing or holding.cutting)[0]


def test_the_ambiguous_filter_and_a_row_bring_that_answer_itself_into_view():
    at = page("1_Explore.py", timeout=90)
    at.segmented_control(key="explore_qa_filter_en").set_value("ambiguous").run()
    assert not at.exception
    sample = load_sample("jsquad_tsuyu")
    ambiguous = [i for i, q in enumerate(sample.questions) if is_ambiguous(q)]
    assert ambiguous
    table = _table(at).value
    assert list(table["question"]) == [sample.questions[i].question for i in ambiguous]
    assert set(table["ambiguous"]) == {"? which copy is a guess"}
    at.session_state["explore_qa_table_ambiguous"] = {"selection": {"rows": [0], "columns": []}}
    at.run()
    assert not at.exception
    result = chunkviz.chunk(sample.text, "fixed", size=400, overlap=0)
    qa = assess_qa(result, sample.questions)
    chunk, offset = answer_place(qa[ambiguous[0]], result.chunks)
    view = component_data(at, "explore_highlight")
    assert (view["scroll_to"], view["focus"]) == (chunk, offset)


def test_answers_not_found_are_counted_apart_filterable_and_show_their_near_match():
    # Issue 23: 5 of 12 answers not found read "Broken 0 / 12"; now "0 / 7" and "5 not found".
    from chunkviz.document import Document, locate_questions
    from tests.app.helpers import metric

    text = (
        "年次有給休暇は入社6か月後に10日付与される。\n\n申請は勤怠システムから3営業日前までに行う。"
    )
    pairs = (
        {"question": "何日?", "answer": "１０日"},  # fullwidth: found as a reader finds it
        {"question": "いつ?", "answer": "入社6ヶ月後"},  # not in the text
        {"question": "どこから?", "answer": "勤怠システム"},
    )
    document = Document(
        "paste", "", text, origin="paste", questions=tuple(locate_questions(text, pairs))
    )
    at = page(
        "1_Explore.py",
        timeout=90,
        source="paste",
        pasted=text,
        document=document,
        user_pairs=pairs,
        strategy="paragraph",
    )
    assert not at.exception
    assert metric(at, "Broken answers") == "0 / 2"
    assert any("0 broken of 2 found (2 contained); 1 not found" in m.value for m in at.markdown)
    at.segmented_control(key="explore_qa_filter_en").set_value("not_found").run()
    assert not at.exception
    table = _table(at).value
    assert list(table["answer"]) == ["入社6ヶ月後"]
    assert list(table["nearest match"]) == ["入社6か月後 (83%)"]
