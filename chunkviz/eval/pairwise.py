"""One paired comparison, as the statistics compute it and as the results file holds it.

``PairwiseResult`` is a msgspec struct and the one record of a pairwise row: the statistics
build it (``chunkviz.eval.stats.pairwise_tests``), ``msgspec.json.encode`` writes it into the
results file (``docs/results-schema.md``, ``pairwise[]``) and decoding reads it back as it is,
bounds checked. Its ``outcome`` and ``verdict`` are the decision rule's
(``chunkviz.eval.decision.outcome``), set whenever a row is made, read or changed with
``msgspec.structs.replace``: a file's own is never read back.

The bounds named here are shared with the rest of the file (``chunkviz.eval.results_schema``).
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from chunkviz.eval.decision import Outcome, outcome

Unit = Literal["document", "question"]
UNITS: tuple[Unit, ...] = ("document", "question")

NO_DIFFERENCE = "no detectable difference"
SATURATED = "saturated: these questions cannot separate them"

# The bounds, named once (the results file's, ``chunkviz.eval.results_schema``).
Count = Annotated[int, Meta(ge=0)]
NonNegative = Annotated[float, Meta(ge=0)]
Probability = Annotated[float, Meta(ge=0, le=1)]
Difference = Annotated[float, Meta(ge=-1, le=1)]
Name = Annotated[str, Meta(min_length=1)]


class PairwiseResult(msgspec.Struct, frozen=True, kw_only=True):
    """The paired comparison of configurations ``a`` and ``b`` on one metric (``pairwise[]``).

    A row of a file written before the inference fields existed holds only the first nine;
    the others read as their defaults (question unit, no equivalence test, no win counts).

    Attributes:
        metric: Metric key (``ndcg@10``).
        a: Label of the first configuration.
        b: Label of the second configuration.
        diff: mean(a) - mean(b) over the same questions.
        ci_low: Lower bound of the paired bootstrap interval of ``diff`` (95%).
        ci_high: Upper bound.
        p_value: Two-sided paired permutation p-value.
        p_holm: Holm-adjusted p-value over all pairs of this metric.
        significant: ``p_holm < alpha``.
        unit: The unit of resampling (``document`` or ``question``).
        p_bound: ``p_value`` is at the permutation floor (only an upper bound).
        p_holm_bound: ``p_holm`` is only an upper bound (see ``stats.holm_bounds``).
        delta: The equivalence margin; ``None`` when no equivalence test was made.
        p_equiv: TOST p-value (``stats.tost_paired``); None without a test.
        p_equiv_holm: Holm-adjusted over all pairs of this metric; None without a test.
        equivalent: ``decision.is_equivalent``.
        eq_ci: The ``1 - 2 alpha`` interval of ``diff`` of the TOST; None without a test.
        wins: Questions on which ``a`` and ``b`` score higher (for a binary metric: the
            discordant counts); None when not counted.
        se: Standard error of ``diff`` (the TOST's, cluster-robust); None when not recorded.
        detectable: The detectable margin ``t_{1-alpha} se`` (``decision.detectable_margin``);
            None when not recorded (files of schema version 2).
        saturated: The questions cannot separate the two (``decision.is_saturated``).
        outcome: The decision rule's outcome (set from the fields above, never given).
        verdict: The outcome as an English sentence for a reader of the file (likewise).
    """

    metric: Name
    a: str
    b: str
    diff: Difference
    ci_low: Difference
    ci_high: Difference
    p_value: Probability
    p_holm: Probability
    significant: bool
    unit: Unit = "question"
    p_bound: bool = False
    p_holm_bound: bool = False
    delta: Annotated[float, Meta(gt=0)] | None = None
    p_equiv: Probability | None = None
    p_equiv_holm: Probability | None = None
    equivalent: bool = False
    eq_ci: tuple[float, float] | None = None
    wins: tuple[Count, Count] | None = None
    se: NonNegative | None = None
    detectable: NonNegative | None = None
    saturated: bool = False
    outcome: Outcome = "inconclusive"
    verdict: str = ""

    def __post_init__(self) -> None:
        """The outcome and verdict by the rule, whatever was given or read."""
        rule = outcome(
            significant=self.significant,
            diff=self.diff,
            equivalent=self.equivalent,
            saturated=self.saturated,
        )
        msgspec.structs.force_setattr(self, "outcome", rule)
        msgspec.structs.force_setattr(self, "verdict", self._verdict(rule))

    def _verdict(self, rule: Outcome) -> str:
        """``"<a> better"``, ``"<b> better"``, ``"equivalent within ±δ"``, saturated or none."""
        if rule == "a_better":
            return f"{self.a} better"
        if rule == "b_better":
            return f"{self.b} better"
        if rule == "equivalent":
            return f"equivalent within ±{self.delta:g}"
        if rule == "saturated":
            return SATURATED
        return NO_DIFFERENCE

    @property
    def eq_ci_low(self) -> float:
        """Lower bound of the TOST interval (NaN without a test)."""
        return math.nan if self.eq_ci is None else self.eq_ci[0]

    @property
    def eq_ci_high(self) -> float:
        """Upper bound of the TOST interval (NaN without a test)."""
        return math.nan if self.eq_ci is None else self.eq_ci[1]

    @property
    def a_wins(self) -> int | None:
        """Questions on which ``a`` scores higher (None: not counted)."""
        return None if self.wins is None else self.wins[0]

    @property
    def b_wins(self) -> int | None:
        """Questions on which ``b`` scores higher (None: not counted)."""
        return None if self.wins is None else self.wins[1]

    def flipped(self) -> PairwiseResult:
        """The same test oriented as ``b - a``."""
        return msgspec.structs.replace(
            self,
            a=self.b,
            b=self.a,
            diff=-self.diff,
            ci_low=-self.ci_high,
            ci_high=-self.ci_low,
            eq_ci=None if self.eq_ci is None else (-self.eq_ci[1], -self.eq_ci[0]),
            wins=None if self.wins is None else (self.wins[1], self.wins[0]),
        )
