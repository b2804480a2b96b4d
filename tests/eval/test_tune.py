"""Tune: Pareto fronts, the recommendation rule, and the CLI printing what the core computes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunkviz.cli import main
from chunkviz.errors import ParameterError
from chunkviz.eval.grid import tune_grid
from chunkviz.eval.results import load_results
from chunkviz.eval.synthetic import DEFAULT_FORM, VALIDATION
from chunkviz.eval.tune import (
    TunePoint,
    document_from_file,
    pareto_front,
    probe_lost,
    qa_questions,
    recommend,
    tune,
)
from chunkviz.samples import __file__ as samples_init
from chunkviz.views.tune_report import format_tune, reason_text

SAMPLES = Path(samples_init).parent


def _point(label: str, quality: float, index_bytes: int, chars: float) -> TunePoint:
    return TunePoint(label, quality, quality, quality, 10, index_bytes, chars, chars / 2, 0)


def test_default_grid_has_16_unique_configurations() -> None:
    grid = tune_grid()
    assert len(grid) == 16
    assert len({c.label for c in grid}) == 16
    assert {c.strategy for c in grid} == {"fixed", "recursive", "sentence", "paragraph"}


def test_pareto_front_keeps_only_undominated_points() -> None:
    points = [
        _point("a", 0.9, 100, 500),
        _point("b", 0.8, 50, 100),
        _point("c", 0.7, 60, 90),
        _point("d", 0.9, 120, 50),
    ]
    assert pareto_front(points, "index_bytes") == ["b", "a"]
    assert pareto_front(points, "context_chars") == ["d"]


SIX = (
    "梅雨は六月に始まる。台風は九月に多い。桜は四月に咲く。紅葉は十一月に見頃になる。"
    "雪は一月に積もる。花火は八月に上がる。" + "これは説明のための文である。" * 15
)
SIX_QA = [
    {"question": q, "answer": a}
    for q, a in (
        ("梅雨はいつ始まる？", "六月"),
        ("台風はいつ多い？", "九月"),
        ("桜はいつ咲く？", "四月"),
        ("紅葉の見頃は？", "十一月"),
        ("雪はいつ積もる？", "一月"),
        ("花火はいつ上がる？", "八月"),
    )
]


def test_tune_on_six_questions_every_configuration_finds_says_saturated(
    tmp_path: Path, capsys
) -> None:
    # Six pairs on a short document: every configuration finds every answer, so the paired
    # differences are all zero. A TOST on zero variance gives p = 0; the decision rule must
    # call that saturated, never equivalent.
    doc_path = tmp_path / "six.txt"
    doc_path.write_text(SIX, encoding="utf-8")
    qa = tmp_path / "six.qa.json"
    qa.write_text(json.dumps(SIX_QA, ensure_ascii=False), encoding="utf-8")
    doc = document_from_file(doc_path)
    result = tune(doc, questions=qa_questions(qa, doc), cache_dir=tmp_path / "c")
    assert all(p.quality == 1.0 for p in result.points)
    rec = result.recommendation
    assert rec.basis == "budget"
    assert rec.saturated
    assert rec.count("saturated") == len(result.points) - 1
    assert rec.count("equivalent") == 0
    # Windows of 400 characters and more, and the paragraph, hold the whole document in one
    # chunk: not retrieval, never recommended.
    assert {"fixed-400-0", "fixed-800-0", "paragraph"} <= set(rec.ineligible)
    assert rec.pick not in rec.ineligible
    assert main(["tune", str(doc_path), "--qa", str(qa), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "saturated" in out
    assert "equivalent" not in out.lower()
    assert f"Recommended at 2,000 characters: {result.pick}\n" in out
    assert out.index("cannot separate") < out.index("config ")  # before any number
    assert "Not retrieval at 2,000 characters: " in out
    # The tie goes to the document-blind prior, and the report says so.
    assert rec.driver == "prior"
    assert rec.pick == rec.prior_pick
    assert "Your document behaves like the average" in out


def test_a_document_without_line_breaks_never_gets_itself_back(tmp_path: Path) -> None:
    # One line, no blank line: ``paragraph`` is the whole document as one chunk, whose recall
    # is 1 by construction; it must never be recommended, at any budget.
    sample = (SAMPLES / "policy_ja.md").read_text(encoding="utf-8")
    text = "".join(sample.split())
    doc_path = tmp_path / "one_line.txt"
    doc_path.write_text(text, encoding="utf-8")
    doc = document_from_file(doc_path)
    assert "\n" not in doc.text
    for budget in (1000, 2000, 4000):
        result = tune(
            doc,
            synthetic=60,
            cache_dir=tmp_path / "c",
            budget=budget,
            bootstrap=200,
            permutations=1000,
        )
        rec = result.recommendation
        assert "paragraph" in rec.ineligible
        assert rec.pick != "paragraph"
        assert rec.option(rec.pick).eligible
        whole = [p.label for p in result.points if p.chunks <= 1]
        assert rec.pick not in whole


def test_a_document_every_configuration_keeps_whole_is_refused_clearly(tmp_path: Path) -> None:
    doc_path = tmp_path / "tiny.txt"
    doc_path.write_text("梅雨は六月に始まる。台風は九月に多い。", encoding="utf-8")
    doc = document_from_file(doc_path)
    with pytest.raises(ParameterError, match="no configuration can be retrieved"):
        tune(doc, questions=qa_questions_from(tmp_path, doc), cache_dir=tmp_path / "c")


def qa_questions_from(tmp_path: Path, doc):  # type: ignore[no-untyped-def]
    qa = tmp_path / "tiny.qa.json"
    qa.write_text(json.dumps(SIX_QA[:2], ensure_ascii=False), encoding="utf-8")
    return qa_questions(qa, doc)


def test_a_one_chunk_configuration_is_not_said_to_score_1_by_construction(tmp_path: Path) -> None:
    # fixed-800-0 on a short document holds it in one chunk: every chunk is retrieved, but an
    # answer cut at the end of the window is still lost, so Recall@5 can be below 1.
    text = "あ" * 797 + "答えはここ。" + "い" * 100
    doc_path = tmp_path / "doc.txt"
    doc_path.write_text(text, encoding="utf-8")
    qa = tmp_path / "qa.json"
    qa.write_text(
        json.dumps(
            [
                {"question": "答えは？", "answer": "答えはここ"},
                {"question": "あは？", "answer": "あああ"},
            ],
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    doc = document_from_file(doc_path)
    grid = [c for c in tune_grid() if c.label in ("fixed-800-0", "fixed-100-20")]
    result = tune(doc, questions=qa_questions(qa, doc), configs=grid, cache_dir=tmp_path / "c")
    one = next(p for p in result.points if p.label == "fixed-800-0")
    assert one.whole_index_retrieved
    assert one.quality < 1.0
    out = format_tune(result)
    assert "by construction" not in out
    assert (
        f"fixed-800-0: at most 5 chunks, so every chunk is retrieved; its recall@5 "
        f"({one.quality:.3f}) only counts answers no chunk holds whole"
    ) in out


def test_recommend_reads_the_results_file_and_its_margin(tmp_path: Path) -> None:
    doc = document_from_file(SAMPLES / "policy_ja.md")
    result = tune(
        doc,
        synthetic=60,
        configs=tune_grid()[:6],
        bootstrap=100,
        permutations=200,
        cache_dir=tmp_path,
    )
    rec = result.recommendation
    assert rec.delta == 0.01
    assert rec.basis == "budget"
    assert result.at_k is not None
    assert result.at_k.basis == "equal_k"
    assert result.at_k.option(result.at_k.pick).cost.k == 5
    # At the budget every configuration sends the budget's characters (the last chunk in part).
    for o in rec.options:
        point = next(p for p in result.points if p.label == o.label)
        assert o.cost.chars == pytest.approx(min(2000.0, point.chunks * o.cost.chars / o.cost.k))
    wide, _at_k = recommend(result.results, 0.3)
    assert wide.delta == 0.3
    assert {v.label for v in wide.versus} == {p.label for p in result.points} - {wide.best}
    # Never a headline whose interval of the difference lies below zero.
    assert not any(v.label == wide.pick and v.worse_by_interval for v in wide.versus)
    with pytest.raises(ParameterError, match="margin must be positive"):
        recommend(result.results, 0)
    assert "Recall@budget at Equal context budget: 2,000 characters each" in reason_text(
        "en", result
    )
    assert "最良" in reason_text("ja", result)


def test_tune_on_a_built_in_sample_with_synthetic_questions(tmp_path: Path) -> None:
    doc = document_from_file(SAMPLES / "policy_ja.md")
    grid = tune_grid()[:6]
    result = tune(
        doc, synthetic=60, configs=grid, bootstrap=100, permutations=200, cache_dir=tmp_path
    )
    source = result.source
    assert source["synthetic"] is True
    assert f"synthetic {DEFAULT_FORM} questions" in result.results.dataset.name
    assert "favour lexical retrieval" in source["caveat"]
    assert f"median Spearman rho = {VALIDATION[DEFAULT_FORM]['bm25']:.2f}" in source["validation"]
    assert [p.label for p in result.points] == [c.label for c in grid]
    assert result.recommendation.pick in [p.label for p in result.points]
    assert result.probes > 100
    assert (result.asked, result.made) == (60, 60)
    text = format_tune(result)
    assert text.startswith(f"Recommended at 2,000 characters of context: {result.pick}")
    assert "# synthetic questions" in text
    assert "# 60 synthetic questions made, as asked." in text
    assert f"Recommended at 2,000 characters: {result.pick}" in text
    assert "key phrases in your document" in text
    assert "Held out (bench/verdict_holdout.py): on " in text
    assert "median Spearman rho" not in text  # the held-out figure, not the tuning split's rho
    few = tune(
        doc, synthetic=5000, configs=grid, bootstrap=100, permutations=200, cache_dir=tmp_path
    )
    assert few.made < few.asked == 5000
    assert (
        f"{few.made:,} of the 5,000 synthetic questions asked were made: this document has "
        f"only {few.made:,} key phrases"
    ) in format_tune(few)
    with pytest.raises(ParameterError, match="no questions to evaluate"):
        tune(doc, configs=grid)


def test_cli_tune_prints_the_core_recommendation(tmp_path: Path, capsys) -> None:
    doc_path = tmp_path / "policy.md"
    doc_path.write_text((SAMPLES / "policy_ja.md").read_text(encoding="utf-8"), encoding="utf-8")
    qa = tmp_path / "qa.json"
    qa.write_text((SAMPLES / "policy_ja.qa.json").read_text(encoding="utf-8"), encoding="utf-8")
    doc = document_from_file(doc_path)
    expected = tune(doc, questions=qa_questions(qa, doc), synthetic=30, cache_dir=tmp_path / "c")
    assert (
        main(
            [
                "tune",
                str(doc_path),
                "--qa",
                str(qa),
                "--synthetic",
                "30",
                "--quiet",
                "--out",
                str(tmp_path / "out"),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert f"Recommended at 2,000 characters: {expected.pick}\n" in out
    assert f"Why: {reason_text('en', expected)}\n" in out
    saved = load_results(next((tmp_path / "out").glob("*.json")))
    own = len(qa_questions(qa, doc))
    assert saved.dataset.name == f"policy.md [{own} own + 30 synthetic {DEFAULT_FORM} questions]"
    assert saved.ranks == expected.results.ranks
    assert saved.questions_source is not None
    assert saved.questions_source == expected.results.questions_source
    assert (saved.questions_source.kind, saved.questions_source.synthetic) == ("both", 30)
    # An identical rerun rewrites its identical file (it was refused as "another run").
    assert (
        main(
            [
                "tune",
                str(doc_path),
                "--qa",
                str(qa),
                "--synthetic",
                "30",
                "--quiet",
                "--out",
                str(tmp_path / "out"),
            ]
        )
        == 0
    )
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
    assert (
        main(["tune", str(doc_path), "--chunks", str(chunks), "--synthetic", "30", "--quiet"]) == 0
    )
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
    assert (
        main(["tune", str(doc_path), "--form", "lm", "--lm", "hf:/nonexistent/lm", "--quiet"]) == 2
    )
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
    assert main(["tune", str(doc_path), "--synthetic", "40", "--margin", "0.25", "--quiet"]) == 0
    out = capsys.readouterr().out
    full = tune(doc, synthetic=40, margin=0.25, cache_dir=tmp_path / "c")
    assert full.recommendation.delta == 0.25
    assert f"Why: {reason_text('en', full)}\n" in out
    # The margin is said unless every comparison is saturated (then no margin is claimed).
    assert full.recommendation.saturated or "±0.25" in out
    assert main(["tune", str(doc_path), "--margin", "0"]) != 0
    err = capsys.readouterr().err
    assert "argument --margin: must be a finite number in (0, 1] (got '0')" in err
