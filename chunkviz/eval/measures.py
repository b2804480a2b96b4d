"""The measures a benchmark computes, each declared once as a record (ir_measures' style).

A ``Measure`` holds every fact about one measure: the function that scores a question from its
rank, its display name, its default equivalence margin, the cut-offs the runner stores, the
cut-offs tested pairwise, whether it is measured at the context budget and whether every
results file must carry it. The runner computes from these records, the decision module takes
their margins, the results checks know their keys from them, and the views and pages list and
name them. Adding a measure is one ``register(Measure(...))``.

A metric key is ``name@k`` (``recall@5``, ``ndcg@10``, ``span_iou@5``) or ``name@budget``;
``parse_key`` is the one parser of such a key (``Key``: the measure and its cut-off).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from chunkviz.errors import ParameterError
from chunkviz.eval.metrics import Rank, mrr_at_k, ndcg_at_k, recall_at_k

#: The cut-off of a key measured at the context budget (``recall@budget``).
BUDGET: Literal["budget"] = "budget"

RankFunction = Callable[[Iterable[Rank], int], np.ndarray]


@dataclass(frozen=True, slots=True)
class Measure:
    """Everything chunkviz knows about one measure.

    Attributes:
        name: The key's name (``recall``), snake case.
        display: Its display name (``Recall``; keys show as ``Recall@5``).
        margin: The default equivalence margin delta, in the measure's units
            (``chunkviz.eval.decision.default_margin``).
        values: Per-question values from the rank of the best relevant chunk and a cut-off
            (``chunkviz.eval.metrics``); None for a span measure, which the runner scores from
            the retrieved text (``span``).
        cutoffs: Equal-k cut-offs the runner stores in ``metrics``.
        tested: Of those, the cut-offs tested pairwise at equal k (and retested under the
            sensitivity definitions); the Benchmark page decides on them.
        budget: Whether it is stored and tested pairwise at the context budget (``@budget``).
        required: Whether every results file must carry its tested keys (the built-in
            measures; a measure added later leaves older files readable).
        span: For a span measure, its column of ``metrics.span_scores`` (precision, recall,
            IoU), stored at the runner's ``SPAN_K``.
        binary: Whether its per-question values at a whole k are 0 or 1 (then a pair's win
            counts are the discordant questions).
    """

    name: str
    display: str
    margin: float
    values: RankFunction | None = None
    cutoffs: tuple[int, ...] = ()
    tested: tuple[int, ...] = ()
    budget: bool = False
    required: bool = False
    span: int | None = None
    binary: bool = False

    def key(self, k: int | str) -> str:
        """This measure's key at ``k`` (``recall@5``, ``recall@budget``)."""
        return f"{self.name}@{k}"


@dataclass(frozen=True, slots=True)
class Key:
    """A parsed metric key.

    Attributes:
        measure: The measure.
        k: The cut-off, or ``budget`` (the chunks that fill the context budget).
    """

    measure: Measure
    k: int | Literal["budget"]

    @property
    def text(self) -> str:
        """The key as files and pages write it (``ndcg@10``)."""
        return self.measure.key(self.k)

    @property
    def at_budget(self) -> bool:
        """Whether the key is measured at the context budget."""
        return self.k == BUDGET

    @property
    def cutoff(self) -> int:
        """The numeric cut-off.

        Raises:
            ParameterError: A key at the budget (its k is the configuration's).
        """
        if isinstance(self.k, int):
            return self.k
        raise ParameterError("key_at_budget", key=self.text)


_REGISTRY: dict[str, Measure] = {}


def register(measure: Measure) -> Measure:
    """Add ``measure`` to the registry.

    Raises:
        ParameterError: A name already registered, or a rank measure without a function.
    """
    if measure.name in _REGISTRY:
        raise ParameterError("measure_registered", name=measure.name)
    if (measure.values is None) == (measure.span is None):
        raise ParameterError("measure_kind", name=measure.name)
    _REGISTRY[measure.name] = measure
    return measure


def measures() -> tuple[Measure, ...]:
    """Every registered measure, in registration order."""
    return tuple(_REGISTRY.values())


def get_measure(name: str) -> Measure:
    """The measure called ``name``.

    Raises:
        ParameterError: An unknown name (the message lists the known ones).
    """
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ParameterError("unknown_metric", name=name, known=sorted(_REGISTRY)) from None


def parse_key(key: str) -> Key:
    """The one parser of a metric key: ``"ndcg@10"`` -> ``Key(ndcg, 10)``.

    Raises:
        ParameterError: Not ``name@k`` with a registered name and k a positive integer or
            ``budget``.
    """
    name, sep, k = key.partition("@")
    if not sep or not name or not (k == BUDGET or (k.isascii() and k.isdigit() and int(k) >= 1)):
        raise ParameterError("metric_key", value=key)
    return Key(get_measure(name), BUDGET if k == BUDGET else int(k))


def is_key(key: str) -> bool:
    """Whether ``key`` parses (``parse_key``)."""
    try:
        parse_key(key)
    except ParameterError:
        return False
    return True


# ---------------------------------------------------------------------------- the key lists


def rank_measures() -> tuple[Measure, ...]:
    """The measures scored from ranks."""
    return tuple(m for m in _REGISTRY.values() if m.values is not None)


def span_measures() -> tuple[Measure, ...]:
    """The measures scored from the retrieved text, by column."""
    return tuple(
        sorted((m for m in _REGISTRY.values() if m.span is not None), key=lambda m: m.span or 0)
    )


def rank_keys() -> tuple[str, ...]:
    """Every equal-k rank key the runner stores (``recall@1`` ... ``mrr@10``)."""
    return tuple(m.key(k) for m in rank_measures() for k in m.cutoffs)


def pairwise_keys() -> tuple[str, ...]:
    """The keys tested pairwise at equal k, headline first (``recall@5``, ``ndcg@10``, ...)."""
    return tuple(m.key(k) for m in _REGISTRY.values() for k in m.tested)


def required_keys() -> tuple[str, ...]:
    """The tested keys every results file must carry."""
    return tuple(m.key(k) for m in _REGISTRY.values() if m.required for k in m.tested)


def budget_keys() -> tuple[str, ...]:
    """The keys stored and tested pairwise at the context budget (``recall@budget``, ...)."""
    return tuple(m.key(BUDGET) for m in rank_measures() if m.budget)


# ---------------------------------------------------------------------------- values


def metric_values(name: str, ranks: Iterable[Rank] | np.ndarray, k: int) -> np.ndarray:
    """Per-question values of the rank measure called ``name`` at the cut-off ``k``.

    Raises:
        ParameterError: An unknown name or a span measure (not scored from ranks).
    """
    fn = get_measure(name).values
    if fn is None:
        raise ParameterError("span_metric", name=name, choices=[m.name for m in rank_measures()])
    return fn(ranks, k)


def budget_values(name: str, ranks: Iterable[Rank] | np.ndarray, k: float) -> np.ndarray:
    """Per-question values of ``name`` at a fractional ``k`` (``metrics.budget_k``).

    The reader is sent the top ``floor(k)`` chunks whole and the first ``k - floor(k)`` of the
    next one, truncated at the budget. A relevant chunk at rank ``floor(k) + 1`` then holds its
    answer inside the part that is sent with probability about that share (an answer is
    equally likely anywhere in its chunk), so the value is linear between ``k`` and ``k + 1``:
    ``v(floor k) + frac * (v(floor k + 1) - v(floor k))``. Every configuration is thereby
    credited with exactly the budget's characters, never half a chunk more or less.

    Raises:
        ParameterError: An unknown metric name or a non-positive ``k``.
    """
    if not k > 0:
        raise ParameterError("positive", name="k", value=k)
    # An array of ranks (inf: never found) is passed on as it is, so it is converted once.
    rank_list = ranks if isinstance(ranks, np.ndarray) else list(ranks)
    whole = int(math.floor(k + 1e-9))
    frac = k - whole if k - whole > 1e-9 else 0.0
    low = (
        metric_values(name, rank_list, whole)
        if whole >= 1
        else np.zeros(len(rank_list), dtype=np.float64)
    )
    if frac == 0.0:
        return low
    high = metric_values(name, rank_list, whole + 1)
    out: np.ndarray = low + frac * (high - low)
    return out


def key_values(
    key: str, ranks: Iterable[Rank] | np.ndarray, budget_k: float | None = None
) -> np.ndarray:
    """Per-question values of a rank key; a key at the budget needs the configuration's k.

    Raises:
        ParameterError: A key that does not parse, a span key, or ``@budget`` without
            ``budget_k``.
    """
    parsed = parse_key(key)
    if parsed.at_budget:
        if budget_k is None:
            raise ParameterError("key_needs_budget_k", key=key)
        return budget_values(parsed.measure.name, ranks, budget_k)
    return metric_values(parsed.measure.name, ranks, parsed.cutoff)


# ---------------------------------------------------------------------------- names


def display_name(key: str) -> str:
    """The one display name of a metric key.

    ``recall@5`` -> ``Recall@5``, ``ndcg@10`` -> ``nDCG@10``, ``mrr@budget`` ->
    ``MRR@budget``, ``span_iou@5`` -> ``Span IoU@5``.

    Raises:
        ParameterError: A key that does not parse.
    """
    parsed = parse_key(key)
    return f"{parsed.measure.display}@{parsed.k}"


def metric_label(name: str) -> str:
    """Display name of a metric key (``ndcg@10`` -> ``nDCG@10``) or of a bare measure (``mrr``).

    An unknown bare name is shown as it is.
    """
    if "@" in name:
        return display_name(name)
    found = _REGISTRY.get(name)
    return found.display if found is not None else name


# ---------------------------------------------------------------------------- the built-ins

# Default margins: Recall@k, nDCG@k and MRR@k (also at the budget) 0.01, one question in a
# hundred gaining or losing a relevant chunk in the top k; span measures 0.02, continuous
# character ratios whose means move more (``chunkviz.eval.decision.default_margin``).
register(
    Measure(
        "recall",
        "Recall",
        0.01,
        recall_at_k,
        cutoffs=(1, 5, 10, 20),
        tested=(5,),
        budget=True,
        required=True,
        binary=True,
    )
)
register(
    Measure(
        "ndcg", "nDCG", 0.01, ndcg_at_k, cutoffs=(5, 10), tested=(10,), budget=True, required=True
    )
)
register(
    Measure("mrr", "MRR", 0.01, mrr_at_k, cutoffs=(5, 10), tested=(10,), budget=True, required=True)
)
register(Measure("span_precision", "Span precision", 0.02, span=0))
register(Measure("span_recall", "Span recall", 0.02, span=1))
register(Measure("span_iou", "Span IoU", 0.02, span=2))
