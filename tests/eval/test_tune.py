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
    caution_text,
    document_from_file,
    format_tune,
    pareto_front,
    probe_lost,
    qa_questions,
    reason_text,
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


def test_with_no_equivalent_the_cheapest_not_detectably_worse_is_recommended_and_said() -> None:
    n = 60
    best = [1] * n
    close = [1] * (n - 1) + [9]  # one miss: not detectably worse, not equivalent within 0.01
    poor = [1] * (n // 2) + [None] * (n // 2)  # half lost: detectably worse
    ranks: dict[str, list[int | None]] = {"big": best, "mid": close, "small": poor}
    points = [_point("big", 1.0, 300, 900), _point("mid", 59 / 60, 200, 400),
              _point("small", 0.5, 100, 100)]
    source = {"synthetic": False, "own": n}
    rec = recommend(points, ranks, _STATS, source)
    assert (rec.best, rec.label, rec.rule) == ("big", "mid", "not_worse")
    assert set(rec.indistinguishable) == {"big", "mid"}
    assert rec.equivalent == ("big",)
    assert rec.delta == 0.01
    reason = reason_text("en", rec)
    assert "no detectable difference" in reason
    assert "not a proof of equality" in reason
    assert "on 60 of your questions" in reason
    assert "no configuration is equivalent to the best within ±0.01" in reason
    assert "差" in reason_text("ja", rec)
    with pytest.raises(ParameterError, match="no configurations"):
        recommend([], ranks, _STATS, source)
    with pytest.raises(ParameterError, match="margin must be positive"):
        recommend(points, ranks, _STATS, source, margin=0)


def test_an_equivalent_configuration_is_recommended_by_the_equivalence_rule() -> None:
    n = 400
    best = [1] * n
    close = [1] * (n - 1) + [9]  # one miss in 400: equivalent within 0.02, not within 0.001
    ranks: dict[str, list[int | None]] = {"big": best, "mid": close}
    points = [_point("big", 1.0, 300, 900), _point("mid", 399 / 400, 200, 400)]
    source = {"synthetic": True, "own": 0, "questions": n, "form": "context"}
    rec = recommend(points, ranks, _STATS, source, margin=0.02)
    assert (rec.label, rec.rule, rec.equivalent) == ("mid", "equivalent", ("big", "mid"))
    assert -0.02 < rec.eq_low <= rec.diff <= rec.eq_high < 0.02
    reason = reason_text("en", rec)
    assert "is equivalent to the best's, big (1.000), within ±0.02" in reason
    assert "on 400 synthetic context questions" in reason
    assert "同等" in reason_text("ja", rec)
    tight = recommend(points, ranks, _STATS, source, margin=0.001)
    assert (tight.label, tight.rule) == ("mid", "not_worse")
    assert reason_text("en", tight) != reason


def test_the_best_is_recommended_when_it_is_the_cheapest_and_the_rule_is_said() -> None:
    ranks: dict[str, list[int | None]] = {"a": [1] * 50, "b": [1] * 50}
    points = [_point("a", 1.0, 100, 100), _point("b", 1.0, 300, 900)]
    rec = recommend(points, ranks, _STATS, {"own": 50}, margin=0.05)
    assert (rec.label, rec.best, rec.rule) == ("a", "a", "equivalent")
    assert "cheapest of it and the configurations equivalent to it within ±0.05" in \
        reason_text("en", rec)
    assert caution_text("en", rec) == ""


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
    assert f"Why: {reason_text('en', expected.recommendation)}\n" in out
    saved = load_results(next((tmp_path / "out").glob("*.json")))
    own = len(qa_questions(qa, doc))
    assert saved.dataset.name == f"policy.md [{own} own + 30 synthetic context questions]"
    assert saved.ranks == expected.results.ranks
    assert saved.questions_source is not None
    assert saved.questions_source == expected.results.questions_source
    assert (saved.questions_source.kind, saved.questions_source.synthetic) == ("both", 30)
    # An identical rerun rewrites its identical file (it was refused as "another run").
    assert main(["tune", str(doc_path), "--qa", str(qa), "--synthetic", "30", "--quiet",
                 "--out", str(tmp_path / "out")]) == 0
    assert len(list((tmp_path / "out").glob("*.json"))) == 1


def test_a_files_document_id_comes_from_its_text(tmp_path: Path) -> None:
    from chunkviz.document import content_id

    text = (SAMPLES / "policy_ja.md").read_text(encoding="utf-8")
    (tmp_path / "a.md").write_text(text, encoding="utf-8")
    (tmp_path / "b.txt").write_text(text.replace("\n", "\r\n"), encoding="utf-8")
    a, b = document_from_file(tmp_path / "a.md"), document_from_file(tmp_path / "b.txt")
    assert a.doc_id == b.doc_id == content_id(text)  # CRLF is read as LF, as an upload is
    assert (a.title, b.title) == ("a.md", "b.txt")
    assert content_id(text + " ") != content_id(text)
    assert content_id("\ud800").startswith("doc-")  # a lone surrogate has an id too


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
    from chunkviz.eval.imported import import_chunks, imported_label

    label = imported_label(import_chunks(chunks.read_bytes(), "chunks.json", text))
    assert f"\n{label} " in captured.out  # labelled as on the Tune page
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


def test_cli_tune_margin_gives_the_recommendation_of_that_margin(tmp_path: Path, capsys) -> None:
    doc_path = tmp_path / "policy.md"
    doc_path.write_text((SAMPLES / "policy_ja.md").read_text(encoding="utf-8"), encoding="utf-8")
    doc = document_from_file(doc_path)
    assert main(["tune", str(doc_path), "--synthetic", "40", "--margin", "0.25",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    full = tune(doc, synthetic=40, margin=0.25, cache_dir=tmp_path / "c")
    assert full.recommendation.delta == 0.25
    assert f"Why: {reason_text('en', full.recommendation)}\n" in out
    assert "±0.25" in out
    assert main(["tune", str(doc_path), "--margin", "0"]) != 0
    err = capsys.readouterr().err
    assert "argument --margin: must be a finite number in (0, 1] (got '0')" in err
