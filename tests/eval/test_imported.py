"""chunkviz.eval.imported: an uploaded chunk file, bounded, read and aligned to a document."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import chunkviz
from chunkviz.errors import InputTextError
from chunkviz.eval import align, imported
from chunkviz.eval.imported import import_chunks
from chunkviz.model import Chunk
from chunkviz.views.codegen import snippet
from chunkviz.views.compare import config_label
from tests.strategies import texts

TEXT = "w1 w1 w1。w2 w2。"


def test_a_jsonl_string_list_aligns_to_exact_offsets_on_repeated_text():
    data = "\n".join(json.dumps(s) for s in ("w1 w1", "w1。", "w2 w2。")).encode()
    found = import_chunks(data, "c.jsonl", TEXT)
    assert found.result.chunks == (Chunk(0, 5), Chunk(6, 9), Chunk(9, 15))
    assert found.result.strategy == "imported"
    assert found.matches(TEXT)
    assert not found.matches(TEXT + " ")


def test_the_id_digests_text_and_offsets():
    data = json.dumps(["w1 w1 w1。", "w2 w2。"]).encode()
    a = import_chunks(data, "a.json", TEXT)
    assert a.id == import_chunks(data, "b.json", TEXT).id
    assert a.id != import_chunks(json.dumps(["w1 w1", " w1。w2 w2。"]).encode(), "a.json", TEXT).id
    assert a.id != import_chunks(data, "a.json", TEXT + "x").id


def test_a_file_over_the_byte_limit_is_refused_before_it_is_read(monkeypatch):
    monkeypatch.setattr(imported, "MAX_CHUNK_FILE_BYTES", 10)
    with pytest.raises(InputTextError, match=r"chunk file big\.json is .* MiB are accepted"):
        import_chunks(b"[" + b'"x",' * 5 + b'"x"]', "big.json", TEXT)


def test_too_many_chunks_and_too_much_chunk_text_are_refused(monkeypatch):
    monkeypatch.setattr(align, "MAX_IMPORTED_CHUNKS", 2)
    with pytest.raises(InputTextError, match=r"holds 3 chunks; at most 2"):
        import_chunks(json.dumps(["w1", "w1", "w2"]).encode(), "n.json", TEXT)
    monkeypatch.undo()
    huge = json.dumps(["w1" * 10_000]).encode()
    with pytest.raises(InputTextError, match=r"20,000 characters of chunk text for a document"):
        import_chunks(huge, "h.json", TEXT)


def test_chunks_of_another_text_are_refused_when_none_aligns():
    with pytest.raises(InputTextError, match=r"no chunk of x\.json could be aligned"):
        import_chunks(json.dumps(["zzzz qqqq"]).encode(), "x.json", TEXT)


def test_a_label_and_the_chunkviz_snippet_name_the_file():
    params = {"id": "0123", "name": "lc.json"}
    assert config_label("imported", params) == "imported: lc.json"
    code = snippet("imported", params, "chunkviz").code
    assert "align_file(text, 'lc.json')" in code


@settings(max_examples=200, deadline=None)
@given(text=texts, size=st.integers(1, 40), style=st.sampled_from(["strings", "chonkie"]))
# A whitespace chunk before a run: its gap was read as a dropped separator, and every later
# chunk slipped by one.
@example(text="梅雨 " + "." * 40, size=1, style="strings")
def test_a_tiling_chunk_list_imports_back_to_its_own_offsets(text, size, style):
    # Chunks that tile the text (fixed windows, no overlap), even on repeated text such as
    # "w1 w1 w1" or "。。。", align to exactly the offsets they were cut at.
    # JSON reads the escapes of two lone surrogates back as one astral character: such text
    # cannot travel through a chunk file unchanged.
    assume(not any("\ud800" <= ch <= "\udfff" for ch in text))
    result = chunkviz.chunk(text, "fixed", size=size)
    pieces = result.chunk_texts()
    if not any(p.strip() for p in pieces):
        return  # whitespace alone has no place to be found at
    items: list[object] = (
        list(pieces)
        if style == "strings"
        else [
            {"text": p, "start_index": c.start, "end_index": c.end}
            for p, c in zip(pieces, result.chunks, strict=True)
        ]
    )
    found = import_chunks(json.dumps(items).encode("utf-8", "surrogatepass"), "c.json", text)
    expected = [c for c, p in zip(result.chunks, pieces, strict=True) if p.strip()]
    assert [c for c in found.result.chunks if text[c.start : c.end].strip()] == expected


def test_a_str_find_claim_inside_the_previous_chunk_is_not_trusted():
    # "abab" in windows of 3: "aba", "b". str.find("b") claims 1, inside "aba": the chunk is
    # placed where it follows the previous one, and the claim is reported wrong.
    items = [
        {"page_content": "aba", "metadata": {"start_index": 0}},
        {"page_content": "b", "metadata": {"start_index": 1}},
    ]
    found = import_chunks(json.dumps(items).encode(), "c.json", "abab")
    assert found.result.chunks == (Chunk(0, 3), Chunk(3, 4))
    assert [c.index for c in found.report.wrong_claims] == [1]
