"""Confidence intervals, paired difference and equivalence tests for comparing configurations.

Every configuration is evaluated on the same questions, so differences are tested *paired*:
per question, ``d_i = a_i - b_i``.

**The unit of resampling.** Questions are clustered in documents (JSQuAD: 3,973 questions in 59
articles), and questions about the same article succeed or fail together. Treating them as
independent understates the variance of a mean by the design effect ``1 + (m - 1) rho`` (Kish
1965; ``m`` questions per document, ``rho`` the intra-document correlation). Every function here
therefore takes a :class:`Clusters` value saying which document each question belongs to and
whether inference resamples documents (``unit="document"``, the default for datasets with
documents) or questions (``unit="question"``, inference about *these* questions only). With one
question per document the two coincide exactly (same random draws).

- Confidence intervals are percentile bootstrap intervals (Efron & Tibshirani 1993); at document
  level whole documents are drawn with replacement and the mean over all their questions is the
  statistic (the cluster bootstrap, Field & Welsh 2007; Cameron & Miller 2015, section VI).
- Differences are tested with a paired sign-flip permutation test of the mean difference: under
  the null hypothesis that the two configurations are exchangeable on each unit, each unit's
  total difference is equally likely to have either sign (Fisher 1935; Smucker, Allan &
  Carterette 2007 recommend it for IR evaluation). At document level the sign flips per document.
- Equivalence ("the same within +-delta") is a separate claim that needs its own test: the two
  one-sided tests (TOST, Schuirmann 1987) of :func:`tost_paired`. Not rejecting a difference is
  "no detectable difference", never equality.
- Comparing all pairs makes many tests at once; Holm's step-down procedure (Holm 1979) keeps the
  family-wise error rate at ``alpha``, for the difference tests and for the equivalence tests
  (each family separately).

Every pair then reads as one outcome, decided by ``chunkviz.eval.decision`` (the one rule):
``a_better``, ``b_better``, ``equivalent`` (within ``+-delta``, at or above the pair's detectable
margin), ``inconclusive`` or ``saturated`` (the questions cannot separate them). Permutation
p-values cannot fall below ``1 / (1 + permutations)``; a p-value at that floor is only an upper
bound and :func:`format_p` prints it as ``p ≤ …``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, Literal

import numpy as np

from chunkviz.errors import ParameterError
from chunkviz.eval.decision import (
    Outcome,
    default_margin,
    detectable_margin,
    is_equivalent,
    is_saturated,
)

# Re-exported: the one pairwise record and the units are declared in chunkviz.eval.pairwise.
from chunkviz.eval.pairwise import UNITS as UNITS
from chunkviz.eval.pairwise import PairwiseResult as PairwiseResult
from chunkviz.eval.pairwise import Unit as Unit

_BATCH = 500  # resamples per matrix product: bounds memory at _BATCH x units floats
_TABLE_FLOATS = 1 << 21  # bounds the sign-flip lookup tables at 16 MiB
_CODES_CACHED = 1 << 22  # sign draws kept for reuse up to 4 MiB (5000 flips of 6,700 units)

ReplicationStatus = Literal["holds", "one_only", "contradicts", "neither"]


def _values(values: Sequence[float] | np.ndarray, name: str = "values") -> np.ndarray:
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1:
        raise ParameterError("one_value_per_question", name=name, shape=str(v.shape))
    return v


def _check_alpha(alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise ParameterError("alpha_range", value=alpha)


def _check_resamples(n: int, name: str) -> None:
    if n < 1:
        raise ParameterError("at_least", name=name, value=n, min=1)


def _check_unit(unit: str) -> None:
    if unit not in UNITS:
        raise ParameterError("one_of", name="unit", choices=list(UNITS), value=unit)


# ---------------------------------------------------------------------------- the units


@dataclass(frozen=True, slots=True, eq=False)
class Clusters:
    """Which resampling unit each question belongs to.

    Attributes:
        unit: ``"document"`` (questions of one document move together) or ``"question"``.
        groups: Shape ``(n,)``: the unit index (0 .. count - 1) of each question. With
            ``unit="question"`` it is ``arange(n)``.
    """

    unit: Unit
    groups: np.ndarray

    @classmethod
    def of(cls, documents: Sequence[Hashable], unit: Unit = "document") -> Clusters:
        """The units of questions whose documents are ``documents`` (one label per question).

        Units are numbered in order of first appearance, so the draws do not depend on how
        document labels sort.

        Raises:
            ParameterError: An unknown unit.
        """
        _check_unit(unit)
        if unit == "question":
            return cls.questions(len(documents))
        seen: dict[Hashable, int] = {}
        groups = np.fromiter(
            (seen.setdefault(d, len(seen)) for d in documents), dtype=np.int64, count=len(documents)
        )
        return cls("document", groups)

    @classmethod
    def questions(cls, n: int) -> Clusters:
        """Every question its own unit (inference about these ``n`` questions)."""
        return cls("question", np.arange(n, dtype=np.int64))

    @property
    def n(self) -> int:
        """Number of questions."""
        return int(self.groups.size)

    @property
    def count(self) -> int:
        """Number of units (documents, or questions)."""
        return int(self.groups.max()) + 1 if self.groups.size else 0

    @property
    def sizes(self) -> np.ndarray:
        """Questions per unit, shape ``(count,)``."""
        return np.bincount(self.groups, minlength=self.count).astype(np.float64)

    def sums(self, values: np.ndarray) -> np.ndarray:
        """Per-unit totals of per-question ``values``, shape ``(count,)``.

        Raises:
            ParameterError: ``values`` not one per question.
        """
        if values.shape != self.groups.shape:
            raise ParameterError("cluster_values", values=values.size, questions=self.n)
        if self.unit == "question":
            return values
        return np.bincount(self.groups, weights=values, minlength=self.count)


def _clusters_for(n: int, clusters: Clusters | None) -> Clusters:
    if clusters is None:
        return Clusters.questions(n)
    if clusters.n != n:
        raise ParameterError("clusters_cover", questions=clusters.n, values=n)
    return clusters


def bootstrap_indices(n: int, resamples: int, seed: int) -> np.ndarray:
    """Resampled unit indices, shape ``(resamples, n)``, reproducible from ``seed``.

    Sharing one draw between configurations keeps their intervals paired.
    """
    _check_resamples(resamples, "resamples")
    rng = np.random.default_rng(seed)
    return (
        rng.integers(0, n, size=(resamples, n), dtype=np.int64)
        if n
        else np.zeros((resamples, 0), dtype=np.int64)
    )


@dataclass(frozen=True, slots=True, eq=False)
class Resampling:
    """A seeded bootstrap of units, shared by every configuration and pair (so it is paired).

    Each resample draws ``count`` units with replacement; ``counts[b, g]`` is how often unit
    ``g`` is drawn in resample ``b``. The resampled mean of per-question values ``v`` is the
    ratio ``sum_g counts[b, g] S_g / sum_g counts[b, g] n_g`` with ``S_g`` the unit's total and
    ``n_g`` its number of questions: the mean over all questions of the drawn documents.

    Attributes:
        clusters: The units.
        counts: Shape ``(resamples, count)``, float64.
        seed: The seed of the draws.
    """

    clusters: Clusters
    counts: np.ndarray
    seed: int

    @classmethod
    def draw(cls, clusters: Clusters, resamples: int = 2000, seed: int = 0) -> Resampling:
        """Draw ``resamples`` bootstrap samples of the units.

        Uses the draws of :func:`bootstrap_indices` over the units, so with one question per
        unit it resamples exactly the questions the question-level bootstrap does.

        Raises:
            ParameterError: ``resamples`` < 1.
        """
        return cls.from_indices(clusters, bootstrap_indices(clusters.count, resamples, seed), seed)

    @classmethod
    def from_indices(cls, clusters: Clusters, indices: np.ndarray, seed: int = 0) -> Resampling:
        """A resampling from drawn unit indices (``bootstrap_indices(count, ...)``).

        Raises:
            ParameterError: Indices outside the units.
        """
        idx = np.asarray(indices, dtype=np.int64)
        g = clusters.count
        if idx.ndim != 2 or (idx.size and (idx.min() < 0 or idx.max() >= g)):
            raise ParameterError("resample_indices", units=g, shape=str(idx.shape))
        b = idx.shape[0]
        flat = (idx + (np.arange(b, dtype=np.int64) * g)[:, None]).ravel()
        counts = np.bincount(flat, minlength=b * g).reshape(b, g).astype(np.float64)
        return cls(clusters, counts, seed)

    @property
    def unit(self) -> Unit:
        """The unit of resampling."""
        return self.clusters.unit

    @property
    def resamples(self) -> int:
        """Number of bootstrap resamples."""
        return int(self.counts.shape[0])

    def means(self, values: np.ndarray) -> np.ndarray:
        """The resampled means of per-question ``values``, shape ``(resamples,)``."""
        sums = self.clusters.sums(values)
        sizes = self.clusters.sizes
        out = np.empty(self.resamples, dtype=np.float64)
        for i in range(0, self.resamples, _BATCH):
            c = self.counts[i : i + _BATCH]
            out[i : i + _BATCH] = (c @ sums) / (c @ sizes)
        return out


# ---------------------------------------------------------------------------- intervals


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its bootstrap confidence interval.

    Attributes:
        mean: The sample mean.
        ci_low: Lower bound of the interval.
        ci_high: Upper bound of the interval.
    """

    mean: float
    ci_low: float
    ci_high: float

    def as_dict(self) -> dict[str, float]:
        """``{"mean", "ci_low", "ci_high"}`` as in the results file."""
        return {"mean": self.mean, "ci_low": self.ci_low, "ci_high": self.ci_high}


def bootstrap_ci(
    values: Sequence[float] | np.ndarray,
    *,
    resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
    indices: np.ndarray | None = None,
    resampling: Resampling | None = None,
) -> Estimate:
    """Mean of ``values`` with a percentile bootstrap confidence interval.

    The interval is ``[q_{(1-c)/2}, q_{(1+c)/2}]`` of the resampled means (Efron & Tibshirani
    1993, ch. 13); with a document-level ``resampling`` the resampled means are those of the
    cluster bootstrap (see :class:`Resampling`).

    Args:
        values: One value per question.
        resamples: Number of bootstrap resamples (when neither ``indices`` nor ``resampling``).
        confidence: Coverage of the interval (0.95: the 2.5th and 97.5th percentiles).
        seed: Seed of the resampling, for reproducible files.
        indices: Precomputed question-level ``bootstrap_indices``.
        resampling: A precomputed :class:`Resampling` (shared across configurations); it
            decides the unit. Without it (and without ``indices``) questions are resampled.

    Returns:
        The estimate; an empty input gives NaNs.

    Raises:
        ParameterError: Bad ``confidence`` or ``resamples``, or ``values`` not matching the
            resampling's questions.
    """
    v = _values(values)
    _check_alpha(1.0 - confidence)
    if v.size == 0:
        return Estimate(float("nan"), float("nan"), float("nan"))
    if resampling is None:
        clusters = Clusters.questions(v.size)
        resampling = (
            Resampling.draw(clusters, resamples, seed)
            if indices is None
            else Resampling.from_indices(clusters, indices, seed)
        )
    means = resampling.means(v)
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(means, [tail, 100.0 - tail])
    return Estimate(float(v.mean()), float(low), float(high))


# ---------------------------------------------------------------------------- difference test


def permutation_floor(permutations: int) -> float:
    """The smallest p-value a sign-flip test with ``permutations`` flips can give: 1/(1+P)."""
    _check_resamples(permutations, "permutations")
    return 1.0 / (1.0 + permutations)


def paired_permutation_test(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    *,
    permutations: int = 5000,
    seed: int = 0,
    clusters: Clusters | None = None,
) -> float:
    """Two-sided p-value of a paired sign-flip permutation test of mean(a - b).

    With ``D_g`` the total of ``d_i = a_i - b_i`` over unit ``g`` and ``n`` questions,
    ``T = |sum_g D_g| / n`` and ``p = (1 + #{|sum_g s_g D_g| / n >= T}) / (1 + permutations)``
    over random sign vectors ``s`` (one sign per unit: per document, the configurations' labels
    are swapped on all its questions at once). The ``+1`` counts the observed assignment, so p is
    never below ``1 / (1 + permutations)`` (Phipson & Smyth 2010): a p-value at that floor only
    says "at most this".

    Args:
        a: Per-question values of the first configuration.
        b: Per-question values of the second, on the same questions.
        permutations: Number of random sign flips.
        seed: Seed of the sign flips.
        clusters: The units whose signs flip together (default: each question).

    Returns:
        The p-value in (0, 1]; 1.0 when every difference is zero.

    Raises:
        ParameterError: Different lengths or ``permutations`` < 1.
    """
    x, y = _values(a, "a"), _values(b, "b")
    if x.shape != y.shape:
        raise ParameterError("same_questions", a=x.size, b=y.size)
    _check_resamples(permutations, "permutations")
    d = x - y
    units = _clusters_for(d.size, clusters)
    return float(
        sign_flip_p_values(units.sums(d)[:, None], permutations=permutations, seed=seed)[0]
    )


def sign_flip_p_values(totals: np.ndarray, *, permutations: int, seed: int) -> np.ndarray:
    """Sign-flip p-values of many paired differences on the same units, in one pass.

    Column ``j`` of ``totals`` (shape ``(units, pairs)``) holds pair ``j``'s per-unit totals
    ``D_g``. One sequence of random sign vectors is drawn from ``seed`` and applied to every
    column, so each pair gets exactly the flips :func:`paired_permutation_test` draws for it
    alone with that seed, and the p-values do not depend on how many pairs (of one metric or
    of many) are tested together.

    The signed sums ``sum_g s_g D_g`` are added up from lookup tables (:func:`_pattern_sums`),
    in plain numpy on one thread: no BLAS product, whose thread pool spun a second core for
    most of a benchmark's statistics (0.6-0.9 s of CPU against 0.02 s on one thread), and
    whose last bits depend on its thread count.

    Returns:
        One p-value per column, in (0, 1]; 1.0 for a column of zeros.

    Raises:
        ParameterError: ``permutations`` < 1 or ``totals`` not a matrix.
    """
    _check_resamples(permutations, "permutations")
    t = np.asarray(totals, dtype=np.float64)
    if t.ndim != 2:
        raise ParameterError("totals_matrix", shape=str(t.shape))
    p = np.ones(t.shape[1], dtype=np.float64)
    live = np.flatnonzero(np.any(t != 0.0, axis=0)) if t.shape[0] else np.zeros(0, np.int64)
    if live.size == 0:
        return p
    t = t[:, live]
    observed = np.abs(t.sum(axis=0))
    # NOTE: a small tolerance so that permuted totals equal to the observed one up to float
    # rounding count as "at least as extreme" (otherwise ties would depend on summation order:
    # the tables' here, a BLAS kernel's and its thread count before).
    threshold = observed - 1e-12 * np.maximum(1.0, observed)
    codes = sign_codes(t.shape[0], permutations, seed)
    extreme = np.zeros(live.size, dtype=np.int64)
    blocks = codes.shape[1]
    step = max(1, _TABLE_FLOATS // (blocks * 256))  # columns per set of tables
    for c0 in range(0, live.size, step):
        tables = _pattern_sums(t[:, c0 : c0 + step])
        for lo in range(0, permutations, _BATCH):
            batch = codes[lo : lo + _BATCH]
            sums = tables[0][batch[:, 0]]
            for b in range(1, blocks):
                sums += tables[b][batch[:, b]]
            extreme[c0 : c0 + step] += np.count_nonzero(
                np.abs(sums) >= threshold[c0 : c0 + step], axis=0
            )
    p[live] = (1 + extreme) / (1 + permutations)
    return p


def sign_codes(units: int, permutations: int, seed: int) -> np.ndarray:
    """The random sign vectors of the sign-flip tests, eight units to a byte (read-only).

    Row ``i`` holds permutation ``i``'s signs, bit set for ``+1``, the first unit of each group
    of eight in the high bit (``np.packbits``): shape ``(permutations, ceil(units / 8))``,
    ``uint8``. They are drawn from ``seed`` in batches of ``_BATCH`` rows of ``units`` 0/1
    draws (``rng.integers(0, 2, dtype=int8)``), the stream every release has drawn, so a seed
    keeps its signs and its p-values. Drawn once and reused for every test on the same units
    (every pair of every metric of a run) while they fit in ``_CODES_CACHED`` bytes.

    Raises:
        ParameterError: ``permutations`` < 1.
    """
    _check_resamples(permutations, "permutations")
    if permutations * -(-units // 8) <= _CODES_CACHED:
        return _cached_sign_codes(units, permutations, seed)
    return _draw_sign_codes(units, permutations, seed)


def _draw_sign_codes(units: int, permutations: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.empty((permutations, -(-units // 8)), dtype=np.uint8)
    for lo in range(0, permutations, _BATCH):
        m = min(_BATCH, permutations - lo)
        out[lo : lo + m] = np.packbits(
            rng.integers(0, 2, size=(m, units), dtype=np.int8).astype(np.bool_), axis=1
        )
    out.flags.writeable = False
    return out


_cached_sign_codes = lru_cache(maxsize=4)(_draw_sign_codes)


def _pattern_sums(t: np.ndarray) -> np.ndarray:
    """Signed sums of ``t``'s rows, one table per group of eight rows (units).

    ``out[b, c]`` is ``sum_j s_j t[8 b + j]`` with ``s_j = +1`` where bit ``7 - j`` of byte
    ``c`` is set and ``-1`` where not (the byte layout of :func:`sign_codes`); rows past the
    end count as zeros. Shape ``(ceil(units / 8), 256, columns)``. A permutation's signed sum
    is then the sum of one entry per table, looked up by its bytes.
    """
    units, cols = t.shape
    blocks = -(-units // 8)
    rows = np.zeros((blocks * 8, cols), dtype=np.float64)
    rows[:units] = t
    rows = rows.reshape(blocks, 8, cols)
    out = np.zeros((blocks, 1, cols), dtype=np.float64)
    for j in range(7, -1, -1):  # the last row doubled in is the high bit
        row = rows[:, j : j + 1, :]
        out = np.concatenate([out - row, out + row], axis=1)
    return out


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values, in the input order.

    Sorted ascending, ``p_(i)`` becomes ``max_{j <= i} min(1, (m - j + 1) p_(j))`` (Holm 1979);
    rejecting where the adjusted value is below ``alpha`` controls the family-wise error rate.

    Args:
        p_values: Unadjusted p-values.

    Returns:
        Adjusted p-values, aligned with the input.

    Raises:
        ParameterError: A p-value outside [0, 1].
    """
    values = list(p_values)
    return [p for p, _ in _holm(values, [False] * len(values))]


def holm_bounds(p_values: Sequence[float], bounds: Sequence[bool]) -> list[bool]:
    """Which Holm-adjusted p-values are only upper bounds.

    An adjusted value is an upper bound when the term ``(m - j + 1) p_(j)`` that attains the
    running maximum comes from a p-value that is itself an upper bound (a permutation p-value at
    its floor): a finer test could only lower it.

    Args:
        p_values: Unadjusted p-values.
        bounds: Per p-value, whether it is an upper bound.

    Returns:
        Per adjusted p-value (input order), whether it is an upper bound.

    Raises:
        ParameterError: A p-value outside [0, 1] or lengths that differ.
    """
    return [b for _, b in _holm(p_values, bounds)]


def _holm(p_values: Sequence[float], bounds: Sequence[bool]) -> list[tuple[float, bool]]:
    p = np.asarray(list(p_values), dtype=np.float64)
    if len(bounds) != p.size:
        raise ParameterError("bounds_per_p", bounds=len(bounds), pvalues=p.size)
    bad = p[(p < 0) | (p > 1) | np.isnan(p)]
    if bad.size:
        raise ParameterError("p_value_range", value=float(bad[0]), count=int(bad.size))
    m = p.size
    order = np.argsort(p, kind="stable")
    out: list[tuple[float, bool]] = [(0.0, False)] * m
    running, running_bound = 0.0, False
    for i, j in enumerate(order):
        term = min(1.0, (m - i) * p[j])
        if term > running:
            running, running_bound = term, bool(bounds[j])
        elif term == running:
            # NOTE: an exact term attaining the same maximum makes the adjusted value exact.
            running_bound = running_bound and bool(bounds[j])
        out[j] = (running, running_bound)
    return out


def format_p(p: float, *, bound: bool = False) -> str:
    """The one way a p-value is printed: ``p = 0.034``, ``p ≤ 0.0056``, ``p < 0.0001``.

    ``bound`` marks a value that is only an upper bound (a permutation p-value at its floor
    ``1 / (1 + permutations)``, or a Holm value computed from one); it is rounded *up* to three
    significant digits so the printed bound stays a bound.

    Args:
        p: The p-value.
        bound: Whether ``p`` is an upper bound.

    Returns:
        The text, with ``=``, ``≤`` or ``<``.
    """
    if bound:
        if p >= 1.0:
            return "p ≤ 1"
        exp = math.floor(math.log10(p)) - 2
        up = math.ceil(round(p / 10.0**exp, 9)) * 10.0**exp
        return f"p ≤ {up:.3g}"
    if p < 1e-4:
        return "p < 0.0001"
    return f"p = {p:.3g}"


# ---------------------------------------------------------------------------- equivalence


@dataclass(frozen=True, slots=True)
class Equivalence:
    """The two one-sided tests of ``|mean(a - b)| < delta``.

    Attributes:
        delta: The margin, in the metric's units.
        diff: mean(a - b).
        se: Its standard error (cluster-robust at document level).
        df: Degrees of freedom of the t reference (units - 1).
        p_lower: p of H0 ``diff <= -delta``.
        p_upper: p of H0 ``diff >= +delta``.
        p_value: ``max(p_lower, p_upper)``, the TOST p-value.
        ci_low: Lower bound of the ``1 - 2 alpha`` interval of ``diff``.
        ci_high: Upper bound.
    """

    delta: float
    diff: float
    se: float
    df: int
    p_lower: float
    p_upper: float
    p_value: float
    ci_low: float
    ci_high: float


def tost_paired(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    delta: float,
    *,
    alpha: float = 0.05,
    clusters: Clusters | None = None,
) -> Equivalence:
    """Paired two one-sided tests (TOST) of equivalence within ``+-delta``.

    With ``d_i = a_i - b_i``, ``D_g`` its total over unit ``g`` (``n_g`` questions, ``G`` units,
    ``n`` questions) and ``dbar = sum D_g / n``:

    - ``se^2 = G / (G - 1) * sum_g (D_g - n_g dbar)^2 / n^2`` (the cluster-robust variance of a
      mean, Liang & Zeger 1986; Cameron & Miller 2015 eq. 11). With one question per unit it is
      ``s_d^2 / n``, the paired t-test's, so the result equals statsmodels' ``ttost_paired``.
    - ``t_L = (dbar + delta) / se``, ``p_L = 1 - F_{G-1}(t_L)`` tests H0 ``diff <= -delta``;
      ``t_U = (dbar - delta) / se``, ``p_U = F_{G-1}(t_U)`` tests H0 ``diff >= delta``
      (Schuirmann 1987); ``p = max(p_L, p_U)``.
    - Rejecting both at ``alpha`` is the same as the ``1 - 2 alpha`` interval
      ``dbar +- t_{1-alpha, G-1} se`` lying inside ``(-delta, delta)`` (Berger & Hsu 1996).

    A t reference rather than sign flips: a permutation test of ``diff = +-delta`` would need the
    shifted differences to be symmetric about zero, which per-question differences of a binary
    metric (values -1, 0, 1) are not; the mean of many units is close to normal.

    Args:
        a: Per-question values of the first configuration.
        b: Per-question values of the second, on the same questions.
        delta: The margin (> 0), in the metric's units.
        alpha: Level of each one-sided test (the interval has coverage ``1 - 2 alpha``).
        clusters: The units (default: each question).

    Returns:
        The test; with zero variance, p is 0 when ``|dbar| < delta`` and 1 otherwise.

    Raises:
        ParameterError: A non-positive delta, a bad alpha, different lengths or fewer than two
            units.
    """
    # scipy.special alone (scipy.stats's t distribution calls these same functions): importing
    # scipy.stats took 0.9 s of a 2.9 s benchmark run.
    from scipy.special import stdtr, stdtrit

    if not delta > 0:
        raise ParameterError("positive", name="delta", value=delta)
    _check_alpha(alpha)
    x, y = _values(a, "a"), _values(b, "b")
    if x.shape != y.shape:
        raise ParameterError("same_questions", a=x.size, b=y.size)
    d = x - y
    units = _clusters_for(d.size, clusters)
    g = units.count
    if g < 2:
        raise ParameterError(
            "equivalence_questions" if units.unit == "question" else "equivalence_documents",
            count=g,
        )
    n = d.size
    dbar = float(d.mean())
    resid = units.sums(d) - units.sizes * dbar
    se = math.sqrt(g / (g - 1) * float(resid @ resid)) / n
    df = g - 1
    if se == 0.0:
        inside = -delta < dbar < delta
        p_l = 0.0 if dbar > -delta else 1.0
        p_u = 0.0 if dbar < delta else 1.0
        p = 0.0 if inside else 1.0
        return Equivalence(delta, dbar, 0.0, df, p_l, p_u, p, dbar, dbar)
    p_l = float(stdtr(df, -((dbar + delta) / se)))  # t.sf
    p_u = float(stdtr(df, (dbar - delta) / se))  # t.cdf
    half = float(stdtrit(df, 1.0 - alpha)) * se  # t.ppf
    return Equivalence(delta, dbar, se, df, p_l, p_u, max(p_l, p_u), dbar - half, dbar + half)


# ---------------------------------------------------------------------------- pairs


def pairwise_tests(
    per_question: Mapping[str, Sequence[float] | np.ndarray],
    *,
    metric: str,
    alpha: float = 0.05,
    resamples: int = 2000,
    permutations: int = 5000,
    seed: int = 0,
    indices: np.ndarray | None = None,
    clusters: Clusters | None = None,
    resampling: Resampling | None = None,
    margin: float | None = None,
    equivalence: bool = True,
) -> list[PairwiseResult]:
    """Paired difference and equivalence tests of every pair on one metric, Holm-corrected.

    For each pair: the bootstrap interval of the difference, the sign-flip p-value, the TOST
    p-value against ``+-margin`` and the win counts. Holm runs over the pairs of this metric,
    once for the difference tests and once for the equivalence tests.

    Args:
        per_question: Configuration label -> per-question values (same questions, same order).
        metric: Metric key recorded in each result.
        alpha: Family-wise error rate (of each family).
        resamples: Bootstrap resamples for the interval of each difference.
        permutations: Sign flips per permutation test.
        seed: Seed for both (each pair uses the same streams, so the table is reproducible).
        indices: Precomputed question-level ``bootstrap_indices`` (legacy; prefer
            ``resampling``).
        clusters: The units (default: the units of ``resampling``, else each question).
        resampling: A precomputed :class:`Resampling` shared with the per-configuration
            intervals.
        margin: The equivalence margin delta (default: ``default_margin(metric)``).
        equivalence: Whether to run the equivalence tests.

    Returns:
        One result per unordered pair, in the order of ``itertools.combinations`` of the labels.

    Raises:
        ParameterError: Configurations with different numbers of questions, a bad alpha, units
            that differ between ``clusters`` and ``resampling``, or a non-positive margin.
    """
    _check_alpha(alpha)
    labels = list(per_question)
    arrays = {k: _values(v, k) for k, v in per_question.items()}
    sizes = {a.size for a in arrays.values()}
    if len(sizes) > 1:
        raise ParameterError("same_question_counts", sizes=sorted(sizes))
    n = sizes.pop() if sizes else 0
    if resampling is not None:
        if clusters is not None and clusters is not resampling.clusters:
            raise ParameterError("clusters_and_resampling")
        units = resampling.clusters
    else:
        units = _clusters_for(n, clusters)
        resampling = (
            Resampling.draw(units, resamples, seed)
            if indices is None
            else Resampling.from_indices(units, indices, seed)
        )
    if units.n != n:
        raise ParameterError("resampling_covers", questions=units.n, values=n)
    delta = (margin if margin is not None else default_margin(metric)) if equivalence else None
    floor = permutation_floor(permutations)
    pairs = list(combinations(labels, 2))
    # One sign matrix for every pair (the draws each pair's own test would make with ``seed``).
    totals = np.zeros((units.count, len(pairs)), dtype=np.float64)
    for j, (a, b) in enumerate(pairs):
        totals[:, j] = units.sums(arrays[a] - arrays[b])
    p_flip = sign_flip_p_values(totals, permutations=permutations, seed=seed)
    raw = []
    for (a, b), p in zip(pairs, p_flip.tolist(), strict=True):
        d = arrays[a] - arrays[b]
        est = bootstrap_ci(d, resampling=resampling)
        eq = (
            tost_paired(arrays[a], arrays[b], delta, alpha=alpha, clusters=units)
            if delta is not None and n
            else None
        )
        raw.append((a, b, est, p, eq, int(np.count_nonzero(d > 0)), int(np.count_nonzero(d < 0))))
    p_raw = [r[3] for r in raw]
    at_floor = [p <= floor * (1 + 1e-9) for p in p_raw]
    adjusted = _holm(p_raw, at_floor)
    eq_adjusted = holm([r[4].p_value if r[4] is not None else 1.0 for r in raw])
    out = []
    for (a, b, est, p, eq, wa, wb), (ph, ph_bound), peh, bound in zip(
        raw, adjusted, eq_adjusted, at_floor, strict=True
    ):
        fields = equivalence_fields(arrays[a], arrays[b], eq, peh, alpha)
        out.append(
            PairwiseResult(
                metric=metric,
                a=a,
                b=b,
                diff=est.mean,
                ci_low=est.ci_low,
                ci_high=est.ci_high,
                p_value=p,
                p_holm=ph,
                significant=bool(ph < alpha),
                unit=units.unit,
                p_bound=bound,
                p_holm_bound=ph_bound,
                delta=delta,
                p_equiv=eq.p_value if eq is not None else None,
                p_equiv_holm=peh if eq is not None else None,
                eq_ci=(eq.ci_low, eq.ci_high) if eq is not None else None,
                wins=(wa, wb),
                **fields,
            )
        )
    return out


def equivalence_fields(
    a: np.ndarray, b: np.ndarray, eq: Equivalence | None, p_equiv_holm: float, alpha: float
) -> dict[str, Any]:
    """A pair's ``se``, ``detectable``, ``saturated`` and ``equivalent``, by the decision rule.

    ``eq`` is the pair's TOST (None when none was made: then only saturation is known).
    """
    if eq is None:
        return {
            "se": None,
            "detectable": None,
            "equivalent": False,
            "saturated": is_saturated(a, b, math.nan, alpha),
        }
    saturated = is_saturated(a, b, eq.se, alpha)
    detectable = detectable_margin(eq.se, eq.df, alpha)
    return {
        "se": eq.se,
        "detectable": detectable,
        "saturated": saturated,
        "equivalent": is_equivalent(
            p_equiv_holm=p_equiv_holm,
            eq_ci_low=eq.ci_low,
            eq_ci_high=eq.ci_high,
            delta=eq.delta,
            detectable=detectable,
            saturated=saturated,
            alpha=alpha,
        ),
    }


# ---------------------------------------------------------------------------- replication


@dataclass(frozen=True, slots=True)
class Replication:
    """One pair's conclusion on two question sets (same grid, same backend).

    Attributes:
        metric: Metric key.
        a: First configuration (the orientation of the first run).
        b: Second configuration.
        first: Outcome on the first question set.
        second: Outcome on the second, oriented as ``a`` vs ``b``.
    """

    metric: str
    a: str
    b: str
    first: Outcome
    second: Outcome

    @property
    def status(self) -> ReplicationStatus:
        """How the two outcomes relate.

        ``holds`` (the same conclusion on both), ``one_only`` (a conclusion on one set, none on
        the other), ``contradicts`` (different conclusions) or ``neither`` (inconclusive twice).
        """
        if self.first == self.second:
            return "neither" if self.first == "inconclusive" else "holds"
        if "inconclusive" in (self.first, self.second):
            return "one_only"
        return "contradicts"


def replicate(
    first: Sequence[PairwiseResult], second: Sequence[PairwiseResult]
) -> list[Replication]:
    """Which conclusions of ``first`` hold on ``second`` (the same pairs on another question set).

    Args:
        first: The pairwise results of one run.
        second: Those of a run with the same configurations on other questions.

    Returns:
        One entry per pair of ``first``, in its order.

    Raises:
        ParameterError: The runs do not hold the same pairs and metrics.
    """
    other = {(r.metric, r.a, r.b): r for r in second}
    other.update({(r.metric, r.b, r.a): r.flipped() for r in second})
    keys = {(r.metric, frozenset((r.a, r.b))) for r in first}
    if keys != {(r.metric, frozenset((r.a, r.b))) for r in second} or len(keys) != len(first):
        raise ParameterError("runs_same_grid")
    return [
        Replication(r.metric, r.a, r.b, r.outcome, other[(r.metric, r.a, r.b)].outcome)
        for r in first
    ]


def spearman_rho(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rank correlation of two paired sequences (ties get their average rank).

    rho is Pearson's correlation of the two rank vectors (Spearman 1904; ``scipy.stats.spearmanr``
    computes the same). Used to ask whether two measurements rank configurations alike.

    Returns:
        rho in [-1, 1], or NaN when either sequence is constant (no ranking to compare).

    Raises:
        ParameterError: Sequences of different lengths or with fewer than two items.
    """
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1 or len(x) < 2:
        raise ParameterError("spearman_lengths", x=len(x), y=len(y))
    if np.all(x == x[0]) or np.all(y == y[0]):
        return float("nan")

    def ranks(v: np.ndarray) -> np.ndarray:
        order = np.argsort(v, kind="stable")
        r = np.empty(len(v), dtype=np.float64)
        r[order] = np.arange(1, len(v) + 1)
        for value in np.unique(v):  # average rank for ties
            tied = v == value
            r[tied] = r[tied].mean()
        return r

    rx, ry = ranks(x), ranks(y)
    rx -= rx.mean()
    ry -= ry.mean()
    return float((rx @ ry) / np.sqrt((rx @ rx) * (ry @ ry)))
