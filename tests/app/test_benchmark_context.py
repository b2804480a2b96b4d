"""AppTest: the Benchmark page compares naive and contextual headers on the same cuts."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from chunkviz.datasets.base import Dataset
from chunkviz.eval.grid import Config, fixed_config, with_context
from chunkviz.eval.results import save_results
from chunkviz.eval.runner import run_benchmark
from chunkviz.samples import load_sample
from chunkviz.views.contextual import context_rows
from chunkviz.views.results_dirs import RECOMPUTE_DIR_ENV, RESULTS_DIRS_ENV
from tests.app.helpers import bench_tab

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "4_Benchmark.py")


def test_a_run_with_headings_shows_naive_against_contextual(monkeypatch, tmp_path):
    doc = load_sample("policy_ja")
    grid = with_context(
        (fixed_config(200, 40), Config("markdown", "markdown", {"size": 300})), ["none", "headings"]
    )
    results = run_benchmark(
        Dataset(doc.doc_id, (doc,), doc.questions), grid, "bm25", bootstrap=100, permutations=100
    )
    save_results(results, tmp_path / "runs")
    monkeypatch.setenv(RESULTS_DIRS_ENV, str(tmp_path / "runs"))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path / "new"))
    at = bench_tab(AppTest.from_file(PAGE, default_timeout=120).run(), "robustness")
    assert any(s.value == "Naive vs contextual chunk headers, same cuts" for s in at.subheader)
    table = next(d.value for d in at.dataframe if "Contextual" in d.value.columns)
    metric = at.selectbox(key="bench_sig_metric").value
    rows = context_rows(results, metric)
    assert list(table["Naive"]) == ["fixed-200-40", "markdown"] == [r.naive for r in rows]
    assert list(table["Contextual"]) == ["fixed-200-40+headings", "markdown+headings"]
    assert list(table["Difference [95% CI]"]) == [
        f"{r.diff:+.3f} [{r.ci_low:+.3f}, {r.ci_high:+.3f}]" for r in rows
    ]
    for r in rows:
        assert abs(r.diff - (r.contextual_mean - r.naive_mean)) < 1e-12


def test_a_run_without_headers_shows_no_comparison(monkeypatch, tmp_path):
    doc = load_sample("policy_ja")
    results = run_benchmark(
        Dataset(doc.doc_id, (doc,), doc.questions),
        (fixed_config(200, 40), Config("markdown", "markdown", {"size": 300})),
        "bm25",
        bootstrap=100,
        permutations=100,
    )
    assert context_rows(results, "recall@5") == ()
    save_results(results, tmp_path / "runs")
    monkeypatch.setenv(RESULTS_DIRS_ENV, str(tmp_path / "runs"))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path / "new"))
    at = bench_tab(AppTest.from_file(PAGE, default_timeout=120).run(), "robustness")
    assert any("conclusions depend on the definitions" in s.value for s in at.subheader)
    assert not any("contextual" in s.value for s in at.subheader)


def test_recompute_says_how_long_a_dense_run_will_encode(monkeypatch, tmp_path):
    from chunkviz.ui.state import STATE_KEY, AppState

    monkeypatch.setenv(RESULTS_DIRS_ENV, str(tmp_path / "none"))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path / "new"))
    monkeypatch.setenv("CHUNKVIZ_CACHE_DIR", str(tmp_path / "cache"))
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state[STATE_KEY] = AppState(backend="e5-small")
    at.run()
    assert not at.exception
    at.text_input(key="bench_rc_sizes").set_value("400").run()
    assert not at.exception
    note = next(i.value for i in at.info if i.value.startswith("Before you start"))
    assert "with multilingual-e5-small" in note  # the backend in words, not its id
    assert "min on an idle machine" in note
