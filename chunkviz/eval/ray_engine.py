"""The benchmark's chunk and encode stages on Ray Data (``bench --engine ray``).

``RayEngine`` implements ``chunkviz.eval.engine.Engine``: the runner hands it the two stages that
scale with the corpus and the model, and keeps everything after (index, rank, score, test,
assemble) in the driver, so the results file is the one ``LocalEngine`` writes.

- **Chunk**: one Ray Data row per document (its index, text and paragraph starts); a task chunks
  it under every configuration and sends back the chunks' offsets, never the text. The driver
  rebuilds each ``ChunkingResult`` over its own copy of the text.
- **Encode**: only the texts the embedding cache lacks (``EmbeddingCache.missing``) are sent. The
  driver cuts them into batches of ``batch_size`` texts, one Ray Data row per batch, and
  ``map_batches`` runs them over a pool of actors, each holding one model, loaded on the worker
  from the backend's registry name (no model is shipped). Vectors come back to the driver, which
  stores each finished batch in the cache (``EmbeddingCache.store``, one atomic shard), so a local
  run after a Ray run is warm and an interrupted run keeps every batch it finished.

Determinism: a backend's vectors may depend, in their last bits, on which texts share an encode
call (use-m3 packs a call's texts into token micro-batches, and matrix products over different
row counts round differently). The driver forms the same batches as ``LocalEngine`` (the missing
texts in order, ``ENCODE_BATCH`` at a time) and an actor encodes each batch in one call, so with
the default ``batch_size`` the two engines store bit-identical vectors and rank identically.

Ray is an optional dependency (``pip install "chunkviz[ray]"``), imported only when an engine
starts, so ``import chunkviz`` never loads it.
"""

from __future__ import annotations

import importlib.util
import logging
import math
import os
import pickle
import re
import socket
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any

import numpy as np

from chunkviz.document import Document, chunk_document
from chunkviz.errors import ChunkvizError, MissingDependencyError, ParameterError
from chunkviz.eval.engine import ENCODE_BATCH, LocalEngine, Progress
from chunkviz.eval.grid import Config
from chunkviz.model import ChunkingResult
from chunkviz.retrieval.backends import ST_PREFIX, make_backend
from chunkviz.retrieval.base import Backend
from chunkviz.retrieval.cache import EmbeddingCache, Role
from chunkviz.retrieval.dense import SentenceTransformerBackend
from chunkviz.retrieval.threads import available_cores

_PACKAGE_DIR = Path(__file__).resolve().parents[1]
_DATA_LOG = logging.getLogger("ray.data")


def import_ray() -> ModuleType:
    """Import ``ray`` and ``ray.data``.

    Raises:
        MissingDependencyError: Ray (with its Data library) is not installed.
    """
    try:
        import ray
        import ray.data  # noqa: F401  (the Data library is the part the engine needs)
    except ImportError as e:
        raise MissingDependencyError("ray_not_installed") from e
    return ray


def uses_gpu(backend_name: str) -> bool:
    """Whether the backend can run on a GPU (sentence-transformers models; use-m3 is numpy)."""
    return backend_name.startswith(ST_PREFIX)


def load_worker_backend(name: str, model: str, threads: int, gpu: bool = False) -> Backend:
    """Load the backend ``name`` inside a Ray actor, on ``threads`` cores or its GPU.

    use-m3 and e5-small take their thread count at load time (``make_backend``), and more threads
    than the actor's CPUs oversubscribe a machine shared by several actors; torch follows the
    ``OMP_NUM_THREADS`` that Ray sets from the actor's CPUs. A sentence-transformers model goes
    onto the actor's GPU when Ray gave it one (``CUDA_VISIBLE_DEVICES`` is set by Ray).

    Raises:
        ChunkvizError: The worker loaded another model than the driver's (its vectors would land
            under the wrong cache key).
    """
    backend: Backend
    if gpu and name.startswith(ST_PREFIX):
        backend = SentenceTransformerBackend(name[len(ST_PREFIX) :], device="cuda")
    else:
        backend = make_backend(name, threads=threads)
    if backend.model != model:
        raise ChunkvizError("ray_model_mismatch", backend=name, worker=backend.model, driver=model)
    return backend


def pack(text: str) -> bytes:
    """A text as UTF-8 bytes for a Ray Data row, lone surrogates included (``unpack`` inverts it).

    NOTE: texts travel as bytes, not strings: Arrow strings reject lone surrogates, which a
    Python ``str`` (and so a document) may hold, and numpy's fixed-width strings drop trailing NUL
    characters; either would chunk or encode another text than the driver's.
    """
    return text.encode("utf-8", "surrogatepass")


def unpack(data: bytes) -> str:
    """The text ``pack`` made ``data`` of."""
    return data.decode("utf-8", "surrogatepass")


class _Encoder:
    """A Ray Data actor: one model, one encode call per row (a batch formed by the driver)."""

    def __init__(self, name: str, model: str, threads: int, role: Role) -> None:
        # Runs inside a Ray actor (ray is installed there); import_ray checks the driver.
        import ray

        self.backend = load_worker_backend(name, model, threads, gpu=bool(ray.get_gpu_ids()))
        self.role = role

    def __call__(self, table: Any) -> dict[str, np.ndarray]:
        fn = (
            self.backend.encode_documents
            if self.role == "document"
            else self.backend.encode_queries
        )
        ids: list[int] = []
        positions: list[int] = []
        vectors: list[np.ndarray] = []
        for batch_id, texts in zip(
            table.column("batch").to_pylist(), table.column("texts").to_pylist(), strict=True
        ):
            out = np.asarray(fn([unpack(t) for t in texts]), dtype=np.float32)
            ids.extend([batch_id] * len(texts))
            positions.extend(range(len(texts)))
            vectors.append(out)
        return {
            "batch": np.asarray(ids, dtype=np.int64),
            "pos": np.asarray(positions, dtype=np.int64),
            "vector": np.concatenate(vectors) if vectors else np.zeros((0, 0), np.float32),
        }


def _chunk_rows(table: Any, configs: Sequence[Config]) -> dict[str, Any]:
    """A Ray Data task: chunk each document row under every configuration; offsets only."""
    indices = table.column("index").to_pylist()
    blobs = []
    for doc_id, text, starts in zip(
        table.column("doc_id").to_pylist(),
        table.column("text").to_pylist(),
        table.column("paragraph_starts").to_pylist(),
        strict=True,
    ):
        doc = Document(doc_id, "", unpack(text), tuple(starts))
        parts = []
        for config in configs:
            r = chunk_document(doc, config.strategy, config.params)
            parts.append((r.chunks, r.strategy, dict(r.params), r.parents))
        blobs.append(pickle.dumps(parts, protocol=pickle.HIGHEST_PROTOCOL))
    return {"index": np.asarray(indices, dtype=np.int64), "blob": np.asarray(blobs, dtype=object)}


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_HOST_PORT = re.compile(
    r"^(?P<host>[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:]+\])"
    r":(?P<port>[0-9]{1,5})$"
)
#: Seconds a TCP connection to ``--address`` may take before the address is refused.
CONNECT_TIMEOUT = 5.0


def check_address(address: str) -> None:
    """Refuse an address Ray cannot use, before Ray is imported or started.

    Accepted: ``auto`` (a cluster started on this machine), ``HOST:PORT`` (the head's GCS, e.g.
    ``head:6379``) and ``ray://HOST:PORT`` (Ray Client, which needs ``ray[client]``).

    Raises:
        ParameterError: Anything else (empty, ``http://``, a port outside 1-65535).
        MissingDependencyError: A ``ray://`` address without Ray Client installed.
    """
    if address == "auto":
        return
    rest = address[len("ray://") :] if address.startswith("ray://") else address
    m = _HOST_PORT.match(rest)
    if m is None or not 1 <= int(m["port"]) <= 65535:
        raise ParameterError("ray_address", value=address)
    if address.startswith("ray://") and importlib.util.find_spec("grpc") is None:
        raise MissingDependencyError("ray_client", address=address)


#: HTTP/2's client connection preface and an empty SETTINGS frame: what a gRPC client sends
#: first. Ray's GCS and Ray Client both serve gRPC, and answer it with a SETTINGS frame.
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
#: Frame type of SETTINGS (the fourth byte of a frame header).
_SETTINGS = 0x04


def reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Probe a ``HOST:PORT`` or ``ray://`` address: does a gRPC server (Ray) answer there?

    A TCP connection is not enough: ``ray.init`` waited past 120 s on a port that accepted it
    but was not Ray. So the probe speaks the first words of gRPC (HTTP/2's preface) and wants
    HTTP/2's SETTINGS frame back, all within ``timeout`` seconds.

    Raises:
        ParameterError: Nothing answers there, or what answers is not a gRPC server.
    """
    rest = address[len("ray://") :] if address.startswith("ray://") else address
    m = _HOST_PORT.match(rest)
    if m is None:  # auto: Ray finds the local cluster itself, and says so quickly
        return
    host = m["host"].strip("[]")
    try:
        conn = socket.create_connection((host, int(m["port"])), timeout=timeout)
    except OSError as exc:
        raise ParameterError(
            "ray_nothing_there", address=address, reason=exc.strerror or str(exc), timeout=timeout
        ) from None
    reply = b""
    deadline = time.monotonic() + timeout
    try:
        with conn:
            conn.sendall(_HTTP2_PREFACE)
            while len(reply) < 9 and (left := deadline - time.monotonic()) > 0:
                conn.settimeout(left)
                piece = conn.recv(9 - len(reply))
                if not piece:
                    break
                reply += piece
    except OSError:
        pass  # a reset or a timeout: judged by what came back
    if len(reply) < 9 or reply[3] != _SETTINGS:
        raise ParameterError("ray_not_ray", address=address, timeout=timeout)


def check_resources(
    cluster: Mapping[str, float], cpus_per_actor: float, gpus_per_actor: float
) -> None:
    """Refuse actors the cluster can never place (they would wait forever).

    Raises:
        ParameterError: ``cpus_per_actor`` above the cluster's CPUs, or ``gpus_per_actor``
            above its GPUs.
    """
    cpus, gpus = float(cluster.get("CPU", 0.0)), float(cluster.get("GPU", 0.0))
    if cpus_per_actor > cpus:
        raise ParameterError("ray_cpus", value=cpus_per_actor, cpus=cpus)
    if gpus_per_actor > gpus:
        raise ParameterError("ray_gpus", value=gpus_per_actor, gpus=gpus)


class RayEngine:
    """Chunk and encode on Ray Data; use it as a context manager around ``run_benchmark``.

    With no ``address`` (and no Ray already started in this process) entering the engine starts
    a local Ray and leaving it stops Ray again; with an ``address`` it connects to that cluster
    and ships the ``chunkviz`` package to the workers. A Ray started by the caller is used and
    left running.

    Attributes:
        name: ``ray``.
        address: The cluster to connect to (``ray://host:10001``, ``auto``), or None for a local
            Ray.
        num_cpus: CPUs of a local Ray (default: the cores this process may use).
        actors: Encoder actors (default: one per GPU when the cluster has GPUs, else one per
            ``cpus_per_actor`` CPUs).
        cpus_per_actor: CPUs reserved by each encoder actor (and its model's threads).
        gpus_per_actor: GPUs per encoder actor (default: 1 when the cluster has GPUs and the
            backend can use one, a sentence-transformers model; else 0).
        batch_size: Texts per encode call. The default, ``ENCODE_BATCH``, is the local engine's,
            so vectors are bit-identical to a local run's; another size may change their last bits.
        chunk_blocks: Ray Data blocks of the chunk stage (default: two per cluster CPU).
        driver_batches: Requests of at most this many batches are encoded in the driver, where
            the runner has loaded the model already (0: always on the cluster).
    """

    name = "ray"

    def __init__(
        self,
        *,
        address: str | None = None,
        num_cpus: int | None = None,
        actors: int | None = None,
        cpus_per_actor: float = 1.0,
        gpus_per_actor: float | None = None,
        batch_size: int = ENCODE_BATCH,
        chunk_blocks: int | None = None,
        driver_batches: int = 1,
    ) -> None:
        """Check the options and that Ray is installed; Ray itself starts on ``__enter__``.

        Raises:
            MissingDependencyError: Ray is not installed.
            ParameterError: A non-positive batch size, actor count, CPU count or block count, or
                a negative GPU count or driver batch count.
        """
        for label, value in (
            ("batch_size", batch_size),
            ("actors", actors),
            ("num_cpus", num_cpus),
            ("cpus_per_actor", cpus_per_actor),
            ("chunk_blocks", chunk_blocks),
        ):
            if value is not None and not (value > 0 and math.isfinite(value)):
                raise ParameterError("positive", name=label, value=value)
        if gpus_per_actor is not None and not (
            gpus_per_actor >= 0 and math.isfinite(gpus_per_actor)
        ):
            raise ParameterError("at_least", name="gpus_per_actor", value=gpus_per_actor, min=0)
        if driver_batches < 0:
            raise ParameterError("at_least", name="driver_batches", value=driver_batches, min=0)
        if address is not None:
            check_address(address)
        import_ray()
        self.address = address
        self.num_cpus = num_cpus
        self.actors = actors
        self.cpus_per_actor = cpus_per_actor
        self.gpus_per_actor = gpus_per_actor
        self.batch_size = batch_size
        self.chunk_blocks = chunk_blocks
        self.driver_batches = driver_batches
        self._owned = False
        self._progress_bars: bool | None = None
        self._log_level = logging.NOTSET

    # ------------------------------------------------------------------ lifetime

    def __enter__(self) -> RayEngine:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _connect(self, ray: ModuleType, **kwargs: Any) -> None:
        """``ray.init``, its failures turned into one line naming the address and the fix."""
        try:
            ray.init(**kwargs)
        except Exception as exc:  # noqa: BLE001 - Ray raises bare Exception (start-up timeout)
            first = next(
                (ln.strip() for ln in str(exc).splitlines() if ln.strip()), type(exc).__name__
            )
            reason = _ANSI.sub("", first)[:160]
            if self.address is None:
                raise ParameterError("ray_local_start", reason=reason) from None
            raise ParameterError("ray_connect", address=self.address, reason=reason) from None

    def start(self) -> None:
        """Connect to ``address`` or start a local Ray, unless Ray is running in this process."""
        ray = import_ray()
        context = ray.data.DataContext.get_current()
        if self._progress_bars is None:
            # The runner's progress callback reports instead of Ray Data's bars, and Ray Data's
            # per-dataset INFO lines would break a progress bar: only its errors are shown.
            self._progress_bars = context.enable_progress_bars
            self._log_level = _DATA_LOG.level
            context.enable_progress_bars = False
            _DATA_LOG.setLevel(logging.ERROR)
        if ray.is_initialized():
            return

        if self.address is None:
            # A local Ray's workers run on this machine: point them at this very package.
            path = os.pathsep.join(
                p for p in (str(_PACKAGE_DIR.parent), os.environ.get("PYTHONPATH", "")) if p
            )
            self._connect(
                ray,
                num_cpus=self.num_cpus or available_cores(),
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
                runtime_env={"env_vars": {"PYTHONPATH": path}},
            )
        else:
            # Ray retries an unreachable GCS for minutes, printing to the terminal: a plain TCP
            # connection answers in seconds first.
            reachable(self.address)
            # A cluster's workers get the driver's own chunkviz, whatever they have installed.
            self._connect(
                ray,
                address=self.address,
                log_to_driver=False,
                logging_level=logging.ERROR,
                runtime_env={"py_modules": [str(_PACKAGE_DIR)]},
            )
        self._owned = True
        try:  # before any work: actors the cluster cannot place would wait forever
            check_resources(
                ray.cluster_resources(), self.cpus_per_actor, self.gpus_per_actor or 0.0
            )
        except ParameterError:
            self.close()
            raise

    def close(self) -> None:
        """Stop Ray if this engine started it."""
        ray = import_ray()
        if self._progress_bars is not None:
            ray.data.DataContext.get_current().enable_progress_bars = self._progress_bars
            _DATA_LOG.setLevel(self._log_level)
            self._progress_bars = None
        if self._owned:
            ray.shutdown()
            self._owned = False

    def _resources(self, backend: Backend) -> tuple[int, float]:
        """``(actors, gpus per actor)`` from the options, the backend and the cluster."""
        ray = import_ray()
        if not ray.is_initialized():
            self.start()
        cluster: Mapping[str, float] = ray.cluster_resources()
        gpus = float(cluster.get("GPU", 0.0))
        per_gpu = self.gpus_per_actor
        if per_gpu is None:
            per_gpu = 1.0 if gpus >= 1 and uses_gpu(backend.name) else 0.0
        check_resources(cluster, self.cpus_per_actor, per_gpu)
        if self.actors is not None:
            return self.actors, per_gpu
        if per_gpu > 0:
            return max(1, int(gpus // per_gpu)), per_gpu
        return max(1, int(float(cluster.get("CPU", 1.0)) // self.cpus_per_actor)), per_gpu

    # -------------------------------------------------------------------- stages

    def chunk(
        self, documents: Sequence[Document], configs: Sequence[Config]
    ) -> list[list[ChunkingResult]]:
        """Chunk every document under every configuration on Ray: ``result[config][document]``."""
        if not documents or not configs:
            return [[] for _ in configs]
        ray = import_ray()
        if not ray.is_initialized():
            self.start()
        cpus = float(ray.cluster_resources().get("CPU", 1.0))
        blocks = min(len(documents), self.chunk_blocks or max(1, int(2 * cpus)))
        rows = [
            {
                "index": i,
                "doc_id": d.doc_id,
                "text": pack(d.text),
                "paragraph_starts": list(d.paragraph_starts),
            }
            for i, d in enumerate(documents)
        ]
        ds = ray.data.from_items(rows, override_num_blocks=blocks).map_batches(
            _chunk_rows,
            batch_format="pyarrow",
            fn_kwargs={"configs": list(configs)},
            batch_size=None,
        )
        out: list[list[ChunkingResult | None]] = [[None] * len(documents) for _ in configs]
        for block in ds.iter_batches(batch_size=None, batch_format="numpy"):
            for index, blob in zip(block["index"], block["blob"], strict=True):
                d = int(index)
                for ci, (chunks, strategy, params, parents) in enumerate(pickle.loads(blob)):
                    out[ci][d] = ChunkingResult(
                        documents[d].text, chunks, strategy, params, parents
                    )
        missing = [d for d in range(len(documents)) if out[0][d] is None]
        if missing:
            raise ChunkvizError("ray_no_chunks", documents=[str(m) for m in missing[:5]])
        return [[r for r in row if r is not None] for row in out]

    def encode(
        self,
        backend: Backend,
        cache: EmbeddingCache,
        texts: Sequence[str],
        role: Role,
        progress: Progress,
    ) -> None:
        """Encode the texts ``cache`` lacks on a Ray actor pool and store them batch by batch.

        Reports ``progress("encode", done, total, ...)`` each time a batch lands in the cache.
        """
        missing = cache.missing(backend, texts, role)
        if not missing:
            return
        if len(missing) <= self.driver_batches * self.batch_size:
            # The runner has loaded the model in the driver already, and an actor pool takes
            # longer to start than a batch or two takes to encode (the questions of a sample).
            LocalEngine(workers=0).encode(backend, cache, missing, role, progress)
            return
        ray = import_ray()
        actors, gpus = self._resources(backend)
        batches = [
            missing[lo : lo + self.batch_size] for lo in range(0, len(missing), self.batch_size)
        ]
        threads = max(1, math.floor(self.cpus_per_actor))
        ds = ray.data.from_items(
            [{"batch": i, "texts": [pack(t) for t in b]} for i, b in enumerate(batches)],
            override_num_blocks=len(batches),
        ).map_batches(
            _Encoder,
            fn_constructor_kwargs={
                "name": backend.name,
                "model": backend.model,
                "threads": threads,
                "role": role,
            },
            batch_size=1,
            batch_format="pyarrow",
            compute=ray.data.ActorPoolStrategy(size=min(actors, len(batches))),
            num_cpus=self.cpus_per_actor,
            num_gpus=gpus,
        )
        noun = "chunks" if role == "document" else "questions"
        pending: dict[int, dict[int, np.ndarray]] = {}
        done = 0
        blocks = iter(ds.iter_batches(batch_size=None, batch_format="numpy"))
        try:
            for block in blocks:
                for b, p, v in zip(block["batch"], block["pos"], block["vector"], strict=True):
                    got = pending.setdefault(int(b), {})
                    got[int(p)] = v
                    batch = batches[int(b)]
                    if len(got) == len(batch):
                        del pending[int(b)]
                        cache.store(
                            backend, batch, np.stack([got[i] for i in range(len(batch))]), role
                        )
                        done += len(batch)
                        progress(
                            "encode",
                            done,
                            len(missing),
                            f"encoding {noun} on Ray {done}/{len(missing)}",
                        )
        finally:
            close = getattr(blocks, "close", None)
            if close is not None:
                close()  # stops the streaming execution (and its actors) when interrupted
        if done != len(missing):
            raise ChunkvizError("ray_encoded_part", done=done, total=len(missing))
