"""bench/corpus and bench/real_corpus.py: the manifest says what each file is, and is true."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "bench" / "corpus"
MANIFEST = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("real_corpus", ROOT / "bench" / "real_corpus.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_every_stored_file_is_the_one_the_manifest_names():
    files = MANIFEST["files"]
    assert len(files) >= 60
    assert len({f["id"] for f in files}) == len(files)
    stored = {f["id"]: f for f in files if f["stored"]}
    on_disk = {p.name for p in (CORPUS / "files").iterdir()}
    assert on_disk == set(stored)
    for name, rec in stored.items():
        data = (CORPUS / "files" / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == rec["sha256"], name
        assert len(data) == rec["bytes"] <= 2_000_000
        assert rec["licence"]
        assert len(rec["commit"]) == 40
    assert sum(r["bytes"] for r in stored.values()) <= 15_000_000


def test_the_corpus_is_not_packed_into_the_wheel():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = project["tool"]["setuptools"]
    assert setuptools["packages"]["find"]["include"] == ["chunkviz*"]
    patterns = [p for ps in setuptools["package-data"].values() for p in ps]
    assert not [p for p in patterns if "bench" in p or "corpus" in p]
    assert not (ROOT / "bench" / "__init__.py").exists()
    assert project["tool"]["pytest"]["ini_options"]["testpaths"] == ["tests"]


def test_breaks_inside_sentences_count_only_single_breaks_between_cjk(bench):
    text = "日本語の文\nが続く。\n次の文\n\n段落。English\nline"
    # "文\nが" is inside a sentence; "。\n次" ends one; "文\n\n段" is a paragraph; Latin aside.
    assert bench.inner_breaks(text) == (1, 15)  # CJK punctuation counts as CJK


def test_similarity_ignores_whitespace_and_sees_order(bench):
    assert bench.similarity(["東京 大阪\n名古屋"], ["東京大阪名古屋"]) == 1.0
    swapped = bench.similarity(["名古屋東京大阪"], ["東京大阪名古屋"])
    assert swapped is not None
    assert swapped < 0.8
    assert bench.similarity([""], [""]) is None
