"""Drill-down of one question: its answer in the document and its rank under each configuration."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

from chunkviz import dashboard as db
from chunkviz.datasets import Dataset, load_dataset
from chunkviz.errors import ChunkvizError
from chunkviz.ui.benchmark_tables import md_escape

Tr = Callable[[str], str]


@st.cache_resource(max_entries=4, show_spinner=False)
def cached_dataset(spec: str) -> Dataset:
    """The dataset named by ``spec``; read-only once built, shared by sessions."""
    return load_dataset(spec)


def render(results: Mapping[str, Any], qid: str, t: Tr, fmt: Callable[..., str]) -> None:
    """Draw the drill-down of question ``qid`` of ``results``.

    Args:
        results: The results file.
        qid: The question id.
        t: Translation of a page key.
        fmt: Translation of a page key with ``str.format`` arguments.
    """
    ranks = db.question_ranks(results, qid)
    spec = str(results["dataset"].get("spec", results["dataset"]["name"]))
    question = None
    sample = None
    try:
        dataset = cached_dataset(spec)
        question = next((q for q in dataset.questions if q.qid == qid), None)
        if question is None:
            raise ChunkvizError(f"question {qid!r} is not in dataset {spec!r}")
        document = dataset.document(question.doc_id)
        sample = db.explore_sample_for(document.text)
    except (ChunkvizError, KeyError) as e:
        st.info(fmt("drill_no_dataset", why=str(e)))
    if question is not None:
        span = question.spans[0]
        ctx = db.answer_context(document.text, span.start, span.end)
        st.markdown(fmt("drill_question", q=md_escape(question.question)))
        st.markdown(fmt("drill_answer", a=md_escape(question.answer), start=span.start,
                        end=span.end, doc=md_escape(question.doc_id)))
        # The answer is highlighted with Markdown's own syntax on escaped text (no raw HTML).
        st.markdown(f"> …{md_escape(ctx.before)}:orange-background[**{md_escape(ctx.answer)}**]"
                    f"{md_escape(ctx.after)}…".replace("\n", " "))
    configs = {str(c["label"]): c for c in results["configs"]}
    lines = [f"| {t('col_config')} | {t('col_rank')} | |", "| --- | ---: | --- |"]
    for label, rank in ranks:
        shown = t("drill_lost") if rank is None else str(rank)
        query = db.explore_query(configs[label], sample)
        link = f"[{t('drill_open')}](./Explore?{query})"
        lines.append(f"| {md_escape(label)} | {shown} | {link} |")
    st.markdown(f"**{t('drill_rank')}**")
    st.markdown("\n".join(lines))
    st.caption(fmt("drill_sample", sample=sample) if sample else t("drill_no_sample"))
