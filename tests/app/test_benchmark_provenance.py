"""The Benchmark page says when a run's figures come from synthetic questions."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from chunkviz.eval.grid import tune_grid
from chunkviz.eval.results import save_results
from chunkviz.eval.tune import tune
from chunkviz.samples import load_sample
from chunkviz.ui.state import STATE_KEY, AppState
from chunkviz.views.markup import escape_markdown
from chunkviz.views.results_dirs import RECOMPUTE_DIR_ENV, RESULTS_DIRS_ENV
from tests.app.helpers import ROOT


def _page(monkeypatch, tmp_path, lang: str) -> AppTest:
    result = tune(
        load_sample("tech_en"),
        synthetic=30,
        form="cloze",
        seed=5,
        configs=tune_grid()[:3],
        bootstrap=100,
        permutations=200,
        cache_dir=tmp_path / "cache",
    )
    save_results(result.results, tmp_path / "runs")
    monkeypatch.setenv(RESULTS_DIRS_ENV, str(tmp_path / "runs"))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path / "new"))
    at = AppTest.from_file(str(ROOT / "pages" / "4_Benchmark.py"), default_timeout=180)
    at.session_state[STATE_KEY] = AppState(lang=lang)  # type: ignore[arg-type]
    return at.run()


def test_a_synthetic_run_is_captioned_with_form_seed_and_the_lexical_caveat(monkeypatch, tmp_path):
    at = _page(monkeypatch, tmp_path, "en")
    assert not at.exception
    captions = [c.value for c in at.caption]
    label = escape_markdown("Synthetic questions: 30 cloze questions (seed 5)")
    assert any(c.startswith(label) for c in captions)
    assert any("favour lexical retrieval" in c for c in captions)
    assert any("held-out real questions of JSQuAD and JaQuAD" in c for c in captions)


def test_the_caption_is_japanese_on_a_japanese_page(monkeypatch, tmp_path):
    at = _page(monkeypatch, tmp_path, "ja")
    assert not at.exception
    assert any(c.value.startswith("合成質問") for c in at.caption)


def test_a_run_on_a_datasets_own_questions_has_no_synthetic_caption(monkeypatch):
    monkeypatch.delenv(RESULTS_DIRS_ENV, raising=False)
    at = AppTest.from_file(str(ROOT / "pages" / "4_Benchmark.py"), default_timeout=180).run()
    assert not at.exception
    assert not any("Synthetic questions" in c.value for c in at.caption)
