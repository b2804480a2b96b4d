from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkviz
from chunkviz.strategies.semantic import adjacent_similarities, semantic_curve
from tests.helpers import assert_valid_chunking
from tests.strategies import texts

WEATHER = [
    "梅雨は、北海道を除く日本で毎年見られる雨の季節である。",
    "梅雨前線が停滞すると、雨の日が何日も続く。",
    "梅雨の雨量は地域によって大きく異なる。",
    "九州では梅雨末期に大雨が降りやすい。",
    "梅雨明けの後は、本格的な夏の暑さが始まる。",
]
PYTHON = [
    "Pythonの関数は def で定義し、引数と戻り値を持つ。",
    "クラスは class で定義し、メソッドをまとめる。",
    "リストの内包表記を使うと、ループを短く書ける。",
    "例外は try と except で捕まえて処理する。",
    "モジュールは import で読み込んで再利用する。",
]
TWO_TOPICS = "".join(WEATHER + PYTHON)


class LetterCounts:
    """A deterministic embedder: counts of the letters a, b and c."""

    name = "letters"

    def encode_documents(self, texts):
        return np.array([[t.count("a"), t.count("b"), t.count("c")] for t in texts], dtype=float)


@pytest.mark.parametrize("model", ["tfidf", pytest.param("use-m3", marks=pytest.mark.slow)])
def test_two_unrelated_topics_are_cut_between_them(model):
    result = chunkviz.chunk(
        TWO_TOPICS, "semantic", percentile=10, min_size=0, max_size=2000, model=model
    )
    assert result.chunk_texts() == ["".join(WEATHER), "".join(PYTHON)]


def test_curve_threshold_is_the_documents_own_percentile():
    text = "aaa. aab. bbb. bbc. ccc."
    curve = semantic_curve(text, percentile=30, min_size=0, max_size=100, embedder=LetterCounts())
    sims = np.array(curve.similarities)
    expected = adjacent_similarities(
        np.array([[3, 0, 0], [2, 1, 0], [0, 3, 0], [0, 2, 1], [0, 0, 3]], dtype=float)
    )
    assert np.allclose(sims, expected)
    assert curve.threshold == pytest.approx(np.percentile(expected, 30))
    assert curve.breakpoints == tuple(int(i) for i in np.flatnonzero(expected < curve.threshold))
    assert curve.cuts == curve.breakpoints
    assert curve.units == ((0, 4), (5, 9), (10, 14), (15, 19), (20, 24))
    assert curve.embedder == "letters"


def test_min_size_suppresses_an_early_topic_change():
    text = "aaa. bbb. bbb. bbb."
    free = semantic_curve(text, percentile=50, min_size=0, max_size=100, embedder=LetterCounts())
    assert free.cuts == (0,)
    held = semantic_curve(text, percentile=50, min_size=5, max_size=100, embedder=LetterCounts())
    assert held.cuts == ()
    assert held.suppressed == (0,)


def test_max_size_forces_cuts_and_cuts_an_overlong_sentence():
    text = "aaa. aaa. aaa. " + "a" * 25 + "."
    result = chunkviz.chunk(text, "semantic", min_size=0, max_size=10, embedder=LetterCounts())
    assert_valid_chunking(result, measure=len, size=10)
    curve = semantic_curve(text, min_size=0, max_size=10, embedder=LetterCounts())
    assert curve.forced
    assert max(e - s for s, e in curve.units) <= 10


def test_zero_vectors_have_similarity_zero_not_nan():
    sims = adjacent_similarities(np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]))
    assert sims.tolist() == [0.0, 1.0]


def test_min_size_above_max_size_is_rejected_by_name():
    with pytest.raises(chunkviz.ParameterError, match="min_size must not exceed max_size"):
        chunkviz.chunk("a. b.", "semantic", min_size=50, max_size=10, embedder=LetterCounts())


def test_a_backend_without_vectors_says_so():
    with pytest.raises(chunkviz.ParameterError, match="bm25 has no vectors"):
        chunkviz.chunk("a. b.", "semantic", model="bm25")


def test_an_unknown_model_lists_the_backends():
    with pytest.raises(chunkviz.ParameterError, match="backend must be one of"):
        chunkviz.chunk("a. b.", "semantic", model="nope")


def test_an_embedder_with_the_wrong_shape_is_reported():
    class Broken:
        def encode_documents(self, texts):
            return np.zeros((1, 3))

    with pytest.raises(chunkviz.ParameterError, match="one row per text"):
        chunkviz.chunk("a. b. c.", "semantic", embedder=Broken())


@given(
    text=texts,
    percentile=st.floats(0, 100),
    min_size=st.integers(0, 20),
    max_size=st.integers(20, 60),
)
def test_semantic_invariants_with_any_percentile(text, percentile, min_size, max_size):
    result = chunkviz.chunk(
        text,
        "semantic",
        percentile=percentile,
        min_size=min_size,
        max_size=max_size,
        embedder=LetterCounts(),
    )
    assert_valid_chunking(result, measure=len, size=max_size)


def test_the_strategy_takes_its_embedder_from_the_caller_and_says_so_when_there_is_none():
    from chunkviz.strategies.semantic import semantic_split

    with pytest.raises(chunkviz.ParameterError, match=r"needs an embedder.*chunkviz\.chunk"):
        semantic_split("a. b. c.", model="tfidf")
    assert semantic_split("one sentence only.").chunk_texts() == ["one sentence only."]
    # chunkviz.chunk hands in the backend named by model, as the strategy records it
    result = chunkviz.chunk("aaa. aab. bbb. ccc.", "semantic", min_size=0, model="tfidf")
    assert result.params["model"] == "tfidf"
