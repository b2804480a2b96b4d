"""The encoding pool: worker processes that load a dense backend by name, one thread each."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import chunkviz.eval.engine as engine_module
from chunkviz.errors import ChunkvizError, ParameterError
from chunkviz.eval.engine import LocalEngine
from chunkviz.retrieval.cache import EmbeddingCache
from chunkviz.retrieval.dense import UseM3Backend
from chunkviz.retrieval.pool import (
    MAX_WORKERS,
    EncoderPool,
    default_workers,
    foreign_main,
    loads_by_name,
)
from chunkviz.retrieval.threads import ENV_VAR as THREADS_VAR
from chunkviz.retrieval.threads import encoder_threads

# The interpreter's own __main__, read when pytest collects this file: an AppTest run earlier in
# the same process leaves a page script installed as __main__ (Streamlit never puts it back).
REAL_MAIN = sys.modules["__main__"]


@pytest.fixture(autouse=True)
def _real_main(monkeypatch):
    monkeypatch.setitem(sys.modules, "__main__", REAL_MAIN)


class Named:
    """A backend as the parent knows it: only what the pool reads (name, model, kind)."""

    kind = "dense"
    document_prefix = query_prefix = ""

    def __init__(self, name: str, model: str = "m") -> None:
        self.name = name
        self.model = model


TEXTS = [f"梅雨前線が{i}日停滞する。" * (1 + i % 3) for i in range(11)]
QUESTIONS = [f"梅雨前線は何日停滞する？（{i}）" for i in range(5)]


def _workers() -> list[multiprocessing.process.BaseProcess]:
    return [p for p in multiprocessing.active_children() if p.name.startswith("Spawn")]


def _no_workers_left() -> bool:
    return not _workers()


def test_workers_and_threads_come_from_the_machine_and_are_bounded():
    assert 1 <= default_workers(1000) <= min(os.cpu_count() or 1, MAX_WORKERS)
    assert default_workers(1) == 1
    assert encoder_threads() == 1


def test_the_thread_override_is_checked(monkeypatch):
    monkeypatch.setenv(THREADS_VAR, "3")
    assert encoder_threads() == 3
    monkeypatch.setenv(THREADS_VAR, "many")
    with pytest.raises(ParameterError, match="CHUNKVIZ_ENCODE_THREADS must be a whole number"):
        encoder_threads()


def test_only_registered_dense_backends_go_to_workers():
    assert loads_by_name(Named("use-m3"))
    assert loads_by_name(Named("st:/some/model"))
    assert not loads_by_name(Named("counting"))  # a test double only this process has
    with pytest.raises(ParameterError, match="cannot be loaded by name"):
        EncoderPool(Named("counting"), workers=2)
    with pytest.raises(ParameterError, match="workers must be a whole number from 1"):
        EncoderPool(Named("use-m3"), workers=0)
    with pytest.raises(ParameterError, match="workers must be 0"):
        LocalEngine(workers=-1)


def test_a_backend_that_fails_to_load_in_a_worker_is_one_clear_error():
    with (
        EncoderPool(Named("st:/no/such/model/folder"), workers=1) as pool,
        pytest.raises(ChunkvizError, match="no/such/model/folder"),
    ):
        list(pool.encode([["a"]], "document"))
    assert _no_workers_left()


def test_a_worker_that_dies_is_an_error_naming_the_batch():
    pool = EncoderPool(Named("use-m3", UseM3Backend().model), workers=1)
    with pool:
        assert [i for i, _ in pool.encode([["a"]], "document")] == [0]
        (worker,) = _workers()
        os.kill(worker.pid, signal.SIGKILL)
        with pytest.raises(ChunkvizError, match="stopped before batch 0 was done"):
            list(pool.encode([["b"]], "document"))
    assert _no_workers_left()


def test_a_page_script_as_main_keeps_the_encoding_in_this_process(tmp_path, monkeypatch):
    # What Streamlit and AppTest leave behind: a page script installed as __main__, which a
    # spawned worker would run again. Nothing global is changed to work around it.
    page = types.ModuleType("__main__")
    page.__file__ = str(tmp_path / "pages" / "4_Benchmark.py")
    monkeypatch.setitem(sys.modules, "__main__", page)
    assert foreign_main() == page.__file__
    with pytest.raises(ChunkvizError, match="encode in this process"):
        EncoderPool(Named("use-m3"), workers=1).start()
    monkeypatch.setattr(engine_module, "ENCODE_BATCH", 4)
    be = UseM3Backend()
    cache = EmbeddingCache(tmp_path / "here")
    with LocalEngine(workers=2) as engine:
        engine.encode(be, cache, TEXTS, "document", lambda *a: None)
        assert engine._pool is None  # no pool was started
    assert _no_workers_left()
    assert cache.missing(be, TEXTS, "document") == []
    assert page.__file__ == str(tmp_path / "pages" / "4_Benchmark.py")  # left as it was


def test_the_main_script_this_process_started_with_is_safe(monkeypatch, tmp_path):
    script = types.ModuleType("__main__")
    script.__file__ = str(tmp_path / "bench.py")
    monkeypatch.setitem(sys.modules, "__main__", script)
    monkeypatch.setattr(sys, "argv", [str(tmp_path / "bench.py")])
    assert foreign_main() is None
    del script.__file__
    assert foreign_main() is None  # python -c


def test_pool_vectors_are_the_in_process_ones_bit_for_bit_and_only_missing_texts_go(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(engine_module, "ENCODE_BATCH", 4)
    be = UseM3Backend()  # one thread, like every worker
    sent: list[list[str]] = []
    real = EncoderPool.encode

    def spy(self, batches, role):
        sent.extend(list(b) for b in batches)
        return real(self, batches, role)

    monkeypatch.setattr(EncoderPool, "encode", spy)
    cache = EmbeddingCache(tmp_path / "pool")
    cache.store(be, TEXTS[:2], be.encode_documents(TEXTS[:2]), "document")
    progress = []
    with LocalEngine(workers=2) as engine:
        engine.encode(be, cache, TEXTS, "document", lambda *a: progress.append(a[1:3]))
        assert sent == [TEXTS[2:6], TEXTS[6:10], TEXTS[10:]]  # the missing texts, in batches
        assert progress[-1] == (9, 9)
        engine.encode(be, cache, QUESTIONS, "query", lambda *a: None)  # the same pool again
        pool = engine._pool
        assert pool is not None
        assert pool.workers == 2
    assert engine._pool is None
    assert _no_workers_left()
    pooled = EmbeddingCache(tmp_path / "pool").encode(be, TEXTS, "document")
    # The same batches in this process, on the same single thread.
    here = EmbeddingCache(tmp_path / "here")
    here.store(be, TEXTS[:2], be.encode_documents(TEXTS[:2]), "document")
    LocalEngine(workers=0).encode(be, here, TEXTS, "document", lambda *a: None)
    assert np.array_equal(pooled, EmbeddingCache(tmp_path / "here").encode(be, TEXTS, "document"))
    queries = EmbeddingCache(tmp_path / "pool").encode(be, QUESTIONS, "query")
    assert np.array_equal(
        queries,
        np.concatenate([be.encode_queries(QUESTIONS[:4]), be.encode_queries(QUESTIONS[4:])]),
    )


def test_an_interruption_stops_every_worker_and_keeps_the_batches_done(tmp_path, monkeypatch):
    monkeypatch.setattr(engine_module, "ENCODE_BATCH", 3)
    be = UseM3Backend()
    cache = EmbeddingCache(tmp_path)
    engine = LocalEngine(workers=2)

    def interrupt(stage, done, total, message):
        raise KeyboardInterrupt  # Ctrl-C after the first batch landed

    with pytest.raises(KeyboardInterrupt):
        engine.encode(be, cache, TEXTS, "document", interrupt)
    assert engine._pool is None
    assert _no_workers_left()
    assert len(cache.missing(be, TEXTS, "document")) == len(TEXTS) - 3


def test_workers_is_a_local_engine_option_on_the_command_line(capsys):
    from chunkviz.cli import main
    from chunkviz.commands.bench_cmd import add_parser, make_engine

    assert main(["bench", "--engine", "ray", "--workers", "2", "--quiet"]) == 2
    assert "--workers applies to --engine local" in capsys.readouterr().err
    import argparse

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    engine = make_engine(parser.parse_args(["bench", "--workers", "0"]))
    assert isinstance(engine, LocalEngine)
    assert engine.workers == 0


def test_e5_small_vectors_from_workers_are_the_in_process_ones_bit_for_bit(tmp_path, monkeypatch):
    from chunkviz.retrieval.backends import get_backend

    monkeypatch.setattr(engine_module, "ENCODE_BATCH", 4)
    be = get_backend("e5-small")
    cache = EmbeddingCache(tmp_path)
    with LocalEngine(workers=2) as engine:
        engine.encode(be, cache, TEXTS, "document", lambda *a: None)
        assert engine._pool is not None
    pooled = EmbeddingCache(tmp_path).encode(be, TEXTS, "document")
    here = np.concatenate([be.encode_documents(TEXTS[lo : lo + 4]) for lo in range(0, 11, 4)])
    assert np.array_equal(pooled, here)


def test_workers_exit_when_their_parent_dies(tmp_path):
    import subprocess
    import time

    # A parent that starts a pool, encodes once, prints its worker's pid and dies unannounced.
    script = (
        "import os, multiprocessing\n"
        "from chunkviz.retrieval.pool import EncoderPool\n"
        "from chunkviz.retrieval.backends import get_backend\n"
        "if __name__ == '__main__':\n"
        "    pool = EncoderPool(get_backend('e5-small'), workers=1)\n"
        "    list(pool.encode([['a']], 'document'))\n"
        "    print(*[p.pid for p in multiprocessing.active_children()\n"
        "            if p.name.startswith('Spawn')], flush=True)\n"
        "    os._exit(0)\n"
    )
    path = tmp_path / "parent.py"
    path.write_text(script, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=os.getcwd(),
        env={**os.environ, "PYTHONPATH": "."},
    )
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 1, done.stderr
    status = Path(f"/proc/{pids[0]}/status")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:  # gone, or a zombie nobody reaped yet (State: Z)
            if "\nState:\tZ" in status.read_text():
                break
        except FileNotFoundError:
            break
        time.sleep(0.2)
    else:
        os.kill(pids[0], signal.SIGKILL)
        pytest.fail("the worker outlived its parent")
