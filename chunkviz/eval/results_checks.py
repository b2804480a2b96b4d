"""The rules of a results file that its types cannot say: between fields, and against the ranks.

``chunkviz.eval.results_schema`` declares each field's type and bound, and decoding checks
those. What is left is checked here, once the file is decoded: every per-configuration mapping
has one entry per configuration, counts agree (ranks per question, offsets per chunk, lost
questions per ``broken``), offsets are ranges inside the index, every rank metric's mean is the
one its ranks give, a pairwise row's difference is the difference of its two means, and its
``equivalent`` and ``outcome`` are the decision rule's.

Each rule raises a ``ResultsFileError`` naming the field, its value and the rule.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from chunkviz.errors import ParameterError, ResultsFileError
from chunkviz.eval.decision import is_equivalent
from chunkviz.eval.measures import Key, budget_keys, budget_values, parse_key, required_keys
from chunkviz.eval.metrics import ranks_array
from chunkviz.eval.pairwise import PairwiseResult
from chunkviz.eval.results_schema import (
    TOKENS_VERSION,
    BackendRecord,
    ConfigRecord,
    Estimates,
    QuestionsSource,
    Results,
    Retrieval,
    Sensitivity,
)
from chunkviz.eval.stats import Estimate

#: How far a stored mean may be from the mean recomputed from the ranks (JSON round trip).
MEAN_TOLERANCE = 1e-9
#: How far a pairwise row's ``diff`` may be from the difference of its two stored means.
DIFF_TOLERANCE = 1e-6

Ranks = Mapping[str, Sequence[int | None]]
#: Label -> ranks as float64, ``inf`` for a lost question (``chunkviz.eval.metrics``).
RankArrays = Mapping[str, np.ndarray]


def check_results(data: Results) -> None:
    """Every rule between the fields of a decoded results file.

    Raises:
        ResultsFileError: The first rule broken, naming the field and its value.
    """
    labels = [c.label for c in data.configs]
    if len(set(labels)) != len(labels):
        raise ResultsFileError(f"configs must have unique labels (got {labels})")
    _check_backend(data.backend, "backend")
    n = len(data.question_ids)
    if n != data.dataset.questions:
        raise ResultsFileError(f"question_ids has {n} ids but dataset.questions is "
                               f"{data.dataset.questions}")
    if len(set(data.question_ids)) != n:
        raise ResultsFileError("question_ids must be unique")
    _check_ranks(data.ranks, data.configs, n)
    # Each label's ranks as the metrics read them, converted once for every metric's mean.
    ranks = {lab: ranks_array(data.ranks[lab]) for lab in labels}
    _check_metrics(data.metrics, labels, ranks)
    _check_budget(data, labels, ranks)
    _check_pairwise(data.pairwise, labels, data.metrics, data.stats.alpha, "pairwise")
    if data.schema_version >= TOKENS_VERSION:
        lacking = [c.label for c in data.configs if c.mean_chunk_tokens is None]
        if lacking:
            raise ResultsFileError(f"configs entry {lacking[0]} lacks mean_chunk_tokens "
                                   f"(required from schema version {TOKENS_VERSION})")
    _check_retrieval(data.retrieval, data.configs, n, data.dataset.documents)
    if data.question_docs and len(data.question_docs) != n:
        raise ResultsFileError(f"question_docs has {len(data.question_docs)} ids for {n} "
                               "questions; it must have one per question")
    for name in ("question_types", "answer_types"):
        labels_of = getattr(data, name)
        if labels_of and len(labels_of) != n:
            raise ResultsFileError(f"{name} has {len(labels_of)} entries for {n} questions; it "
                                   "must have one per question (or be absent)")
    if data.stats.unit == "document" and not data.question_docs:
        raise ResultsFileError("stats.unit is 'document' but question_docs is missing")
    if data.sensitivity is not None:
        _check_sensitivity(data.sensitivity, labels, n, data.metrics)
    if data.questions_source is not None:
        _check_source(data.questions_source)


def _labels_match(found: Iterable[str], labels: Sequence[str], where: str) -> None:
    got = list(found)
    if sorted(got) != sorted(labels):
        raise ResultsFileError(
            f"{where} must have one entry per configuration {list(labels)} (got {got})"
        )


def _check_backend(b: BackendRecord, where: str) -> None:
    if (b.kind == "hybrid") != bool(b.components):
        raise ResultsFileError(
            f"{where}.components must list the fused backends of a hybrid and only of a hybrid "
            f"(kind={b.kind!r}, {len(b.components)} components)")
    for i, c in enumerate(b.components):
        _check_backend(c, f"{where}.components[{i}]")


def _check_ranks(ranks: Ranks, configs: Sequence[ConfigRecord], n: int) -> None:
    _labels_match(ranks, [c.label for c in configs], "ranks")
    for c in configs:
        row = ranks[c.label]
        where = f"ranks.{c.label}"
        if len(row) != n:
            raise ResultsFileError(f"{where} has {len(row)} ranks for {n} questions")
        too_far = next((i for i, v in enumerate(row) if v is not None and v > c.chunks), None)
        if too_far is not None:
            raise ResultsFileError(f"{where}[{too_far}] = {row[too_far]} is past the "
                                   f"{c.chunks} chunks of {c.label}")
        lost = row.count(None)
        if lost != c.broken:
            raise ResultsFileError(f"configs entry {c.label} says broken={c.broken} but its ranks "
                                   f"hold {lost} lost questions")


def _check_estimate(e: Estimate, where: str) -> None:
    """A mean over questions of a metric in [0, 1], and its interval around it."""
    for name in ("mean", "ci_low", "ci_high"):
        v = getattr(e, name)
        if not (math.isfinite(v) and 0.0 <= v <= 1.0):
            raise ResultsFileError(f"{where}.{name} must be a finite number in [0.0, 1.0] "
                                   f"(got {v})")
    if not e.ci_low <= e.ci_high:
        raise ResultsFileError(f"{where} must have ci_low <= ci_high (got {e.ci_low} and "
                               f"{e.ci_high})")


def _check_mean(where: str, stored: float, ranks: np.ndarray, name: str, k: float) -> None:
    expected = float(budget_values(name, ranks, k).mean())
    if abs(stored - expected) > MEAN_TOLERANCE:
        raise ResultsFileError(f"{where}.mean is {stored} but the ranks give {expected}")


def _check_metrics(metrics: Estimates, labels: Sequence[str], ranks: RankArrays) -> None:
    """Known keys at a numeric k (``chunkviz.eval.measures``), rank means equal to their ranks'."""
    _labels_match(metrics, labels, "metrics")
    for lab in labels:
        row = metrics[lab]
        for key, est in row.items():
            where = f"metrics.{lab}.{key}"
            parsed = _parsed(key, where)
            if parsed.at_budget:
                raise ResultsFileError(f"{where} is not a known metric key (a key at the budget "
                                       "belongs in budget.metrics)")
            _check_estimate(est, where)
            if parsed.measure.values is not None:
                _check_mean(where, est.mean, ranks[lab], parsed.measure.name, parsed.cutoff)
        missing = [k for k in required_keys() if k not in row]
        if missing:
            raise ResultsFileError(f"metrics.{lab} lacks {', '.join(missing)}")


def _parsed(key: str, where: str) -> Key:
    try:
        return parse_key(key)
    except ParameterError:
        raise ResultsFileError(f"{where} is not a known metric key") from None


def _check_budget(data: Results, labels: Sequence[str], ranks: RankArrays) -> None:
    budget = data.budget
    _labels_match(budget.k, labels, "budget.k")
    _labels_match(budget.metrics, labels, "budget.metrics")
    headline = budget_keys()[0]
    for lab in labels:
        row = budget.metrics[lab]
        for key, est in row.items():
            where = f"budget.metrics.{lab}.{key}"
            if key not in budget_keys():
                raise ResultsFileError(f"{where} is not a budget metric "
                                       f"({', '.join(budget_keys())})")
            _check_estimate(est, where)
            _check_mean(where, est.mean, ranks[lab], parse_key(key).measure.name, budget.k[lab])
        if headline not in row:
            raise ResultsFileError(f"budget.metrics.{lab}.{headline} is missing")
    if data.schema_version >= TOKENS_VERSION and not budget.tokenizer:
        raise ResultsFileError(f"budget.tokenizer is missing (required from schema version "
                               f"{TOKENS_VERSION})")
    _check_pairwise(budget.pairwise, labels, budget.metrics, data.stats.alpha, "budget.pairwise")


def _check_pairwise(rows: Sequence[PairwiseResult], labels: Sequence[str], metrics: Estimates,
                    alpha: float, where: str) -> None:
    for i, row in enumerate(rows):
        at = f"{where}[{i}]"
        _check_pair_labels(row, labels, at)
        if row.metric not in metrics[row.a]:
            raise ResultsFileError(f"{at}.metric is not a metric of the file (got "
                                   f"{row.metric!r})")
        expected = metrics[row.a][row.metric].mean - metrics[row.b][row.metric].mean
        if abs(row.diff - expected) > DIFF_TOLERANCE:
            raise ResultsFileError(f"{at}.diff is {row.diff} but the means give {expected}")
        if row.equivalent and not is_equivalent(
                p_equiv_holm=1.0 if row.p_equiv_holm is None else row.p_equiv_holm,
                eq_ci_low=row.eq_ci_low, eq_ci_high=row.eq_ci_high, delta=row.delta,
                detectable=row.detectable, saturated=row.saturated, alpha=alpha):
            raise ResultsFileError(
                f"{at} is marked equivalent but the decision rule says it is not (interval "
                f"[{row.eq_ci_low}, {row.eq_ci_high}], delta {row.delta}, detectable margin "
                f"{row.detectable}, saturated {row.saturated})")


def _check_pair_labels(row: PairwiseResult, labels: Sequence[str], at: str) -> None:
    for side, lab in (("a", row.a), ("b", row.b)):
        if lab not in labels:
            raise ResultsFileError(f"{at}.{side} names no configuration (got {lab!r})")
    if row.a == row.b:
        raise ResultsFileError(f"{at} compares {row.a!r} with itself")


def _check_retrieval(r: Retrieval, configs: Sequence[ConfigRecord], n: int,
                     documents: int) -> None:
    if len(r.document_ids) != documents:
        raise ResultsFileError(f"retrieval.document_ids has {len(r.document_ids)} ids but "
                               f"dataset.documents is {documents}")
    labels = [c.label for c in configs]
    _labels_match(r.chunk_offsets, labels, "retrieval.chunk_offsets")
    _labels_match(r.topk, labels, "retrieval.topk")
    for c in configs:
        where = f"retrieval.chunk_offsets.{c.label}"
        offsets = r.chunk_offsets[c.label]
        if len(offsets) != c.chunks:
            raise ResultsFileError(f"{where} has {len(offsets)} chunks but configs says "
                                   f"{c.chunks}")
        table = np.array(offsets, dtype=np.int64).reshape(-1, 3)
        bad = np.flatnonzero((table[:, 0] >= documents) | (table[:, 1] >= table[:, 2]))
        if bad.size:
            i = int(bad[0])
            raise ResultsFileError(f"{where}[{i}] must have document < {documents} and "
                                   f"start < end (got {list(offsets[i])})")
        where = f"retrieval.topk.{c.label}"
        tops = r.topk[c.label]
        if len(tops) != n:
            raise ResultsFileError(f"{where} has {len(tops)} rows for {n} questions")
        for i, t in enumerate(tops):
            if len(t) > r.span_k:
                raise ResultsFileError(f"{where}[{i}] must be a list of at most {r.span_k} "
                                       f"chunk indices (got {len(t)})")
            if t and max(t) >= c.chunks:
                raise ResultsFileError(f"{where}[{i}] names a chunk past the {c.chunks} chunks")


def _check_sensitivity(s: Sensitivity, labels: Sequence[str], n: int,
                       metrics: Estimates) -> None:
    for name, by in s.ranks.items():
        _labels_match(by, labels, f"sensitivity.ranks.{name}")
        for lab in labels:
            if len(by[lab]) != n:
                raise ResultsFileError(f"sensitivity.ranks.{name}.{lab} must list one rank per "
                                       f"question ({n}; got {len(by[lab])})")
    _labels_match(s.ndcg_all.places, labels, "sensitivity.ndcg_all.places")
    _labels_match(s.ndcg_all.relevant_counts, labels, "sensitivity.ndcg_all.relevant_counts")
    for name, rows in s.pairwise.items():
        for i, row in enumerate(rows):
            at = f"sensitivity.pairwise.{name}[{i}]"
            _check_pair_labels(row, labels, at)
            if row.metric not in metrics[row.a]:  # the page looks its main row up by it
                raise ResultsFileError(f"{at}.metric is not a metric of the file (got "
                                       f"{row.metric!r}); it must be one of "
                                       f"{sorted(metrics[row.a])}")


def _check_source(q: QuestionsSource) -> None:
    expected = {"own": q.own > 0 and q.synthetic == 0,
                "synthetic": q.own == 0 and q.synthetic > 0,
                "both": q.own > 0 and q.synthetic > 0}
    if not expected[q.kind]:
        raise ResultsFileError(
            f"questions_source.kind is {q.kind!r} but own={q.own} and synthetic={q.synthetic}; "
            "own counts the user's questions, synthetic the generated ones")
