"""The Benchmark page's first screen: the verdict's chart, its sentences, both bases.

``render`` lays out what ``chunkviz.views.verdict.verdicts`` computes (through the decision
module) for the run and for the same questions under other backends; the work is cached by the
file's path and mtime and every setting, so a rerun of the page recomputes nothing. The page's
state (metric, margin, budget) stays as values under fixed keys, so a share link can carry them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from chunkviz.eval.decision import Choice
from chunkviz.eval.results import Results
from chunkviz.eval.stats import Estimate
from chunkviz.eval.verdict import document_means
from chunkviz.limits import MAX_BUDGET_CHARS, MIN_BUDGET_CHARS
from chunkviz.text import Lang
from chunkviz.text.messages import backend_text
from chunkviz.ui.guard import guard
from chunkviz.ui.i18n import tr
from chunkviz.ui.verdict_figure import verdict_figure, verdict_heading
from chunkviz.views.markup import escape_markdown
from chunkviz.views.verdict import (
    Said,
    ineligible_line,
    margin_note,
    panel_text,
    pick_line,
    saturation_banner,
    verdicts,
)

#: Session-state keys of the first screen's settings (values, never labels).
BUDGET_KEY = "bench_budget"


@st.cache_data(max_entries=32, show_spinner=False)
def _verdicts(
    path: str, mtime_ns: int, _results: Results, metric: str, delta: float, budget: int, lang: Lang
) -> tuple[Said, Said]:
    del path, mtime_ns  # only cache keys: the file's identity
    return verdicts(lang, _results, metric, delta, budget)


def cached_verdicts(
    path: Path, results: Results, metric: str, delta: float, budget: int, lang: Lang
) -> tuple[Said, Said]:
    """``verdicts`` of the file at ``path``, cached by its path, mtime and every setting."""
    return _verdicts(str(path), path.stat().st_mtime_ns, results, metric, delta, budget, lang)


def default_budget(results: Results) -> int:
    """The budget the page opens at: the file's own, within what the input accepts."""
    return min(max(results.budget.chars, MIN_BUDGET_CHARS), MAX_BUDGET_CHARS)


def budget_input(lang: Lang, key: str = BUDGET_KEY) -> int:
    """The context budget control (characters); its state is seeded (``bench_link``) first."""
    return int(
        st.number_input(
            tr("decision.budget", lang=lang),
            min_value=MIN_BUDGET_CHARS,
            max_value=MAX_BUDGET_CHARS,
            step=250,
            key=key,
            help=tr("decision.budget_help", lang=lang),
        )
    )


def headline(
    at_budget: Choice, budget: int, questions: int, lang: Lang, *, units: int, unit: str
) -> None:
    """The first screen's answer, before any number: the tile(s), the verdict line, banners.

    One tile when the pick is the best; a second one names the best when a cheaper
    configuration shown equivalent to it is recommended.
    """
    tiles = st.columns(2 if at_budget.best != at_budget.pick else 1)
    tiles[0].metric(tr("decision.tile", budget=budget, lang=lang), at_budget.pick)
    if at_budget.best != at_budget.pick:
        tiles[1].metric(tr("decision.tile_best", budget=budget, lang=lang), at_budget.best)
    st.markdown(f"**{escape_markdown(pick_line(lang, at_budget, budget))}**")
    banner = saturation_banner(lang, at_budget, questions)
    if banner:
        st.info(escape_markdown(banner))
    for line in (
        ineligible_line(lang, at_budget, budget),
        margin_note(lang, at_budget, units, unit),
    ):
        if line:
            st.caption(escape_markdown(line))


def render(
    runs: Sequence[tuple[Path, Results]],
    metric: str,
    delta: float,
    budget: int,
    lang: Lang,
    top: DeltaGenerator | None = None,
) -> None:
    """The first run's answer at the budget (in ``top``), its chart beside equal k, sentences.

    ``runs``: the run shown first, then the same questions under other backends.
    """
    for i, (path, results) in enumerate(runs):
        with guard() as attempt:
            at_k, at_budget = cached_verdicts(path, results, metric, delta, budget, lang)
        if attempt.failed:
            continue
        if i == 0:
            with top if top is not None else st.container():
                headline(
                    at_budget.choice,
                    budget,
                    len(results.question_ids),
                    lang,
                    units=results.stats.units or len(results.question_ids),
                    unit=results.stats.unit,
                )
            choices = [at_budget.choice, at_k.choice]
            st.caption(verdict_heading(choices, lang))
            st.plotly_chart(
                verdict_figure(choices, [panel_text(lang, c, budget) for c in choices], lang),
                key="bench_fig_verdict",
            )
        backend = escape_markdown(backend_text(lang, results.backend.name))
        st.markdown(f"**{backend}** — {escape_markdown(at_budget.sentence)}")
        st.markdown(f"**{backend}** — {escape_markdown(at_k.sentence)}")
    first = runs[0][1]
    st.caption(
        tr(
            "verdict.caption",
            tokenizer=escape_markdown(first.budget.tokenizer or "—"),
            unit=tr(f"benchmark.unit_{first.stats.unit}", lang=lang),
            lang=lang,
        )
    )


@st.cache_data(max_entries=32, show_spinner=False)
def _document_means(
    run_id: str, created: str, _results: Results, metric: str
) -> dict[str, Estimate]:
    del run_id, created  # only cache keys
    return document_means(_results, metric)


def weight_rows(results: Results, metric: str, lang: Lang) -> list[dict[str, str]]:
    """Question-weighted and document-weighted means of ``metric`` with their intervals."""
    by_doc = _document_means(results.run_id, results.created, results, metric)

    def cell(e: Estimate) -> str:
        return f"{e.mean:.3f} [{e.ci_low:.3f}, {e.ci_high:.3f}]"

    return [
        {
            tr("verdict.col_config", lang=lang): lab,
            tr("verdict.col_by_question", lang=lang): cell(results.metrics[lab][metric]),
            tr("verdict.col_by_document", lang=lang): cell(by_doc[lab]),
        }
        for lab in results.labels
    ]
