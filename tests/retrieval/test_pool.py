"""The encoding pool: worker processes that load a dense backend by name, one thread each."""

from __future__ import annotations

import multiprocessing
import os
import signal

import numpy as np
import pytest

import chunkviz.eval.engine as engine_module
from chunkviz.errors import ChunkvizError, ParameterError
from chunkviz.eval.engine import LocalEngine
from chunkviz.retrieval.cache import EmbeddingCache
from chunkviz.retrieval.dense import UseM3Backend
from chunkviz.retrieval.pool import MAX_WORKERS, EncoderPool, default_workers, loads_by_name
from chunkviz.retrieval.threads import ENV_VAR as THREADS_VAR
from chunkviz.retrieval.threads import encode_threads


class Named:
    """A backend as the parent knows it: only what the pool reads (name, model, kind)."""

    kind = "dense"
    document_prefix = query_prefix = ""

    def __init__(self, name: str, model: str = "m") -> None:
        self.name = name
        self.model = model


TEXTS = [f"梅雨前線が{i}日停滞する。" * (1 + i % 3) for i in range(11)]
QUESTIONS = [f"梅雨前線は何日停滞する？（{i}）" for i in range(5)]


def _no_workers_left() -> bool:
    return not [p for p in multiprocessing.active_children() if p.name.startswith("Spawn")]


def test_workers_and_threads_come_from_the_machine_and_are_bounded():
    assert 1 <= default_workers(1000) <= min(os.cpu_count() or 1, MAX_WORKERS)
    assert default_workers(1) == 1
    assert encode_threads() == 1


def test_the_thread_override_is_checked(monkeypatch):
    monkeypatch.setenv(THREADS_VAR, "3")
    assert encode_threads() == 3
    monkeypatch.setenv(THREADS_VAR, "many")
    with pytest.raises(ParameterError, match="CHUNKVIZ_ENCODE_THREADS must be a whole number"):
        encode_threads()


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
    with (EncoderPool(Named("st:/no/such/model/folder"), workers=1) as pool,
          pytest.raises(ChunkvizError, match="no/such/model/folder")):
        list(pool.encode([["a"]], "document"))
    assert _no_workers_left()


def test_a_worker_that_dies_is_an_error_naming_its_exit_code():
    pool = EncoderPool(Named("use-m3", UseM3Backend().model), workers=1)
    with pool:
        os.kill(pool._procs[0].pid, signal.SIGKILL)
        with pytest.raises(ChunkvizError, match="exited with code -9 while loading"):
            list(pool.encode([["a"]], "document"))
    assert _no_workers_left()


def test_pool_vectors_are_the_in_process_ones_bit_for_bit_and_only_missing_texts_go(
        tmp_path, monkeypatch):
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
    assert np.array_equal(pooled, EmbeddingCache(tmp_path / "here").encode(be, TEXTS,
                                                                            "document"))
    queries = EmbeddingCache(tmp_path / "pool").encode(be, QUESTIONS, "query")
    assert np.array_equal(queries, np.concatenate([be.encode_queries(QUESTIONS[:4]),
                                                   be.encode_queries(QUESTIONS[4:])]))


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
