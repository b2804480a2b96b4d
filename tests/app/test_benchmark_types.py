"""AppTest: the Benchmark page breaks a JaQuAD run down by question and answer type."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from chunkviz.eval.by_type import compare_by_type, losses_by_type
from chunkviz.eval.measures import metric_label
from chunkviz.eval.results import load_results
from chunkviz.eval.runner import shipped_results_dir
from chunkviz.eval.separation import headline, separation
from chunkviz.ui.state import STATE_KEY, AppState
from chunkviz.views.by_type import type_text
from chunkviz.views.results_dirs import RECOMPUTE_DIR_ENV, RESULTS_DIRS_ENV
from tests.app.helpers import bench_tab, open_tab

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "4_Benchmark.py")


def _shipped(prefix: str) -> Path:
    (path,) = shipped_results_dir().glob(f"{prefix}-bm25-all-s0-*.json")
    return path


def _page(monkeypatch, tmp_path, *prefixes: str, tab: str = "robustness") -> AppTest:
    runs = tmp_path / "runs"
    runs.mkdir()
    for prefix in prefixes:
        shutil.copy(_shipped(prefix), runs)
    monkeypatch.setenv(RESULTS_DIRS_ENV, str(runs))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path / "new"))
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    assert not at.exception
    return bench_tab(at, tab)


def _markdown_starting(at: AppTest, prefix: str) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith(prefix)]


def test_a_jaquad_run_shows_each_type_and_what_a_configuration_loses(monkeypatch, tmp_path):
    at = _page(monkeypatch, tmp_path, "jaquad")
    assert "By question type" in [h.value for h in at.subheader]
    results = load_results(_shipped("jaquad"))
    metric = at.selectbox(key="bench_sig_metric").value
    table, lost = _markdown_starting(at, "| Configuration | Lexical variation (world knowledge)")
    for name in set(results.question_types):
        assert f"| {type_text('en', name)} (" in table.splitlines()[0]
    assert len(table.splitlines()) == 2 + len(results.labels)
    # Lost before retrieval by type: fixed-100-0 cut 56 of 829 multiple-sentence answers.
    assert "| Multiple-sentence reasoning (829) |" in lost.splitlines()[0]
    assert lost.splitlines()[2].startswith("| fixed-100-0 | 33 (3.5%) | 49 (5.5%) | 56 (6.8%) |")
    # The default configuration is the one with the lowest mean over the types: fixed-100-0.
    assert at.selectbox(key="bench_type_config").value == "fixed-100-0"
    losses = losses_by_type(
        results,
        metric,
        "question",
        "fixed-100-0",
        compare_by_type(
            results, metric, "question", at.number_input(key=f"bench_margin_{metric}").value
        ),
    )
    bullets = [m.value for m in at.markdown if m.value.startswith("- fixed-100-0 loses")]
    assert len(bullets) == 1
    assert len(bullets[0].splitlines()) == len(losses) > 0
    assert "Multiple-sentence reasoning" in bullets[0]
    pair = _markdown_starting(at, "| Type | Questions | Difference [95% CI]")
    assert len(pair) == 1
    assert len(pair[0].splitlines()) == 2 + 5  # header, rule, the five question types


def test_the_page_names_the_metric_that_separates_most_and_why(monkeypatch, tmp_path):
    at = _page(monkeypatch, tmp_path, "jaquad", tab="metrics")
    assert "Which metrics separate the configurations?" in [h.value for h in at.subheader]
    counts = separation(load_results(_shipped("jaquad")))
    best = headline(counts)
    (why,) = [m.value for m in at.markdown if m.value.startswith("Headline metric")]
    assert f"**{metric_label(best.metric)}**" in why
    assert f"({best.separated} of 28)" in why
    r5 = next(s for s in counts if s.metric == "recall@5")
    assert f"Recall@5 separates only {r5.separated} of 28" in why
    (table,) = [m.value for m in at.markdown if m.value.startswith("| Metric | Pairs separated")]
    assert len(table.splitlines()) == 2 + len(counts)


def test_answer_types_and_another_pair_redraw_the_tables(monkeypatch, tmp_path):
    at = _page(monkeypatch, tmp_path, "jaquad")
    at.radio(key="bench_type_kind").set_value("answer").run()
    assert not at.exception
    table, _lost = _markdown_starting(at, "| Configuration | Object (1,968)")
    assert "| Date/time (698) |" in table
    assert table.splitlines()[-1].endswith("| too few |")  # Manner: 17 questions
    at.selectbox(key="bench_type_pair").set_value("fixed-400-0 vs fixed-400-80").run()
    assert not at.exception
    (pair,) = _markdown_starting(at, "| Type | Questions | Difference [95% CI]")
    assert "Manner" not in pair  # too few to test
    date_row = next(line for line in pair.splitlines() if line.startswith("| Date/time | 698 |"))
    assert date_row.endswith("| fixed-400-80 better |")  # overlap keeps dates whole


def test_the_section_reads_in_japanese(monkeypatch, tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.copy(_shipped("jaquad"), runs)
    monkeypatch.setenv(RESULTS_DIRS_ENV, str(runs))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path / "new"))
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.session_state[STATE_KEY] = AppState(lang="ja")
    at.run()
    open_tab(at, "bench_tab", "頑健さ")
    assert "質問の種類別" in [h.value for h in at.subheader]
    assert any("複数文にまたがる推論" in m.value for m in at.markdown)


@pytest.mark.parametrize("prefix", ["jsquad"])
def test_a_run_without_types_has_no_such_section(monkeypatch, tmp_path, prefix):
    at = _page(monkeypatch, tmp_path, prefix)
    assert "By question type" not in [h.value for h in at.subheader]
