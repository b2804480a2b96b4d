"""The Benchmark page's "which metrics separate" section: the headline metric, and why."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from chunkviz.eval.measures import metric_label
from chunkviz.eval.separation import Separation, headline, separation
from chunkviz.ui.benchmark import data
from chunkviz.ui.i18n import tr


@st.cache_data(max_entries=16, show_spinner=False)
def _separation(path: str, mtime_ns: int) -> tuple[Separation, ...]:
    """``separation`` of one run file, keyed by its path and mtime."""
    return separation(data.load(path, mtime_ns))


def render(path: Path) -> None:
    """Per metric, how many pairs it separates; the headline metric and why."""
    counts = _separation(str(path), path.stat().st_mtime_ns)
    best = headline(counts)
    r5 = next((s for s in counts if s.metric == "recall@5"), None)
    st.subheader(tr("separation.title"))
    header = [
        tr(f"separation.col_{c}")
        for c in ("metric", "separated", "equivalent", "inconclusive", "saturated")
    ]
    lines = ["| " + " | ".join(header) + " |", "| --- |" + " ---: |" * 4]
    for s in counts:
        name = metric_label(s.metric)
        name = f"**{name}**" if s is best else name
        lines.append(
            f"| {name} | {s.separated} / {s.pairs} | {s.equivalent} | "
            f"{s.inconclusive} | {s.saturated} |"
        )
    st.markdown("\n".join(lines))
    if best.separated == 0:
        st.markdown(tr("separation.none", pairs=best.pairs))
    else:
        why = tr(
            "separation.why", metric=metric_label(best.metric), n=best.separated, pairs=best.pairs
        )
        if r5 is not None and r5.separated < best.separated:
            why += " " + tr("separation.recall5", n=r5.separated, pairs=r5.pairs)
        st.markdown(why)
    st.caption(tr("separation.caption"))
