"""The Ray engine against the local one: same chunks, same vectors, same ranks and metrics.

One local Ray (2 CPUs) serves the whole module. Its engine sends every encode request to the
cluster (``driver_batches=0``), questions included, so the tests exercise the actor pool even on
this small data.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import ray

from chunkviz.cli import main
from chunkviz.commands import bench_cmd
from chunkviz.datasets.base import Dataset, Document
from chunkviz.datasets.jsquad import DEFAULT_PATH, load_jsquad
from chunkviz.errors import MissingDependencyError, ParameterError
from chunkviz.eval.engine import ENCODE_BATCH, Engine, LocalEngine
from chunkviz.eval.grid import Config, fixed_config
from chunkviz.eval.ray_engine import RayEngine, pack, unpack
from chunkviz.eval.results import load_results
from chunkviz.eval.runner import run_benchmark
from chunkviz.retrieval.backends import get_backend
from chunkviz.retrieval.cache import EmbeddingCache

CONFIGS = (fixed_config(200, 40), Config("paragraph", "paragraph", {}))
ARTICLES = 4
QUESTIONS = 50
FAST = {"bootstrap": 200, "permutations": 200}
# The interruption test's batch size: its 50 questions are one batch (encoded in the driver), its
# chunk texts two or more (sent to the actor pool).
BATCH = QUESTIONS
# How far a vector encoded by an actor may be from the driver's (unit vectors, float32).
VECTOR_TOLERANCE = 1e-6


@pytest.fixture(scope="module")
def engine():
    eng = RayEngine(num_cpus=2, driver_batches=0)
    with eng:
        yield eng
    assert not ray.is_initialized()  # the engine stopped the Ray it started


@pytest.fixture(scope="module")
def raw_subset():
    """The first articles of the JSQuAD validation split, in JSQuAD's own format."""
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    return {**data, "data": data["data"][:ARTICLES]}


@pytest.fixture(scope="module")
def subset(raw_subset, tmp_path_factory):
    path = tmp_path_factory.mktemp("jsquad") / "subset.json"
    path.write_text(json.dumps(raw_subset, ensure_ascii=False), encoding="utf-8")
    ds = load_jsquad(path)
    assert len(ds.questions) >= QUESTIONS
    return path, Dataset(ds.name, ds.documents, ds.questions[:QUESTIONS])


def _unique_texts(dataset, configs=CONFIGS):
    chunkings = LocalEngine().chunk(dataset.documents, configs)
    return list(
        dict.fromkeys(t for per_config in chunkings for r in per_config for t in r.embed_texts())
    )


@pytest.mark.slow
def test_ray_engine_is_an_engine(engine):
    assert isinstance(engine, Engine)
    assert engine.name == "ray"


@pytest.mark.slow
def test_chunk_stage_gives_the_local_chunkings(engine, subset):
    _, dataset = subset
    assert engine.chunk(dataset.documents, CONFIGS) == LocalEngine().chunk(
        dataset.documents, CONFIGS
    )


@pytest.mark.slow
def test_odd_texts_reach_the_workers_unchanged(engine):
    # Arrow strings reject lone surrogates and numpy strings drop trailing NULs; bytes do neither.
    odd = "前半\ud800後半。\x00" * 40 + "\x00\x00"
    assert unpack(pack(odd)) == odd
    docs = [Document("odd", "", odd, (0, 5)), Document("plain", "", "梅雨の季節。" * 30)]
    configs = [fixed_config(17, 3), Config("paragraph", "paragraph", {})]
    assert engine.chunk(docs, configs) == LocalEngine().chunk(docs, configs)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["bm25", "use-m3"])
def test_ray_run_ranks_and_scores_like_the_local_run(engine, subset, backend, tmp_path):
    _, dataset = subset
    local = run_benchmark(dataset, CONFIGS, backend, cache_dir=tmp_path / "local", **FAST)
    on_ray = run_benchmark(
        dataset, CONFIGS, backend, cache_dir=tmp_path / "ray", engine=engine, **FAST
    )
    assert len(local.question_ids) == QUESTIONS
    assert on_ray.ranks == local.ranks
    assert on_ray.metrics == local.metrics
    assert on_ray.pairwise == local.pairwise
    assert (local.engine, on_ray.engine) == ("local", "ray")
    assert [c.chunks for c in on_ray.configs] == [c.chunks for c in local.configs]
    if backend == "bm25":
        return
    # The vectors agree to rounding, not to the bit: the driver forms the local engine's batches,
    # but an actor encodes with its own thread count (--cpus-per-actor) and the driver with its
    # cores, and BLAS sums in another order with another thread count (about 3e-8 seen on a
    # loaded machine). Ranks above are compared exactly (docs/scaling.md).
    be = get_backend(backend)
    texts = _unique_texts(dataset)
    assert len(texts) > ENCODE_BATCH  # more than one batch went through the actor pool
    a = EmbeddingCache(tmp_path / "local").encode(be, texts, "document")
    b = EmbeddingCache(tmp_path / "ray").encode(be, texts, "document")
    assert a.dtype == b.dtype == np.float32
    assert a.shape == b.shape
    assert np.abs(a - b).max() <= VECTOR_TOLERANCE
    assert on_ray.timings.encoded_texts == len(texts) + QUESTIONS
    # A local run after the Ray run is warm: nothing left to encode.
    warm = run_benchmark(dataset, CONFIGS, backend, cache_dir=tmp_path / "ray", **FAST)
    assert warm.timings.encoded_texts == 0
    assert warm.timings.cache_hits == len(texts)
    assert warm.ranks == local.ranks


@pytest.mark.slow
def test_cached_texts_are_not_sent_to_the_cluster(engine, subset, tmp_path, monkeypatch):
    _, dataset = subset
    be = get_backend("use-m3")
    texts = _unique_texts(dataset)
    cache = EmbeddingCache(tmp_path)
    # Placeholder vectors: what matters is that these texts count as cached.
    cache.store(be, texts[:-5], np.zeros((len(texts) - 5, 512), np.float32), "document")
    sent = []
    real = ray.data.from_items

    def spy(items, **kwargs):
        sent.extend(unpack(t) for row in items for t in row["texts"])
        return real(items, **kwargs)

    monkeypatch.setattr(ray.data, "from_items", spy)
    engine.encode(be, cache, texts, "document", lambda *a: None)
    assert sent == texts[-5:]
    assert cache.missing(be, texts, "document") == []
    fresh = EmbeddingCache(tmp_path).encode(be, texts[-5:], "document")  # read back from disk
    assert np.allclose(np.linalg.norm(fresh, axis=1), 1.0)  # use-m3's unit vectors, not zeros


@pytest.mark.slow
def test_interrupted_ray_run_keeps_the_cache_and_writes_no_file(
    engine, subset, tmp_path, monkeypatch, capsys
):
    path, dataset = subset
    texts = _unique_texts(dataset, [fixed_config(400, 0)])  # about 60 texts: a short test
    assert len(texts) > BATCH
    out, cache_dir = tmp_path / "out", tmp_path / "cache"
    real_call = bench_cmd._Bar.__call__
    landed = []

    def interrupt(self, stage, done, total, message):
        real_call(self, stage, done, total, message)
        if stage == "encode" and "chunks" in message and done < total:
            landed.append(done)
            raise KeyboardInterrupt  # Ctrl-C after the first batch of chunks landed

    monkeypatch.setattr(bench_cmd._Bar, "__call__", interrupt)
    args = [
        "bench",
        "--dataset",
        f"jsquad:{path}",
        "--backend",
        "use-m3",
        "--sample",
        str(QUESTIONS),
        "--grid",
        "fixed-400-0",
        "--out",
        str(out),
        "--batch-size",
        str(BATCH),
        "--cache-dir",
        str(cache_dir),
        "--bootstrap",
        "200",
        "--permutations",
        "200",
        "--quiet",
        "--engine",
        "ray",
    ]
    # The module's Ray is running, so the CLI's engine uses it (and leaves it running).
    assert main(args) == 130
    assert "interrupted" in capsys.readouterr().err
    assert not out.exists() or list(out.iterdir()) == []
    # The cache is readable, holds the batch that finished, and has no half-written file.
    assert not list(cache_dir.rglob("*.tmp"))
    for shard in cache_dir.rglob("shard-*.npz"):
        with np.load(shard, allow_pickle=False) as z:
            assert z["vectors"].shape[0] == z["keys"].shape[0]
    be = get_backend("use-m3")
    left = EmbeddingCache(cache_dir).missing(be, texts, "document")
    # Exactly the batch reported before the interruption landed. The actors finish batches in
    # any order, so that is the full first batch or the short last one.
    assert landed in ([BATCH], [len(texts) % BATCH])
    assert len(texts) - len(left) == landed[0]
    # The interruption stopped the actor pool: the actors give their CPUs back.
    deadline = time.monotonic() + 60
    while ray.available_resources().get("CPU", 0.0) < 2.0 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert ray.available_resources().get("CPU", 0.0) == 2.0
    # The rerun only encodes what was left.
    monkeypatch.setattr(bench_cmd._Bar, "__call__", real_call)
    assert main(args) == 0
    (written,) = out.glob("*.json")
    assert load_results(written).timings.encoded_texts == len(left)


@pytest.mark.slow
def test_cli_ray_engine_writes_the_local_results(engine, subset, tmp_path):
    path, _ = subset
    common = [
        "bench",
        "--dataset",
        f"jsquad:{path}",
        "--backend",
        "bm25",
        "--sample",
        str(QUESTIONS),
        "--grid",
        "fixed-200-40,paragraph",
        "--bootstrap",
        "200",
        "--permutations",
        "200",
        "--quiet",
    ]
    assert main([*common, "--out", str(tmp_path / "local")]) == 0
    assert main([*common, "--out", str(tmp_path / "ray"), "--engine", "ray"]) == 0
    (a,), (b,) = (tmp_path / "local").glob("*.json"), (tmp_path / "ray").glob("*.json")
    local, on_ray = load_results(a), load_results(b)
    assert a.name == b.name
    for key in ("ranks", "metrics", "pairwise", "question_ids"):
        assert getattr(on_ray, key) == getattr(local, key)
    assert [c.chunks for c in on_ray.configs] == [c.chunks for c in local.configs]


def test_engine_ray_without_ray_says_how_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    assert main(["bench", "--engine", "ray", "--quiet"]) == 2
    assert 'pip install "chunkviz[ray]"' in capsys.readouterr().err
    with pytest.raises(MissingDependencyError, match=r"chunkviz\[ray\]"):
        RayEngine()


def test_ray_options_are_checked():
    with pytest.raises(ParameterError, match=r"batch_size must be positive \(got batch_size=0\)"):
        RayEngine(batch_size=0)
    with pytest.raises(ParameterError, match="gpus_per_actor must be at least 0"):
        RayEngine(gpus_per_actor=-1)


def test_ray_options_need_the_ray_engine(capsys):
    assert main(["bench", "--address", "auto", "--quiet"]) == 2
    assert "--address need --engine ray (got --engine local)" in capsys.readouterr().err


def test_address_connects_and_ships_this_package(monkeypatch):
    from chunkviz.eval import ray_engine

    calls = []
    probed = []
    monkeypatch.setattr(ray_engine, "reachable", probed.append)  # no head to answer here
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: calls.append(("init", kw)))
    monkeypatch.setattr(ray, "cluster_resources", lambda: {"CPU": 4.0})
    monkeypatch.setattr(ray, "shutdown", lambda: calls.append(("shutdown", {})))
    with RayEngine(address="head:6379"):
        pass
    (name, kw), (last, _) = calls
    assert (name, last) == ("init", "shutdown")
    assert probed == ["head:6379"]
    assert kw["address"] == "head:6379"
    (shipped,) = kw["runtime_env"]["py_modules"]
    assert (Path(shipped) / "eval" / "ray_engine.py").is_file()


@pytest.mark.parametrize(
    ("backend", "options", "expected"),
    [
        ("st:cl-nagoya/ruri-v3-130m", {}, (4, 1.0)),  # one model per GPU
        ("use-m3", {}, (16, 0.0)),  # numpy only: one actor per CPU, no GPU held
        ("use-m3", {"cpus_per_actor": 4}, (4, 0.0)),
        ("st:m", {"gpus_per_actor": 0.5}, (8, 0.5)),
        ("st:m", {"actors": 3}, (3, 1.0)),
    ],
)
def test_actor_pool_follows_the_cluster(monkeypatch, backend, options, expected):
    monkeypatch.setattr(ray, "is_initialized", lambda: True)
    monkeypatch.setattr(ray, "cluster_resources", lambda: {"CPU": 16.0, "GPU": 4.0})
    assert RayEngine(**options)._resources(SimpleNamespace(name=backend)) == expected
