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

from chunkviz.errors import ChunkvizError
from chunkviz.eval.results import Results
from chunkviz.eval.stats import Estimate
from chunkviz.eval.verdict import document_means
from chunkviz.limits import MAX_BUDGET_CHARS, MIN_BUDGET_CHARS
from chunkviz.text import Lang
from chunkviz.text.messages import backend_text
from chunkviz.ui.guard import user_message
from chunkviz.ui.i18n import tr
from chunkviz.ui.verdict_figure import verdict_figure
from chunkviz.views.markup import escape_markdown
from chunkviz.views.verdict import Said, basis_text, verdicts

#: Session-state keys of the first screen's settings (values, never labels).
BUDGET_KEY = "bench_budget"


@st.cache_data(max_entries=32, show_spinner=False)
def _verdicts(path: str, mtime_ns: int, _results: Results, metric: str, delta: float,
              budget: int, lang: Lang) -> tuple[Said, Said]:
    del path, mtime_ns  # only cache keys: the file's identity
    return verdicts(lang, _results, metric, delta, budget)


def cached_verdicts(path: Path, results: Results, metric: str, delta: float, budget: int,
                    lang: Lang) -> tuple[Said, Said]:
    """``verdicts`` of the file at ``path``, cached by its path, mtime and every setting."""
    return _verdicts(str(path), path.stat().st_mtime_ns, results, metric, delta, budget, lang)


def budget_input(results: Results, lang: Lang) -> int:
    """The context budget control (characters; default: the file's own budget)."""
    return int(st.number_input(tr("verdict.budget", lang=lang), min_value=MIN_BUDGET_CHARS,
                               max_value=MAX_BUDGET_CHARS,
                               step=250, value=results.budget.chars, key=BUDGET_KEY,
                               help=tr("verdict.budget_help", lang=lang)))


def render(runs: Sequence[tuple[Path, Results]], metric: str, delta: float, budget: int,
           lang: Lang) -> None:
    """The chart of the first run at equal k and equal budget, then every run's sentences.

    ``runs``: the run shown first, then the same questions under other backends.
    """
    for i, (path, results) in enumerate(runs):
        try:
            at_k, at_budget = cached_verdicts(path, results, metric, delta, budget, lang)
        except ChunkvizError as e:
            st.error(user_message(e))
            continue
        if i == 0:
            titles = [basis_text(lang, at_k.choice, budget),
                      basis_text(lang, at_budget.choice, budget)]
            st.plotly_chart(verdict_figure([at_k.choice, at_budget.choice], titles, lang),
                            key="bench_fig_verdict")
        backend = escape_markdown(backend_text(lang, results.backend.name))
        st.markdown(f"**{backend}** — {escape_markdown(at_k.sentence)}")
        st.markdown(f"**{backend}** — {escape_markdown(at_budget.sentence)}")
    first = runs[0][1]
    st.caption(tr("verdict.caption",
                  tokenizer=escape_markdown(first.budget.tokenizer or "—"),
                  unit=tr(f"benchmark.unit_{first.stats.unit}", lang=lang), lang=lang))


@st.cache_data(max_entries=32, show_spinner=False)
def _document_means(run_id: str, created: str, _results: Results, metric: str
                    ) -> dict[str, Estimate]:
    del run_id, created  # only cache keys
    return document_means(_results, metric)


def weight_rows(results: Results, metric: str, lang: Lang) -> list[dict[str, str]]:
    """Question-weighted and document-weighted means of ``metric`` with their intervals."""
    by_doc = _document_means(results.run_id, results.created, results, metric)

    def cell(e: Estimate) -> str:
        return f"{e.mean:.3f} [{e.ci_low:.3f}, {e.ci_high:.3f}]"

    return [{tr("verdict.col_config", lang=lang): lab,
             tr("verdict.col_by_question", lang=lang): cell(results.metrics[lab][metric]),
             tr("verdict.col_by_document", lang=lang): cell(by_doc[lab])}
            for lab in results.labels]
