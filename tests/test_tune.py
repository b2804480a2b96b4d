"""Tune: Pareto fronts, the recommendation rule, and the CLI printing what the core computes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunkviz.cli import main
from chunkviz.errors import ParameterError
from chunkviz.eval.results import StatsSettings, load_results
from chunkviz.eval.tune import (
    TunePoint,
    document_from_file,
    format_tune,
    pareto_front,
    probe_lost,
    qa_questions,
    recommend,
    tune,
    tune_grid,
)
from chunkviz.samples import __file__ as samples_init

SAMPLES = Path(samples_init).parent


def _point(label: str, quality: float, index_bytes: int, tokens: float) -> TunePoint:
    return TunePoint(label, quality, quality, quality, 10, index_bytes, tokens, 0)


def test_default_grid_has_16_unique_configurations() -> None:
    grid = tune_grid()
    assert len(grid) == 16
    assert len({c.label for c in grid}) == 16
    assert {c.strategy for c in grid} == {"fixed", "recursive", "sentence", "paragraph"}


def test_pareto_front_keeps_only_undominated_points() -> None:
    points = [_point("a", 0.9, 100, 500), _point("b", 0.8, 50, 100), _point("c", 0.7, 60, 90),
              _point("d", 0.9, 120, 50)]
    assert pareto_front(points, "index_bytes") == ["b", "a"]
    assert pareto_front(points, "context_tokens") == ["d"]


_STATS = StatsSettings(0.05, 500, 2000, 0, "paired permutation", "percentile bootstrap, 95%",
                       "holm", "pessimistic")


def test_recommendation_is_the_cheapest_not_detectably_worse_than_the_best() -> None:
    n = 60
    best = [1] * n
    close = [1] * (n - 1) + [9]  # one miss: not detectably worse
    poor = [1] * (n // 2) + [None] * (n // 2)  # half lost: detectably worse
    ranks: dict[str, list[int | None]] = {"big": best, "mid": close, "small": poor}
    points = [_point("big", 1.0, 300, 900), _point("mid", 59 / 60, 200, 400),
              _point("small", 0.5, 100, 100)]
    source = {"label": "test questions", "validation": "hand-made"}
    rec = recommend(points, ranks, _STATS, source)
    assert rec.best == "big"
    assert rec.label == "mid"
    assert set(rec.indistinguishable) == {"big", "mid"}
    assert "no detectable difference" in rec.reason
    assert "not a proof of equality" in rec.reason
    assert "on 60 test questions" in rec.reason
    assert rec.validation == "hand-made"
    with pytest.raises(ParameterError, match="no configurations"):
        recommend([], ranks, _STATS, source)


def test_tune_on_a_built_in_sample_with_synthetic_questions(tmp_path: Path) -> None:
    doc = document_from_file(SAMPLES / "policy_ja.md")
    grid = tune_grid()[:6]
    result = tune(doc, synthetic=60, configs=grid, bootstrap=100, permutations=200,
                  cache_dir=tmp_path)
    source = result.source
    assert source["synthetic"] is True
    assert "synthetic context questions" in result.results.dataset.name
    assert "favour lexical retrieval" in source["caveat"]
    assert "rho = 0.93" in source["validation"]
    assert [p.label for p in result.points] == [c.label for c in grid]
    assert result.recommendation.label in result.recommendation.indistinguishable
    assert result.probes > 100
    text = format_tune(result)
    assert text.startswith("# synthetic questions")
    assert f"Recommended: {result.recommendation.label}" in text
    assert "key phrases in your document" in text
    assert "rho = 1.00" in text
    with pytest.raises(ParameterError, match="no questions to evaluate"):
        tune(doc, configs=grid)


def test_cli_tune_prints_the_core_recommendation(tmp_path: Path, capsys) -> None:
    doc_path = tmp_path / "policy.md"
    doc_path.write_text((SAMPLES / "policy_ja.md").read_text(encoding="utf-8"), encoding="utf-8")
    qa = tmp_path / "qa.json"
    qa.write_text((SAMPLES / "policy_ja.qa.json").read_text(encoding="utf-8"), encoding="utf-8")
    doc = document_from_file(doc_path)
    expected = tune(doc, questions=qa_questions(qa, doc), synthetic=30,
                    cache_dir=tmp_path / "c")
    assert main(["tune", str(doc_path), "--qa", str(qa), "--synthetic", "30", "--quiet",
                 "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert f"Recommended: {expected.recommendation.label}\n" in out
    assert f"Why: {expected.recommendation.reason}\n" in out
    saved = load_results(next((tmp_path / "out").glob("*.json")))
    own = len(qa_questions(qa, doc))
    assert saved.dataset.name == f"policy.md [{own} own + 30 synthetic context questions]"
    assert saved.ranks == expected.results.ranks


def test_cli_tune_with_imported_chunks(tmp_path: Path, capsys) -> None:
    text = (SAMPLES / "policy_ja.md").read_text(encoding="utf-8")
    doc_path = tmp_path / "policy.md"
    doc_path.write_text(text, encoding="utf-8")
    chunks = tmp_path / "chunks.json"
    pieces = [text[i : i + 300] for i in range(0, len(text), 300)]
    chunks.write_text(json.dumps(pieces, ensure_ascii=False), encoding="utf-8")
    assert main(["tune", str(doc_path), "--chunks", str(chunks), "--synthetic", "30",
                 "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "\nimported " in captured.out
    assert f"{len(pieces)} chunks read as strings; {len(pieces)} aligned" in captured.err


def test_cli_tune_lm_form_says_what_is_missing(tmp_path: Path, capsys) -> None:
    doc_path = tmp_path / "policy.md"
    doc_path.write_text((SAMPLES / "policy_ja.md").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["tune", str(doc_path), "--form", "lm", "--quiet"]) == 2
    assert "--lm hf:<local model path>" in capsys.readouterr().err
    assert main(["tune", str(doc_path), "--form", "lm", "--lm", "hf:/nonexistent/lm",
                 "--quiet"]) == 2
    assert "not available offline" in capsys.readouterr().err


def test_cli_tune_with_no_questions_counts_cut_key_phrases(tmp_path: Path, capsys) -> None:
    doc_path = tmp_path / "policy.md"
    doc_path.write_text((SAMPLES / "policy_ja.md").read_text(encoding="utf-8"), encoding="utf-8")
    total, rows = probe_lost(document_from_file(doc_path))
    assert main(["tune", str(doc_path), "--synthetic", "0", "--quiet"]) == 0
    out = capsys.readouterr().out
    fixed = next(r for r in rows if r.config == "fixed-100-0")
    assert fixed.broken > 0
    assert f"of {total} key phrases in your document, {fixed.broken} are cut by fixed-100-0" in out
    assert "retrieval was not measured" in out
