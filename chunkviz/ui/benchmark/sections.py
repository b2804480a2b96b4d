"""The Benchmark page's sections below the verdict, each drawn from one run's results.

The page lays them out in order; every section reads the run (and its partners on disk) and
draws its own widgets under ``bench_*`` keys.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from chunkviz.eval.measures import metric_label
from chunkviz.eval.results import Results
from chunkviz.text import Lang
from chunkviz.text.messages import backend_text, recorded_text
from chunkviz.ui.benchmark import data, drilldown
from chunkviz.ui.benchmark import figures as figs
from chunkviz.ui.benchmark import link as bench_link
from chunkviz.ui.guard import guard
from chunkviz.ui.i18n import tr
from chunkviz.ui.state import AppState
from chunkviz.views import benchmark_tables as tables
from chunkviz.views.backend_comparison import compare_backends
from chunkviz.views.bench_link import VIEWS, BenchView, run_label
from chunkviz.views.curves import RetrievalRule, curve_measures, curves, mode_rows
from chunkviz.views.drilldown import question_label
from chunkviz.views.main_table import TableRow
from chunkviz.views.markup import escape_markdown
from chunkviz.views.retests import replication, sensitivity_definitions, sensitivity_rows
from chunkviz.views.run_list import RunSummary, backend_partners, replication_partners
from chunkviz.views.sentences import backend_sentence, sentences
from chunkviz.views.significance import floor_text, significance_matrix


def _bullets(lines: Sequence[str]) -> str:
    return "\n".join(f"- {escape_markdown(s)}" for s in lines)


def significance(results: Results, metric: str | None, unit_word: str, lang: Lang) -> None:
    """The row-minus-column matrix of ``metric`` and its sentences (folded past the first)."""
    st.subheader(tr("benchmark.sig"))
    st.caption(
        tr(
            "benchmark.sig_caption",
            test=escape_markdown(recorded_text(lang, "stats_test", str(results.stats.test))),
            alpha=results.stats.alpha,
            unit=unit_word,
            permutations=results.stats.permutations,
            floor=floor_text(results),
        )
    )
    if metric is None:
        return
    st.markdown(tables.matrix_markdown(significance_matrix(results, metric), lang))
    st.markdown(f"**{tr('benchmark.sentences')}**")
    said = sentences(results, metric, lang)
    st.markdown(_bullets(said.shown) if said.shown else tr("benchmark.none_shown"))
    if said.folded:
        with st.expander(tr("benchmark.folded", n=len(said.folded))):
            st.markdown(_bullets(said.folded))


def robustness(
    results: Results, runs: Sequence[RunSummary], run: RunSummary, metric: str, lang: Lang
) -> None:
    """Which outcomes depend on a definition, and which hold on another question set."""
    st.subheader(tr("benchmark.sens"))
    names = sensitivity_definitions(results, metric)
    if not names:
        st.info(tr("benchmark.sens_missing"))
    else:
        st.caption(tr("benchmark.sens_caption"))
        sens_rows = sensitivity_rows(results, metric)
        if sens_rows:
            st.markdown(tables.sensitivity_markdown(sens_rows, names, lang))
        else:
            st.info(tr("benchmark.sens_none"))
    st.subheader(tr("benchmark.rep"))
    twins = {str(p.path): p for p in replication_partners(runs, run)}
    if not twins:
        st.info(tr("benchmark.rep_none", backend=backend_text(lang, run.backend)))
        return
    twin = st.selectbox(
        tr("benchmark.rep_other"),
        list(twins),
        key="bench_replication",
        format_func=lambda p: run_label(lang, twins[p]),
    )
    with guard() as attempt:
        reps = replication(results, data.load_path(twins[twin].path), metric)
    if attempt.ok:
        st.markdown(tables.replication_markdown(reps, lang))
        st.caption(tr("benchmark.rep_caption"))


#: The tabs below the first screen, by id (labels: ``benchmark.tab_<id>``).
TABS = ("significance", "metrics", "robustness", "plots", "backends", "question")
#: The retrieval rule shown, kept outside the radio's own key: the radio is drawn only while
#: its tab is open, and Streamlit drops a widget's state in a run that does not draw it.
VIEW_KEY = "bench_view"


def seed_view(state: AppState) -> None:
    """Start the retrieval rule at the link's view (else equal k), before any tab is drawn."""
    bench_link.seed_choice(state, "view", VIEWS, VIEW_KEY)
    st.session_state.setdefault(VIEW_KEY, VIEWS[0])


def publish_view(
    run: RunSummary, metric: str | None, delta: float | None, budget: int | None
) -> None:
    """Write the page's choices into its link, whichever tab is open."""
    bench_link.publish(
        BenchView(
            run=run.run_id,
            metric=metric,
            delta=delta,
            view=st.session_state[VIEW_KEY],
            budget=budget,
        )
    )


def plots(results: Results, rows: Sequence[TableRow]) -> None:
    """Quality against chunk count, lost answers, recall curves and equal k against budget.

    The view chosen here goes into the page's shareable link (``publish_view``).
    """
    st.subheader(tr("benchmark.plots"))
    left, right = st.columns(2)
    left.plotly_chart(
        figs.quality_scatter(rows, "recall@5", tr("benchmark.chunks_axis")), key="bench_fig_recall"
    )
    right.plotly_chart(
        figs.quality_scatter(rows, "ndcg@10", tr("benchmark.chunks_axis")), key="bench_fig_ndcg"
    )
    left, right = st.columns(2)
    left.plotly_chart(
        figs.lost_bar(rows, tr("benchmark.lost_title"), tr("benchmark.lost_axis")),
        key="bench_fig_lost",
    )
    with right:
        measure = st.radio(
            tr("benchmark.curve_measure"),
            curve_measures(),
            key="bench_curve_measure",
            format_func=metric_label,
            horizontal=True,
        )
        st.plotly_chart(
            figs.curves_figure(
                curves(results, measure), results.ks, measure, tr("benchmark.curves_title")
            ),
            key="bench_fig_curves",
        )
    chars = results.budget.chars
    labels_mode: dict[RetrievalRule, str] = {
        "equal_k": tr("benchmark.mode_equal_k", k=5),
        "budget": tr("benchmark.mode_budget", chars=chars),
    }
    ss = st.session_state
    ss.setdefault("bench_mode", ss[VIEW_KEY])
    mode = st.radio(
        tr("benchmark.mode"),
        list(labels_mode),
        key="bench_mode",
        format_func=labels_mode.__getitem__,
        horizontal=True,
    )
    ss[VIEW_KEY] = mode
    title = (
        tr("benchmark.mode_title_k", k=5)
        if mode == "equal_k"
        else tr("benchmark.mode_title_budget", chars=chars)
    )
    st.plotly_chart(figs.mode_bar(mode_rows(results, mode), title, "Recall"), key="bench_fig_mode")
    st.caption(tr("benchmark.mode_caption"))


def backends(results: Results, runs: Sequence[RunSummary], run: RunSummary, lang: Lang) -> None:
    """The same grid under another backend (a run of the same dataset, sample and seed)."""
    st.subheader(tr("benchmark.backends"))
    partners = {str(p.path): p for p in backend_partners(runs, run)}
    if not partners:
        st.info(
            tr("benchmark.backends_none", dataset=run.dataset, sample=run.sample, seed=run.seed)
        )
        return
    other_path = st.selectbox(
        tr("benchmark.backends_other"),
        list(partners),
        key="bench_partner",
        format_func=lambda p: run_label(lang, partners[p]),
    )
    # Listed from its header; its tables may still break a rule.
    with guard() as attempt:
        other = data.load_path(partners[other_path].path)
    if attempt.failed:
        return
    for col, metric in zip(st.columns(2), ("recall@5", "ndcg@10"), strict=True):
        with col, guard() as attempt:
            cmp = compare_backends(results, other, metric)
        if attempt.failed:
            continue
        title = tr("benchmark.backends_title", metric=metric_label(metric))
        col.plotly_chart(figs.backends_bar(cmp, title), key=f"bench_fig_backends_{metric}")
        col.markdown(escape_markdown(backend_sentence(cmp, lang)))


def drill(results: Results) -> None:
    """Pick a question (typing filters them by their text) and see its rank everywhere."""
    st.subheader(tr("benchmark.drill"))
    texts = drilldown.question_texts(results)
    qid = st.selectbox(
        tr("benchmark.drill_pick"),
        results.question_ids,
        index=None,
        key="bench_qid",
        placeholder=tr("benchmark.drill_placeholder"),
        format_func=lambda q: question_label(q, texts),
    )
    if qid is not None:
        drilldown.render(results, qid)
