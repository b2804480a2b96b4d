"""Imported chunks on the pages: upload on Explore, the alignment report, select, Compare, ja.

The chunk file is what LangChain returns with ``add_start_index=True``: ``page_content`` and
``metadata.start_index``, the start recovered with ``str.find``. One chunk is left out (its text
is then held by no chunk) and one claims a wrong start, so the report has something to say.
"""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

import chunkviz
from chunkviz.samples import load_sample
from chunkviz.ui.state import STATE_KEY, AppState
from tests.app.helpers import ROOT, app_state, metric, page, set_lang

UPLOAD = "explore_chunks_upload"


def _langchain_file() -> tuple[bytes, int]:
    """A LangChain-style chunk list of the default sample and how many chunks it holds."""
    text = load_sample("jsquad_tsuyu").text
    pieces = chunkviz.chunk(text, "fixed", size=300).chunk_texts()
    docs = [
        {"page_content": p, "metadata": {"start_index": text.find(p)}}
        for i, p in enumerate(pieces)
        if i != 3
    ]
    docs[5]["metadata"]["start_index"] = 7  # a wrong claim
    return json.dumps(docs, ensure_ascii=False).encode("utf-8"), len(docs)


def _imported_explore() -> tuple[AppTest, int]:
    at = page("1_Explore.py", timeout=120)
    data, n = _langchain_file()
    at.file_uploader(key=UPLOAD).upload("lc chunks.json", data, "application/json").run()
    assert not at.exception
    return at, n


def _chunks_on(name: str, state: AppState) -> str:
    at = AppTest.from_file(str(ROOT / "pages" / name), default_timeout=120)
    at.session_state[STATE_KEY] = state
    at.run()
    assert not at.exception
    label = "Chunks" if state.lang == "en" else "チャンク数"
    return metric(at, label)


def test_the_alignment_report_names_the_file_the_wrong_start_and_the_gap():
    at, n = _imported_explore()
    report = next(m.value for m in at.markdown if "lc chunks.json" in m.value)
    assert f"{n} chunks read as langchain" in report
    assert "Wrong claimed start indexes: 1" in report
    assert "Text no chunk holds: 1 spans, 300 characters" in report
    problems = next(df.value for df in at.dataframe if "Problem" in df.value.columns)
    assert sorted(problems["Problem"]) == ["text no chunk holds", "wrong claimed start index"]


def test_selected_imported_chunks_count_the_same_on_explore_and_compare_in_both_languages():
    at, n = _imported_explore()
    state = app_state(at)
    (ident,) = state.imported
    box = at.selectbox(key="explore_strategy_en")
    assert "imported: lc chunks.json" in box.options  # the label; the value is the id
    box.set_value(f"imported:{ident}").run()
    assert not at.exception
    assert metric(at, "Chunks") == f"{n}"
    assert state.configuration() == ("imported", {"id": ident, "name": "lc chunks.json"})
    assert "strategy" not in state.link()  # the user's own chunks never go into a link
    assert _chunks_on("2_Compare.py", state) == f"{n}"
    set_lang(at, "ja")
    assert not at.exception
    assert at.selectbox(key="explore_strategy_ja").value == f"imported:{ident}"
    assert metric(at, "チャンク数") == f"{n}"
    assert _chunks_on("2_Compare.py", state) == f"{n}"


def test_another_document_drops_the_imported_option_and_says_why():
    at, _ = _imported_explore()
    state = app_state(at)
    (ident,) = state.imported
    at.selectbox(key="explore_strategy_en").set_value(f"imported:{ident}").run()
    at.radio(key="explore_doc_source_en").set_value("paste").run()
    at.text_area(key="explore_doc_paste").input("A different text. " * 20).run()
    assert not at.exception
    box = at.selectbox(key="explore_strategy_en")
    assert not any(o.startswith("imported:") for o in box.options)
    assert box.value == "fixed"
    assert any("imported for another document" in c.value for c in at.caption)


def test_a_chunk_file_that_is_not_chunks_is_refused_with_its_name():
    at = page("1_Explore.py", timeout=120)
    at.file_uploader(key=UPLOAD).upload("notes.json", b'{"a": 1}', "application/json").run()
    assert not at.exception
    assert any("chunks must be a JSON list" in e.value for e in at.error)
    assert not app_state(at).imported


def test_imported_chunks_join_the_tune_grid_and_open_in_explore(monkeypatch):
    from chunkviz.eval.tune import tune
    from chunkviz.ui.tune import view as tune_view

    switched: list[str] = []
    monkeypatch.setattr(tune_view.st, "switch_page", switched.append)
    at, n = _imported_explore()
    state = app_state(at)
    (found,) = state.imported.values()
    label = f"imported-{found.id[:8]}"
    tune_at = AppTest.from_file(str(ROOT / "pages" / "6_Tune.py"), default_timeout=300)
    tune_at.session_state[STATE_KEY] = state
    tune_at.run()
    grid = tune_at.multiselect(key="tune_grid")
    assert "imported: lc chunks.json" in grid.options
    tune_at.number_input(key="tune_count").set_value(30).run()
    grid.set_value(["fixed-400-0", label]).run()
    tune_at.button(key="tune_run").click().run()
    assert not tune_at.exception
    table = next(df.value for df in tune_at.dataframe if "configuration" in df.value.columns)
    row = table[table["configuration"] == label]
    assert list(row["chunks"]) == [n]
    expected = tune(
        state.document,
        questions=state.document.questions,
        synthetic=30,
        configs=tune_view.grid_configs(["fixed-400-0", label], state.document, [found]),
        backend="bm25",
        seed=0,
    )
    assert metric(tune_at, "Recommended at 2,000 characters") == expected.pick
    tune_at.selectbox(key="tune_open_pick").set_value(label).run()
    tune_at.button(key="tune_open").click().run()
    assert switched == ["pages/1_Explore.py"]
    assert state.configuration() == ("imported", {"id": found.id, "name": "lc chunks.json"})


def test_a_session_keeps_the_latest_imports_only(monkeypatch):
    from chunkviz.ui import import_view

    monkeypatch.setattr(import_view, "MAX_IMPORTS", 2)
    at = page("1_Explore.py", timeout=120)
    text = load_sample("jsquad_tsuyu").text
    for size in (200, 300, 400):
        pieces = chunkviz.chunk(text, "fixed", size=size).chunk_texts()
        data = json.dumps(pieces, ensure_ascii=False).encode("utf-8")
        at.file_uploader(key=UPLOAD).upload(f"c{size}.json", data, "application/json").run()
        assert not at.exception
    names = [c.name for c in app_state(at).imported.values()]
    assert names == ["c300.json", "c400.json"]
    options = at.selectbox(key="explore_strategy_en").options
    assert [o for o in options if o.startswith("imported:")] == [
        "imported: c300.json",
        "imported: c400.json",
    ]


def test_report_rows_list_every_kind_of_problem():
    from chunkviz.eval.imported import import_chunks
    from chunkviz.ui.import_view import report_rows

    text = "alpha beta gamma。delta epsilon。zeta eta。"
    chunks = [
        {"page_content": "alpha beta gamma。delta epsilon。", "metadata": {"start_index": 0}},
        {"page_content": "beta gamma", "metadata": {"start_index": 6}},  # inside chunk 0
        {"page_content": "zeta  eta", "metadata": {"start_index": 3}},
    ]  # spaces, wrong start
    found = import_chunks(json.dumps(chunks).encode(), "x.json", text + " omega")
    rows = report_rows("en", found.report)
    problems = [(r["Problem"], r["Chunk"]) for r in rows]
    assert problems == [
        ("found once whitespace is ignored", 2),
        ("wrong claimed start index", 2),
        ("inside the previous chunk (left out of the chunking)", 1),
        ("text no chunk holds", None),
    ]
    assert rows[-1]["Text"] == "。 omega"  # the 。 the third chunk lacks, and the tail
    assert len(found.result.chunks) == 2
