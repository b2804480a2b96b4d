"""Tune's results in words: the CLI's report and the lines the page shows beside them.

``chunkviz.eval.tune`` computes (the run, the points, the decision at the context budget, its
second view at equal k and the pick's stability); this module only says it, through the text
catalogues (``chunkviz.text``): the page in its language, the CLI (``python -m chunkviz tune``,
``format_tune``) in English, so both state the same recommendation for the same inputs.
Synthetic questions are labelled as such everywhere, with their form and seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from chunkviz.eval.lost import LostRow
from chunkviz.eval.prior import CORPUS_NAMES, PRIOR_BACKEND, holdout_figure, shipped_prior
from chunkviz.eval.probes import VALIDATION_NOTE as PROBE_VALIDATION
from chunkviz.eval.probes import lost_sentence
from chunkviz.eval.results import QuestionsSource
from chunkviz.eval.stability import STABLE_SHARE
from chunkviz.eval.tune import METRIC, TOP_K, TuneResult, pareto_front, questions_source
from chunkviz.text import Lang, text
from chunkviz.views.verdict import (
    choice_sentence,
    detectable_text,
    driver_line,
    ineligible_line,
    margin_note,
    metric_name,
    outcome_word,
    pick_line,
    saturation_banner,
)


def reason_text(lang: Lang, result: TuneResult) -> str:
    """The recommendation's reason in ``lang`` (``chunkviz.views.verdict.choice_sentence``)."""
    results = result.results
    return choice_sentence(
        lang,
        result.recommendation,
        budget_chars=result.budget,
        questions=len(results.question_ids),
        unit=results.stats.unit,
        units=results.stats.units or len(results.question_ids),
    ).strip()


def headline_lines(lang: Lang, result: TuneResult) -> list[str]:
    """What is said before any number: the pick, saturation, ineligibility, the margin's reach.

    The CLI's first lines; the pages draw the same values (``chunkviz.ui.verdict_view``).
    """
    rec = result.recommendation
    units = result.results.stats.units or len(result.results.question_ids)
    lines = [pick_line(lang, rec, result.budget)]
    for line in (
        saturation_banner(lang, rec, len(result.results.question_ids)),
        ineligible_line(lang, rec, result.budget),
        margin_note(lang, rec, units, result.results.stats.unit),
    ):
        if line:
            lines.append(line)
    return lines


def evidence_lines(lang: Lang, result: TuneResult) -> list[str]:
    """What drove the pick, the prior's backend and the held-out figure."""
    rec = result.recommendation
    prior = shipped_prior()
    lines = []
    driver = driver_line(lang, rec, result.budget, prior.documents if prior else 0)
    lines.append(driver if driver else text(lang, "decision.no_prior"))
    if prior is not None and result.results.backend.name != PRIOR_BACKEND:
        lines.append(text(lang, "decision.prior_backend", backend=result.results.backend.name))
    lines.append(holdout_text(lang, result))
    return lines


def holdout_text(lang: Lang, result: TuneResult) -> str:
    """The held-out figure of the decision at this budget for documents of this size."""
    fig = holdout_figure(result.budget, len(result.document.text))
    if fig is None:
        return text(lang, "decision.holdout_none")
    return text(
        lang,
        "decision.holdout",
        documents=fig.documents,
        corpora=" + ".join(CORPUS_NAMES.get(c, c) for c in fig.corpora),
        size=text(lang, f"decision.size_{fig.size}"),
        zero=fig.zero,
        prior=fig.prior,
        fixed=fig.fixed,
        name=metric_name(result.recommendation.metric),
        budget=fig.budget,
    )


def questions_line(lang: Lang, result: TuneResult) -> str | None:
    """How many synthetic questions were made, and why fewer than asked (None: none asked)."""
    if not result.asked:
        return None
    key = "decision.asked" if result.made < result.asked else "decision.asked_all"
    return text(lang, key, asked=result.asked, made=result.made)


def validation_text(lang: Lang, source: QuestionsSource, backend: str) -> str:
    """How far the kind of questions used can be trusted, in ``lang``.

    The user's own pairs are counted; synthetic questions point to the held-out check of the
    decision they feed (``bench/verdict_holdout.py``), not to a correlation measured on the
    split they were shaped on.
    """
    if not source.is_synthetic:
        return text(lang, "tune.validation_own", n=source.own)
    return text(lang, "tune.validation_holdout", form=source.form, backend=backend)


def provenance_lines(lang: Lang, source: QuestionsSource | None, backend: str) -> list[str]:
    """What is shown beside every figure of a run, in ``lang`` (none for a dataset's questions).

    Synthetic questions are labelled as such, with their seed, the caveat that cloze and
    keyword-style questions favour lexical retrieval, and the form's JSQuAD validation.
    """
    if source is None:
        return []
    check = validation_text(lang, source, backend)
    if not source.is_synthetic:
        return [check]
    if source.own:
        label = text(
            lang,
            "provenance.both",
            n=source.own + source.synthetic,
            own=source.own,
            synthetic=source.synthetic,
            form=source.form,
            seed=source.seed,
        )
    else:
        label = text(
            lang, "provenance.synthetic", n=source.synthetic, form=source.form, seed=source.seed
        )
    return [label, text(lang, "tune.lexical"), check]


def format_probe_lost(total: int, rows: Sequence[LostRow]) -> str:
    """``probe_lost`` as plain text: one sentence per configuration and the validation note."""
    if not total:
        return "no key phrases found in the document: nothing to count"
    lines = [f"{lost_sentence(r.config, r.broken, total)}" for r in rows]
    lines += [
        f"# {PROBE_VALIDATION}",
        "# retrieval was not measured (no questions); add --qa or --synthetic N",
    ]
    return "\n".join(lines)


def format_tune(result: TuneResult) -> str:
    """The recommendation first, then the table, both Pareto fronts and the evidence, as text.

    Each configuration's row says how it compares with the best at the budget (``worse``,
    ``inconclusive``, ``saturated``...), with the interval of the difference and its detectable
    margin, and whether it can be retrieved at the budget at all.
    """
    source = result.source
    rec = result.recommendation
    versus = {v.label: v for v in rec.versus}
    lines = [*headline_lines("en", result)]
    if source.get("synthetic"):
        lines += [f"# {source['note']}", f"# {source['caveat']}"]
        asked = questions_line("en", result)
        if asked:
            lines.append(f"# {asked}")
    budget = f"@{result.budget:,}ch"
    header = (
        "config",
        f"recall{budget}",
        "95% CI",
        "vs best",
        "difference CI",
        "detectable",
        f"k{budget}",
        METRIC,
        "chunks",
        f"ctx chars@{TOP_K}",
        "index bytes",
        "probes cut",
        "front",
    )
    body = []
    for p in result.points:
        v = versus.get(p.label)
        o = rec.option(p.label)
        body.append(
            (
                p.label,
                f"{o.mean:.3f}",
                f"{o.ci_low:.3f}-{o.ci_high:.3f}",
                "not retrieval"
                if not o.eligible
                else outcome_word("en", "best" if v is None else v.outcome),
                "-" if v is None else f"{v.ci_low:+.3f} to {v.ci_high:+.3f}",
                "-" if v is None else detectable_text(v.detectable),
                f"{o.cost.k:.1f}",
                f"{p.quality:.3f}",
                str(p.chunks),
                f"{p.context_chars:,.0f}",
                f"{p.index_bytes:,}",
                f"{p.probes_cut}/{result.probes}",
                ",".join("size" if c == "index_bytes" else "context" for c in p.front) or "-",
            )
        )
    widths = [max(len(r[i]) for r in (header, *body)) for i in range(len(header))]
    for row in (header, *body):
        lines.append(
            "  ".join(
                [row[0].ljust(widths[0])]
                + [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
            )
        )
    questions = len(result.results.question_ids)
    for p in result.points:
        if p.whole_index_retrieved:
            # NOTE: every chunk is in the top k, so only answers cut by a chunk boundary miss:
            # the figure measures cutting, not retrieval (it is 1 only when nothing is cut).
            lines.append(
                f"# {p.label}: at most {TOP_K} chunks, so every chunk is retrieved; "
                f"its {METRIC} ({p.quality:.3f}) only counts answers no chunk holds "
                f"whole ({p.broken} of {questions} questions lost), not retrieval"
            )
    for cost, name in (("index_bytes", "index size"), ("context_chars", "context characters")):
        front = pareto_front(result.points, cost)  # type: ignore[arg-type]
        lines.append(f"Pareto front ({METRIC} vs {name}): {' < '.join(front)}")
    lines += [
        f"Recommended at {result.budget:,} characters: {result.pick}",
        f"Why: {reason_text('en', result)}",
        *evidence_lines("en", result),
        *decision_lines("en", result),
        validation_text("en", questions_source(source), result.results.backend.name),
    ]
    cut = {row.config: row.broken for row in result.lost}
    if result.pick in cut:
        sentence = lost_sentence(result.pick, cut[result.pick], result.probes)
        lines.append(f"Lost before retrieval: {sentence} ({PROBE_VALIDATION})")
    return "\n".join(lines)


def decision_lines(lang: Lang, result: TuneResult) -> list[str]:
    """How far the pick can be trusted, and the second view at equal k.

    The pick's stability over resamples of the questions (an unstable pick is said to be so);
    then what the same rule would name at equal k, which never decides.
    """
    lines = []
    stab = result.stability
    if stab is not None:
        key = "tune.fallback.stable" if stab.stable else "tune.fallback.unstable"
        lines.append(
            text(
                lang,
                key,
                pick=stab.pick,
                share=f"{stab.share:.0%}",
                resamples=stab.resamples,
                seed=stab.seed,
                threshold=f"{STABLE_SHARE:.0%}",
            )
        )
    at_k = result.at_k
    if at_k is not None:
        best = at_k.option(at_k.best)
        lines.append(
            text(
                lang,
                "decision.at_k_line",
                k=TOP_K,
                best=best.label,
                name=metric_name(at_k.metric),
                mean=best.mean,
            )
        )
    return lines
