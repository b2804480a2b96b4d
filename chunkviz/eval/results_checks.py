"""The rules of a results file that its types cannot say: between fields, and against the ranks.

``chunkviz.eval.results_schema`` declares each field's type and bound, and decoding checks
those. What is left is checked here, once the file is decoded: every per-configuration mapping
has one entry per configuration, counts agree (ranks per question, offsets per chunk, lost
questions per ``broken``), offsets are ranges inside the index, every rank metric's mean is the
one its ranks give, a pairwise row's difference is the difference of its two means, and its
``equivalent`` and ``outcome`` are the decision rule's.

Each rule raises a ``ResultsFileError`` naming the field, its value and the rule: its code's
template (``error.results_*`` of the catalogues) words the problem only, and reading the file
(``chunkviz.eval.results``) sets it in ``error.results_file``, which names the file and the fix.
"""

from __future__ import annotations

import math
from collections import Counter
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
        raise ResultsFileError("results_labels_unique", labels=labels)
    _check_backend(data.backend, "backend")
    n = len(data.question_ids)
    if n != data.dataset.questions:
        raise ResultsFileError("results_question_count", ids=n, questions=data.dataset.questions)
    if len(set(data.question_ids)) != n:
        twice = next(q for q, count in Counter(data.question_ids).items() if count > 1)
        raise ResultsFileError("results_ids_unique", id=twice)
    _check_ranks(data.ranks, data.configs, n)
    # Each label's ranks as the metrics read them, converted once for every metric's mean.
    ranks = {lab: ranks_array(data.ranks[lab]) for lab in labels}
    _check_metrics(data.metrics, labels, ranks)
    _check_budget(data, labels, ranks)
    _check_pairwise(data.pairwise, labels, data.metrics, data.stats.alpha, "pairwise")
    if data.schema_version >= TOKENS_VERSION:
        lacking = [c.label for c in data.configs if c.mean_chunk_tokens is None]
        if lacking:
            raise ResultsFileError(
                "results_tokens_missing", label=lacking[0], version=TOKENS_VERSION
            )
    _check_retrieval(data.retrieval, data.configs, n, data.dataset.documents)
    if data.question_docs and len(data.question_docs) != n:
        raise ResultsFileError("results_docs_count", count=len(data.question_docs), questions=n)
    for name in ("question_types", "answer_types"):
        labels_of = getattr(data, name)
        if labels_of and len(labels_of) != n:
            raise ResultsFileError(
                "results_types_count", field=name, count=len(labels_of), questions=n
            )
    if data.stats.unit == "document" and not data.question_docs:
        raise ResultsFileError("results_unit_document")
    if data.sensitivity is not None:
        _check_sensitivity(data.sensitivity, labels, n, data.metrics)
    if data.questions_source is not None:
        _check_source(data.questions_source)


def _labels_match(found: Iterable[str], labels: Sequence[str], where: str) -> None:
    got = list(found)
    if sorted(got) != sorted(labels):
        raise ResultsFileError("results_labels_match", field=where, labels=list(labels), found=got)


def _check_backend(b: BackendRecord, where: str) -> None:
    if (b.kind == "hybrid") != bool(b.components):
        raise ResultsFileError(
            "results_components", field=f"{where}.components", kind=b.kind, count=len(b.components)
        )
    for i, c in enumerate(b.components):
        _check_backend(c, f"{where}.components[{i}]")


def _check_ranks(ranks: Ranks, configs: Sequence[ConfigRecord], n: int) -> None:
    _labels_match(ranks, [c.label for c in configs], "ranks")
    for c in configs:
        row = ranks[c.label]
        where = f"ranks.{c.label}"
        if len(row) != n:
            raise ResultsFileError("results_ranks_count", field=where, count=len(row), questions=n)
        too_far = next((i for i, v in enumerate(row) if v is not None and v > c.chunks), None)
        if too_far is not None:
            raise ResultsFileError(
                "results_rank_past",
                field=f"{where}[{too_far}]",
                rank=row[too_far],
                chunks=c.chunks,
                label=c.label,
            )
        lost = row.count(None)
        if lost != c.broken:
            raise ResultsFileError("results_broken", label=c.label, broken=c.broken, lost=lost)


def _check_estimate(e: Estimate, where: str) -> None:
    """A mean over questions of a metric in [0, 1], and its interval around it."""
    for name in ("mean", "ci_low", "ci_high"):
        v = getattr(e, name)
        if not (math.isfinite(v) and 0.0 <= v <= 1.0):
            raise ResultsFileError("results_estimate_range", field=f"{where}.{name}", value=v)
    if not e.ci_low <= e.ci_high:
        raise ResultsFileError("results_ci_order", field=where, low=e.ci_low, high=e.ci_high)


def _check_mean(where: str, stored: float, ranks: np.ndarray, name: str, k: float) -> None:
    expected = float(budget_values(name, ranks, k).mean())
    if abs(stored - expected) > MEAN_TOLERANCE:
        raise ResultsFileError(
            "results_mean", field=f"{where}.mean", stored=stored, expected=expected
        )


def _check_metrics(metrics: Estimates, labels: Sequence[str], ranks: RankArrays) -> None:
    """Known keys at a numeric k (``chunkviz.eval.measures``), rank means equal to their ranks'."""
    _labels_match(metrics, labels, "metrics")
    for lab in labels:
        row = metrics[lab]
        for key, est in row.items():
            where = f"metrics.{lab}.{key}"
            parsed = _parsed(key, where)
            if parsed.at_budget:
                raise ResultsFileError("results_key_at_budget", field=where)
            _check_estimate(est, where)
            if parsed.measure.values is not None:
                _check_mean(where, est.mean, ranks[lab], parsed.measure.name, parsed.cutoff)
        missing = [k for k in required_keys() if k not in row]
        if missing:
            raise ResultsFileError("results_metrics_lack", field=f"metrics.{lab}", missing=missing)


def _parsed(key: str, where: str) -> Key:
    try:
        return parse_key(key)
    except ParameterError:
        raise ResultsFileError("results_unknown_key", field=where) from None


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
                raise ResultsFileError(
                    "results_not_budget_key", field=where, keys=list(budget_keys())
                )
            _check_estimate(est, where)
            _check_mean(where, est.mean, ranks[lab], parse_key(key).measure.name, budget.k[lab])
        if headline not in row:
            raise ResultsFileError(
                "results_field_missing", field=f"budget.metrics.{lab}.{headline}"
            )
    if data.schema_version >= TOKENS_VERSION and not budget.tokenizer:
        raise ResultsFileError(
            "results_required_from", field="budget.tokenizer", version=TOKENS_VERSION
        )
    _check_pairwise(budget.pairwise, labels, budget.metrics, data.stats.alpha, "budget.pairwise")


def _check_pairwise(
    rows: Sequence[PairwiseResult],
    labels: Sequence[str],
    metrics: Estimates,
    alpha: float,
    where: str,
) -> None:
    for i, row in enumerate(rows):
        at = f"{where}[{i}]"
        _check_pair_labels(row, labels, at)
        if row.metric not in metrics[row.a]:
            raise ResultsFileError("results_pair_metric", field=f"{at}.metric", metric=row.metric)
        expected = metrics[row.a][row.metric].mean - metrics[row.b][row.metric].mean
        if abs(row.diff - expected) > DIFF_TOLERANCE:
            raise ResultsFileError(
                "results_pair_diff", field=f"{at}.diff", diff=row.diff, expected=expected
            )
        if row.equivalent and not is_equivalent(
            p_equiv_holm=1.0 if row.p_equiv_holm is None else row.p_equiv_holm,
            eq_ci_low=row.eq_ci_low,
            eq_ci_high=row.eq_ci_high,
            delta=row.delta,
            detectable=row.detectable,
            saturated=row.saturated,
            alpha=alpha,
        ):
            raise ResultsFileError(
                "results_not_equivalent",
                field=at,
                low=row.eq_ci_low,
                high=row.eq_ci_high,
                delta=row.delta,
                detectable=row.detectable,
                saturated=row.saturated,
            )


def _check_pair_labels(row: PairwiseResult, labels: Sequence[str], at: str) -> None:
    for side, lab in (("a", row.a), ("b", row.b)):
        if lab not in labels:
            raise ResultsFileError("results_pair_side", field=f"{at}.{side}", label=lab)
    if row.a == row.b:
        raise ResultsFileError("results_pair_self", field=at, label=row.a)


def _check_retrieval(r: Retrieval, configs: Sequence[ConfigRecord], n: int, documents: int) -> None:
    if len(r.document_ids) != documents:
        raise ResultsFileError(
            "results_document_count", ids=len(r.document_ids), documents=documents
        )
    labels = [c.label for c in configs]
    _labels_match(r.chunk_offsets, labels, "retrieval.chunk_offsets")
    _labels_match(r.topk, labels, "retrieval.topk")
    for c in configs:
        where = f"retrieval.chunk_offsets.{c.label}"
        offsets = r.chunk_offsets[c.label]
        if len(offsets) != c.chunks:
            raise ResultsFileError(
                "results_offsets_count", field=where, count=len(offsets), chunks=c.chunks
            )
        table = np.array(offsets, dtype=np.int64).reshape(-1, 3)
        bad = np.flatnonzero((table[:, 0] >= documents) | (table[:, 1] >= table[:, 2]))
        if bad.size:
            i = int(bad[0])
            raise ResultsFileError(
                "results_offset_bad",
                field=f"{where}[{i}]",
                documents=documents,
                offsets=list(offsets[i]),
            )
        where = f"retrieval.topk.{c.label}"
        tops = r.topk[c.label]
        if len(tops) != n:
            raise ResultsFileError("results_rows_count", field=where, count=len(tops), questions=n)
        for i, t in enumerate(tops):
            if len(t) > r.span_k:
                raise ResultsFileError(
                    "results_topk_long", field=f"{where}[{i}]", max=r.span_k, count=len(t)
                )
            if t and max(t) >= c.chunks:
                raise ResultsFileError("results_topk_past", field=f"{where}[{i}]", chunks=c.chunks)


def _check_sensitivity(s: Sensitivity, labels: Sequence[str], n: int, metrics: Estimates) -> None:
    for name, by in s.ranks.items():
        _labels_match(by, labels, f"sensitivity.ranks.{name}")
        for lab in labels:
            if len(by[lab]) != n:
                raise ResultsFileError(
                    "results_sensitivity_ranks",
                    field=f"sensitivity.ranks.{name}.{lab}",
                    questions=n,
                    count=len(by[lab]),
                )
    _labels_match(s.ndcg_all.places, labels, "sensitivity.ndcg_all.places")
    _labels_match(s.ndcg_all.relevant_counts, labels, "sensitivity.ndcg_all.relevant_counts")
    for name, rows in s.pairwise.items():
        for i, row in enumerate(rows):
            at = f"sensitivity.pairwise.{name}[{i}]"
            _check_pair_labels(row, labels, at)
            if row.metric not in metrics[row.a]:  # the page looks its main row up by it
                raise ResultsFileError(
                    "results_pair_metric_of",
                    field=f"{at}.metric",
                    metric=row.metric,
                    choices=sorted(metrics[row.a]),
                )


def _check_source(q: QuestionsSource) -> None:
    expected = {
        "own": q.own > 0 and q.synthetic == 0,
        "synthetic": q.own == 0 and q.synthetic > 0,
        "both": q.own > 0 and q.synthetic > 0,
    }
    if not expected[q.kind]:
        raise ResultsFileError("results_source_kind", kind=q.kind, own=q.own, synthetic=q.synthetic)
