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
    assert index_metric(size) == (format_bytes(index.nbytes), "lexical",
                                  {"vectors": len(result.chunks), "dims": index.dims})


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
