"""AppTests of issue 25's leftovers: captions that say what they mean, a hybrid's index size."""

from __future__ import annotations

from pathlib import Path

from chunkviz.views.dashboard import RECOMPUTE_DIR_ENV, RESULTS_DIRS_ENV
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
