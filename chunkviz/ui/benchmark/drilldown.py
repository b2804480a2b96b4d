"""Drill-down of one question: its answer in the document and its rank under each configuration."""

from __future__ import annotations

import streamlit as st

from chunkviz.datasets import Dataset, load_dataset
from chunkviz.errors import ChunkvizError
from chunkviz.eval.results import Results
from chunkviz.ui.guard import user_message
from chunkviz.ui.i18n import tr
from chunkviz.views.drilldown import answer_context, drilldown_rows
from chunkviz.views.markup import escape_markdown
from chunkviz.views.share_link import explore_query, explore_sample_for


def _chars(r: tuple[int, int]) -> str:
    return f"{r[0]}–{r[1]}"


@st.cache_resource(max_entries=4, show_spinner=False)
def cached_dataset(spec: str) -> Dataset:
    """The dataset named by ``spec``; read-only once built, shared by sessions."""
    return load_dataset(spec)


def question_texts(results: Results) -> dict[str, str]:
    """Question id -> question text of the run's dataset (empty when it cannot be loaded here)."""
    try:
        dataset = cached_dataset(results.dataset.spec)
    except ChunkvizError:
        return {}
    return {q.qid: q.question for q in dataset.questions}


def render(results: Results, qid: str) -> None:
    """Draw the drill-down of question ``qid`` of ``results``.

    Args:
        results: The results file.
        qid: The question id.
    """
    spec = results.dataset.spec
    question = None
    sample = None
    try:
        dataset = cached_dataset(spec)
        question = next((q for q in dataset.questions if q.qid == qid), None)
        if question is None:
            raise ChunkvizError("question_not_in_dataset", question=qid, dataset=spec)
        document = dataset.document(question.doc_id)
        sample = explore_sample_for(document.text)
    except (ChunkvizError, KeyError) as e:
        st.info(tr("benchmark.drill_no_dataset", why=user_message(e)))
    if question is not None:
        span = question.spans[0]
        ctx = answer_context(document.text, span.start, span.end)
        st.markdown(tr("benchmark.drill_question", q=escape_markdown(question.question)))
        st.markdown(
            tr(
                "benchmark.drill_answer",
                a=escape_markdown(question.answer),
                start=span.start,
                end=span.end,
                doc=escape_markdown(question.doc_id),
            )
        )
        # The answer is highlighted with Markdown's own syntax on escaped text (no raw HTML).
        before, answer, after = (escape_markdown(s) for s in (ctx.before, ctx.answer, ctx.after))
        st.markdown(f"> …{before}:orange-background[**{answer}**]{after}…")
    configs = {c.label: c for c in results.configs}
    spans = [(sp.start, sp.end) for sp in question.spans] if question is not None else []
    rows = drilldown_rows(results, qid, question.doc_id if question else "", spans)
    head = " | ".join(
        tr(f"benchmark.{c}") for c in ("col_config", "col_rank", "col_holding", "col_top")
    )
    lines = [f"| {head} | |", "| --- | ---: | --- | --- | --- |"]
    for row in rows:
        shown = tr("benchmark.drill_lost") if row.rank is None else str(row.rank)
        if row.containing:
            holding = ", ".join(_chars(r) for r in row.containing[:3])
        elif row.cutting:
            cut = ", ".join(_chars(r) for r in row.cutting)
            holding = ":red[" + tr("benchmark.drill_cut", chunks=cut) + "]"
        else:
            holding = "—"
        top = "—"
        if row.top is not None:
            mark = "✓" if row.top_relevant else "✗"
            top = f"{escape_markdown(row.top[0])} {_chars(row.top[1:])} {mark}"
        config = configs[row.label]
        query = explore_query(config.strategy, config.params, sample)
        link = f"[{tr('benchmark.drill_open')}](./Explore?{query})"
        lines.append(f"| {escape_markdown(row.label)} | {shown} | {holding} | {top} | {link} |")
    st.markdown(f"**{tr('benchmark.drill_rank')}**")
    st.markdown("\n".join(lines))
    st.caption(
        tr("benchmark.drill_sample", sample=escape_markdown(sample))
        if sample
        else tr("benchmark.drill_no_sample")
    )
