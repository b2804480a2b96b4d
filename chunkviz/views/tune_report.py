"""Tune's results in words: the CLI's report and the lines the page shows beside them.

``chunkviz.eval.tune`` computes (the run, the points, the decision, its stability and the
label-free fallback); this module only says it, through the text catalogues
(``chunkviz.text``): the page in its language, the CLI (``python -m chunkviz tune``,
``format_tune``) in English, so both state the same recommendation for the same inputs.
Synthetic questions are labelled as such everywhere, with their form and seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from chunkviz.eval.lost import LostRow
from chunkviz.eval.probes import VALIDATION_NOTE as PROBE_VALIDATION
from chunkviz.eval.probes import lost_sentence
from chunkviz.eval.results import QuestionsSource
from chunkviz.eval.stability import STABLE_SHARE
from chunkviz.eval.synthetic import VALIDATION_ARTICLES, VALIDATION_MIN
from chunkviz.eval.tune import METRIC, TOP_K, TuneResult, pareto_front, questions_source
from chunkviz.text import Lang, text
from chunkviz.views.verdict import choice_sentence, detectable_text, outcome_word


def reason_text(lang: Lang, result: TuneResult) -> str:
    """The recommendation's reason in ``lang`` (``chunkviz.views.verdict.choice_sentence``)."""
    results = result.results
    return choice_sentence(lang, result.recommendation, budget_chars=results.budget.chars,
                           questions=len(results.question_ids), unit=results.stats.unit,
                           units=results.stats.units or len(results.question_ids)).strip()


def validation_text(lang: Lang, source: QuestionsSource, backend: str) -> str:
    """How well the kind of questions used ranks configurations (JSQuAD validation), in ``lang``.

    With synthetic questions the figure is the form's; the user's own pairs need none.
    """
    if not source.is_synthetic:
        return text(lang, "tune.validation_own", n=source.own)
    if source.validation_rho is None:
        return text(lang, "tune.validation_none", form=source.form, backend=backend)
    low = VALIDATION_MIN.get(source.form, {}).get(backend)
    return text(lang, "tune.validation", form=source.form, rho=f"{source.validation_rho:.2f}",
                low="–" if low is None else f"{low:.2f}", articles=VALIDATION_ARTICLES,
                backend=backend)


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
        label = text(lang, "provenance.both", n=source.own + source.synthetic, own=source.own,
                     synthetic=source.synthetic, form=source.form, seed=source.seed)
    else:
        label = text(lang, "provenance.synthetic", n=source.synthetic, form=source.form,
                     seed=source.seed)
    return [label, text(lang, "tune.lexical"), check]


def format_probe_lost(total: int, rows: Sequence[LostRow]) -> str:
    """``probe_lost`` as plain text: one sentence per configuration and the validation note."""
    if not total:
        return "no key phrases found in the document: nothing to count"
    lines = [f"{lost_sentence(r.config, r.broken, total)}" for r in rows]
    lines += [f"# {PROBE_VALIDATION}",
              "# retrieval was not measured (no questions); add --qa or --synthetic N"]
    return "\n".join(lines)


def format_tune(result: TuneResult) -> str:
    """The table, both Pareto fronts and the recommendation, as plain text.

    Each configuration's row says how it compares with the best (``worse``, ``inconclusive``,
    ``saturated``...), with the interval of the difference and its detectable margin.
    """
    source = result.source
    rec = result.recommendation
    versus = {v.label: v for v in rec.versus}
    lines = []
    if source.get("synthetic"):
        lines += [f"# {source['note']}", f"# {source['caveat']}", f"# {source['validation']}"]
    header = ("config", METRIC, "95% CI", "vs best", "difference CI", "detectable", "chunks",
              f"ctx chars@{TOP_K}", f"ctx tokens@{TOP_K}", "index bytes", "probes cut", "front")
    body = []
    for p in result.points:
        v = versus.get(p.label)
        body.append((
            p.label, f"{p.quality:.3f}", f"{p.ci_low:.3f}-{p.ci_high:.3f}",
            outcome_word("en", "best" if v is None else v.outcome),
            "-" if v is None else f"{v.ci_low:+.3f} to {v.ci_high:+.3f}",
            "-" if v is None else detectable_text(v.detectable), str(p.chunks),
            f"{p.context_chars:,.0f}", f"{p.context_tokens:,.0f}", f"{p.index_bytes:,}",
            f"{p.probes_cut}/{result.probes}",
            ",".join("size" if c == "index_bytes" else "context" for c in p.front) or "-"))
    widths = [max(len(r[i]) for r in (header, *body)) for i in range(len(header))]
    for row in (header, *body):
        lines.append("  ".join([row[0].ljust(widths[0])]
                               + [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]))
    questions = len(result.results.question_ids)
    for p in result.points:
        if p.whole_index_retrieved:
            # NOTE: every chunk is in the top k, so only answers cut by a chunk boundary miss:
            # the figure measures cutting, not retrieval (it is 1 only when nothing is cut).
            lines.append(f"# {p.label}: at most {TOP_K} chunks, so every chunk is retrieved; "
                         f"its {METRIC} ({p.quality:.3f}) only counts answers no chunk holds "
                         f"whole ({p.broken} of {questions} questions lost), not retrieval")
    for cost, name in (("index_bytes", "index size"), ("context_chars", "context characters")):
        front = pareto_front(result.points, cost)  # type: ignore[arg-type]
        lines.append(f"Pareto front ({METRIC} vs {name}): {' < '.join(front)}")
    # The pick is the fallback's when Tune fell back; the rule's reason stays, with the
    # stability and the fallback's own lines after it.
    lines += [f"Recommended: {result.pick}", f"Why: {reason_text('en', result)}",
              *decision_lines("en", result),
              validation_text("en", questions_source(source), result.results.backend.name)]
    cut = {row.config: row.broken for row in result.lost}
    if result.pick in cut:
        sentence = lost_sentence(result.pick, cut[result.pick], result.probes)
        lines.append(f"Lost before retrieval: {sentence} ({PROBE_VALIDATION})")
    return "\n".join(lines)


def decision_lines(lang: Lang, result: TuneResult) -> list[str]:
    """How far the pick can be trusted and, when Tune fell back, what it did instead.

    The pick's stability over resamples of the questions; then, for a fallback, why (saturated
    or unstable), the label-free ranking it used and the rule's pick it set aside.
    """
    lines = []
    stab = result.stability
    if stab is not None:
        key = "tune.fallback.stable" if stab.stable else "tune.fallback.unstable"
        lines.append(text(lang, key, pick=stab.pick, share=f"{stab.share:.0%}",
                          resamples=stab.resamples, seed=stab.seed,
                          threshold=f"{STABLE_SHARE:.0%}"))
    fb = result.fallback
    if fb is not None:
        if fb.reason == "saturated":
            lines.append(text(lang, "tune.fallback.saturated"))
        lines.append(text(lang, "tune.fallback.ranked", k=TOP_K, budget=f"{fb.budget_chars:,}",
                          ranking=" > ".join(fb.ranking), pick=fb.pick))
        if result.recommendation.pick != fb.pick:
            lines.append(text(lang, "tune.fallback.rule_pick", pick=result.recommendation.pick))
    return lines
