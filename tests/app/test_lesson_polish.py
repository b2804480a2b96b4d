"""AppTests of issue 25's leftovers: captions that say what they mean, a hybrid's index size."""

from __future__ import annotations

from pathlib import Path

from chunkviz.views.results_dirs import RECOMPUTE_DIR_ENV, RESULTS_DIRS_ENV
from tests.app.helpers import metric, page

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_explore_shows_a_hybrid_index_as_bm25_plus_vectors():
    # Issue 24 left "—" for hybrid: its index is BM25's plus the dense component's.
    at = page("1_Explore.py", timeout=180, backend="hybrid")
    assert not at.exception
    value = metric(at, "Index size")
    assert value != "—"
    (tile,) = [m for m in at.metric if m.label == "Index size"]
    assert "sum" in tile.help
    assert "384 dimensions" in tile.help


def test_benchmark_captions_show_the_p_floor_and_name_the_backend_in_words(monkeypatch, tmp_path):
    monkeypatch.setenv(RESULTS_DIRS_ENV, str(FIXTURES))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path))
    at = page("4_Benchmark.py", timeout=120)
    assert not at.exception
    captions = " ".join(str(c.value) for c in at.caption)
    assert "p ≤ …" not in captions
    assert "reads p ≤ 0." in captions
    assert "BM25, character bigrams" in captions
    assert "k1=" not in captions  # the model's repr lives in the list of result files


def test_a_closest_export_suggests_importing_the_librarys_own_chunks():
    at = page("1_Explore.py", timeout=90, strategy="recursive")
    at.session_state["explore_tab"] = "Export"
    at.run()
    assert not at.exception
    infos = [i.value for i in at.info if "makes other chunks than these" in i.value]
    assert len(infos) == 2  # langchain and chonkie: closest; llamaindex has no recursive
    assert any("**langchain makes other chunks" in i for i in infos)
    assert all("Import chunks from another library" in i for i in infos)
    codes = [c.value for c in at.code if "json.dump(chunks" in c.value]
    assert len(codes) == 2


def test_the_import_back_steps_read_in_japanese():
    at = page("1_Explore.py", timeout=90, strategy="recursive", lang="ja")
    at.session_state["explore_tab"] = "エクスポート"
    at.run()
    assert not at.exception
    infos = [i.value for i in at.info if "別のチャンクを作ります" in i.value]
    assert len(infos) == 2
    assert all("他のライブラリのチャンクを取り込む" in i for i in infos)


def test_an_equivalent_export_suggests_nothing():
    at = page("1_Explore.py", timeout=90)  # fixed 400/0: LangChain and chonkie are equivalent
    at.session_state["explore_tab"] = "Export"
    at.run()
    assert not any("makes other chunks" in i.value for i in at.info)


def test_the_verdict_chart_ticks_are_round_numbers_written_in_full(monkeypatch, tmp_path):
    import json

    monkeypatch.setenv(RESULTS_DIRS_ENV, str(FIXTURES))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path))
    at = page("4_Benchmark.py", timeout=120)
    assert not at.exception
    layout = json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]
    for axis in ("xaxis", "xaxis2"):
        ticks = layout[axis]["ticktext"]
        assert ticks, axis
        # Plotly's own log ticks printed "4 5 … 9 1000 2 3": a lone digit meant thousands.
        values = [int(t.replace(",", "")) for t in ticks]
        assert values == layout[axis]["tickvals"]
        assert all(v >= 10 for v in values)  # characters sent: never a lone digit
