"""AppTests of issue 25: shared settings carry over, the Benchmark link, messages without reprs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from chunkviz.views.results_dirs import RECOMPUTE_DIR_ENV, RESULTS_DIRS_ENV
from tests.app.helpers import app_state, bench_tab, page

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
DENSE = "jsquad-tiny-use-m3-all-s0"

# What a Python repr looks like inside a message: a quoted value after "=" or a quoted list.
REPR = re.compile(r"=\s*'|\['|'\]|\(\"|=\s*\"")


def _explore(**query: str) -> AppTest:
    return page("1_Explore.py", timeout=90, query=query)


def test_fixed_150_30_switched_to_recursive_keeps_150_and_30():
    at = _explore()
    at.slider(key="explore_p_fixed_size").set_value(150).run()
    at.slider(key="explore_p_fixed_overlap").set_value(30).run()
    at.selectbox(key="explore_strategy_en").set_value("recursive").run()
    assert not at.exception
    assert at.slider(key="explore_p_recursive_size").value == 150
    assert at.slider(key="explore_p_recursive_overlap").value == 30
    assert app_state(at).configuration() == (
        "recursive",
        {**app_state(at).params_of("recursive"), "size": 150, "overlap": 30},
    )
    # ...and back: fixed follows what recursive had meanwhile.
    at.slider(key="explore_p_recursive_size").set_value(220).run()
    at.selectbox(key="explore_strategy_en").set_value("fixed").run()
    assert at.slider(key="explore_p_fixed_size").value == 220
    assert at.slider(key="explore_p_fixed_overlap").value == 30


def test_a_strategy_without_size_keeps_its_own_parameters():
    at = _explore()
    at.slider(key="explore_p_fixed_size").set_value(150).run()
    at.selectbox(key="explore_strategy_en").set_value("paragraph").run()
    assert not at.exception
    assert "size" not in app_state(at).params_of("paragraph")


@pytest.fixture
def bench(monkeypatch, tmp_path):
    """Open the Benchmark page (with an optional link) over the two fixture runs."""
    monkeypatch.setenv(RESULTS_DIRS_ENV, str(FIXTURES))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path))

    def open_page(**query: str) -> AppTest:
        return page("4_Benchmark.py", timeout=120, query=query)

    return open_page


def _query(at: AppTest) -> dict[str, str]:
    return {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def test_the_benchmark_page_writes_run_metric_delta_and_view_into_its_link(bench):
    at = bench()
    assert not at.exception
    query = _query(at)
    assert query["run"] == "jsquad-tiny-bm25-all-s0"
    assert query["metric"] == at.selectbox(key="bench_sig_metric").value == "recall@5"
    assert query["view"] == "equal_k"
    at.selectbox(key="bench_run").set_value(str(FIXTURES / "results_small_dense.json")).run()
    at.selectbox(key="bench_sig_metric").set_value("mrr@10").run()
    at.number_input(key="bench_margin_mrr@10").set_value(0.04).run()
    bench_tab(at, "plots")  # the view's radio is drawn in its tab (issue 39)
    at.radio(key="bench_mode").set_value("budget").run()
    assert not at.exception
    assert {k: _query(at)[k] for k in ("run", "metric", "delta", "view")} == {
        "run": DENSE,
        "metric": "mrr@10",
        "delta": "0.04",
        "view": "budget",
    }


def test_a_benchmark_link_opened_fresh_shows_the_senders_choices(bench):
    sender = bench()
    sender.selectbox(key="bench_run").set_value(str(FIXTURES / "results_small_dense.json")).run()
    sender.selectbox(key="bench_sig_metric").set_value("mrr@10").run()
    sender.number_input(key="bench_margin_mrr@10").set_value(0.04).run()
    bench_tab(sender, "plots")  # the view's radio is drawn in its tab (issue 39)
    sender.radio(key="bench_mode").set_value("budget").run()
    link = _query(sender)
    receiver = bench(**link)
    assert not receiver.exception
    assert _query(receiver) == link  # the view is kept while its tab is closed
    bench_tab(receiver, "plots")
    assert not receiver.warning
    assert receiver.selectbox(key="bench_run").value == str(FIXTURES / "results_small_dense.json")
    assert receiver.selectbox(key="bench_sig_metric").value == "mrr@10"
    assert receiver.number_input(key="bench_margin_mrr@10").value == pytest.approx(0.04)
    assert receiver.radio(key="bench_mode").value == "budget"
    # The same numbers: every sentence and table of the sender's screen.
    assert [m.value for m in receiver.markdown] == [m.value for m in sender.markdown]
    assert _query(receiver) == link


def test_a_benchmark_link_with_values_this_page_cannot_show_says_so_in_japanese(bench):
    at = bench(run="nope", metric="bogus@3", delta="9", view="sideways", lang="ja")
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 4
    for w in warnings:
        assert w.startswith("共有リンク：リンクの ")
        assert not REPR.search(w), w
        assert not re.search(r"\b(the|is|not|link|choose)\b", w), w
    assert _query(at)["run"] == "jsquad-tiny-bm25-all-s0"  # the first run, written back


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_link_message_shows_a_python_repr(lang):
    at = _explore(
        lang=lang,
        strategy="fixed",
        size="abc",
        overlap="x'y",
        bogus="q",
        backend="nope",
        sample="zzz",
    )
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 5
    for w in warnings:
        assert not REPR.search(w), w
    if lang == "ja":
        for w in warnings:
            assert not re.search(r"\b(the|is|not|link|must|choose|in)\b", w), w
        assert any("size は整数でなければなりません（size=abc）" in w for w in warnings)


def test_an_imported_chunking_becomes_the_current_configuration():
    import json

    import chunkviz
    from chunkviz.samples import load_sample

    at = _explore()
    text = load_sample("jsquad_tsuyu").text
    pieces = chunkviz.chunk(text, "fixed", size=300).chunk_texts()
    at.file_uploader(key="explore_chunks_upload").upload(
        "mine.json", json.dumps(list(pieces), ensure_ascii=False).encode(), "application/json"
    )
    at.run()
    assert not at.exception
    state = app_state(at)
    (ident,) = state.imported
    assert state.configuration() == ("imported", {"id": ident, "name": "mine.json"})
    assert at.selectbox(key="explore_strategy_en").value == f"imported:{ident}"
    assert next(m.value for m in at.metric if m.label == "Chunks") == f"{len(pieces)}"


# Files a user may upload, each refused with one message (PDF, QA file, document).
_BAD_UPLOADS = {
    "doc_upload": [
        ("blob.txt", b"\x00\x01\x02" * 100, "text/plain"),
        ("broken.pdf", b"%PDF-1.7\n garbage", "application/pdf"),
    ],
    "qa_upload": [
        ("pairs.csv", "q,a\n質問,答え\n".encode(), "text/csv"),
        ("pairs.json", b'{"x": 1}', "application/json"),
    ],
}


@pytest.mark.parametrize(
    ("where", "upload"),
    [(where, upload) for where, uploads in _BAD_UPLOADS.items() for upload in uploads],
)
def test_a_refused_upload_reads_in_japanese_without_a_python_repr(where, upload):
    at = page("1_Explore.py", timeout=90, lang="ja")
    if where == "doc_upload":
        at.radio(key="explore_doc_source_ja").set_value("upload").run()
        at.file_uploader(key="explore_doc_upload").upload(*upload).run()
    else:
        at.file_uploader(key="qa_upload").upload(*upload).run()
    assert not at.exception
    (error,) = [e.value for e in at.error]
    assert upload[0].replace(".", "\\.") in error or upload[0] in error  # names the file
    assert not REPR.search(error), error
    assert not re.search(r"\b(is|not|the|give|cannot|has|no)\b", error), error


def test_unavailable_backends_are_explained_in_japanese():
    # The sidebar's expander of backends that cannot load (ruri-v3 is not cached here).
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = "ja"
    at.run()
    assert not at.exception
    shown = [c.value for c in at.sidebar.caption if "ruri-v3-130m" in c.value]
    assert shown, [c.value for c in at.sidebar.caption]
    for caption in shown:
        assert "Hugging Face のキャッシュにな" in caption
        assert not REPR.search(caption), caption
        assert not re.search(r"\b(is|not|the|and|give|folder)\b", caption), caption
