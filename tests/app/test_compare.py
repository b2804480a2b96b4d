from __future__ import annotations

from streamlit.testing.v1 import AppTest

import chunkviz
from chunkviz.document import Document, locate_questions
from chunkviz.samples import load_sample
from chunkviz.views.compare import boundary_diff, outcome
from tests.app.helpers import app_state, component_data, page, set_lang


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


def test_four_default_configurations_are_four_different_chunkings():
    at = _page()
    at.slider(key="compare_n").set_value(4).run()
    assert not at.exception
    assert not at.error
    assert len(_chunk_counts(at)) == 4
    strategies = list(at.dataframe[0].value["strategy"])
    assert strategies == ["fixed", "recursive", "semantic", "paragraph"]
    # Distinct in what they cut, not only in name: parent_child's children, the old fourth
    # default, were recursive 200's chunks again. No two share even a third of their cuts.
    from chunkviz.document import chunk_document

    state = app_state(at)
    configs = [state.configuration(), *state.compare]
    cuts = [{c.end for c in chunk_document(state.document, s, p).chunks} for s, p in configs]
    for i, a in enumerate(cuts):
        for b in cuts[i + 1 :]:
            assert len(a & b) / len(a | b) < 1 / 3


def test_the_first_configuration_is_the_apps_current_one():
    at = _page(strategy="paragraph")
    assert not at.exception
    assert at.selectbox(key="compare_0_strategy_en").value == "paragraph"
    assert _chunk_counts(at)[0] == "49"  # 梅雨's own paragraphs, passed by chunk_document
    at.slider(key="compare_1_p_recursive_size").set_value(300).run()
    assert app_state(at).compare[0] == (
        "recursive",
        {"size": 300, "overlap": 0, "unit": "chars", "snap": "none", "max_shift": 10},
    )
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
    at = _page(
        source="paste",
        pasted=text,
        user_pairs=pairs,
        document=document.with_questions(locate_questions(text, pairs)),
    )
    assert not at.exception
    ranks = at.dataframe[1].value
    assert list(ranks["answer"]) == ["寒帯ジェット気流"]
    assert list(ranks.iloc[0, 2:]) == ["1", "1"]


def _defaults():
    """The page's first two configurations, judged as the page judges them (no ranks needed)."""
    sample = load_sample("jsquad_tsuyu")
    fixed = chunkviz.chunk(sample.text, "fixed", size=400, overlap=0)
    recursive = chunkviz.chunk(sample.text, "recursive", size=200, overlap=0)
    return (
        outcome("1", fixed, sample.questions, None),
        outcome("2", recursive, sample.questions, None),
    )


def _metric_value(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_boundary_differences_are_counted_and_marked_in_both_panels():
    at = _page()
    assert not at.exception
    first, second = _defaults()
    diff = boundary_diff(first, second)
    assert len(diff.only_a) > 0
    assert len(diff.only_b) > 0
    assert _metric_value(at, "Only A") == f"{len(diff.only_a):,}"
    assert _metric_value(at, "Only B") == f"{len(diff.only_b):,}"
    assert _metric_value(at, "Shared") == f"{len(diff.shared):,}"
    assert _metric_value(at, "A breaks") == f"{len(diff.broken_only_a):,}"
    assert _metric_value(at, "B breaks") == f"{len(diff.broken_only_b):,}"
    data = component_data(at, "compare_panels")
    assert (data["start"], data["end"]) == (0, 4000)  # the first page of 4000 characters
    panels = data["panels"]
    assert [p["caption"] for p in panels] == [
        "1: fixed Size 400, Overlap 0, Unit characters",
        "2: recursive Size 200, Overlap 0, Unit characters",
    ]
    only_a = sum(1 for c in diff.only_a if c < 4000)
    only_b = sum(1 for c in diff.only_b if c < 4000)
    # Each panel marks its own cuts solid and the other's dashed, so both show the same places.
    assert panels[0]["html"].count("bd bd-here") == only_a
    assert panels[0]["html"].count("bd bd-there") == only_b
    assert panels[1]["html"].count("bd bd-here") == only_b
    assert panels[1]["html"].count("bd bd-there") == only_a
    table = at.dataframe[2].value
    assert list(table.columns) == ["question", "answer", "broken in"]
    assert len(table) == len(diff.broken_only_a) + len(diff.broken_only_b)
    assert set(table["broken in"]) <= {
        "1: fixed Size 400, Overlap 0, Unit characters",
        "2: recursive Size 200, Overlap 0, Unit characters",
    }


def test_another_pair_moves_the_markers_and_the_same_pair_asks_for_two():
    at = _page()
    at.slider(key="compare_n").set_value(3).run()
    at.selectbox(key="compare_diff_b").set_value(2).run()
    assert not at.exception
    panels = component_data(at, "compare_panels")["panels"]
    assert len(panels) == 3
    assert "bd-here" in panels[0]["html"]
    assert "bd-here" not in panels[1]["html"]  # configuration 2 is not in the pair now
    assert "bd-here" in panels[2]["html"]
    at.selectbox(key="compare_diff_b").set_value(0).run()
    assert any("two different configurations" in i.value for i in at.info)
    assert all("bd-" not in p["html"] for p in component_data(at, "compare_panels")["panels"])
    # Fewer configurations than the pair named: the choice falls back to 1 and 2.
    at.selectbox(key="compare_diff_b").set_value(2).run()
    at.slider(key="compare_n").set_value(2).run()
    assert not at.exception
    assert at.selectbox(key="compare_diff_b").value == 1


def test_the_panels_show_the_chosen_part_of_the_document():
    at = _page()
    at.slider(key="compare_page").set_value(2).run()
    assert not at.exception
    data = component_data(at, "compare_panels")
    assert (data["start"], data["end"]) == (4000, 8000)
    text = load_sample("jsquad_tsuyu").text
    for panel in data["panels"]:
        assert 'data-s="4000"' in panel["html"]
        assert 'data-s="3999"' not in panel["html"]
        assert text[4000:4010] in panel["html"]


def test_a_click_on_the_strip_shows_that_part_of_the_document(monkeypatch):
    from streamlit.elements.lib import policies

    # Streamlit warns when a widget's key is written and a default is passed as well.
    monkeypatch.setattr(policies, "_shown_default_value_warning", False)
    at = _page()
    first, second = _defaults()
    diff = boundary_diff(first, second)
    later = next(c for c in diff.only_b if c >= 4000)
    at.session_state["compare_strip"] = {
        "selection": {"points": [{"x": later, "customdata": later}]}
    }
    at.run()
    assert not at.exception
    assert not at.warning
    assert at.slider(key="compare_page").value == 2
    data = component_data(at, "compare_panels")
    assert data["start"] <= later < data["end"]
    # The reader moves the slider back; the click, still selected, does not pull it forward.
    at.slider(key="compare_page").set_value(1).run()
    assert component_data(at, "compare_panels")["start"] == 0
    assert policies._shown_default_value_warning is False


def test_a_dense_backend_ranks_only_once_asked(monkeypatch):
    """Issue 39: chunk counts and broken answers at once; a model encodes only when asked."""
    import chunkviz.views.compare as compare

    calls: list[int] = []

    def counting(result, qa, backend, *, measure="cosine"):
        calls.append(len(result.chunks))
        return tuple(1 for _ in qa)  # no encoding in a unit test: every best chunk first

    monkeypatch.setattr(compare, "question_ranks", counting)
    at = _page(backend="e5-small", strategy="fixed", params={"fixed": {"size": 333}})
    assert not at.exception
    assert calls == []
    assert len(_chunk_counts(at)) == 2  # counts need no model
    summary = at.dataframe[0].value
    assert "Recall@5" not in summary.columns
    assert any("Rank the questions with" in i.value for i in at.info)
    at = at.toggle(key="compare_rank").set_value(True).run()
    assert not at.exception
    assert len(calls) == 2
    assert "Recall@5" in at.dataframe[0].value.columns
    assert len(at.dataframe[1].value) == len(load_sample("jsquad_tsuyu").questions)
