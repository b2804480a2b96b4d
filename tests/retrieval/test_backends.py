from __future__ import annotations

import numpy as np
import pytest

from chunkviz.errors import ModelUnavailableError, ParameterError
from chunkviz.retrieval.backends import (
    build_index,
    get_backend,
    list_backends,
    over_limit,
    prepare_queries,
    score,
)
from chunkviz.retrieval.base import Backend
from chunkviz.retrieval.dense import UseM3Backend, known_prefixes
from chunkviz.retrieval.lexical import BM25Backend, CharNgramTokenizer, char_ngrams
from chunkviz.tokenizers import count_tokens


def test_use_m3_is_unavailable_without_sentencepiece_and_the_hint_names_the_extra(monkeypatch):
    import importlib.util

    from chunkviz.errors import MissingDependencyError
    from chunkviz.retrieval.backends import make_backend

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "sentencepiece" else real(name, *a),
    )
    infos = {i.name: i for i in list_backends()}
    assert not infos["use-m3"].available
    assert infos["use-m3"].reason == (
        'sentencepiece is not installed; run pip install "chunkviz[dense]"'
    )
    assert infos["use-m3"].reason.params == {
        "package": "sentencepiece",
        "requirement": "chunkviz[dense]",
    }
    assert infos["e5-small"].available
    with pytest.raises(MissingDependencyError, match=r"chunkviz\[dense\]"):
        make_backend("use-m3")


DOCS = ["東京は日本の首都です。", "大阪はたこ焼きで有名だ。", "富士山は日本一高い山である。"]


def test_list_backends_names_every_backend_with_a_reason_when_unavailable():
    infos = {i.name: i for i in list_backends()}
    assert {"bm25", "tfidf", "use-m3", "st:cl-nagoya/ruri-v3-130m"} <= set(infos)
    assert infos["bm25"].available
    assert infos["bm25"].kind == "lexical"
    assert infos["use-m3"].kind == "dense"
    for info in infos.values():
        assert info.available or "pip install" in info.reason or "Hugging Face" in info.reason


def test_unknown_backend_lists_the_names():
    with pytest.raises(ParameterError, match=r"bm25, tfidf, use-m3, e5-small, hybrid, .*st:"):
        get_backend("word2vec")


def test_get_backend_is_cached_and_satisfies_the_protocol():
    b = get_backend("bm25")
    assert b is get_backend("bm25")
    assert isinstance(b, Backend)
    assert b.model == "bm25s char-2gram k1=1.5 b=0.75"


def test_char_ngrams_normalise_width_case_and_spaces():
    assert char_ngrams("ＡＢ  c", 2) == ["ab", "b ", " c"]
    assert char_ngrams("猫", 2) == ["猫"]
    assert char_ngrams("   ", 2) == []


def test_ngram_tokenizer_counts_with_offsets():
    tok = CharNgramTokenizer(2)
    assert tok.token_spans("東京都") == [(0, 2), (1, 3)]
    assert count_tokens(tok, "東京都") == 2


def test_bm25_ranks_the_document_that_shares_the_wording_first():
    s = score(get_backend("bm25"), ["日本の首都はどこ", "たこ焼きで有名な町"], DOCS)
    assert s.shape == (2, 3)
    assert s[0].argmax() == 0
    assert s[1].argmax() == 1


def test_bm25_scores_match_bm25s_itself():
    import bm25s

    backend = BM25Backend()
    index = backend.build_index(DOCS)
    retriever = bm25s.BM25()
    retriever.index([char_ngrams(t, 2) for t in DOCS], show_progress=False)
    query = "日本の首都と富士山"
    expected = retriever.get_scores(char_ngrams(query, 2))
    np.testing.assert_allclose(index.scores([query])[0], expected, rtol=1e-5)


def test_bm25_has_no_vectors_and_says_what_to_use():
    with pytest.raises(ParameterError, match="tfidf"):
        get_backend("bm25").encode_documents(DOCS)


def test_bm25_query_without_known_terms_scores_zero():
    s = score(get_backend("bm25"), ["xyz"], DOCS)
    assert np.all(s == 0)


def test_tfidf_raw_norms_grow_with_length():
    tfidf = get_backend("tfidf")
    assert tfidf.raw_vectors
    assert not tfidf.normalized
    short = "日本の首都は東京。"
    vecs = tfidf.encode_documents([short, short * 4, "関係のない文章。"])
    norms = np.linalg.norm(vecs, axis=1)
    assert 3.5 * norms[0] < norms[1] < 4.5 * norms[0]  # ~4x, up to the bigrams across repeats


def test_tfidf_measures_agree_with_dense_similarity_on_its_vectors():
    from chunkviz.retrieval.similarity import similarity

    tfidf = get_backend("tfidf")
    queries = ["日本の首都", "高い山"]
    for measure in ("dot", "cosine", "l2"):
        via_index = score(tfidf, queries, DOCS, measure)
        dense = similarity(tfidf.encode_queries(queries), tfidf.encode_documents(DOCS), measure)
        np.testing.assert_allclose(via_index, dense, rtol=1e-4, atol=1e-4)


def test_dot_favours_the_long_chunk_cosine_and_l2_do_not():
    tfidf = get_backend("tfidf")
    query = "東京の首都の歴史"
    docs = [query, query + "歴史的な建物。" * 10, "大阪の話。"]
    assert score(tfidf, [query], docs, "dot")[0].argmax() == 1
    assert score(tfidf, [query], docs, "cosine")[0].argmax() == 0
    assert score(tfidf, [query], docs, "l2")[0].argmax() == 0


def test_use_m3_runs_on_one_thread_and_gives_unit_vectors():
    backend = get_backend("use-m3")
    assert isinstance(backend, UseM3Backend)
    # More cores are used by more processes (chunkviz.retrieval.pool), never more threads.
    assert backend.threads == 1
    assert backend.max_input_tokens is None
    vecs = backend.encode_documents(DOCS[:2])
    assert vecs.shape == (2, 512)
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    s = score(backend, ["日本の首都はどこですか"], DOCS)
    assert s[0].argmax() == 0


def test_over_limit_flags_only_backends_with_a_limit():
    assert over_limit(get_backend("bm25"), ["a" * 10_000]) == [False]

    class Tiny:
        max_input_tokens = 3
        document_prefix = "p"
        tokenizer = CharNgramTokenizer(1)

    # "p" + text counted: "pab" = 3 tokens fits, "pabc" = 4 does not
    assert over_limit(Tiny(), ["ab", "abc"]) == [False, True]  # type: ignore[arg-type]


def test_prepare_queries_once_scores_many_indexes():
    backend = get_backend("bm25")
    queries = prepare_queries(backend, ["日本の首都"])
    a = build_index(backend, DOCS).scores(queries)
    b = build_index(backend, DOCS[:1]).scores(queries)
    assert a.shape == (1, 3)
    assert b.shape == (1, 1)


def test_known_prefixes():
    assert known_prefixes("cl-nagoya/ruri-v3-130m") == ("検索クエリ: ", "検索文書: ")
    assert known_prefixes("intfloat/multilingual-e5-small") == ("query: ", "passage: ")
    assert known_prefixes("intfloat/e5-base-v2") == ("query: ", "passage: ")
    assert known_prefixes("sentence-transformers/all-MiniLM-L6-v2") == ("", "")


def test_absent_model_gives_a_message_that_says_how_to_get_it():
    with pytest.raises(ModelUnavailableError) as info:
        get_backend("st:nobody/no-such-model-xyz")
    message = str(info.value)
    assert "nobody/no-such-model-xyz" in message
    assert "not in the Hugging Face cache" in message
    assert "st:/path/to/model" in message


def test_missing_local_folder_is_reported_as_such(tmp_path):
    with pytest.raises(ModelUnavailableError, match="does not exist"):
        get_backend(f"st:{tmp_path / 'nothing-here'}")


def test_a_backend_resolves_once_into_a_reference_from_the_one_cache():
    from chunkviz.retrieval.backends import resolve_backend

    ref = resolve_backend(" e5-small ")
    assert ref is resolve_backend("e5-small")
    assert (ref.name, ref.kind, ref.dims) == ("e5-small", "dense", 384)
    assert ref.model == ref.backend.model
    assert get_backend("e5-small") is ref.backend
    bm25 = resolve_backend("bm25")
    assert (bm25.kind, bm25.dims) == ("lexical", None)


class _Slow:
    """A backend that takes a moment to load; counts its loads."""

    kind = "dense"
    dims = 3
    loads = 0

    def __init__(self, name: str) -> None:
        import time

        type(self).loads += 1
        time.sleep(0.05)
        self.name = self.model = name


def test_the_model_cache_loads_a_name_once_across_threads_and_keeps_the_newest():
    import threading

    from chunkviz.retrieval.backends import _ModelCache

    cache = _ModelCache(2)
    start = threading.Barrier(4)
    got = []

    def ask() -> None:
        start.wait()
        got.append(cache.get("a", _Slow))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert _Slow.loads == 1
    assert len({id(r) for r in got}) == 1
    first = got[0]
    cache.get("b", _Slow)
    assert cache.get("a", _Slow) is first  # used last: "b" is the oldest now
    cache.get("c", _Slow)  # evicts "b"
    assert _Slow.loads == 3
    assert cache.get("a", _Slow) is first
    cache.get("b", _Slow)
    assert _Slow.loads == 4


def test_a_failed_load_is_raised_to_every_caller_and_cached_nowhere():
    from chunkviz.retrieval.backends import _ModelCache

    cache = _ModelCache(2)
    calls = []

    def fail(name: str):
        calls.append(name)
        raise ModelUnavailableError(f"no {name}")

    for _ in range(2):
        with pytest.raises(ModelUnavailableError, match="no x"):
            cache.get("x", fail)
    assert calls == ["x", "x"]
