"""Hostile texts (issue 14): pathological runs, lone surrogates, megabyte inputs to semantic.

Speed is measured in ``bench/adversarial.py`` (growth ratios); these tests pin the causes: the
runs that made the regexes retry inside them chunk validly at sizes that took seconds to
minutes before, the sparse path is the one semantic takes, and no UTF-8 library sees a lone
surrogate.
"""

from __future__ import annotations

import contextlib
import json
import os

import numpy as np
import pytest
import scipy.sparse

import chunkviz
from chunkviz.retrieval.lexical import TfidfBackend, char_ngrams
from chunkviz.segment import SENTENCE_SEPARATORS, sentence_spans
from chunkviz.strategies import all_strategies
from chunkviz.strategies.semantic import adjacent_similarities
from chunkviz.strategies.table import find_tables
from chunkviz.tokenizers import bundled_sentencepiece, without_surrogates
from tests.helpers import assert_valid_chunking

# Each took 12-57 s before the regexes stopped retrying inside runs (issue 14).
PATHOLOGICAL = {
    "dots": "a" + "." * 20_000 + "b",
    "spaces": "a" + " " * 20_000 + "b",
    "newlines": "a" + "\n" * 20_000 + "b",
    "commas": "a" + "," * 20_000 + "b",
    "quotative run": "a" + "。" * 20_000 + "と",
    "table with commas": "| name | price, yen |\n|---|---|\n| a, b | 1,000 |\n\n" * 400,
}


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
@pytest.mark.parametrize("strategy", [s.name for s in all_strategies()])
def test_pathological_text_is_chunked_validly(strategy, name):
    assert_valid_chunking(chunkviz.chunk(PATHOLOGICAL[name], strategy))


def test_recursive_on_a_run_of_dots_is_the_reported_reproduction():
    result = chunkviz.chunk("a" + "." * 20_000 + "b", "recursive", size=400)
    assert_valid_chunking(result, measure=len, size=400)
    assert result.chunks[-1].end == 20_002


def test_a_run_of_spaces_ends_no_sentence_and_a_break_after_it_does():
    assert sentence_spans("a" + " " * 5000 + "b") == [(0, 5002)]
    assert sentence_spans("a" + " " * 5000 + "\nb") == [(0, 1), (5002, 5003)]
    assert sentence_spans("a. " + " " * 50 + "\nb") == [(0, 2), (54, 55)]


def test_a_terminator_inside_a_run_starts_no_separator_but_the_run_still_ends_a_sentence():
    # The separator of "...  " is found once, from the run's first dot.
    dot = dict(SENTENCE_SEPARATORS)["."]
    assert [m.span() for m in dot.finditer("a...  b")] == [(1, 6)]
    assert list(dot.finditer("a" + "." * 100 + "b")) == []
    # After an abbreviation the second dot may start: "etc.. Then" still ends a sentence.
    assert sentence_spans("and so on, etc.. Then x.") == [(0, 16), (17, 24)]
    assert sentence_spans("「はい。」と言った。。。と思う。") == [(0, 16)]


def test_many_small_tables_are_all_found():
    text = "| name | price, yen |\n|---|---|\n| a, b | 1,000 |\n\n" * 300
    tables = find_tables(text)
    assert len(tables) == 300
    assert {t.kind for t in tables} == {"markdown"}


LONE_SURROGATES = ["\udbff\udc00", "\ud800", "a\udfffb. c\ud800d。"]


@pytest.mark.parametrize("text", LONE_SURROGATES)
@pytest.mark.parametrize("strategy", ["fixed", "recursive", "markdown", "sentence"])
def test_lone_surrogates_with_sentencepiece_tokens(strategy, text):
    # SentencePiece raised RuntimeError ("Unable to cast Python instance of type str").
    params = {"size": 3} if strategy != "sentence" else {}
    result = chunkviz.chunk(text, strategy, unit="tokens", **params)
    assert_valid_chunking(result)


@pytest.mark.parametrize("strategy", [s.name for s in all_strategies()])
def test_lone_surrogates_with_every_strategy(strategy):
    assert_valid_chunking(chunkviz.chunk("x\ud800 y. \udbff\udc00 z。" * 5, strategy))


def test_surrogates_become_replacement_characters_one_for_one():
    text = "a\ud800b\udbff\udc00"
    assert without_surrogates(text) == "a\ufffdb\ufffd\ufffd"
    spans = bundled_sentencepiece().token_spans(text)
    assert spans
    assert all(0 <= s < e <= len(text) for s, e in spans)


def test_tfidf_hashes_text_with_lone_surrogates():
    # The hashing vectorizer encodes terms as UTF-8: UnicodeEncodeError before.
    vectors = TfidfBackend().encode_documents(["ab\ud800", "ab"])
    assert vectors.shape == (2, 2**14)
    assert "\ufffd" in "".join(char_ngrams("ab\ud800", 2))


def test_semantic_with_tfidf_never_densifies(monkeypatch):
    def refuse(self, texts):
        raise AssertionError("dense TF-IDF vectors were built")

    monkeypatch.setattr(TfidfBackend, "encode_documents", refuse)
    text = "".join(f"Topic {i % 7} sentence about {i % 5}. " for i in range(2000))
    result = chunkviz.chunk(text, "semantic")
    assert_valid_chunking(result, measure=len, size=1000)
    assert len(result.chunks) > 1


def test_sparse_and_dense_adjacent_similarities_agree():
    rng = np.random.default_rng(0)
    dense = rng.random((30, 12)) * (rng.random((30, 12)) > 0.6)
    dense[4] = 0.0  # a zero row has similarity 0 with its neighbours
    sparse = scipy.sparse.csr_matrix(dense)
    np.testing.assert_allclose(adjacent_similarities(sparse), adjacent_similarities(dense))
    assert adjacent_similarities(sparse)[3] == 0.0


def test_the_bundled_encoder_takes_lone_surrogates():
    from chunkviz.retrieval.backends import get_backend

    backend = get_backend("use-m3")
    vectors = backend.encode_documents(["梅雨\ud800", "rain\udbff\udc00"])
    assert vectors.shape == (2, 512)
    assert np.isfinite(vectors).all()


# --- Round three (issue 26): bounded alignment, one guarded reader, no traceback from options ---


def _refused(capsys, argv, *, within=30.0):
    """Run the CLI in a thread; it must refuse within ``within`` s: exit 2, one line on stderr."""
    import threading

    from chunkviz.cli import main

    outcome: dict[str, object] = {}

    def target():
        try:
            outcome["rc"] = main(argv)
        except SystemExit as exc:  # argparse
            outcome["rc"] = exc.code
        except BaseException as exc:  # noqa: BLE001 - a traceback is what the test reports
            outcome["exc"] = exc

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(within)
    assert not worker.is_alive(), f"{argv} still running after {within} s"
    assert "exc" not in outcome, f"{argv} raised {outcome.get('exc')!r}"
    err = capsys.readouterr().err.strip()
    assert outcome["rc"] == 2, (outcome, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_alignment_of_text_from_elsewhere_is_linear(monkeypatch):
    from chunkviz.eval import align

    # A document of one repeated character and chunks of two: every anchor occurs everywhere.
    # Before the budget, 20 chunks took 38,668 partial matches (100 ms a chunk).
    calls = {"runs": 0}
    real = align._runs

    def counted(*args):
        calls["runs"] += 1
        return real(*args)

    monkeypatch.setattr(align, "_runs", counted)
    import random

    rng = random.Random(0)
    doc = "a" * 200_000
    chunks = ["".join(rng.choice("aab") for _ in range(200)) for _ in range(200)]
    report = align.align_chunks(doc, chunks)
    assert len(report.chunks) == 200
    assert calls["runs"] <= 40 * len(chunks)


def test_alignment_budget_is_shared_by_the_file_and_reported():
    from chunkviz.eval import align

    doc = "a" * 20_000
    # 2,000 chunks of 200 characters with runs of "a" in them: more than the budget pays for.
    chunks = ["aaaab" * 40] * 2000
    report = align.align_chunks(doc, chunks)
    assert report.unsearched > 0
    assert "budget of work ran out" in align.format_report(report)
    assert align.report_dict(report)["unsearched"] == report.unsearched


def test_alignment_of_chunks_in_place_is_unchanged_by_the_budget():
    from chunkviz.eval.align import align_chunks
    from chunkviz.samples import load_sample

    words = (load_sample("tech_en").text * 20).split()
    chunks = [r"\s+".join(words[i : i + 35]) for i in range(0, len(words), 35)]
    report = align_chunks(" ".join(words), chunks)
    assert report.aligned_count == len(chunks)
    assert report.unsearched == 0


HOSTILE_JSON = {
    "deep.json": b"[" * 100_000 + b"]" * 100_000,
    "digits.json": b'[{"text": "w1", "start_index": ' + b"9" * 5000 + b"}]",
    "deep.jsonl": b'"w1"\n' + b"[" * 50_000 + b"]" * 50_000 + b"\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_JSON))
def test_hostile_chunk_files_are_one_line_refusals_in_audit(tmp_path, capsys, name):
    doc = tmp_path / "doc.txt"
    doc.write_text("w1 w2 w3", encoding="utf-8")
    chunks = tmp_path / name
    chunks.write_bytes(HOSTILE_JSON[name])
    line = _refused(capsys, ["audit", str(doc), str(chunks)])
    assert name in line
    assert "nested too deeply" in line or "digits" in line


@pytest.mark.parametrize("name", sorted(HOSTILE_JSON))
def test_hostile_chunk_files_are_refused_on_upload(name):
    from chunkviz.errors import InputTextError
    from chunkviz.eval.imported import import_chunks

    with pytest.raises(InputTextError, match=r"nested too deeply|digits"):
        import_chunks(HOSTILE_JSON[name], name, "w1 w2 w3")


def test_hostile_chunk_file_in_tune_is_refused_before_work(tmp_path, capsys):
    doc = tmp_path / "doc.txt"
    doc.write_text("w1 w2 w3。" * 50, encoding="utf-8")
    chunks = tmp_path / "deep.json"
    chunks.write_bytes(HOSTILE_JSON["deep.json"])
    assert "nested too deeply" in _refused(capsys, ["tune", str(doc), "--chunks", str(chunks)])


def test_audit_is_bounded_like_tune_chunks(tmp_path, capsys, monkeypatch):
    from chunkviz.eval import align

    monkeypatch.setattr(align, "MAX_IMPORTED_CHUNKS", 5)
    doc = tmp_path / "doc.txt"
    doc.write_text("abcdefgh" * 10, encoding="utf-8")
    chunks = tmp_path / "many.json"
    chunks.write_text(json.dumps(list("abcdefgh")), encoding="utf-8")
    assert "holds 8 chunks; at most 5" in _refused(capsys, ["audit", str(doc), str(chunks)])


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    yield path
    # Unblock a reader that a failing test left waiting on it (ENXIO: there is none).
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


@pytest.mark.parametrize(
    "spec", ["squad:{fifo}", "jsquad:{fifo}", "qa:{fifo}:{doc}", "qa:{pairs}:{fifo}"]
)
def test_dataset_readers_refuse_a_fifo(tmp_path, capsys, fifo, spec):
    doc = tmp_path / "doc.txt"
    doc.write_text("梅雨は六月に始まる。", encoding="utf-8")
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("question,answer\nいつ？,六月\n", encoding="utf-8")
    dataset = spec.format(fifo=fifo, doc=doc, pairs=pairs)
    line = _refused(
        capsys, ["bench", "--dataset", dataset, "--out", str(tmp_path / "out"), "--quiet"]
    )
    assert "not a regular file" in line


@pytest.mark.parametrize("qa", ["{fifo}", "/dev/zero"])
def test_tune_qa_refuses_a_fifo_and_a_device(tmp_path, capsys, fifo, qa):
    doc = tmp_path / "doc.txt"
    doc.write_text("梅雨は六月に始まる。", encoding="utf-8")
    line = _refused(capsys, ["tune", str(doc), "--qa", qa.format(fifo=fifo)])
    assert "not a regular file" in line


def test_a_sparse_file_over_the_limit_is_refused_before_it_is_read(tmp_path, capsys):
    doc = tmp_path / "doc.txt"
    doc.write_text("梅雨は六月に始まる。", encoding="utf-8")
    big = tmp_path / "big.csv"
    with open(big, "wb") as f:
        f.truncate(3 * 1024**3)  # 3 GB, no blocks on disk
    assert "MiB are accepted" in _refused(capsys, ["tune", str(doc), "--qa", str(big)])


class _CountingProbe:
    """A probe that counts how often any probe's start is read (the work of finding keywords)."""

    reads = 0

    def __init__(self, start: int, end: int) -> None:
        self._start, self.end, self.kind = start, end, "latin"

    @property
    def start(self) -> int:
        _CountingProbe.reads += 1
        return self._start


@pytest.mark.parametrize("form", ["context", "keywords", "template", "shaped"])
def test_synthetic_questions_look_at_a_bounded_neighbourhood_of_each_probe(form):
    from chunkviz.datasets.base import Document
    from chunkviz.eval.synthetic import synthetic_questions

    # No sentence end: one sentence holding every probe (quadratic before: 92 s at 200k chars).
    n = 1500
    text = " ".join(f"W{i:04d}" for i in range(n))
    probes = [_CountingProbe(6 * i, 6 * i + 5) for i in range(n)]
    _CountingProbe.reads = 0
    questions = synthetic_questions(Document("d", "d", text), form, probes=probes)
    assert _CountingProbe.reads <= 400 * n  # n * n = 2,250,000 before
    if form in ("keywords", "template"):
        assert len(questions) == n
    if form == "shaped":  # a layout with words only in other sentences has none to take here
        assert n // 2 < len(questions) < n
    if form in ("keywords", "template"):
        assert questions[0].question.startswith("W0001 W0002 W0003")
    if form == "shaped":  # pieces grow to whole words, never beyond a bounded reach
        assert all(len(q.question) <= 200 for q in questions)


@pytest.fixture
def doc_file(tmp_path):
    path = tmp_path / "doc.txt"
    path.write_text("梅雨は六月に始まる。梅雨前線が北上する。" * 20, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["tune", "{doc}", "--margin", "inf"], "--margin"),
        (["tune", "{doc}", "--margin", "nan"], "--margin"),
        (["tune", "{doc}", "--margin", "0"], "--margin"),
        (["tune", "{doc}", "--seed", "-1"], "--seed"),
        (["tune", "{doc}", "--synthetic", "-5"], "--synthetic"),
        (["bench", "--seed", "-1"], "--seed"),
        (["bench", "--seed", "99999999999"], "--seed"),
        (["bench", "--bootstrap", "1000000000"], "--bootstrap"),
        (["bench", "--permutations", "0"], "--permutations"),
        (["bench", "--sample", "-3"], "--sample"),
        (["bench", "--margin", "recall@5=inf"], "--margin"),
        (["bench", "--margin", "recall@5=nan"], "--margin"),
        (["bench", "--margin", "recall@5=2"], "--margin"),
        (["bench", "--margin", "bogus@5=0.1"], "--margin"),
        (["bench", "--margin", "recall@999=0.1"], "--margin"),
        (["bench", "--engine", "ray", "--cpus-per-actor", "nan"], "--cpus-per-actor"),
        (["bench", "--engine", "ray", "--cpus-per-actor", "inf"], "--cpus-per-actor"),
        (["bench", "--engine", "ray", "--gpus-per-actor", "-1"], "--gpus-per-actor"),
        (["bench", "--engine", "ray", "--actors", "0"], "--actors"),
        (["bench", "--engine", "ray", "--batch-size", "1e3"], "--batch-size"),
        (["audit", "{doc}", "{doc}", "--limit", "-1"], "--limit"),
        (["lost", "--seed", "x"], "--seed"),
    ],
)
def test_every_option_value_out_of_range_is_a_one_line_refusal(
    capsys, doc_file, tmp_path, argv, fragment
):
    argv = [a.format(doc=doc_file) for a in argv]
    if argv[0] == "bench":
        argv += ["--out", str(tmp_path / "out"), "--quiet"]
    line = _refused(capsys, argv)
    assert fragment in line
    value = argv[argv.index(fragment) + 1] if fragment in argv else None
    assert value is None or value.split("=")[-1][:10] in line


@pytest.mark.parametrize(
    "address", ["garbage::addr", "", "http://127.0.0.1:8265", "host:0", "host:99999", "ray://"]
)
def test_ray_addresses_are_checked_before_ray_starts(capsys, tmp_path, address):
    line = _refused(
        capsys,
        [
            "bench",
            "--engine",
            "ray",
            "--address",
            address,
            "--out",
            str(tmp_path / "out"),
            "--quiet",
        ],
    )
    assert "--address" in line


def test_a_ray_client_address_without_ray_client_says_what_to_install():
    import importlib.util

    from chunkviz.errors import MissingDependencyError
    from chunkviz.eval.ray_engine import check_address

    check_address("auto")
    check_address("head.example:6379")
    if importlib.util.find_spec("grpc") is None:
        with pytest.raises(MissingDependencyError, match=r"ray\[client\]"):
            check_address("ray://127.0.0.1:1")
    else:
        check_address("ray://127.0.0.1:1")


def test_an_address_where_nothing_listens_is_refused_in_seconds():
    import socket

    from chunkviz.errors import ParameterError
    from chunkviz.eval.ray_engine import reachable

    with socket.socket() as s:  # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ParameterError, match="nothing answers there"):
        reachable(f"127.0.0.1:{port}", timeout=2)


def test_actors_the_cluster_cannot_place_are_refused():
    from chunkviz.errors import ParameterError
    from chunkviz.eval.ray_engine import check_resources

    check_resources({"CPU": 2.0}, 1.0, 0.0)
    with pytest.raises(ParameterError, match="--cpus-per-actor 1e\\+09 is more than"):
        check_resources({"CPU": 2.0}, 1e9, 0.0)
    with pytest.raises(ParameterError, match="--gpus-per-actor 1 is more than the cluster's 0"):
        check_resources({"CPU": 2.0}, 1.0, 1.0)


def test_a_long_document_name_fits_the_results_file_name(tmp_path):
    from chunkviz.eval.results import MAX_RUN_ID, run_id

    rid = run_id(
        dataset="d" * 244 + ".txt",
        spec="x",
        backend="bm25",
        model="",
        measure="cosine",
        sample=0,
        seed=4294967295,
        configs=(),
        ks=(5,),
        budget_chars=0,
        alpha=0.05,
        bootstrap=10,
        permutations=10,
    )
    assert len(rid) <= MAX_RUN_ID
    (tmp_path / f"{rid}.json").write_text("{}", encoding="utf-8")


def test_an_output_folder_whose_path_leaves_no_room_is_refused_before_work(
    tmp_path, capsys, doc_file
):
    deep = tmp_path
    while len(str(deep)) < 4000:  # PATH_MAX is 4096: no file name fits below this folder
        deep = deep / ("d" * 200)
    line = _refused(capsys, ["tune", str(doc_file), "--out", str(deep), "--quiet"])
    assert "--out" in line


@pytest.mark.parametrize("below", ["", "sub"])
def test_an_unwritable_embedding_cache_is_refused_before_a_dense_run(tmp_path, monkeypatch, below):
    from chunkviz.errors import ResultsFileError
    from chunkviz.eval.results import check_cache_writable as check_cache

    target = tmp_path / "cache"
    target.write_text("a file, not a folder", encoding="utf-8")
    monkeypatch.setenv("CHUNKVIZ_CACHE_DIR", str(target / below if below else target))
    check_cache(None, "lexical")  # no cache used, none checked
    with pytest.raises(ResultsFileError, match=r"embedding cache \(\$CHUNKVIZ_CACHE_DIR"):
        check_cache(None, "dense")


def test_bidi_controls_in_names_and_text_are_shown_not_obeyed():
    from chunkviz.views.markup import escape_html, escape_markdown
    from chunkviz.views.standalone import standalone_html

    name = "invoice\u202etxt.exe"
    result = chunkviz.chunk("abc \u202edef \u2067ghi\u2069", "fixed", size=4)
    page = standalone_html(result, (), (), name=name, lang="en")
    for control in ("\u202e", "\u2067", "\u2069"):
        assert control not in page
    assert "invoice&lt;U+202E&gt;txt.exe" in page
    assert "\u202e" not in escape_markdown(name)
    assert escape_html("a\u200fb") == "a&lt;U+200F&gt;b"


# --- issue 41, finding 16: a port that accepts TCP but is not Ray -------------------------------


def _serve_once(reply: bytes):
    """A TCP server on a free local port that accepts one connection, reads, writes ``reply``
    and holds the connection open (as an unrelated service would); returns the port."""
    import contextlib
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def serve():
        with server, contextlib.suppress(OSError):  # the client may reset the connection
            conn, _ = server.accept()
            with conn:
                conn.recv(64)
                if reply:
                    conn.sendall(reply)
                conn.recv(64)  # until the client goes

    threading.Thread(target=serve, daemon=True).start()
    return server.getsockname()[1]


@pytest.mark.parametrize(
    "reply", [b"", b"HTTP/1.1 400 Bad Request\r\n\r\n"], ids=["silent", "http1"]
)
def test_an_address_that_is_not_ray_is_refused_within_its_timeout(reply):
    from chunkviz.errors import ParameterError
    from chunkviz.eval.ray_engine import reachable

    port = _serve_once(reply)
    with pytest.raises(
        ParameterError,
        match=r"something answers there but it is not Ray \(no "
        r"gRPC reply within 1 s\)",
    ):
        reachable(f"127.0.0.1:{port}", timeout=1)


def test_a_grpc_server_passes_the_probe():
    from chunkviz.eval.ray_engine import reachable

    # What Ray's GCS answered here to HTTP/2's preface: a SETTINGS frame (type 4).
    port = _serve_once(b"\x00\x00\x18\x04\x00\x00\x00\x00\x00" + b"\x00" * 24)
    reachable(f"127.0.0.1:{port}", timeout=2)
