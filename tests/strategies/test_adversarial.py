"""Hostile texts (issue 14): pathological runs, lone surrogates, megabyte inputs to semantic.

Speed is measured in ``bench/adversarial.py`` (growth ratios); these tests pin the causes: the
runs that made the regexes retry inside them chunk validly at sizes that took seconds to
minutes before, the sparse path is the one semantic takes, and no UTF-8 library sees a lone
surrogate.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse

import chunkviz
from chunkviz.retrieval.lexical import TfidfBackend, char_ngrams
from chunkviz.segment import SENTENCE_SEPARATORS, sentence_spans
from chunkviz.strategies import all_strategies
from chunkviz.strategies.semantic import adjacent_similarities
from chunkviz.strategies.table import find_tables
from chunkviz.tokenizers import bundled_sentencepiece, without_surrogates
from tests.helpers import assert_valid_chunking

# Each took 12-57 s before the regexes stopped retrying inside runs (issue 14).
PATHOLOGICAL = {
    "dots": "a" + "." * 20_000 + "b",
    "spaces": "a" + " " * 20_000 + "b",
    "newlines": "a" + "\n" * 20_000 + "b",
    "commas": "a" + "," * 20_000 + "b",
    "quotative run": "a" + "。" * 20_000 + "と",
    "table with commas": "| name | price, yen |\n|---|---|\n| a, b | 1,000 |\n\n" * 400,
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
@pytest.mark.parametrize("strategy", [s.name for s in all_strategies()])
def test_pathological_text_is_chunked_validly(strategy, name):
    assert_valid_chunking(chunkviz.chunk(PATHOLOGICAL[name], strategy))


def test_recursive_on_a_run_of_dots_is_the_reported_reproduction():
    result = chunkviz.chunk("a" + "." * 20_000 + "b", "recursive", size=400)
    assert_valid_chunking(result, measure=len, size=400)
    assert result.chunks[-1].end == 20_002


def test_a_run_of_spaces_ends_no_sentence_and_a_break_after_it_does():
    assert sentence_spans("a" + " " * 5000 + "b") == [(0, 5002)]
    assert sentence_spans("a" + " " * 5000 + "\nb") == [(0, 1), (5002, 5003)]
    assert sentence_spans("a. " + " " * 50 + "\nb") == [(0, 2), (54, 55)]


def test_a_terminator_inside_a_run_starts_no_separator_but_the_run_still_ends_a_sentence():
    # The separator of "...  " is found once, from the run's first dot.
    dot = dict(SENTENCE_SEPARATORS)["."]
    assert [m.span() for m in dot.finditer("a...  b")] == [(1, 6)]
    assert list(dot.finditer("a" + "." * 100 + "b")) == []
    # After an abbreviation the second dot may start: "etc.. Then" still ends a sentence.
    assert sentence_spans("and so on, etc.. Then x.") == [(0, 16), (17, 24)]
    assert sentence_spans("「はい。」と言った。。。と思う。") == [(0, 16)]


def test_many_small_tables_are_all_found():
    text = "| name | price, yen |\n|---|---|\n| a, b | 1,000 |\n\n" * 300
    tables = find_tables(text)
    assert len(tables) == 300
    assert {t.kind for t in tables} == {"markdown"}


LONE_SURROGATES = ["\udbff\udc00", "\ud800", "a\udfffb. c\ud800d。"]


@pytest.mark.parametrize("text", LONE_SURROGATES)
@pytest.mark.parametrize("strategy", ["fixed", "recursive", "markdown", "sentence"])
def test_lone_surrogates_with_sentencepiece_tokens(strategy, text):
    # SentencePiece raised RuntimeError ("Unable to cast Python instance of type str").
    params = {"size": 3} if strategy != "sentence" else {}
    result = chunkviz.chunk(text, strategy, unit="tokens", **params)
    assert_valid_chunking(result)


@pytest.mark.parametrize("strategy", [s.name for s in all_strategies()])
def test_lone_surrogates_with_every_strategy(strategy):
    assert_valid_chunking(chunkviz.chunk("x\ud800 y. \udbff\udc00 z。" * 5, strategy))


def test_surrogates_become_replacement_characters_one_for_one():
    text = "a\ud800b\udbff\udc00"
    assert without_surrogates(text) == "a\ufffdb\ufffd\ufffd"
    spans = bundled_sentencepiece().token_spans(text)
    assert spans
    assert all(0 <= s < e <= len(text) for s, e in spans)


def test_tfidf_hashes_text_with_lone_surrogates():
    # The hashing vectorizer encodes terms as UTF-8: UnicodeEncodeError before.
    vectors = TfidfBackend().encode_documents(["ab\ud800", "ab"])
    assert vectors.shape == (2, 2**14)
    assert "\ufffd" in "".join(char_ngrams("ab\ud800", 2))


def test_semantic_with_tfidf_never_densifies(monkeypatch):
    def refuse(self, texts):
        raise AssertionError("dense TF-IDF vectors were built")

    monkeypatch.setattr(TfidfBackend, "encode_documents", refuse)
    text = "".join(f"Topic {i % 7} sentence about {i % 5}. " for i in range(2000))
    result = chunkviz.chunk(text, "semantic")
    assert_valid_chunking(result, measure=len, size=1000)
    assert len(result.chunks) > 1


def test_sparse_and_dense_adjacent_similarities_agree():
    rng = np.random.default_rng(0)
    dense = rng.random((30, 12)) * (rng.random((30, 12)) > 0.6)
    dense[4] = 0.0  # a zero row has similarity 0 with its neighbours
    sparse = scipy.sparse.csr_matrix(dense)
    np.testing.assert_allclose(adjacent_similarities(sparse), adjacent_similarities(dense))
    assert adjacent_similarities(sparse)[3] == 0.0


def test_the_bundled_encoder_takes_lone_surrogates():
    from chunkviz.retrieval.backends import get_backend

    backend = get_backend("use-m3")
    vectors = backend.encode_documents(["梅雨\ud800", "rain\udbff\udc00"])
    assert vectors.shape == (2, 512)
    assert np.isfinite(vectors).all()
