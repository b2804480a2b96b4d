"""The Benchmark dashboard's core: every number it shows, checked against the results file."""

from __future__ import annotations

import math
import os
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from msgspec.structs import replace

from chunkviz.datasets import load_dataset
from chunkviz.document import chunk_document
from chunkviz.errors import ChunkvizError, ParameterError
from chunkviz.eval.grid import Config, build_grid
from chunkviz.eval.measures import metric_label, pairwise_keys
from chunkviz.eval.results import Results, load_results
from chunkviz.eval.runner import default_results_dir, shipped_results_dir
from chunkviz.eval.spans import analyze_spans
from chunkviz.eval.stats import PairwiseResult
from chunkviz.eval.verdict import budget_view, choose, with_margin
from chunkviz.views.backend_comparison import compare_backends
from chunkviz.views.benchmark_tables import cell_text, encode_time_text, main_table_markdown
from chunkviz.views.curves import curve, curve_measures, curves, mode_rows
from chunkviz.views.drilldown import answer_context, drilldown_rows, question_label
from chunkviz.views.main_table import Cell, best_labels, main_table
from chunkviz.views.markup import escape_markdown
from chunkviz.views.numbers import format_bytes, parse_ints
from chunkviz.views.results_dirs import RECOMPUTE_DIR_ENV, RESULTS_DIRS_ENV, results_dirs
from chunkviz.views.retests import replication, sensitivity_definitions, sensitivity_rows
from chunkviz.views.run_list import (
    backend_partners,
    read_summary,
    replication_partners,
    summarize,
)
from chunkviz.views.sentences import backend_sentence, sentence, sentences
from chunkviz.views.share_link import explore_query, explore_sample_for, from_query
from chunkviz.views.significance import (
    comparisons,
    margin_of,
    significance_matrix,
    verdict,
)
from chunkviz.views.verdict import choice_sentence, verdicts

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


METRICS = pairwise_keys()


def _load(name: str) -> Results:
    return load_results(FIXTURES / name)


@pytest.fixture(scope="module")
def bm25() -> Results:
    return _load("results_small.json")


@pytest.fixture(scope="module")
def dense() -> Results:
    return _load("results_small_dense.json")


def test_metric_label_formats_display_names():
    assert [metric_label(m) for m in METRICS] == ["Recall@5", "nDCG@10", "MRR@10"]


def test_main_table_copies_the_file_and_flags_the_maximum(bm25):
    rows = main_table(bm25)
    assert [r.label for r in rows] == list(bm25.labels)
    for row, config in zip(rows, bm25.configs, strict=True):
        assert row.chunks == config.chunks
        assert row.broken == config.broken
        assert row.index_bytes == config.index_bytes
        assert row.questions == len(bm25.question_ids)
        for metric in METRICS:
            stats = bm25.metrics[row.label][metric]
            cell = row.cells[metric]
            assert (cell.mean, cell.ci_low, cell.ci_high) == (
                stats.mean,
                stats.ci_low,
                stats.ci_high,
            )
    # paragraph has the top means but beats only fixed-100-0 significantly: nothing is bold and
    # the tied group at the top is paragraph with the configurations it cannot be told from.
    for metric in METRICS:
        assert not [r.label for r in rows if r.cells[metric].best]
        assert {r.label for r in rows if r.cells[metric].tied} == {r.label for r in rows} - {
            "fixed-100-0"
        }


def _clear(results: Results, best: str) -> Results:
    """``results`` with every test of ``best`` significant (a clear winner)."""
    return replace(
        results,
        pairwise=tuple(
            replace(p, significant=True) if best in (p.a, p.b) else p for p in results.pairwise
        ),
    )


def test_only_a_best_that_beats_every_other_is_bold(bm25):
    rows = main_table(_clear(bm25, "paragraph"))
    for metric in METRICS:
        assert [r.label for r in rows if r.cells[metric].best] == ["paragraph"]
        assert not [r.label for r in rows if r.cells[metric].tied]
    v = verdict(_clear(bm25, "paragraph"), "recall@5")
    assert v.clear
    assert v.tied == ()


def test_verdict_names_the_best_its_ties_and_the_unit(bm25):
    v = verdict(bm25, "recall@5")
    assert (v.best, v.clear, v.unit, v.units, v.questions) == (
        "paragraph",
        False,
        "question",
        15,
        15,
    )
    assert set(v.tied) == set(bm25.labels) - {"paragraph", "fixed-100-0"}
    assert v.delta is None  # a file written before equivalence tests
    with pytest.raises(ParameterError, match="no pairwise tests"):
        verdict(bm25, "recall@1")


def test_the_recommendation_is_the_least_context_shown_equivalent_never_fewest_chunks(bm25):
    cheaper = "fixed-200-40"
    # Fewer chunks for paragraph must not make it cheaper: cost is the context sent at k.
    # (One chunk per document would make it no retrieval at all: one more than that.)
    configs = tuple(
        replace(c, mean_chunk_chars=10.0)
        if c.label == cheaper
        else replace(c, chunks=bm25.dataset.documents + 1)
        if c.label == "paragraph"
        else c
        for c in bm25.configs
    )
    pairs = tuple(
        replace(
            p,
            delta=0.01,
            equivalent=True,
            significant=False,
            eq_ci=(-0.005, 0.005),
            p_equiv=0.001,
            p_equiv_holm=0.004,
            ci_low=-0.004,
            ci_high=0.006,
            detectable=0.004,
        )
        if p.metric == "recall@5" and {p.a, p.b} == {"paragraph", cheaper}
        else replace(p, delta=0.01)
        for p in bm25.pairwise
    )
    data = replace(
        bm25, configs=configs, pairwise=pairs, stats=replace(bm25.stats, unit="document", units=3)
    )
    choice = choose(data, "recall@5", "equal_k", 0.01)
    assert (choice.best, choice.pick, choice.rule) == ("paragraph", cheaper, "equivalent")
    assert choice.option(cheaper).cost.chars == 50.0  # k = 5 chunks of 10 characters
    en = choice_sentence("en", choice, budget_chars=2000, questions=15, unit="document", units=3)
    assert f"Recommended: {cheaper}" in en
    assert "shown equivalent to paragraph within ±0.01" in en
    assert "less context" in en
    assert "chunks each" in en
    assert "fewest chunks" not in en
    assert "推奨" in choice_sentence(
        "ja", choice, budget_chars=2000, questions=15, unit="document", units=3
    )
    words = sentences(data, "recall@5", "en")
    assert any("equivalent within ±0.01" in w for w in words.shown)
    assert all("inconclusive" in w for w in words.folded)


def test_a_tie_flags_every_best_configuration(dense):
    assert best_labels(dense, "recall@5") == ("fixed-200-40", "paragraph")


def test_broken_counts_agree_with_null_ranks(bm25):
    for row in main_table(bm25):
        assert row.broken == sum(r is None for r in bm25.ranks[row.label])


def test_significance_matrix_is_antisymmetric_and_keeps_the_file_flags(bm25):
    matrix = significance_matrix(bm25, "ndcg@10")
    n = len(matrix.labels)
    for i in range(n):
        assert matrix.cells[i][i] is None
        for j in range(n):
            if i != j:
                a, b = matrix.cells[i][j], matrix.cells[j][i]
                assert a is not None
                assert b is not None
                assert a.diff == -b.diff
                assert a.significant == b.significant
    flagged = {
        frozenset((p.a, p.b)) for p in bm25.pairwise if p.metric == "ndcg@10" and p.significant
    }
    shown = {
        frozenset((matrix.labels[i], matrix.labels[j]))
        for i in range(n)
        for j in range(n)
        if matrix.cells[i][j] is not None and matrix.cells[i][j].significant
    }
    assert shown == flagged == {frozenset(("fixed-100-0", "paragraph"))}


def test_sentence_names_the_better_configuration_first_when_significant(bm25):
    comp = next(c for c in comparisons(bm25, "ndcg@10") if c.significant)
    assert comp.diff < 0  # the file lists the worse one first: the sentence turns it round
    en = sentence(comp, "en")
    assert en.startswith(f"{comp.b} vs {comp.a}: nDCG@10 higher by {abs(comp.diff):.3f}")
    assert "survives correction" in en
    ja = sentence(comp, "ja")
    assert ja.startswith(f"{comp.b} と {comp.a}")
    assert "補正" in ja
    assert "有意" in ja
    assert "差はない" not in ja


def test_sentence_says_no_detectable_difference_never_equal(bm25):
    comp = next(c for c in comparisons(bm25, "recall@5") if not c.significant)
    en = sentence(comp, "en")
    assert "no detectable difference — not the same as equal" in en
    assert "survives" not in en
    assert "等しいという意味ではない" in sentence(comp, "ja")


def test_sentences_show_conclusions_and_fold_the_rest(bm25):
    words = sentences(bm25, "mrr@10", "en")
    assert len(words.shown) + len(words.folded) == 3
    assert len(words.shown) == 1
    assert "survives correction" in words.shown[0]
    assert all("no detectable difference" in s for s in words.folded)


def test_a_floor_p_value_reads_as_a_bound_with_discordant_counts():
    row = PairwiseResult(
        metric="recall@5",
        a="x",
        b="y",
        diff=0.05,
        ci_low=0.02,
        ci_high=0.08,
        p_value=1 / 5001,
        p_holm=28 / 5001,
        significant=True,
        unit="document",
        p_bound=True,
        p_holm_bound=True,
        wins=(120, 40),
    )
    en = sentence(row, "en")
    assert "Holm-adjusted p ≤ 0.0056" in en
    assert "x wins 120 questions, y wins 40." in en
    assert "p ≤ 0.0056" in sentence(row, "ja")
    assert "120 問" in sentence(row, "ja")


@pytest.mark.parametrize(
    ("metric", "k", "expected"),
    [
        ("recall", 2, 1 / 3),
        ("recall", 3, 2 / 3),
        ("ndcg", 5, (1 + 1 / math.log2(4)) / 3),
        ("mrr", 5, (1 + 1 / 3) / 3),
        ("mrr", 1, 1 / 3),
    ],
)
def test_curve_on_hand_computed_ranks(metric, k, expected):
    assert curve([1, 3, None], metric, [k]) == [pytest.approx(expected)]


def test_curve_rejects_k_below_one():
    with pytest.raises(ParameterError, match="k must be a positive integer"):
        curve([1], "recall", [0])


@pytest.mark.parametrize("name", ["results_small.json", "results_small_dense.json"])
def test_curves_from_ranks_reproduce_the_file(name):
    results = _load(name)
    for metric in curve_measures():
        for label, values in curves(results, metric).items():
            for k, value in zip(results.ks, values, strict=True):
                if f"{metric}@{k}" in results.metrics[label]:
                    assert value == results.metrics[label][f"{metric}@{k}"].mean


def test_budget_rows_use_the_file_k_per_configuration(bm25):
    rows = mode_rows(bm25, "budget")
    assert {r.label: r.k for r in rows} == bm25.budget.k
    for row in rows:
        stats = bm25.budget.metrics[row.label]["recall@budget"]
        assert row.mean == stats.mean
        assert (row.ci_low, row.ci_high) == (stats.ci_low, stats.ci_high)


def test_equal_k_rows_all_retrieve_k_chunks(bm25):
    rows = mode_rows(bm25, "equal_k", k=5)
    assert {r.k for r in rows} == {5}
    for row in rows:
        assert row.mean == bm25.metrics[row.label]["recall@5"].mean
    # Equal k hands the generator more text with larger chunks.
    chars = {r.label: r.chars for r in rows}
    assert chars["fixed-200-40"] > chars["fixed-100-0"]


def test_compare_backends_sees_the_best_change_on_ndcg(bm25, dense):
    cmp = compare_backends(bm25, dense, "ndcg@10")
    assert (cmp.backend_a, cmp.backend_b) == ("bm25", "use-m3")
    assert cmp.best_a == ("paragraph",)
    assert cmp.best_b == ("fixed-200-40",)
    assert not cmp.same_best
    # paragraph beats fixed-100-0 significantly under bm25, but not fixed-200-40.
    assert cmp.clear_a is False
    assert "changes with the retriever" in backend_sentence(cmp, "en")
    assert "変わる" in backend_sentence(cmp, "ja")
    # Backends named in words, not by their registry ids.
    assert "BM25, character bigrams" in backend_sentence(cmp, "en")
    assert "BM25・文字バイグラム" in backend_sentence(cmp, "ja")
    places = {r.label: (r.place_a, r.place_b) for r in cmp.rows}
    assert places == {"fixed-100-0": (3, 3), "fixed-200-40": (2, 1), "paragraph": (1, 2)}


def test_compare_backends_shares_a_tied_best(bm25, dense):
    cmp = compare_backends(bm25, dense, "recall@5")
    assert cmp.same_best
    assert "does not change" in backend_sentence(cmp, "en")


def test_compare_backends_needs_a_shared_configuration(bm25, dense):
    other = replace(dense, configs=tuple(replace(c, label=c.label + "-x") for c in dense.configs))
    with pytest.raises(ChunkvizError, match="share no configuration"):
        compare_backends(bm25, other, "recall@5")


def test_backend_partners_match_questions_not_backend(bm25, dense, tmp_path):
    a = summarize(bm25, tmp_path / "a.json")
    b = summarize(dense, tmp_path / "b.json")
    other_sample = summarize(
        replace(dense, dataset=replace(dense.dataset, sample=5)), tmp_path / "c.json"
    )
    assert backend_partners([a, b, other_sample], a) == [b]
    assert backend_partners([a, other_sample], a) == []


def test_summarize_reads_what_the_run_list_shows(bm25):
    s = summarize(bm25, Path("results_small.json"))
    assert (s.backend, s.model, s.dataset, s.sample, s.seed, s.questions, s.created) == (
        "bm25",
        "bm25s char-2gram",
        "jsquad-tiny",
        0,
        0,
        15,
        "2026-11-29T12:00:00Z",
    )


def test_the_run_list_entry_read_from_the_listed_fields_equals_the_whole_files():
    # Issue 39: the list reads the fields it shows, not every file's tables.
    for path in [
        *sorted(FIXTURES.glob("results_small*.json")),
        *sorted(shipped_results_dir().glob("*.json")),
    ]:
        assert read_summary(path) == summarize(load_results(path), path), path


@pytest.mark.parametrize(
    "text",
    [
        '{"schema": "chunkviz.benchmark", "schema_version": 3, "configs": 7}',  # wrong type
        '{"schema": "other"}',
        '{"schema": "chunkviz.benchmark", "schema_version": 99}',
        "[1, 2",  # not JSON
    ],
)
def test_a_file_whose_listed_fields_cannot_be_read_is_left_to_the_whole_reader(tmp_path, text):
    path = tmp_path / "x.json"
    path.write_text(text, encoding="utf-8")
    assert read_summary(path) is None
    with pytest.raises(ChunkvizError):
        load_results(path)


def test_answer_context_cuts_by_offsets():
    text = "梅雨（つゆ）は、北海道と小笠原諸島を除く日本の現象。"
    start = text.index("小笠原諸島")  # locating a known answer in a test is a search, fine
    ctx = answer_context(text, start, start + 5, width=4)
    assert (ctx.before, ctx.answer, ctx.after) == ("北海道と", "小笠原諸島", "を除く日")
    assert (ctx.start, ctx.end) == (start, start + 5)
    with pytest.raises(ParameterError, match="outside the document"):
        answer_context(text, 5, 500)


def test_explore_query_uses_explores_share_url_names():
    query = parse_qs(explore_query("fixed", {"size": 400, "overlap": 80}, "jsquad_tsuyu"))
    assert query == {
        "strategy": ["fixed"],
        "size": ["400"],
        "overlap": ["80"],
        "sample": ["jsquad_tsuyu"],
    }
    # Explore restores exactly this configuration from the link, with nothing ignored.
    shared = from_query({k: v[0] for k, v in query.items()})
    assert (shared.strategy, shared.params, shared.sample, shared.problems) == (
        "fixed",
        {"size": 400, "overlap": 80},
        "jsquad_tsuyu",
        (),
    )
    assert parse_qs(explore_query("paragraph", {}, None)) == {"strategy": ["paragraph"]}


def test_explore_sample_for_finds_the_jsquad_article_among_the_samples():
    tsuyu = load_dataset("jsquad").document("a10336")
    assert explore_sample_for(tsuyu.text) == "jsquad_tsuyu"
    tiny = load_dataset(f"jsquad:{FIXTURES / 'data' / 'jsquad_tiny.json'}").document("a10336")
    assert explore_sample_for(tiny.text) is None


def test_build_grid_crosses_sizes_and_overlap_percents():
    grid = build_grid(["fixed", "paragraph"], (100, 200), (0, 20))
    assert [c.label for c in grid] == [
        "fixed-100-0",
        "fixed-100-20",
        "fixed-200-0",
        "fixed-200-40",
        "paragraph",
    ]
    assert dict(grid[3].params) == {"size": 200, "overlap": 40}


def test_build_grid_sizes_every_strategy_with_a_required_size():
    grid = build_grid(["recursive", "paragraph"], (300,), (0, 10))
    assert [(c.label, dict(c.params)) for c in grid] == [
        ("recursive-300-0", {"size": 300, "overlap": 0}),
        ("recursive-300-30", {"size": 300, "overlap": 30}),
        # paragraph's max_size is an optional cap: the natural paragraphs run once.
        ("paragraph", {}),
    ]


@pytest.mark.parametrize(
    ("strategies", "sizes", "percents", "message"),
    [
        ([], (100,), (0,), "strategies is empty"),
        (["fixed"], (), (0,), "sizes is empty"),
        (["fixed"], (100,), (100,), "overlap percent must be from 0 to 99"),
        (["fixed"], (0,), (0,), "size"),
        (["nope"], (100,), (0,), "unknown strategy"),
    ],
)
def test_build_grid_rejects_bad_grids(strategies, sizes, percents, message):
    with pytest.raises(ChunkvizError, match=message):
        build_grid(strategies, sizes, percents)


def test_parse_ints_accepts_commas_spaces_and_japanese_commas():
    assert parse_ints("100, 200 400、800, 100", "sizes") == (100, 200, 400, 800)
    with pytest.raises(ParameterError, match="sizes must be whole numbers"):
        parse_ints("100, abc", "sizes")


def test_results_dirs_from_environment(tmp_path):
    env = {
        RESULTS_DIRS_ENV: f"{tmp_path / 'a'}{os.pathsep}{tmp_path / 'b'}",
        RECOMPUTE_DIR_ENV: str(tmp_path / "new"),
    }
    assert results_dirs(env) == (tmp_path / "a", tmp_path / "b", tmp_path / "new")
    default = results_dirs({})
    assert default[0] == shipped_results_dir()
    assert default[-1] == default_results_dir()


def test_format_bytes():
    assert format_bytes(512) == "512 B"
    assert format_bytes(4014080) == "3.8 MiB"


def test_markdown_cells_bold_only_a_clear_best(bm25):
    table = main_table_markdown(main_table(bm25), "en")
    assert "**" not in table  # no clear best in this file
    assert "1.000 ▲ [1.000,\u00a01.000]" in table
    table = main_table_markdown(main_table(_clear(bm25, "paragraph")), "en")
    assert table.count("**") == 2 * 3  # one bold mean per metric column
    assert "**1.000** [1.000,\u00a01.000]" in table
    cell = Cell(0.5, 0.25, 0.75, best=False)
    assert cell_text(cell) == "0.500 [0.250,\u00a00.750]"  # no break inside the interval
    assert (
        main_table_markdown(main_table(bm25), "en", encode_key="col_index_build").count(
            "Index build"
        )
        == 1
    )


def test_a_configuration_that_encoded_nothing_reads_cached_not_zero_seconds(bm25):
    # The shipped use-m3 run came wholly from the embedding cache: every configuration was
    # charged 0 s, which the table printed as "0.00 s" as if encoding were free.
    cached = replace(bm25, configs=tuple(replace(c, encode_seconds=0.0) for c in bm25.configs))
    table = main_table_markdown(main_table(cached), "en")
    assert "0.00 s" not in table
    assert table.count("— (cached)") == len(bm25.configs)
    assert encode_time_text(0.0041, "en") == "< 0.01 s"
    assert encode_time_text(1.234, "en") == "1.23 s"


def test_question_labels_lead_with_the_text():
    assert question_label("a1p0q0", {"a1p0q0": "梅雨とは何か"}) == "梅雨とは何か (a1p0q0)"
    assert question_label("a1p0q1", {}) == "a1p0q1"


def test_escape_markdown_neutralises_markdown_and_latex():
    assert escape_markdown("a|b*c_$x$:red[y]<b>") == r"a\|b\*c\_\$x\$\:red\[y\]\<b\>"


@pytest.fixture(scope="module")
def tiny():
    return load_dataset(f"jsquad:{FIXTURES / 'data' / 'jsquad_tiny.json'}")


@pytest.mark.parametrize("name", ["results_small.json", "results_small_dense.json"])
def test_fixture_losses_agree_with_span_analysis(name, tiny):
    # The hand-written ranks are null exactly where no chunk of the real chunking holds the answer.
    results = _load(name)
    for row in main_table(results):
        config = Config.from_dict(
            {"label": row.label, "strategy": row.strategy, "params": row.params}
        )
        lost = []
        for q in tiny.questions:
            chunking = chunk_document(tiny.document(q.doc_id), config.strategy, config.params)
            report = analyze_spans(chunking, list(q.spans))
            lost.append(not any(s.containing for s in report.statuses))
        assert lost == [r is None for r in results.ranks[row.label]]
        assert list(results.question_ids) == [q.qid for q in tiny.questions]


def test_drilldown_rows_locate_chunks_by_offsets(bm25, tiny):
    q = tiny.questions[8]
    spans = [(s.start, s.end) for s in q.spans]
    rows = {r.label: r for r in drilldown_rows(bm25, q.qid, q.doc_id, spans)}
    lost = rows["fixed-100-0"]
    assert (lost.rank, lost.containing, lost.cutting) == (None, (), ((0, 100), (100, 200)))
    assert spans[0][0] < 100 < spans[0][1]  # the boundary at 100 falls inside the answer
    held = rows["fixed-200-40"]
    assert held.rank == 1
    assert held.top is not None
    assert held.top_relevant
    assert all(s <= spans[0][0] and spans[0][1] <= e for s, e in held.containing)
    assert rows["paragraph"].top_relevant is False


def test_log_ticks_are_one_two_five_per_decade():
    from chunkviz.ui.benchmark.figures import log_ticks

    assert log_ticks(30, 2100) == [50, 100, 200, 500, 1000, 2000]
    assert log_ticks(250, 450) == [300, 400]  # fewer than two 1-2-5 values: every digit
    assert log_ticks(1, 10) == [1, 2, 5, 10]


def _with_sensitivity(results: Results) -> tuple[Results, tuple[str, str]]:
    """``results`` with a sensitivity section: every definition agrees except one pair."""
    from chunkviz.eval.results import NdcgAll, Sensitivity

    flipped = next(r for r in results.pairwise if r.metric == "recall@5" and r.significant)
    ties = tuple(replace(r, significant=False) if r is flipped else r for r in results.pairwise)
    rows = {
        "ties_optimistic": ties,
        "relevance_any_answer": results.pairwise,
        "ndcg_all_relevant": tuple(r for r in results.pairwise if r.metric == "ndcg@10"),
    }
    sens = Sensitivity(
        definitions={},
        ranks={},
        ndcg_all=NdcgAll(k=10, places={}, relevant_counts={}),
        pairwise=rows,
    )
    return replace(results, sensitivity=sens), (flipped.a, flipped.b)


def test_sensitivity_rows_list_only_pairs_whose_outcome_changes(bm25):
    data, pair = _with_sensitivity(bm25)
    assert sensitivity_definitions(data, "recall@5") == ("ties_optimistic", "relevance_any_answer")
    assert sensitivity_definitions(data, "ndcg@10")[-1] == "ndcg_all_relevant"
    (row,) = sensitivity_rows(data, "recall@5")
    assert (row.a, row.b) == pair
    assert row.changed == ("ties_optimistic",)
    assert row.under["ties_optimistic"] == "inconclusive"
    assert row.main in ("a_better", "b_better")
    assert sensitivity_rows(data, "ndcg@10") == ()
    assert sensitivity_rows(bm25, "recall@5") == ()  # a file without the section
    from chunkviz.views.benchmark_tables import sensitivity_markdown

    table = sensitivity_markdown((row,), ("ties_optimistic", "relevance_any_answer"), "en")
    assert "**inconclusive**" in table  # the changed cell is bold
    assert table.count("**") == 2


def test_replication_says_which_conclusions_hold_on_another_question_set(bm25):
    first = next(r for r in bm25.pairwise if r.metric == "mrr@10" and r.significant)
    other = replace(
        bm25,
        dataset=replace(bm25.dataset, spec="jsquad:train.json"),
        pairwise=tuple(replace(r, significant=False) if r is first else r for r in bm25.pairwise),
    )
    reps = replication(bm25, other, "mrr@10")
    status = {(r.a, r.b): r.status for r in reps}
    assert status[(first.a, first.b)] == "one_only"
    assert set(status.values()) <= {"neither", "one_only"}
    same = [r.status for r in replication(bm25, bm25, "mrr@10")]
    assert "holds" in same
    assert set(same) <= {"holds", "neither"}
    dense_backend = replace(other, backend=replace(other.backend, name="use-m3"))
    with pytest.raises(ParameterError, match="one backend"):
        replication(bm25, dense_backend, "mrr@10")
    runs = [
        summarize(bm25, Path("a.json")),
        summarize(other, Path("b.json")),
        summarize(dense_backend, Path("c.json")),
    ]
    assert [r.path.name for r in replication_partners(runs, runs[0])] == ["b.json"]


def test_the_page_margin_recomputes_the_files_equivalence_tests_exactly():
    (shipped_path,) = shipped_results_dir().glob("jsquad-bm25-all-s0*.json")
    shipped = load_results(shipped_path)
    assert margin_of(shipped, "recall@5") == 0.01
    again = with_margin(shipped, "recall@5", 0.01)
    for old, new in zip(shipped.pairwise, again.pairwise, strict=True):
        assert (new.equivalent, new.delta) == (old.equivalent, old.delta)
        assert [new.p_equiv, new.p_equiv_holm, new.eq_ci_low, new.eq_ci_high] == pytest.approx(
            [old.p_equiv, old.p_equiv_holm, old.eq_ci_low, old.eq_ci_high], abs=1e-12
        )
    wide = with_margin(shipped, "recall@5", 0.2)
    assert all(r.equivalent for r in wide.pairwise if r.metric == "recall@5" and abs(r.diff) < 0.02)
    assert [r for r in wide.pairwise if r.metric != "recall@5"] == [
        r for r in shipped.pairwise if r.metric != "recall@5"
    ]
    with pytest.raises(ParameterError, match="must be positive"):
        with_margin(shipped, "recall@5", 0.0)


def test_the_shipped_verdict_prices_context_and_tests_the_budget():
    (path,) = shipped_results_dir().glob("jsquad-bm25-all-s0*.json")
    results = load_results(path)
    at_k, at_budget = verdicts("en", results, "recall@5", 0.01)
    # Equal k is the second view: its ties no longer go to the most context but, with no
    # prior on this page, to fewer answers cut first.
    choice = at_k.choice
    assert choice.option(choice.best).cut <= choice.option(choice.top).cut
    assert at_k.choice.option("fixed-800-160").cost.chars == pytest.approx(
        5 * results.config("fixed-800-160").mean_chunk_chars
    )
    for said in (at_k, at_budget):
        assert "cheapest" not in said.sentence
        assert "fewest chunks" not in said.sentence
    assert "Cheaper alternatives: " in at_k.sentence
    assert "saves" in at_k.sentence
    assert "95% CI" in at_k.sentence
    assert at_budget.choice.metric == "recall@budget"
    assert at_budget.sentence.startswith("Recall@budget at Equal context budget: 2,000")
    # The file's own tests at its budget are read, not recomputed.
    view = budget_view(results, "recall", results.budget.chars, 0.01)
    assert view.stored
    assert len(view.pairwise) == len(results.labels) * (len(results.labels) - 1) // 2
