from __future__ import annotations

import chunkviz
from chunkviz.retrieval.backends import get_backend
from chunkviz.views.index_size import IndexSize, index_metric, index_size
from chunkviz.views.numbers import format_bytes

TEXT = "梅雨前線が停滞する。寒帯ジェット気流が南下する。" * 40


def test_a_lexical_index_is_measured_by_building_it():
    result = chunkviz.chunk(TEXT, "fixed", size=100, overlap=0)
    backend = get_backend("bm25")
    index = backend.build_index(result.chunk_texts())
    size = index_size(result, backend)
    assert size == IndexSize("lexical", index.nbytes, len(result.chunks), index.dims)
    assert index.nbytes != len(result.chunks)
    assert index_metric(size) == (
        format_bytes(index.nbytes),
        "lexical",
        {"vectors": len(result.chunks), "dims": index.dims},
    )


def test_a_large_lexical_index_is_not_built_and_says_so():
    result = chunkviz.chunk(TEXT, "fixed", size=100, overlap=0)
    size = index_size(result, get_backend("bm25"), lexical_limit=len(TEXT) - 1)
    assert size == IndexSize("lexical", None, len(result.chunks), None)
    assert index_metric(size)[:2] == ("—", "skipped")


def test_a_dense_index_is_chunks_times_dimensions_times_four_bytes():
    class Dense:
        dims = 384

    result = chunkviz.chunk(TEXT, "fixed", size=100, overlap=0)
    n = len(result.chunks)
    assert index_size(result, Dense()) == IndexSize("dense", n * 384 * 4, n, 384)


def test_a_backend_that_cannot_say_gives_none():
    result = chunkviz.chunk(TEXT, "fixed", size=100, overlap=0)
    assert index_size(result, object()) is None
    assert index_metric(None) == ("—", "none", {"vectors": 0, "dims": 0})


class _Dense:
    kind = "dense"
    name = "fake-dense"
    model = "fake"
    dims = 384
    max_input_tokens = 512
    tokenizer = None
    document_prefix = query_prefix = ""


def test_a_hybrid_index_is_its_lexical_index_plus_its_dense_vectors():
    from chunkviz.retrieval.hybrid import HybridBackend

    result = chunkviz.chunk(TEXT, "fixed", size=100, overlap=0)
    n = len(result.chunks)
    bm25 = get_backend("bm25")
    lexical = bm25.build_index(result.chunk_texts())
    size = index_size(result, HybridBackend(bm25, _Dense()))  # type: ignore[arg-type]
    assert size is not None
    assert size.nbytes == lexical.nbytes + n * 384 * 4
    value, variant, fields = index_metric(size)
    assert (value, variant) == (format_bytes(lexical.nbytes + n * 384 * 4), "hybrid")
    assert fields == {"vectors": n, "dims": 384, "terms": lexical.dims}
    # Over the lexical limit the BM25 half is not built: said so, not a partial sum.
    skipped = index_size(
        result,
        HybridBackend(bm25, _Dense()),  # type: ignore[arg-type]
        lexical_limit=10,
    )
    assert index_metric(skipped)[:2] == ("—", "hybrid_skipped")
