from __future__ import annotations

import pytest

import chunkviz
from chunkviz.samples import load_sample
from chunkviz.strategies import all_strategies
from chunkviz.views.codegen import LIBRARIES, note_text, snippet, snippets


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
    # The peers come with the dev extra (chunkviz[bench], in requirements.lock): "equivalent"
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


@pytest.mark.parametrize(
    ("library", "strategy", "params"),
    [
        ("langchain", "recursive", {"size": 400, "overlap": 0, "unit": "chars"}),
        ("chonkie", "recursive", {"size": 400, "overlap": 0, "unit": "chars"}),
    ],
)
def test_a_closest_snippet_saves_the_librarys_own_chunks_for_the_import(
    tmp_path, monkeypatch, library, strategy, params
):
    from chunkviz.eval.imported import import_chunks
    from chunkviz.views.codegen import IMPORT_FILE, import_back_code

    text = load_sample("jsquad_tsuyu").text
    from chunkviz.strategies import get_strategy

    snip = snippet(strategy, {**get_strategy(strategy).defaults(), **params}, library)
    assert snip.fidelity == "closest"
    save = import_back_code(snip)
    assert save is not None
    monkeypatch.chdir(tmp_path)
    scope: dict[str, object] = {"text": text}
    exec(snip.code + "\n" + save, scope)  # noqa: S102 - our own generated code
    imported = import_chunks((tmp_path / IMPORT_FILE).read_bytes(), IMPORT_FILE, text)
    # The library's own chunks, every one aligned to the document: not chunkviz's.
    report = imported.report
    assert report.aligned_count == len(report.chunks) > 0
    ours = chunkviz.chunk(text, strategy, **params).chunk_texts()
    theirs = imported.result.chunk_texts()
    assert theirs != ours


def test_llamaindex_nodes_are_saved_with_their_own_offsets(tmp_path, monkeypatch):
    # llama_index is not a dev requirement: the nodes are stood in for, the file is real.
    from types import SimpleNamespace

    from chunkviz.eval.imported import import_chunks
    from chunkviz.strategies import get_strategy
    from chunkviz.views.codegen import IMPORT_FILE, import_back_code

    snip = snippet("markdown", get_strategy("markdown").defaults(), "llamaindex")
    save = import_back_code(snip)
    assert save is not None
    assert "start_char_idx" in save
    text = load_sample("policy_ja").text
    nodes = [SimpleNamespace(text=text[a:b], start_char_idx=a) for a, b in ((0, 120), (120, 300))]
    monkeypatch.chdir(tmp_path)
    exec(save, {"nodes": nodes})  # noqa: S102 - our own generated code
    imported = import_chunks((tmp_path / IMPORT_FILE).read_bytes(), IMPORT_FILE, text)
    assert [(c.start, c.end) for c in imported.result.chunks] == [(0, 120), (120, 300)]


def test_exact_and_equivalent_snippets_need_nothing_imported_back():
    from chunkviz.views.codegen import import_back_code

    params = {"size": 200, "overlap": 40, "unit": "chars"}
    for snip in snippets("fixed", params):
        assert import_back_code(snip) is None  # chunkviz exact, the peers equivalent


def test_every_note_has_its_words_in_both_languages():
    from chunkviz.views.codegen import note_text

    for spec in all_strategies():
        for snip in snippets(spec.name, spec.defaults()):
            if not snip.note:
                continue
            assert note_text("en", snip) == snip.note  # the catalogue says what the code says
            assert note_text("ja", snip) != snip.note, snip


def test_langchain_markdown_documents_are_saved_as_their_texts(tmp_path, monkeypatch):
    from chunkviz.eval.imported import import_chunks
    from chunkviz.strategies import get_strategy
    from chunkviz.views.codegen import IMPORT_FILE, import_back_code

    snip = snippet("markdown", get_strategy("markdown").defaults(), "langchain")
    save = import_back_code(snip)
    assert save is not None
    text = load_sample("policy_ja").text
    monkeypatch.chdir(tmp_path)
    exec(snip.code + "\n" + save, {"text": text})  # noqa: S102 - our own generated code
    imported = import_chunks((tmp_path / IMPORT_FILE).read_bytes(), IMPORT_FILE, text)
    assert len(imported.result.chunks) > 1


def test_a_snapped_window_is_only_the_closest_in_other_libraries():
    # issue 38: no peer snaps cuts to word boundaries, so its chunks are the unsnapped ones.
    snaps = snippets(
        "fixed", {"size": 400, "overlap": 80, "unit": "chars", "snap": "word", "max_shift": 10}
    )
    assert snaps[0].fidelity == "exact"
    assert "snap='word'" in snaps[0].code
    langchain = next(s for s in snaps if s.library == "langchain")
    assert langchain.fidelity == "closest"
    assert "snap" not in langchain.code
    assert note_text("ja", langchain) != langchain.note
