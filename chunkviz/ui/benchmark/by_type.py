"""The Benchmark page's by-type section: which kinds of question a configuration loses.

Drawn only for a run whose questions carry types (JaQuAD's question and answer types); the
figures come from ``chunkviz.eval.by_type`` and its Markdown from ``chunkviz.views.by_type``.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from chunkviz.eval.by_type import (
    MIN_QUESTIONS,
    TYPE_KINDS,
    ByType,
    TypeKind,
    TypeMetric,
    compare_by_type,
    has_types,
    losses_by_type,
    metric_by_type,
)
from chunkviz.eval.measures import metric_label
from chunkviz.eval.results import Results
from chunkviz.text import Lang
from chunkviz.ui.benchmark import data
from chunkviz.ui.i18n import tr
from chunkviz.views import by_type as views
from chunkviz.views.markup import escape_markdown


@st.cache_data(max_entries=16, show_spinner=False)
def _breakdown(
    path: str, mtime_ns: int, metric: str, kind: TypeKind, delta: float | None
) -> tuple[tuple[TypeMetric, ...], ByType]:
    """The by-type figures of one run file (keyed by its path and mtime, metric, kind, δ)."""
    results = data.load(path, mtime_ns)
    return metric_by_type(results, metric, kind), compare_by_type(results, metric, kind, delta)


def render(results: Results, path: Path, metric: str, delta: float | None, lang: Lang) -> None:
    """Per type: every configuration's metric, answers lost, a pair's tests and the losses."""
    if not has_types(results):
        return
    st.subheader(tr("by_type.title"))
    st.caption(tr("by_type.intro", metric=metric_label(metric), min=MIN_QUESTIONS))
    kind = st.radio(
        tr("by_type.kind"),
        TYPE_KINDS,
        key="bench_type_kind",
        horizontal=True,
        format_func=lambda k: tr(f"by_type.kind_{k}"),
    )
    with st.spinner(tr("by_type.busy")):
        rows, comparisons = _breakdown(str(path), path.stat().st_mtime_ns, metric, kind, delta)
    labels = list(results.labels)
    st.markdown(views.metric_markdown(rows, labels, lang))
    st.caption(tr("by_type.metric_caption", metric=metric_label(metric)))
    with st.expander(tr("by_type.lost_title")):
        st.markdown(views.lost_markdown(rows, labels, lang))
    if not comparisons:
        return
    st.markdown(f"**{tr('by_type.loses_title')}**")
    worst = min(labels, key=lambda lab: sum(r.estimates[lab].mean for r in rows if r.estimates))
    label = st.selectbox(
        tr("by_type.config"), labels, index=labels.index(worst), key="bench_type_config"
    )
    losses = losses_by_type(results, metric, kind, label, comparisons)
    if losses:
        st.markdown(
            "\n".join(
                f"- {escape_markdown(line)}" for line in views.loss_lines(losses, label, lang)
            )
        )
    else:
        st.info(tr("by_type.no_losses", config=label))
    # A pair is named by its two configuration labels (values); the default sets the chosen
    # configuration against the best one overall.
    pairs = {f"{a} vs {b}": (a, b) for a, b in comparisons}
    best = max(labels, key=lambda lab: sum(r.estimates[lab].mean for r in rows if r.estimates))
    default = next(
        (name for name, pair in pairs.items() if set(pair) == {label, best}), next(iter(pairs))
    )
    pick = st.selectbox(
        tr("by_type.pair"), list(pairs), key="bench_type_pair", index=list(pairs).index(default)
    )
    items = comparisons[pairs[pick]]
    st.markdown(views.comparison_markdown(items, lang))
    st.caption(tr("by_type.pair_caption", alpha=results.stats.alpha, n=len(items)))
