"""Bring your own chunks: alignment of other libraries' real output to exact offsets."""

from __future__ import annotations

import json

import pytest
from chonkie import RecursiveChunker, TokenChunker
from hypothesis import given
from hypothesis import strategies as st
from langchain_text_splitters import CharacterTextSplitter, RecursiveCharacterTextSplitter

from chunkviz.api import chunk
from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.errors import InputTextError, ParameterError
from chunkviz.eval.align import (
    ImportedChunk,
    align_chunks,
    format_report,
    parse_chunks,
    read_chunks,
    report_dict,
)
from chunkviz.eval.grid import ImportedConfig, fixed_config
from chunkviz.eval.lost import lost_table
from chunkviz.eval.runner import run_benchmark
from chunkviz.eval.spans import analyze_spans
from chunkviz.model import Chunk, Span
from tests.strategies import texts

EN = (
    "The quick brown fox jumps over the lazy dog near the river bank.\n"
    "A second line follows here with more words in it.\n\n"
) * 3 + "Tail words end here."

JA = "梅雨は六月に始まる。梅雨前線が停滞する。寒帯ジェット気流が南下する。" * 4


def _langchain(docs: list) -> list[ImportedChunk]:
    return [ImportedChunk(d.page_content, d.metadata.get("start_index")) for d in docs]


def test_langchain_regex_separator_is_reported_and_aligned() -> None:
    splitter = CharacterTextSplitter(
        separator=r"\s+",
        is_separator_regex=True,
        add_start_index=True,
        chunk_size=60,
        chunk_overlap=0,
    )
    docs = splitter.create_documents([EN])
    # The library's own output, as NOTES.md records it: the pattern text joins the pieces.
    assert all("\\s+" in d.page_content for d in docs if " " in d.page_content.strip())
    assert all(d.metadata["start_index"] == -1 for d in docs)
    assert not any(d.page_content in EN for d in docs if "\\s+" in d.page_content)

    report = align_chunks(EN, _langchain(docs), format="langchain")
    joined = [d for d in docs if "\\s+" in d.page_content]
    assert len(report.not_as_is) == len(joined) > 0
    assert len(report.wrong_claims) == len(docs)  # every -1 is reported
    assert report.aligned_count == len(docs)  # and every chunk is aligned
    for c, d in zip(report.chunks, docs, strict=True):
        assert c.start is not None
        assert c.end is not None
        # The aligned span holds the chunk's words, with the document's own whitespace.
        words = d.page_content.replace("\\s+", " ").split()
        assert EN[c.start : c.end].split() == words
    assert not report.gaps  # only whitespace lies between the chunks
    text = format_report(report)
    assert f"claimed start indices that are wrong: {len(docs)}" in text
    assert "claimed -1" in text


def test_langchain_dropped_separators_are_reported_as_gaps() -> None:
    splitter = RecursiveCharacterTextSplitter(
        separators=["。"],
        keep_separator=False,
        chunk_size=30,
        chunk_overlap=0,
        add_start_index=True,
    )
    docs = splitter.create_documents([JA])
    report = align_chunks(JA, _langchain(docs), format="langchain")
    assert report.aligned_count == len(docs)
    assert not report.not_as_is
    assert not report.wrong_claims  # LangChain's start_index is right here (NOTES.md)
    dropped = [i for i, ch in enumerate(JA) if ch == "。"]
    covered = {i for c in report.chunks for i in range(c.start or 0, c.end or 0)}
    missing = [i for i in dropped if i not in covered]
    assert missing  # the splitter dropped them
    assert [(g.start, g.end, g.text) for g in report.gaps] == [(i, i + 1, "。") for i in missing]


def _paragraphs() -> tuple[str, list[tuple[int, int]]]:
    # Four paragraphs, the first and third identical; truth is known by construction.
    same = "同じ段落がここに繰り返される。"
    paras = [same, "二番目の段落は別の内容。", same, "最後の段落で終わる。"]
    text, truth, pos = "", [], 0
    for p in paras:
        truth.append((pos, pos + len(p)))
        text += p + "\n\n"
        pos = len(text)
    return text, truth


def test_find_based_start_index_on_repeated_text_is_aligned_to_the_right_copy() -> None:
    text, truth = _paragraphs()
    splitter = RecursiveCharacterTextSplitter(separators=["\n\n"], chunk_size=20, chunk_overlap=0)
    pieces = splitter.split_text(text)
    assert [text[s:e] for s, e in truth] == pieces
    # What a str.find-based recovery of the start index claims (LangChain before its fix,
    # LlamaIndex before search_start): the third chunk is put on the first copy.
    claimed = [ImportedChunk(p, text.find(p)) for p in pieces]
    assert claimed[2].start == truth[0][0]
    report = align_chunks(text, claimed, format="langchain")
    assert [(c.start, c.end) for c in report.chunks] == truth
    assert [(c.index, c.claimed_start, c.start) for c in report.wrong_claims] == [
        (2, truth[0][0], truth[2][0])
    ]
    # Without any claim, the monotonic rule alone finds the right copy.
    plain = align_chunks(text, pieces)
    assert [(c.start, c.end) for c in plain.chunks] == truth
    assert plain.digest == report.digest  # the same offsets, the same name
    assert plain.digest != align_chunks(text, pieces[:3]).digest


def test_chonkie_real_chunker_format_round_trips_and_aligns(tmp_path) -> None:
    text, truth = _paragraphs()
    chunks = RecursiveChunker(chunk_size=24).chunk(text * 2)
    dumped = [c.to_dict() for c in chunks]
    path = tmp_path / "chonkie.json"
    path.write_text(json.dumps(dumped, ensure_ascii=False), encoding="utf-8")
    fmt, imported = read_chunks(path)
    assert fmt == "chonkie"
    assert [c.start for c in imported] == [c.start_index for c in chunks]
    report = align_chunks(text * 2, imported, format=fmt)
    assert report.aligned_count == len(chunks)
    for c, original in zip(report.chunks, chunks, strict=True):
        assert (text * 2)[c.start : c.end] == original.text
    # chonkie's own offsets are right here, so nothing is reported against them.
    assert not report.wrong_claims
    assert not report.gaps


def test_chonkie_duplicate_start_index_is_reported() -> None:
    text = "w1 w1 w1 w1 w1 w1"
    chunks = TokenChunker(tokenizer="character", chunk_size=5, chunk_overlap=0).chunk(text)
    fmt, imported = parse_chunks([c.to_dict() for c in chunks])
    # Simulate chonkie's open duplicate-start_index bug: every chunk claims the first copy.
    broken = [ImportedChunk(c.text, 0, len(c.text)) for c in imported]
    report = align_chunks(text, broken, format=fmt)
    assert [c.start for c in report.chunks] == [c.start_index for c in chunks]
    assert [c.index for c in report.wrong_claims] == list(range(1, len(chunks)))


# LlamaIndex is not installed here (it pulls tiktoken and nltk data that need the network), so
# its node format is tested with literal dumps shaped exactly like TextNode.model_dump().
def _node(text: str, start: int | None, end: int | None) -> dict[str, object]:
    return {
        "id_": "n",
        "embedding": None,
        "metadata": {},
        "excluded_embed_metadata_keys": [],
        "excluded_llm_metadata_keys": [],
        "relationships": {},
        "metadata_template": "{key}: {value}",
        "metadata_separator": "\n",
        "text": text,
        "mimetype": "text/plain",
        "start_char_idx": start,
        "end_char_idx": end,
        "metadata_seperator": "\n",
        "text_template": "{metadata_str}\n\n{content}",
        "class_name": "TextNode",
    }


def test_llamaindex_nodes_with_find_offsets_and_missing_offsets(tmp_path) -> None:
    text, truth = _paragraphs()
    pieces = [text[s:e] for s, e in truth]
    nodes = [_node(p, text.find(p), text.find(p) + len(p)) for p in pieces]
    nodes[3]["start_char_idx"] = nodes[3]["end_char_idx"] = None  # LlamaIndex leaves None
    path = tmp_path / "nodes.jsonl"
    path.write_text("\n".join(json.dumps(n, ensure_ascii=False) for n in nodes), encoding="utf-8")
    fmt, imported = read_chunks(path)
    assert fmt == "llamaindex"
    assert imported[3].start is None
    report = align_chunks(text, imported, format=fmt)
    assert [(c.start, c.end) for c in report.chunks] == truth
    assert [c.index for c in report.wrong_claims] == [2]
    assert report_dict(report)["wrong_claims"] == [
        {"index": 2, "claimed_start": truth[0][0], "start": truth[2][0]}
    ]


def test_stripped_whitespace_and_text_not_in_the_document() -> None:
    text = "alpha beta\ngamma delta\n\nepsilon zeta eta theta"
    chunks = ["alpha beta gamma delta", "this text is nowhere in the document at all", "eta theta"]
    report = align_chunks(text, chunks)
    first, missing, last = report.chunks
    assert (first.start, first.end, first.match) == (0, 22, "whitespace")
    assert (missing.start, missing.match) == (None, "missing")
    assert text[last.start : last.end] == "eta theta"
    assert [g.text for g in report.gaps] == ["epsilon zeta"]
    assert [c.index for c in report.not_as_is] == [0, 1]


def test_aligned_chunking_works_in_lost_counts_and_the_benchmark(tmp_path) -> None:
    text, truth = _paragraphs()
    pieces = [text[s:e] for s, e in truth]
    # Cut the second paragraph in two: an answer across the cut is broken.
    cut = truth[1][0] + 4
    pieces = [pieces[0], text[truth[1][0] : cut], text[cut : truth[1][1]], *pieces[2:]]
    report = align_chunks(text, pieces)
    result = report.result("mine")
    assert result.strategy == "imported"
    assert result.chunks[1] == Chunk(truth[1][0], cut)
    span = Span("d", truth[1][0], truth[1][1])
    assert analyze_spans(result, [span]).broken_count == 1
    doc = Document("d", "doc", text)
    config = ImportedConfig("mine", "imported", {"source": "test"}, {"d": result})
    questions = (
        Question("q1", "d", "二番目の段落は", text[span.start : span.end], (span,)),
        Question("q2", "d", "最後の段落", "最後の段落", (Span("d", truth[3][0], truth[3][0] + 5),)),
    )
    data = Dataset("mine", (doc,), questions)
    rows = lost_table(data, [config, fixed_config(100, 0)])
    assert [(r.config, r.broken) for r in rows] == [("mine", 1), ("fixed-100-0", 0)]
    out = run_benchmark(data, [config], "bm25", cache_dir=tmp_path, bootstrap=50, permutations=50)
    assert out.ranks["mine"][0] is None  # broken before retrieval
    assert out.ranks["mine"][1] is not None
    other = Document("d", "doc", text + "x")
    with pytest.raises(ParameterError, match="aligned to another text"):
        config.chunking_for(other)


def test_bad_chunk_files_get_clear_messages(tmp_path) -> None:
    with pytest.raises(InputTextError, match=r"cannot read .*none\.json \(No such file"):
        read_chunks(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(InputTextError, match="neither JSON nor JSONL"):
        read_chunks(bad)
    binary = tmp_path / "chunks.bin"
    binary.write_bytes(b"\x00\x01\x02PK\x03\x04")
    with pytest.raises(InputTextError, match="binary"):
        read_chunks(binary)
    bom = tmp_path / "bom.json"
    bom.write_bytes('\ufeff["梅雨"]'.encode())
    assert read_chunks(bom) == ("strings", (ImportedChunk("梅雨"),))
    with pytest.raises(InputTextError, match="must be a JSON list"):
        parse_chunks({"x": 1})
    with pytest.raises(InputTextError, match="chunk 1 is a int"):
        parse_chunks(["a", 3])


def test_long_document_alignment_stays_linear() -> None:
    # 1 MB of text with repeated sentences: every chunk is aligned, each to the next copy.
    sentence = "同じ文が何度も現れる長い文書の一部です。"
    text = sentence * (1_000_000 // len(sentence))
    size = 400
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    report = align_chunks(text, chunks)
    assert [c.start for c in report.chunks] == list(range(0, len(text), size))
    assert not report.gaps


def test_audit_command_prints_the_report(tmp_path, capsys) -> None:
    from chunkviz.cli import main

    text, truth = _paragraphs()
    doc = tmp_path / "doc.txt"
    doc.write_text(text, encoding="utf-8")
    pieces = [text[s:e] for s, e in truth]
    chunks = tmp_path / "chunks.json"
    chunks.write_text(
        json.dumps(
            [{"page_content": p, "metadata": {"start_index": text.find(p)}} for p in pieces],
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    assert main(["audit", str(doc), str(chunks)]) == 0
    out = capsys.readouterr().out
    assert "4 chunks read as langchain; 4 aligned" in out
    assert "claimed start indices that are wrong: 1" in out
    assert f"chunk 2: claimed {truth[0][0]}, it starts at {truth[2][0]}" in out
    assert main(["audit", str(doc), str(chunks), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["offsets"] == [list(t) for t in truth]
    assert main(["audit", str(doc), str(tmp_path / "missing.json")]) == 2
    assert "missing.json (No such file or directory); check the path" in capsys.readouterr().err


@given(text=texts, size=st.integers(1, 12), overlap=st.integers(0, 11))
def test_fixed_windows_align_back_to_their_offsets(text: str, size: int, overlap: int) -> None:
    overlap = min(overlap, size - 1)
    result = chunk(text, "fixed", size=size, overlap=overlap)
    truth = [(c.start, c.end) for c in result.chunks]
    pieces = result.chunk_texts()
    # With their claimed starts (chonkie, LlamaIndex), every chunk is placed exactly, even on
    # repeated text and when it is only whitespace.
    claimed = align_chunks(
        text, [ImportedChunk(p, s) for p, (s, _) in zip(pieces, truth, strict=True)]
    )
    assert [(c.start, c.end) for c in claimed.chunks] == truth
    assert not claimed.wrong_claims
    # Without claims, adjacent windows (no overlap) are placed exactly too: the monotonic rule
    # and the expected next start pick the right copy of repeated text.
    if overlap == 0 and all(p.strip() for p in pieces):
        plain = align_chunks(text, pieces)
        assert [(c.start, c.end) for c in plain.chunks] == truth
        assert not plain.gaps


def test_far_chunks_are_found_by_the_scan_until_its_budget_is_spent(monkeypatch):
    from chunkviz.eval import align

    text = "A" * 5000 + "needle here"
    assert align_chunks(text, ["needle here"]).chunks[0].start == 5000
    monkeypatch.setattr(align, "_SCAN_BUDGET", 0)
    monkeypatch.setattr(align, "_SCAN_FLOOR", 0)
    assert align_chunks(text, ["needle here"]).chunks[0].match == "missing"


def test_chunks_of_another_text_cost_a_window_each_not_the_text_so_far(monkeypatch):
    import random

    from chunkviz.eval import align

    # 3,000 chunks found nowhere, then one that is: every window searched stays near where its
    # chunk is expected (they once grew from the last aligned chunk with every lost one).
    widths: list[int] = []
    nearest = align._nearest

    def recording(hay: str, needle: str, lo: int, expected: int, hi: int) -> int:
        widths.append(hi - lo)
        return nearest(hay, needle, lo, expected, hi)

    monkeypatch.setattr(align, "_nearest", recording)
    rng = random.Random(0)
    text = "".join(rng.choice("あいうえおかきくけこ。") for _ in range(60_000))
    lost = [f"XQ{i:05d}ZW" for i in range(3000)]
    report = align_chunks(text, [text[:40], *lost, text[27_000:27_040]])
    assert [c.start for c in report.chunks if c.aligned] == [0, 27_000]
    assert sum(c.match == "missing" for c in report.chunks) == 3000
    assert max(widths) <= 4 * 40 + 2 * align._WINDOW_SLACK + 40


# --- issue 41, finding 8: the chunk count is bounded before the file is parsed -----------------


@pytest.mark.parametrize("jsonl", [False, True], ids=["json", "jsonl"])
def test_the_audit_of_millions_of_chunks_is_refused_before_they_are_parsed(
    tmp_path, capsys, monkeypatch, jsonl
):
    # 3.99 million chunks in a 16 MB file: a MemoryError traceback while json.loads built them.
    from chunkviz.cli import main

    def parse(*args, **kwargs):
        raise AssertionError("the chunks were parsed before they were counted")

    monkeypatch.setattr(json, "loads", parse)
    doc = tmp_path / "doc.txt"
    doc.write_text("a" * 1_000, encoding="utf-8")
    chunks = tmp_path / "chunks.json"
    chunks.write_text(
        "\n".join(['"a"'] * 3_990_000) if jsonl else "[" + ",".join(['"a"'] * 3_990_000) + "]",
        encoding="utf-8",
    )
    assert main(["audit", str(doc), str(chunks)]) == 2
    err = capsys.readouterr().err
    assert "chunk file chunks.json holds 3,990,000 chunks; at most 20,000" in err
    assert "Traceback" not in err


def test_values_are_counted_at_the_top_level_only():
    from chunkviz.textio import json_values

    assert json_values('[{"text": "a, b", "metadata": {"x": [1, 2]}}, "c"]') == 2
    assert json_values("[ ]") == 0
    assert json_values('{"a": 1}\n\n{"b": 2}\n') == 2
