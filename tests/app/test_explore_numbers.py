"""Explore's numbers and tables that say what they measure: index size, tokens, headers."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

import chunkviz
from chunkviz.retrieval.backends import get_backend
from chunkviz.samples import load_sample
from tests.app.helpers import app_state, page
from tests.app.helpers import metric as _metric

SIZE = "explore_p_fixed_size"
UNIT = "explore_p_fixed_unit_en"
SOURCE = "explore_doc_source_en"


def _page() -> AppTest:
    return page("1_Explore.py", timeout=90)


def _text(at: AppTest) -> str:
    return app_state(at).document.text


def test_index_size_under_bm25_is_the_lexical_index_not_a_chunk_count():
    from chunkviz.views.numbers import format_bytes

    at = _page()
    assert not at.exception
    text = load_sample("jsquad_tsuyu").text
    result = chunkviz.chunk(text, "fixed", size=400, overlap=0)
    chunks = [text[c.start : c.end] for c in result.chunks]
    index = get_backend("bm25").build_index(chunks)
    assert _metric(at, "Index size") == format_bytes(index.nbytes)
    assert _metric(at, "Index size") != f"{len(result.chunks):,}"
    help_text = next(m.help for m in at.metric if m.label == "Index size")
    n = len(result.chunks)
    assert f"{index.dims:,} distinct character n-grams over {n} chunks" in help_text


def test_index_size_under_a_dense_backend_is_vectors_times_dimensions():
    from chunkviz.views.numbers import format_bytes

    at = page("1_Explore.py", timeout=180, backend="use-m3")
    assert not at.exception
    count = len(chunkviz.chunk(_text(at), "fixed", size=400, overlap=0))
    assert _metric(at, "Index size") == format_bytes(count * 512 * 4)


def test_tokens_name_their_tokenizer_in_the_label_table_and_note():
    at = _page()
    at.radio(key=UNIT).set_value("tokens").run()
    assert not at.exception
    # Under BM25, tokens are character bigrams: the size says whose tokens it counts.
    assert at.slider(key=SIZE).label == "Size (tokens of char-2gram)"
    at.session_state["explore_tab"] = "Figures"
    at.run()
    notes = " ".join(c.value for c in at.caption)
    # The backend named in words, not by its registry id.
    assert (
        "counted by char-2gram, the tokenizer of the retrieval backend BM25, character bigrams"
    ) in notes
    assert "a chunk of c characters has c − 1 of them" in notes
    text = load_sample("jsquad_tsuyu").text
    result = chunkviz.chunk(
        text, "fixed", size=400, overlap=0, unit="tokens", tokenizer=get_backend("bm25").tokenizer
    )
    assert _metric(at, "Chunks") == f"{len(result):,}"


def test_table_headers_are_short_with_their_meaning_in_help():
    at = _page()
    table = next(df for df in at.dataframe if "status" in df.value.columns)
    config = json.loads(table.proto.columns)
    # Long cells (questions) no longer squeeze the counts' headers into "occurre…".
    assert config["occurrences"]["label"] == "occ."
    assert config["occurrences"]["help"].startswith("Occurrences:")
    assert config["cut by chunks"]["label"] == "cut by"
    assert config["question"]["width"] == 340
    assert all("width" in config[c] for c in table.value.columns)
    at.session_state["explore_tab"] = "Chunk table"
    at.run()
    chunks = json.loads(
        next(df for df in at.dataframe if "preview" in df.value.columns).proto.columns
    )
    assert "char-2gram" in chunks["tokens"]["help"]


def test_index_size_of_a_long_document_under_bm25_is_not_built_and_says_why():
    from chunkviz.views.index_size import LEXICAL_LIMIT

    text = "梅雨前線が停滞する。" * (LEXICAL_LIMIT // 10 + 1)
    at = _page()
    at.radio(key=SOURCE).set_value("paste").run()
    at.text_area(key="explore_doc_paste").input(text).run()
    assert not at.exception
    assert _metric(at, "Index size") == "—"
    help_text = next(m.help for m in at.metric if m.label == "Index size")
    assert f"more than {LEXICAL_LIMIT:,} embedded characters" in help_text


def test_a_contextual_header_is_counted_in_tokens_but_never_cuts_the_chunks():
    from chunkviz.document import chunk_document
    from chunkviz.views.explore import chunk_token_counts

    at = page("1_Explore.py", timeout=90, query={"sample": "policy_ja", "strategy": "markdown"})
    assert not at.exception
    box = at.selectbox(key="explore_context_en")
    assert box.options == ["none", "document title", "title and headings"]
    at.session_state["explore_tab"] = "Chunk table"
    at.run()
    before = at.dataframe[-1].value
    at = at.selectbox(key="explore_context_en").set_value("headings").run()
    assert not at.exception
    assert app_state(at).context == "headings"
    after = at.dataframe[-1].value
    doc = app_state(at).document
    result = chunk_document(doc, "markdown", app_state(at).params_of("markdown"))
    tokenizer = get_backend("bm25").tokenizer
    want = chunk_token_counts(result, tokenizer, title=doc.title, context="headings")
    assert after["tokens"].tolist() == list(want)
    assert (after["tokens"] > before["tokens"]).all()  # the title is in every header
    # the cuts do not move: same offsets, same characters
    assert after["start"].tolist() == before["start"].tolist()
    assert after["chars"].tolist() == before["chars"].tolist()


def test_e5_small_counts_its_own_tokens_and_says_long_chunks_are_windowed():
    from chunkviz.document import chunk_document
    from chunkviz.views.explore import chunk_token_counts

    at = page("1_Explore.py", timeout=180, backend="e5-small")
    assert not at.exception
    help_text = next(m.help for m in at.metric if m.label == "Over the input limit")
    assert "windows of 510 tokens" in help_text
    at.session_state["explore_tab"] = "Chunk table"
    at.run()
    backend = get_backend("e5-small")
    doc = app_state(at).document
    strategy = app_state(at).strategy
    result = chunk_document(doc, strategy, app_state(at).params_of(strategy))
    want = chunk_token_counts(result, backend.tokenizer, backend.document_prefix)
    assert at.dataframe[-1].value["tokens"].tolist() == list(want)
    # the engine agrees with the count shown (it adds <s> and </s>)
    first = result.text[result.chunks[0].start : result.chunks[0].end]
    assert want[0] + 2 == backend.token_count(first)
