from __future__ import annotations

import numpy as np
from streamlit.util import AttributeDictionary  # what st.plotly_chart returns

from chunkviz.strategies.perplexity import perplexity_curve
from chunkviz.strategies.semantic import semantic_curve
from chunkviz.ui.strategies.figures import clicked_boundary, perplexity_figure, semantic_figure
from tests.strategies.test_perplexity import FixedPerplexities
from tests.strategies.test_semantic import LetterCounts


def test_semantic_figure_draws_the_threshold_and_marks_each_kind_of_cut():
    text = "aaa. aab. bbb. bbc. ccc. ccc."
    curve = semantic_curve(text, percentile=40, min_size=0, max_size=15, embedder=LetterCounts())
    fig = semantic_figure(curve, 40, "en", "tfidf")
    assert fig.layout.shapes[0].y0 == curve.threshold
    traces = {t.name: t for t in fig.data}
    assert list(traces["s_i"].y) == list(curve.similarities)
    topic = [i for i in curve.cuts if i not in curve.forced]
    assert list(traces["cut (topic change)"].x) == topic
    assert list(traces["cut (topic change)"].customdata) == topic
    assert list(traces["cut (max_size)"].x) == list(curve.forced)


def test_semantic_title_names_the_backend_in_words_not_its_model_repr():
    from chunkviz.retrieval.backends import get_backend

    text = "梅雨は雨の季節。梅雨前線が停滞する。台風は夏に来る。台風は風が強い。"
    curve = semantic_curve(
        text, percentile=40, min_size=0, max_size=30, model="tfidf", embedder=get_backend("tfidf")
    )
    assert "hash" in curve.embedder  # the repr the title used to show
    for lang, words in (("en", "TF-IDF, character bigrams"), ("ja", "TF-IDF")):
        title = semantic_figure(curve, 40, lang, "tfidf").layout.title.text
        assert words in title
        assert get_backend("tfidf").model not in title


def test_perplexity_figure_draws_changes_threshold_and_perplexities():
    lm = FixedPerplexities([10.0, 40.0, 40.0, float("nan")])
    curve = perplexity_curve(
        "a. b. c. d.", threshold=0.5, min_size=0, max_size=100, language_model=lm
    )
    fig = perplexity_figure(curve, "ja", "文字 3-gram")
    assert fig.layout.shapes[0].y0 == 0.5
    bars = fig.data[0]
    assert np.allclose(list(bars.y), [np.log(4), 0.0, 0.0])  # NaN drawn at 0
    assert list(fig.data[2].x) == [0]  # the one cut
    assert "文字 3-gram" in fig.layout.title.text


def test_perplexity_axis_ticks_and_threshold_label_have_room():
    lm = FixedPerplexities([10.0, 4000.0, 40.0, float("nan")])
    curve = perplexity_curve(
        "a. b. c. d.", threshold=1.0, min_size=0, max_size=100, language_model=lm
    )
    fig = perplexity_figure(curve, "en", "character 3-gram")
    # Ticks such as "4k" and "200" on the right-hand PPL axis need more than a 10 px margin.
    assert fig.layout.margin.r >= 60
    assert fig.layout.yaxis2.automargin is True
    assert fig.layout.yaxis2.tickformat == "~s"
    assert fig.layout.yaxis2.dtick == "D2"
    assert fig.layout.yaxis.automargin is True
    # "threshold 1" is drawn at the left end, clear of the right-hand axis.
    (label,) = [a for a in fig.layout.annotations if a.text == "threshold 1"]
    assert label.x == 0
    assert label.xanchor == "left"


def test_a_clicked_curve_point_gives_its_boundary():
    event = AttributeDictionary({"selection": {"points": [{"x": 7, "customdata": 4}]}})
    assert clicked_boundary(event) == 4
    assert clicked_boundary({"selection": {"points": [{"x": 3}]}}) == 3
    assert clicked_boundary({"selection": {"points": []}}) is None
    assert clicked_boundary(None) is None
