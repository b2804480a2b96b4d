"""The verdict in words and as chart data: what ``chunkviz.eval.decision`` decided, said.

Nothing here decides: ``choice_sentence`` reads a ``decision.Choice`` (from
``chunkviz.eval.verdict.choose``) and says it through the catalogues (``chunkviz.text``), in the
page's language or, for the CLI, in English; ``chart_points`` lays the same comparisons out for
the first screen's picture (difference from the best against the context sent), so the picture
and the sentence under it say the same thing.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from chunkviz.eval.decision import Choice, Cost, Outcome, units_needed
from chunkviz.eval.measures import display_name, parse_key
from chunkviz.eval.results import Results
from chunkviz.eval.verdict import choose
from chunkviz.text import Lang, text

#: Outcome of a comparison with the best -> the colour the chart draws it in.
OUTCOME_COLOURS: dict[str, str] = {
    "best": "#1f77b4",
    "a_better": "#1f77b4",
    "b_better": "#d62728",
    "equivalent": "#2ca02c",
    "inconclusive": "#7f7f7f",
    "saturated": "#ff7f0e",
}


def metric_name(metric: str) -> str:
    """``recall@5`` -> ``Recall@5``; ``recall@budget`` -> ``Recall@budget``."""
    return display_name(metric)


def outcome_word(lang: Lang, outcome: Outcome | str) -> str:
    """One outcome in a word (``worse``, ``saturated``...)."""
    return text(lang, f"verdict.outcome_{outcome}")


def context_text(lang: Lang, cost: Cost) -> str:
    """``3,664 characters (about 1,020 tokens)``."""
    if cost.tokens is None:
        return text(lang, "verdict.context", chars=cost.chars)
    return text(lang, "verdict.context_tokens", chars=cost.chars, tokens=cost.tokens)


def basis_text(lang: Lang, choice: Choice, budget_chars: int) -> str:
    """``Equal k: 5 chunks each`` or ``Equal context budget: 2,000 characters each``."""
    if choice.basis == "budget":
        return text(lang, "verdict.basis_budget", chars=budget_chars)
    return text(lang, "verdict.basis_equal_k", k=parse_key(choice.metric).cutoff)


def panel_text(lang: Lang, choice: Choice, budget_chars: int) -> str:
    """A chart panel's short title (``budget 2,000 chars``, ``k = 5``): two fit on a phone."""
    if choice.basis == "budget":
        return text(lang, "verdict.panel_budget", chars=budget_chars)
    return text(lang, "verdict.panel_equal_k", k=int(choice.metric.partition("@")[2]))


def median_detectable(choice: Choice) -> float | None:
    """The median detectable margin of the comparisons with the best (None: not recorded)."""
    found = [
        v.detectable for v in choice.versus if v.detectable is not None and v.outcome != "saturated"
    ]
    return float(statistics.median(found)) if found else None


def choice_sentence(
    lang: Lang,
    choice: Choice,
    *,
    budget_chars: int,
    questions: int,
    unit: str,
    units: int,
    alternatives: int = 3,
) -> str:
    """The recommendation of one basis in a few sentences (plain text, unescaped).

    Args:
        lang: The language.
        choice: The decision.
        budget_chars: The budget (for the equal-budget basis's name).
        questions: Questions compared.
        unit: The unit of resampling (``document`` or ``question``).
        units: How many of them.
        alternatives: How many cheaper alternatives to name at most.
    """
    name = metric_name(choice.metric)
    best = choice.option(choice.best)
    out = text(
        lang,
        "verdict.head",
        name=name,
        basis=basis_text(lang, choice, budget_chars),
        best=best.label,
        mean=best.mean,
        context=context_text(lang, best.cost),
    )
    if choice.top and choice.top != choice.best:
        top = choice.option(choice.top)
        out += text(lang, "verdict.top_group", top=top.label, mean=top.mean, best=best.label)
    if choice.saturated:
        return out + text(lang, "verdict.saturated_all", n=questions, best=best.label)
    if choice.rule == "equivalent":
        pick = choice.option(choice.pick)
        vs = next(v for v in choice.versus if v.label == pick.label)
        key = (
            "verdict.pick_equivalent_budget"
            if choice.basis == "budget"
            else "verdict.pick_equivalent"
        )
        out += text(
            lang,
            key,
            pick=pick.label,
            mean=pick.mean,
            best=best.label,
            delta=choice.delta,
            detectable=vs.detectable or 0.0,
            context=context_text(lang, pick.cost),
            saving=vs.saving,
            bytes=f"{pick.cost.index_bytes:,}",
        )
    elif choice.alternatives:
        out += text(lang, "verdict.pick_best", best=best.label, delta=choice.delta)
    else:
        out += text(lang, "verdict.pick_best_cheapest", best=best.label)
    if choice.alternatives:
        key = "verdict.alternative_budget" if choice.basis == "budget" else "verdict.alternative"
        items = text(lang, "verdict.sep").join(
            text(
                lang,
                key,
                label=v.label,
                saving=v.saving,
                context=context_text(lang, choice.option(v.label).cost),
                bytes=f"{choice.option(v.label).cost.index_bytes:,}",
                name=name,
                diff=v.diff,
                low=v.ci_low,
                high=v.ci_high,
                outcome=outcome_word(lang, v.outcome),
            )
            for v in sorted(choice.alternatives, key=lambda v: -v.diff)[:alternatives]
        )
        out += text(lang, "verdict.alternatives", items=items)
    counts = {o: choice.count(o) for o in ("b_better", "equivalent", "inconclusive", "saturated")}
    key = "verdict.counts" if counts["equivalent"] else "verdict.counts_saturated"
    out += text(
        lang,
        key,
        worse=counts["b_better"],
        equivalent=counts["equivalent"],
        inconclusive=counts["inconclusive"],
        saturated=counts["saturated"],
    )
    margin = median_detectable(choice)
    if margin is None:
        if any(v.detectable is None for v in choice.versus):
            out += text(lang, "verdict.unknown_detectable")
        return out
    out += text(lang, "verdict.detectable", margin=margin)
    if margin > choice.delta:
        out += text(
            lang,
            "verdict.needed",
            delta=choice.delta,
            needed=units_needed(units, margin, choice.delta),
            units=units,
            unit=text(lang, f"verdict.unit_{unit}"),
        )
    return out


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """One configuration in the verdict's picture.

    Attributes:
        label: The configuration.
        x: Characters it sends at this basis's k.
        k: Chunks it retrieves.
        diff: Its mean minus the best's (0 for the best).
        low: Lower bound of the 95% interval of ``diff``.
        high: Upper bound.
        outcome: ``best`` or the outcome of its comparison with the best.
        detectable: Its comparison's detectable margin (None: the best, or not recorded).
    """

    label: str
    x: float
    k: float
    diff: float
    low: float
    high: float
    outcome: str
    detectable: float | None


def chart_points(choice: Choice) -> tuple[ChartPoint, ...]:
    """The best and every comparison with it, cheapest first."""
    versus = {v.label: v for v in choice.versus}
    out = []
    for o in choice.options:
        v = versus.get(o.label)
        if v is None:
            out.append(ChartPoint(o.label, o.cost.chars, o.cost.k, 0.0, 0.0, 0.0, "best", None))
        else:
            out.append(
                ChartPoint(
                    o.label,
                    o.cost.chars,
                    o.cost.k,
                    v.diff,
                    v.ci_low,
                    v.ci_high,
                    v.outcome,
                    v.detectable,
                )
            )
    return tuple(out)


def detectable_text(value: float | None) -> str:
    """``±0.023`` or ``—`` when unknown."""
    return "—" if value is None or not math.isfinite(value) else f"±{value:.3f}"


def pick_line(lang: Lang, choice: Choice, budget_chars: int) -> str:
    """The one-line verdict: the pick at the budget and its score there."""
    pick = choice.option(choice.pick)
    name = metric_name(choice.metric)
    if choice.basis == "budget":
        return text(
            lang,
            "decision.pick_line",
            pick=pick.label,
            budget=budget_chars,
            name=name,
            mean=pick.mean,
        )
    return text(
        lang, "decision.pick_line_k", pick=pick.label, k=pick.cost.k, name=name, mean=pick.mean
    )


def saturation_banner(lang: Lang, choice: Choice, questions: int) -> str | None:
    """``These 212 questions cannot separate 13 of 15 configurations from the best`` (or None).

    Said before any number: where the questions cannot separate, the numbers do not rank.
    """
    saturated = choice.count("saturated")
    if not saturated:
        return None
    return text(
        lang,
        "decision.saturated_banner",
        n=questions,
        saturated=saturated,
        total=len(choice.versus),
        best=choice.best,
    )


def ineligible_line(lang: Lang, choice: Choice, budget_chars: int) -> str | None:
    """The configurations that are not retrieval at this budget (None when every one is)."""
    if not choice.ineligible:
        return None
    return text(
        lang,
        "decision.ineligible",
        labels=text(lang, "verdict.sep").join(choice.ineligible),
        budget=budget_chars,
    )


def driver_line(lang: Lang, choice: Choice, budget_chars: int, documents: int) -> str | None:
    """What drove the pick: the prior (the document behaves like the average) or the questions.

    None without a prior. The interval named is the comparison's own 95% interval, unadjusted;
    the outcome beside it is Holm-corrected over every pair (said in the sentence).
    """
    name = metric_name(choice.metric)
    if choice.driver == "none":
        return None
    if choice.driver == "prior":
        return text(
            lang,
            "decision.driver_prior",
            pick=choice.pick,
            name=name,
            budget=budget_chars,
            documents=documents,
        )
    prior_pick = choice.prior_pick
    v = choice.versus_of(prior_pick) if choice.best == choice.pick else None
    if v is not None and v.outcome == "b_better":
        return text(
            lang,
            "decision.driver_worse",
            pick=choice.pick,
            prior=prior_pick,
            name=name,
            diff=v.diff,
            low=v.ci_low,
            high=v.ci_high,
            outcome=outcome_word(lang, v.outcome),
        )
    return text(lang, "decision.driver_questions", pick=choice.pick, prior=prior_pick, name=name)


def margin_note(lang: Lang, choice: Choice, units: int, unit: str) -> str | None:
    """When delta is below what the data can detect: say so beside the pick, with the fix."""
    margin = median_detectable(choice)
    if margin is None or margin <= choice.delta:
        return None
    return text(
        lang,
        "decision.margin_note",
        delta=choice.delta,
        margin=margin,
        needed=units_needed(units, margin, choice.delta),
        unit=text(lang, f"verdict.unit_{unit}"),
    )


@dataclass(frozen=True, slots=True)
class Said:
    """A choice with its sentence."""

    choice: Choice
    sentence: str


def verdicts(
    lang: Lang, results: Results, metric: str, delta: float, budget_chars: int | None = None
) -> tuple[Said, Said]:
    """The equal-k and equal-budget recommendations of a results file with their sentences.

    Raises:
        ParameterError: ``metric`` has no pairwise tests in the file, or a bad budget or delta.
    """
    chars = budget_chars or results.budget.chars
    unit = results.stats.unit
    units = results.stats.units or len(results.question_ids)
    out = []
    for basis in ("equal_k", "budget"):
        choice = choose(results, metric, basis, delta, chars)
        out.append(
            Said(
                choice,
                choice_sentence(
                    lang,
                    choice,
                    budget_chars=chars,
                    questions=len(results.question_ids),
                    unit=unit,
                    units=units,
                ),
            )
        )
    return out[0], out[1]
