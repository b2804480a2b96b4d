from __future__ import annotations

import html
import json
import re

import pytest
from streamlit.testing.v1 import AppTest

import chunkviz
from chunkviz.retrieval.backends import get_backend
from chunkviz.samples import load_sample
from tests.app.helpers import app_state, page, set_lang
from tests.app.helpers import metric as _metric

SIZE = "explore_p_fixed_size"
OVERLAP = "explore_p_fixed_overlap"
UNIT = "explore_p_fixed_unit_en"
STRATEGY = "explore_strategy_en"
SOURCE = "explore_doc_source_en"


def _page(**query: str) -> AppTest:
    return page("1_Explore.py", timeout=90, query=query)


def _page_with(**state: object) -> AppTest:
    return page("1_Explore.py", timeout=90, **state)


def _text(at: AppTest) -> str:
    return app_state(at).document.text


def _highlight(at: AppTest) -> dict:
    """What the page handed the highlight component (its markup, legend and scroll request)."""
    element = next(
        e
        for e in at.get("bidi_component") + at.get("unknown")
        if getattr(e.proto, "component_name", "") == "chunkviz.highlight"
    )
    return json.loads(element.proto.json)


def _qa_table(at: AppTest):
    return next(df.value for df in at.dataframe if "status" in df.value.columns)


def test_default_page_shows_the_jsquad_sample_chunked_with_the_defaults():
    at = _page()
    assert not at.exception
    text = load_sample("jsquad_tsuyu").text
    expected = chunkviz.chunk(text, "fixed", size=400, overlap=0)
    assert _metric(at, "Chunks") == f"{len(expected):,}"
    assert _text(at) == text
    assert len(app_state(at).document.questions) == 180


@pytest.mark.parametrize(("size", "overlap"), [(100, 0), (250, 50), (1000, 0)])
def test_changing_the_size_changes_the_count_to_what_chunk_gives(size, overlap):
    at = _page()
    at.slider(key=OVERLAP).set_value(overlap)
    at.slider(key=SIZE).set_value(size).run()
    assert not at.exception
    text = load_sample("jsquad_tsuyu").text
    expected = chunkviz.chunk(text, "fixed", size=size, overlap=overlap)
    assert _metric(at, "Chunks") == f"{len(expected):,}"
    predicted = chunkviz.predicted_chunk_count(len(text), size, overlap)
    assert _metric(at, "Predicted") == f"{predicted:,}"
    factor = chunkviz.overlap_cost_factor(size, overlap)
    assert _metric(at, "Overlap cost") == f"{factor:.3f}"


def test_overlap_cannot_reach_size_from_the_controls():
    at = _page()
    at.slider(key=SIZE).set_value(100).run()
    # Overlap's range follows size; size's follows overlap (typed inputs share the ranges).
    assert at.slider(key=OVERLAP).max == 99
    assert at.number_input(key=f"{OVERLAP}__typed").max == 99
    at.number_input(key=f"{OVERLAP}__typed").set_value(99).run()
    assert not at.exception
    assert not at.error
    assert at.slider(key=SIZE).min == 100
    assert app_state(at).params_of("fixed")["overlap"] == 99


def test_a_pair_from_the_state_with_overlap_not_below_size_shows_the_named_error():
    # The controls cannot make this pair, but a state can hold one (set by code, not a widget).
    at = _page_with(strategy="fixed", params={"fixed": {"size": 100, "overlap": 100}})
    assert not at.exception
    with pytest.raises(chunkviz.ParameterError) as info:
        chunkviz.chunk("x", "fixed", size=100, overlap=100)
    assert [e.value for e in at.error] == [str(info.value)]
    assert "overlap must be smaller than size" in at.error[0].value
    # The controls are still there and the user can recover.
    assert at.selectbox(key=STRATEGY).value == "fixed"
    assert not at.metric
    at.slider(key=OVERLAP).set_value(20).run()
    assert not at.error
    recovered = chunkviz.chunk(_text(at), "fixed", size=100, overlap=20)
    assert _metric(at, "Chunks") == f"{len(recovered):,}"


def test_known_answer_is_broken_under_fixed_100_0():
    at = _page()
    at.slider(key=SIZE).set_value(100).run()
    table = _qa_table(at)
    row = table[table["answer"] == "寒帯ジェット気流"].iloc[0]
    # 寒帯ジェット気流 spans 2495..2503: "寒帯ジェッ" ends chunk 24 and "ト気流" starts chunk 25.
    assert row["status"] == "✗ broken"
    assert row["cut by chunks"] == "#24, #25"
    statuses = table["status"].value_counts().to_dict()
    sample = load_sample("jsquad_tsuyu")
    result = chunkviz.chunk(sample.text, "fixed", size=100, overlap=0)
    spans = [q.spans[0] for q in sample.questions]
    from chunkviz.eval.spans import analyze_spans

    broken = analyze_spans(result, spans).broken_count
    assert statuses["✗ broken"] == broken
    assert _metric(at, "Broken answers") == f"{broken} / 180"
    # With 20% overlap the same answer is whole in one chunk.
    at.slider(key=OVERLAP).set_value(20).run()
    table = _qa_table(at)
    assert table[table["answer"] == "寒帯ジェット気流"].iloc[0]["status"] == "✓ contained"


def test_switching_language_changes_labels():
    at = _page()
    assert at.title[0].value == "Explore"
    assert at.slider(key=SIZE).label.startswith("Size")
    set_lang(at, "ja")
    assert not at.exception
    assert at.title[0].value == "探索"
    assert at.slider(key=SIZE).label.startswith("サイズ")
    assert at.slider(key=SIZE).help.startswith("チャンクの最大長")
    assert {m.label for m in at.metric} >= {"チャンク数", "分断された正解"}
    # The value survives the switch (widgets are identified by key, not label).
    assert at.slider(key=SIZE).value == 400
    # Choice widgets show the same ids under labels of the new language.
    assert at.radio(key="explore_p_fixed_unit_ja").value == "chars"
    assert at.radio(key="explore_doc_source_ja").value == "sample"
    assert at.selectbox(key="explore_strategy_ja").value == "fixed"
    assert at.selectbox(key="explore_doc_sample_ja").value == "jsquad_tsuyu"
    assert not at.error


def test_shared_link_restores_strategy_params_unit_and_sample():
    at = _page(strategy="fixed", size="120", overlap="30", unit="chars", sample="policy_ja")
    assert not at.exception
    assert not at.warning
    assert at.slider(key=SIZE).value == 120
    assert at.slider(key=OVERLAP).value == 30
    assert at.radio(key=UNIT).value == "chars"
    assert at.selectbox(key="explore_doc_sample_en").value == "policy_ja"
    text = load_sample("policy_ja").text
    assert _metric(at, "Chunks") == f"{len(chunkviz.chunk(text, 'fixed', size=120, overlap=30)):,}"
    # The page writes the configuration back into the URL.
    assert at.query_params["size"] == ["120"] or at.query_params["size"] == "120"


def test_bad_link_values_are_reported_and_defaults_kept():
    at = _page(strategy="fixed", size="abc", bogus="1")
    assert not at.exception
    warnings = " ".join(w.value for w in at.warning)
    # Values are shown as values (issue 25): no Python repr quotes around what the link held.
    assert "size must be an integer (got size=abc); use an integer from 1 to" in warnings
    assert "bogus=1 in the link is not a parameter of fixed" in warnings
    assert "'" not in warnings
    assert at.slider(key=SIZE).value == 400


def test_a_link_with_overlap_not_below_size_keeps_the_pair_and_says_why():
    at = _page(strategy="fixed", size="100", overlap="100")
    assert not at.exception
    warnings = " ".join(w.value for w in at.warning)
    assert "overlap=100, size=100 in the link break the rule overlap" in warnings
    assert at.slider(key=SIZE).value == 400  # the pair is settled before either is applied
    assert at.slider(key=OVERLAP).value == 0
    assert not at.error


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ({"strategy": "semantic", "max_size": "1"}, {"min_size": 100, "max_size": 1000}),
        (
            {"strategy": "parent_child", "parent_size": "1"},
            {"child_size": 200, "parent_size": None},
        ),
    ],
)
def test_a_link_whose_one_value_breaks_a_pair_with_a_default_leaves_a_valid_pair(query, kept):
    at = _page(**query)
    assert not at.exception
    assert not at.error  # before: the larger side was applied and the strategy refused the pair
    assert "in the link break the rule" in " ".join(w.value for w in at.warning)
    state = app_state(at)
    assert {k: state.params_of(query["strategy"])[k] for k in kept} == kept
    for name in kept:  # the page republishes a valid link
        assert str(at.query_params.get(name, "")) != "['1']"


def test_pasted_text_with_a_hand_added_pair():
    at = _page()
    at.radio(key=SOURCE).set_value("paste").run()
    text = "第1条 目的。" * 30 + "年次有給休暇は10日とする。" + "第2条 範囲。" * 30
    at.text_area(key="explore_doc_paste").input(text).run()
    at.slider(key=SIZE).set_value(50).run()
    assert not at.exception
    assert app_state(at).document.questions == ()
    assert _metric(at, "Chunks") == f"{len(chunkviz.chunk(text, 'fixed', size=50)):,}"
    at.text_input(key="qa_new_question").input("有給休暇は何日？")
    at.text_input(key="qa_new_answer").input("年次有給休暇は10日")
    at.button[0].click().run()  # the form's submit button is the first button on the page
    assert not at.exception
    table = _qa_table(at)
    assert list(table["answer"]) == ["年次有給休暇は10日"]
    start = text.index("年次有給休暇は10日")
    expected = "✓ contained" if start // 50 == (start + 10) // 50 else "✗ broken"
    assert table.iloc[0]["status"] == expected


def test_strategy_switch_builds_controls_from_the_schema():
    at = _page()
    at.selectbox(key=STRATEGY).set_value("paragraph").run()
    assert not at.exception
    sample = load_sample("jsquad_tsuyu")
    expected = chunkviz.chunk(sample.text, "paragraph", paragraph_starts=sample.paragraph_starts)
    assert _metric(at, "Chunks") == f"{len(expected):,}" == "49"
    assert _metric(at, "Broken answers") == "0 / 180"
    # max_size is optional: off by default (a disabled slider), a cap once switched on.
    assert at.slider(key="explore_p_paragraph_max_size").disabled
    at.checkbox(key="explore_p_paragraph_max_size__on").check().run()
    at.slider(key="explore_p_paragraph_max_size").set_value(100).run()
    assert not at.exception
    capped = chunkviz.chunk(
        sample.text, "paragraph", max_size=100, paragraph_starts=sample.paragraph_starts
    )
    assert len(capped) > 49
    assert _metric(at, "Chunks") == f"{len(capped):,}"


def test_token_unit_counts_with_the_active_backend_tokenizer():
    at = _page()
    at.radio(key=UNIT).set_value("tokens")
    at.slider(key=SIZE).set_value(100).run()
    assert not at.exception
    text = load_sample("jsquad_tsuyu").text
    tokenizer = get_backend("bm25").tokenizer
    expected = chunkviz.chunk(text, "fixed", size=100, unit="tokens", tokenizer=tokenizer)
    assert _metric(at, "Chunks") == f"{len(expected):,}"


def test_long_document_is_paged_and_jump_goes_to_the_chunk_page():
    at = _page()
    at.radio(key=SOURCE).set_value("paste").run()
    text = ("梅雨前線が停滞すると長雨になる。" * 2500)[:40_000]
    at.text_area(key="explore_doc_paste").input(text).run()
    at.slider(key=SIZE).set_value(100).run()
    assert not at.exception
    assert at.pagination(key="explore_page").value == 1
    at.number_input(key="explore_jump").set_value(250).run()
    assert not at.exception
    assert at.pagination(key="explore_page").value == 2  # chunk 250 starts at 25,000


def test_only_the_open_tab_runs():
    at = _page()
    assert [t.label for t in at.tabs][:5] == [
        "Questions & answers",
        "Figures",
        "Chunk table",
        "Export",
        "Share",
    ]
    assert not at.code  # export and share tabs are closed: their content did not run
    assert not at.get("plotly_chart")
    at.session_state["explore_tab"] = "Figures"
    at.run()
    assert not at.exception
    assert len(at.get("plotly_chart")) == 2
    stats = at.dataframe[0].value
    set_lang(at, "ja")
    assert at.session_state["explore_tab"] == "グラフ"  # the open tab survives the switch
    assert len(at.get("plotly_chart")) == 2
    text = load_sample("jsquad_tsuyu").text
    lengths = [c.length for c in chunkviz.chunk(text, "fixed", size=400).chunks]
    assert list(stats.iloc[0][["min", "max"]]) == [min(lengths), max(lengths)]


def test_exports_and_code_snippets():
    at = _page()
    at.slider(key=SIZE).set_value(100)
    at.session_state["explore_tab"] = "Export"
    at.run()
    codes = [c.value for c in at.code]
    assert any(
        "chunkviz.chunk(text, 'fixed', size=100, overlap=0, unit='chars')" in c for c in codes
    )
    assert any("CharacterTextSplitter" in c and "chunk_size=100" in c for c in codes)
    assert any('TokenChunker(tokenizer="character", chunk_size=100' in c for c in codes)
    assert any("LlamaIndex has no fixed character window" in c for c in codes)
    buttons = at.get("download_button")
    assert len(buttons) == 4
    assert buttons[-1].proto.label == "Highlight as HTML"
    at.session_state["explore_tab"] = "Share"
    at.run()
    codes = [c.value for c in at.code]
    assert any(
        "strategy=fixed&size=100&overlap=0&unit=chars&sample=jsquad_tsuyu&lang=en&backend=bm25" in c
        for c in codes
    )


@pytest.mark.parametrize("name", [s["name"] for s in chunkviz.strategies()])
def test_every_registered_strategy_gets_controls_and_the_right_count(name):
    from chunkviz.strategies import get_strategy
    from chunkviz.ui.controls import widget_key

    spec = get_strategy(name)
    at = _page(sample="policy_ja")
    at.selectbox(key=STRATEGY).set_value(name).run()
    assert not at.exception
    assert not at.error
    for p in spec.params:
        # Widgets with translated option labels are keyed per language.
        key = widget_key("explore_p_", name, p, "en")
        assert key in at.session_state, f"no control for {name}.{p.name}"
    text = load_sample("policy_ja").text
    # The defaults, but for size, overlap and unit, which carry over from fixed (issue 25).
    params = app_state(at).params_of(name)
    shared = {"size": 400, "overlap": 0, "unit": "chars"}
    assert params == {**spec.defaults(), **{k: v for k, v in shared.items() if k in params}}
    expected = chunkviz.chunk(text, name, **params)
    assert _metric(at, "Chunks") == f"{len(expected):,}"


def test_upload_a_shift_jis_document_then_qa_pairs_as_csv():
    at = _page()
    at.radio(key=SOURCE).set_value("upload").run()
    text = "第1条 始業時刻は午前9時とする。\r\n第2条 終業時刻は午後6時とする。\r\n" * 20
    at.file_uploader(key="explore_doc_upload").upload(
        "規程.txt", text.encode("cp932"), "text/plain"
    ).run()
    assert not at.exception
    expected_text = text.replace("\r\n", "\n")
    assert _text(at) == expected_text
    at.slider(key=SIZE).set_value(30).run()
    assert _metric(at, "Chunks") == f"{len(chunkviz.chunk(expected_text, 'fixed', size=30)):,}"
    csv = "question,answer\n始業は？,午前9時\n休日は？,日曜日\n".encode()
    at.file_uploader(key="qa_upload").upload("qa.csv", csv, "text/csv").run()
    assert not at.exception
    table = _qa_table(at)
    assert list(table["answer"]) == ["午前9時", "日曜日"]
    assert list(table["occurrences"]) == [20, 0]
    assert table.iloc[1]["status"] == "⚠ not found"
    result = chunkviz.chunk(expected_text, "fixed", size=30)
    from chunkviz.document import locate_questions
    from chunkviz.views.explore import assess_qa

    qa = assess_qa(
        result, locate_questions(expected_text, [{"question": "q", "answer": "午前9時"}])
    )
    assert (
        table.iloc[0]["status"] == {"contained": "✓ contained", "broken": "✗ broken"}[qa[0].status]
    )


def test_upload_errors_are_shown_and_the_page_survives():
    at = _page()
    at.radio(key=SOURCE).set_value("upload").run()
    at.file_uploader(key="explore_doc_upload").upload(
        "blob.txt", b"\x00\x01\x02" * 100, "text/plain"
    ).run()
    assert not at.exception
    assert "looks like a binary file" in at.error[0].value
    # The previous document (the sample) is still chunked and shown.
    sample = chunkviz.chunk(load_sample("jsquad_tsuyu").text, "fixed", size=400)
    assert _metric(at, "Chunks") == f"{len(sample):,}"


def test_html_upload_keeps_markup_as_text_for_the_view():
    at = _page()
    at.radio(key=SOURCE).set_value("upload").run()
    markup = b"<html><body><p>&lt;script&gt;alert(1)&lt;/script&gt; stays text</p></body></html>"
    at.file_uploader(key="explore_doc_upload").upload("page.html", markup, "text/html").run()
    assert not at.exception
    assert _text(at) == "<script>alert(1)</script> stays text"


@pytest.mark.slow
def test_chunks_over_the_models_input_limit_are_counted():
    from chunkviz.retrieval.backends import over_limit

    at = _page(
        strategy="fixed",
        size="3000",
        overlap="0",
        unit="chars",
        sample="tech_en",
        backend="st:all-MiniLM-L6-v2",
    )
    assert not at.exception
    backend = get_backend("st:all-MiniLM-L6-v2")
    result = chunkviz.chunk(load_sample("tech_en").text, "fixed", size=3000)
    flags = over_limit(backend, result.chunk_texts())
    assert sum(flags) >= 1  # 3,000 characters of English are far over MiniLM's 256 tokens
    assert _metric(at, "Over the input limit") == str(sum(flags))


def test_terminal_formatting_is_removed_counted_and_kept_on_request():
    at = _page()
    at.radio(key=SOURCE).set_value("upload").run()
    man = b"\x1b[1mNAME\x1b[0m\n    l\bls - list directory contents\n"
    at.file_uploader(key="explore_doc_upload").upload("ls.txt", man, "text/plain").run()
    assert not at.exception
    assert _text(at) == "NAME\n    ls - list directory contents\n"
    assert any("Removed 3 terminal formatting sequences" in c.value for c in at.caption)
    at.checkbox(key="explore_keep_terminal").check().run()
    assert _text(at) == man.decode()
    assert not any("terminal formatting sequences" in c.value for c in at.caption)


def test_an_uploaded_file_name_is_shown_literally():
    at = _page()
    at.radio(key=SOURCE).set_value("upload").run()
    at.file_uploader(key="explore_doc_upload").upload(
        "[x](https://evil.example).txt", b"text", "text/plain"
    ).run()
    assert not at.exception
    info = next(c.value for c in at.caption if "characters" in c.value)
    # The file name is the document's name (no internal id before it), escaped.
    assert info.startswith("\\[x\\](https\u2060\\://evil.example).txt: 4 characters")


def test_a_docx_bomb_is_an_error_message_not_a_traceback():
    import io
    import zipfile

    import docx

    base = io.BytesIO()
    docx.Document().save(base)
    bomb = io.BytesIO()
    with zipfile.ZipFile(base) as src, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            if item.filename != "word/document.xml":
                dst.writestr(item, src.read(item.filename))
        with dst.open("word/document.xml", "w") as f:
            for _ in range(700):
                f.write(b"<w:p>" + b"A" * 100_000 + b"</w:p>")
    at = _page()
    at.radio(key=SOURCE).set_value("upload").run()
    at.file_uploader(key="explore_doc_upload").upload(
        "bomb.docx", bomb.getvalue(), "application/octet-stream"
    ).run()
    assert not at.exception
    assert "MAX\\_DOCX\\_XML\\_BYTES" in at.error[0].value


def test_jump_to_chunk_draws_no_session_state_warning(monkeypatch):
    # Streamlit logged "created with a default value but also had its value set via the
    # Session State API" with a stack trace at every jump that changed the page.
    from streamlit.elements.lib import policies

    monkeypatch.setattr(policies, "_shown_default_value_warning", False)
    text = ("word " * 20_000).strip()
    at = _page(strategy="fixed", size="100", overlap="0", unit="chars")
    at.radio(key=SOURCE).set_value("paste").run()
    at.text_area(key="explore_doc_paste").input(text).run()
    at.number_input(key="explore_jump").set_value(250).run()
    assert at.pagination(key="explore_page").value == 2
    at.pagination(key="explore_page").set_value(3).run()
    assert at.pagination(key="explore_page").value == 3
    at.number_input(key="explore_jump").set_value(10).run()
    assert at.pagination(key="explore_page").value == 1
    assert policies._shown_default_value_warning is False


def test_only_broken_questions_paint_red_and_each_cut_is_marked():
    at = _page()
    at.slider(key=SIZE).set_value(100).run()
    table = _qa_table(at)
    broken = set(table[table["status"] == "✗ broken"]["question"])
    markup = _highlight(at)["html"]
    red_titles = re.findall(r'class="[^"]*\bbroken" data-s="\d+" title="([^"]*)"', markup)
    assert red_titles
    for title in red_titles:
        asked = {
            line.split(": ", 2)[-1]
            for line in html.unescape(title).splitlines()
            if line.startswith("BROKEN")
        }
        assert asked
        assert asked <= broken
    # 寒帯ジェット気流 (2495..2503) is cut where chunk 24 ends and 25 starts: a marker says so.
    assert 'data-cut="2500">✂#24|#25<span class="tip"' in markup


def test_an_answer_whose_other_copy_is_whole_counts_contained_and_is_not_red():
    at = _page()
    sample_id = _highlight(at)["text_id"]
    at.radio(key=SOURCE).set_value("paste").run()
    text = "共和国連合。" + "あ" * 10 + "共和国連合。"  # copies at 0..5 and 16..21
    at.text_area(key="explore_doc_paste").input(text).run()
    # Another text: the view starts at the top instead of keeping the place it had in the sample.
    pasted_id = _highlight(at)["text_id"]
    assert pasted_id != sample_id
    at.slider(key=SIZE).set_value(18).run()  # 0..18 | 18..22: the second copy is cut
    assert _highlight(at)["text_id"] == pasted_id
    at.text_input(key="qa_new_question").input("何の連合？")
    at.text_input(key="qa_new_answer").input("共和国連合")
    at.button[0].click().run()
    assert not at.exception
    assert _metric(at, "Broken answers") == "0 / 1"
    markup = _highlight(at)["html"]
    assert re.search(r'class="c[01] cutcopy" data-s="16"', markup)
    assert re.search(r'class="c0 amb" data-s="0"', markup)
    assert "broken" not in markup
    assert "cutcopy" in _highlight(at)["legend"]


def test_parent_child_draws_parents_as_well_as_children():
    at = _page(sample="policy_ja")
    at.selectbox(key=STRATEGY).set_value("parent_child").run()
    assert not at.exception
    text = load_sample("policy_ja").text
    result = chunkviz.chunk(text, "parent_child")
    data = _highlight(at)
    assert len(result.parents) > 1
    assert data["html"].count('class="pn"') == len(result.parents)
    assert data["html"].count('class="cn"') == len(result.chunks)
    assert 'class="swatch pa0"' in data["legend"]


def test_the_legend_and_marks_follow_the_language():
    at = _page()
    set_lang(at, "ja")
    data = _highlight(at)
    assert "凡例" in data["legend"]
    assert "Legend" not in data["legend"]
    assert 'title="チャンク #0"' in data["html"]
    assert "pa0" not in data["legend"]  # no parents under fixed


def test_a_jump_is_one_request_and_a_later_rerun_keeps_the_place():
    at = _page()
    assert _highlight(at)["request"] == 0
    at.number_input(key="explore_jump").set_value(10).run()
    data = _highlight(at)
    assert (data["scroll_to"], data["request"]) == (10, 1)
    at.slider(key=SIZE).set_value(300).run()
    data = _highlight(at)
    # Same request: the view keeps the reader's place instead of jumping again.
    assert (data["scroll_to"], data["request"]) == (10, 1)


def test_a_focus_offset_opens_its_page_and_is_handed_to_the_view():
    at = _page()
    at.radio(key=SOURCE).set_value("paste").run()
    text = ("梅雨前線が停滞すると長雨になる。" * 2500)[:40_000]
    at.text_area(key="explore_doc_paste").input(text).run()
    # What a jump to an answer does (the page's _jump_to(offset=...)): offset 25,000 is on page 2.
    at.session_state["explore_focus"] = 25_000
    at.session_state["explore_jump_request"] = 7
    at.session_state["explore_scroll_pending"] = True
    at.run()
    assert not at.exception
    assert at.pagination(key="explore_page").value == 2
    data = _highlight(at)
    assert (data["focus"], data["request"]) == (25_000, 7)
    assert 'data-s="20000"' in data["html"]


def test_cuts_inside_words_are_counted_marked_and_snapped_away():
    # issue 38: fixed 400/0 on the JSQuAD sample cuts inside words; the count is word_cuts'
    # and each such chunk number is drawn dashed red with the word in its title.
    from chunkviz.text_boundaries import word_cuts

    at = _page()
    text = load_sample("jsquad_tsuyu").text
    cuts = word_cuts(chunkviz.chunk(text, "fixed", size=400, overlap=0))
    assert cuts.count > 0
    assert _metric(at, "Cuts inside words") == f"{cuts.count:,} / {len(cuts.cuts):,}"
    markup = _highlight(at)["html"]
    first = cuts.inside[0]
    a, b = cuts.words(text)[first]
    index = cuts.cuts.index(first) + 1  # chunk that starts at the first cut inside a word
    assert (
        f'<span class="cn wc" id="chunk-{index}" title="cut inside the word: '
        f'{html.escape(text[a:b])}">'
    ) in markup
    at.radio(key="explore_p_fixed_snap_en").set_value("word").run()
    assert not at.exception
    snapped = word_cuts(chunkviz.chunk(text, "fixed", size=400, overlap=0, snap="word"))
    assert snapped.count < cuts.count
    assert _metric(at, "Cuts inside words") == f"{snapped.count:,} / {len(snapped.cuts):,}"
