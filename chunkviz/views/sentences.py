"""The Benchmark dashboard's plain-language readings of its tests, in the UI language.

Every sentence comes from the catalogues (``chunkviz.text``); the numbers in it come from the
results file's pairwise rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from chunkviz.eval.decision import Outcome
from chunkviz.eval.measures import metric_label, parse_key
from chunkviz.eval.results import Results
from chunkviz.eval.stats import PairwiseResult, format_p
from chunkviz.text import Lang, text
from chunkviz.text.messages import backend_text
from chunkviz.views.backend_comparison import BackendComparison
from chunkviz.views.significance import comparisons


def _binary(metric: str) -> bool:
    """Whether per-question values of ``metric`` are 0/1 (then wins are discordant counts)."""
    return parse_key(metric).measure.binary


def _p_text(c: PairwiseResult) -> str:
    return format_p(c.p_holm, bound=c.p_holm_bound)


def sentence(comp: PairwiseResult, lang: Lang) -> str:
    """A plain-language reading of one pair, the better configuration named first.

    Four readings (``PairwiseResult.outcome``): one is better (the difference survives Holm's
    correction); equivalent within ``±delta`` (the equivalence test, also Holm-corrected); or
    inconclusive, which is not the same as "equal": the interval of the difference is given so
    the reader sees how large a difference the data cannot rule out. For a binary metric the
    discordant counts (questions each side wins) follow.
    """
    c = comp if comp.diff >= 0 else comp.flipped()
    within = text(lang, "dashboard.margin", delta=c.delta) if c.delta is not None else ""
    fields = {
        "a": c.a,
        "b": c.b,
        "name": metric_label(c.metric),
        "diff": c.diff,
        "p": _p_text(c),
        "ci": text(lang, "dashboard.ci", low=c.ci_low, high=c.ci_high),
        "within": within,
    }
    wins = ""
    if _binary(c.metric) and c.a_wins is not None:
        wins = text(lang, "dashboard.wins", a=c.a, b=c.b, a_wins=c.a_wins, b_wins=c.b_wins)
    if c.outcome == "a_better":
        out = text(lang, "dashboard.pair_better", **fields)
        if c.equivalent:
            out += text(lang, "dashboard.pair_better_within", within=within)
    elif c.outcome == "equivalent":  # an equivalent pair was tested: it has its TOST p-value
        p_equiv = 1.0 if c.p_equiv_holm is None else c.p_equiv_holm
        out = text(lang, "dashboard.pair_equivalent", p_equiv=format_p(p_equiv), **fields)
    elif c.outcome == "saturated":
        out = text(lang, "dashboard.pair_saturated", **fields)
    elif within:
        out = text(lang, "dashboard.pair_inconclusive_within", **fields)
    else:
        out = text(lang, "dashboard.pair_inconclusive", **fields)
    return out + wins


@dataclass(frozen=True, slots=True)
class Words:
    """The "In words" list: conclusions shown, inconclusive pairs folded away.

    Attributes:
        shown: Sentences of the pairs with a conclusion (one better, or equivalent), larger
            differences first.
        folded: Sentences of the inconclusive pairs.
    """

    shown: tuple[str, ...]
    folded: tuple[str, ...]


def sentences(results: Results, metric: str, lang: Lang) -> Words:
    """Sentences for every pair of ``metric``: conclusions first (by size), the rest folded."""
    comps = sorted(comparisons(results, metric), key=lambda c: (not c.significant, -abs(c.diff)))
    shown = [c for c in comps if c.outcome not in ("inconclusive", "saturated")]
    folded = [c for c in comps if c.outcome in ("inconclusive", "saturated")]
    return Words(tuple(sentence(c, lang) for c in shown), tuple(sentence(c, lang) for c in folded))


def outcome_text(outcome: Outcome, a: str, b: str, delta: float | None, lang: Lang) -> str:
    """One outcome in words (``a better``, ``equivalent within ±δ``, ``inconclusive``...)."""
    margin = (
        text(lang, "dashboard.margin", delta=delta)
        if delta is not None
        else text(lang, "dashboard.margin_unknown")
    )
    return text(lang, f"dashboard.outcome_{outcome}", a=a, b=b, margin=margin)


def backend_sentence(cmp: BackendComparison, lang: Lang) -> str:
    """Whether the best configuration changes with the retriever, with how clear each best is."""
    sep = text(lang, "dashboard.alt_sep")

    def clear(ok: bool) -> str:
        return text(lang, "dashboard.backend_clear" if ok else "dashboard.backend_unclear")

    head = text(lang, "dashboard.backend_same" if cmp.same_best else "dashboard.backend_changes")
    return text(
        lang,
        "dashboard.backend",
        name=metric_label(cmp.metric),
        head=head,
        backend_a=backend_text(lang, cmp.backend_a),
        best_a=sep.join(cmp.best_a),
        clear_a=clear(cmp.clear_a),
        backend_b=backend_text(lang, cmp.backend_b),
        best_b=sep.join(cmp.best_b),
        clear_b=clear(cmp.clear_b),
    )
