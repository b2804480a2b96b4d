from __future__ import annotations

import pytest

import chunkviz
from chunkviz.samples import load_sample
from chunkviz.strategies import all_strategies
from chunkviz.views.codegen import LIBRARIES, snippet, snippets


def _run(code: str, text: str) -> list[str]:
    scope: dict[str, object] = {"text": text}
    exec(code, scope)  # noqa: S102 - the snippet is our own generated code
    return list(scope["chunks"])  # type: ignore[arg-type]


@pytest.mark.parametrize(("size", "overlap"), [(100, 0), (200, 40), (37, 5)])
def test_chunkviz_snippet_reproduces_the_chunks(size, overlap):
    text = load_sample("policy_ja").text
    params = {"size": size, "overlap": overlap, "unit": "chars"}
    code = snippet("fixed", params, "chunkviz").code
    assert _run(code, text) == chunkviz.chunk(text, "fixed", **params).chunk_texts()


@pytest.mark.parametrize("library", ["langchain", "chonkie"])
@pytest.mark.parametrize(("size", "overlap"), [(100, 0), (200, 40)])
def test_equivalent_fixed_snippets_give_the_same_chunks(library, size, overlap):
    # The peers come with requirements-dev.txt (through requirements-bench.txt): "equivalent"
    # is a claim this test checks against the real libraries.
    params = {"size": size, "overlap": overlap, "unit": "chars"}
    snip = snippet("fixed", params, library)
    assert snip.fidelity == "equivalent"
    for name in ("jsquad_tsuyu", "tech_en"):
        text = load_sample(name).text
        assert _run(snip.code, text) == chunkviz.chunk(text, "fixed", **params).chunk_texts()


def test_every_registered_strategy_has_a_snippet_for_every_library():
    for spec in all_strategies():
        got = snippets(spec.name, spec.defaults())
        assert [s.library for s in got] == list(LIBRARIES)
        for s in got:
            assert s.code
            compile(s.code, f"<{spec.name}:{s.library}>", "exec")
            if s.fidelity == "none":
                assert s.code.lstrip().startswith("#")
                assert "no" in s.note.lower()


def test_unknown_strategy_says_there_is_no_equivalent():
    s = snippet("perplexity", {}, "langchain")
    assert s.fidelity == "none"
    assert "no splitter equivalent" in s.code
