"""Every metric and every paired comparison of a results file, broken down by question type.

JaQuAD labels each question with a type (lexical variation by world knowledge or by synonymy,
syntactic variation, multiple-sentence reasoning, logical reasoning) and each answer with one
(object, person, date/time, ...); a results file keeps them per question (``question_types``,
``answer_types``). This module asks which kinds of question a configuration loses:

- ``metric_by_type``: per type, each configuration's mean with its bootstrap interval, and how
  many of the type's answers it cut before retrieval;
- ``compare_by_type``: per type, every pair of the file tested again on that type's questions
  alone (paired bootstrap interval, sign-flip test, TOST), each pair's p-values Holm-corrected
  ACROSS THE TYPES (the family is one pair on one metric over every type: the question asked is
  "on which types does a differ from b"), the outcome decided by the one rule.

Both resample the file's own unit (documents when the file did) with the file's seed, bootstrap
and permutation counts, restricted to the type's questions; a type with fewer than
``MIN_QUESTIONS`` questions is reported but not tested (its interval would be noise).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import msgspec
import numpy as np

from chunkviz.errors import ParameterError
from chunkviz.eval.results import Results
from chunkviz.eval.stats import (
    Clusters,
    Estimate,
    PairwiseResult,
    Resampling,
    bootstrap_ci,
    equivalence_fields,
    holm,
    holm_bounds,
    pairwise_tests,
    permutation_floor,
    tost_paired,
)

TypeKind = Literal["question", "answer"]
TYPE_KINDS: tuple[TypeKind, ...] = ("question", "answer")

#: Types with fewer questions are listed with their counts but get no interval or test.
MIN_QUESTIONS = 20


def question_labels(results: Results, kind: TypeKind) -> tuple[str, ...]:
    """Per question (``question_ids`` order), its type of ``kind``; empty when the file has none.

    Raises:
        ParameterError: An unknown ``kind``.
    """
    if kind not in TYPE_KINDS:
        raise ParameterError("one_of", name="kind", value=kind, choices=list(TYPE_KINDS))
    return results.question_types if kind == "question" else results.answer_types


def type_counts(results: Results, kind: TypeKind) -> tuple[tuple[str, int], ...]:
    """``(type, questions)`` of every labelled type, most questions first (then by name)."""
    counts = Counter(t for t in question_labels(results, kind) if t)
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def has_types(results: Results) -> bool:
    """Whether the file labels its questions with any type (question or answer)."""
    return any(type_counts(results, kind) for kind in TYPE_KINDS)


def _values(results: Results, metric: str) -> dict[str, np.ndarray]:
    return {label: results.values(label, metric) for label in results.labels}


def _subset(results: Results, mask: np.ndarray) -> Resampling:
    """The file's resampling restricted to the questions in ``mask``."""
    docs = results.question_docs or results.question_ids
    clusters = Clusters.of(
        [d for d, keep in zip(docs, mask, strict=True) if keep], results.stats.unit
    )
    return Resampling.draw(clusters, results.stats.bootstrap, results.stats.seed)


@dataclass(frozen=True, slots=True)
class TypeMetric:
    """One type's figures under every configuration.

    Attributes:
        type: The type as the dataset labels it.
        questions: Questions of this type.
        documents: Documents they come from.
        estimates: Configuration -> mean with its interval (empty below ``MIN_QUESTIONS``).
        lost: Configuration -> answers of this type no chunk holds whole (lost before
            retrieval).
    """

    type: str
    questions: int
    documents: int
    estimates: Mapping[str, Estimate]
    lost: Mapping[str, int]


def metric_by_type(results: Results, metric: str, kind: TypeKind) -> tuple[TypeMetric, ...]:
    """Every configuration's ``metric`` per type of ``kind``, in ``type_counts`` order.

    Raises:
        ParameterError: An unknown ``kind`` or metric.
    """
    labels = np.asarray(question_labels(results, kind), dtype=object)
    values = _values(results, metric)
    docs = np.asarray(results.question_docs or results.question_ids, dtype=object)
    out = []
    for name, n in type_counts(results, kind):
        mask = labels == name
        estimates: dict[str, Estimate] = {}
        if n >= MIN_QUESTIONS:
            resampling = _subset(results, mask)
            estimates = {
                lab: bootstrap_ci(v[mask], resampling=resampling) for lab, v in values.items()
            }
        lost = {
            lab: sum(
                1 for r, keep in zip(results.ranks[lab], mask, strict=True) if keep and r is None
            )
            for lab in results.labels
        }
        out.append(TypeMetric(name, n, len(set(docs[mask].tolist())), estimates, lost))
    return tuple(out)


def _pairs(
    results: Results,
    metric: str,
    values: Mapping[str, np.ndarray],
    mask: np.ndarray,
    resampling: Resampling,
    margin: float | None,
) -> list[PairwiseResult]:
    delta = margin if margin is not None else results.stats.margins.get(metric)
    return pairwise_tests(
        {lab: v[mask] for lab, v in values.items()},
        metric=metric,
        alpha=results.stats.alpha,
        permutations=results.stats.permutations,
        seed=results.stats.seed,
        resampling=resampling,
        margin=delta,
    )


def retest_pairs(
    results: Results, metric: str, margin: float | None = None
) -> tuple[PairwiseResult, ...]:
    """Every pair of the file tested on any rank metric, as the runner tests its own metrics.

    The same units, seed, bootstrap, permutations and Holm correction over the pairs as the
    file's ``pairwise`` rows (for a metric the file tested, the rows come out identical), so a
    metric the runner did not test (``recall@1``) can be compared with those it did.

    Raises:
        ParameterError: An unknown metric.
    """
    mask = np.ones(len(results.question_ids), dtype=bool)
    return tuple(
        _pairs(results, metric, _values(results, metric), mask, _subset(results, mask), margin)
    )


@dataclass(frozen=True, slots=True)
class TypeComparison:
    """One pair on one type's questions; ``result``'s Holm values run across the types.

    Attributes:
        type: The type.
        questions: Its questions.
        result: The paired comparison on them: ``p_holm`` and ``p_equiv_holm`` are Holm-adjusted
            over the types of this pair, and ``outcome`` follows from them.
    """

    type: str
    questions: int
    result: PairwiseResult


ByType = dict[tuple[str, str], tuple[TypeComparison, ...]]


def compare_by_type(
    results: Results, metric: str, kind: TypeKind, margin: float | None = None
) -> ByType:
    """Every pair of the file on ``metric``, tested on each type's questions alone.

    Args:
        results: A results file with per-question types.
        metric: A rank metric key (``recall@5``, ``mrr@10``, ``recall@budget``).
        kind: ``question`` or ``answer`` types.
        margin: The equivalence margin (default: the file's margin for ``metric``).

    Returns:
        ``(a, b)`` -> one comparison per type with at least ``MIN_QUESTIONS`` questions, in
        ``type_counts`` order; pairs in the order of the file's labels.

    Raises:
        ParameterError: An unknown ``kind`` or metric, or a non-positive margin.
    """
    labels = np.asarray(question_labels(results, kind), dtype=object)
    values = _values(results, metric)
    alpha = results.stats.alpha
    raw: list[tuple[str, int, np.ndarray, Resampling, list[PairwiseResult]]] = []
    for name, n in type_counts(results, kind):
        if n < MIN_QUESTIONS:
            continue
        mask = labels == name
        resampling = _subset(results, mask)
        rows = _pairs(results, metric, values, mask, resampling, margin)
        raw.append((name, n, mask, resampling, rows))
    floor = permutation_floor(results.stats.permutations)
    out: ByType = {}
    for j, first in enumerate(raw[0][4] if raw else []):
        across = [rows[j] for *_, rows in raw]
        p = [r.p_value for r in across]
        adjusted = holm(p)
        bounds = holm_bounds(p, [x <= floor * (1 + 1e-9) for x in p])
        eq_adjusted = holm([1.0 if r.p_equiv is None else r.p_equiv for r in across])
        items = []
        for (name, n, mask, resampling, _rows), r, ph, bound, peh in zip(
            raw, across, adjusted, bounds, eq_adjusted, strict=True
        ):
            a, b = values[r.a][mask], values[r.b][mask]
            eq = (
                tost_paired(a, b, r.delta, alpha=alpha, clusters=resampling.clusters)
                if r.delta is not None
                else None
            )
            fields = equivalence_fields(a, b, eq, peh, alpha)
            items.append(
                TypeComparison(
                    name,
                    n,
                    msgspec.structs.replace(
                        r,
                        p_holm=float(ph),
                        p_holm_bound=bound,
                        significant=bool(ph < alpha),
                        p_equiv_holm=float(peh) if eq is not None else None,
                        **fields,
                    ),
                )
            )
        out[(first.a, first.b)] = tuple(items)
    return out


def losses_by_type(
    results: Results,
    metric: str,
    kind: TypeKind,
    label: str,
    comparisons: Mapping[tuple[str, str], tuple[TypeComparison, ...]] | None = None,
) -> tuple[tuple[str, str, PairwiseResult], ...]:
    """The types on which ``label`` does significantly worse than another configuration.

    Args:
        results: The file.
        metric: The metric key.
        kind: ``question`` or ``answer`` types.
        label: The configuration asked about.
        comparisons: ``compare_by_type``'s answer, when already computed.

    Returns:
        ``(type, other configuration, comparison oriented as label - other)`` for each type and
        configuration that beats ``label`` there (Holm across the types), largest loss first.

    Raises:
        ParameterError: ``label`` is not a configuration of the file.
    """
    if label not in results.labels:
        raise ParameterError("unknown_configuration", label=label, labels=list(results.labels))
    found = comparisons if comparisons is not None else compare_by_type(results, metric, kind)
    out = []
    for (a, b), items in found.items():
        if label not in (a, b):
            continue
        for item in items:
            r = item.result if a == label else item.result.flipped()
            if r.outcome == "b_better":
                out.append((item.type, r.b, r))
    return tuple(sorted(out, key=lambda x: (x[2].diff, x[0], x[1])))
