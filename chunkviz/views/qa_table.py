"""Explore's question table: which questions it shows, and where each one's answer is.

A filtered table's row ``i`` is not question ``i``: ``shown_questions`` returns the question
indices in row order, and the page maps a selected row back through it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from chunkviz.locate import NearMatch, fold, nearest
from chunkviz.model import Chunk
from chunkviz.views.explore import QAReport, QAResult

QAFilter = Literal["all", "broken", "not_found", "ambiguous"]
QA_FILTERS: tuple[QAFilter, ...] = ("all", "broken", "not_found", "ambiguous")
#: Characters of a near-match shown in the table.
NEAR_PREVIEW = 40


def shown_questions(qa: Sequence[QAResult], kind: QAFilter) -> list[int]:
    """Indices of the questions the table shows under filter ``kind``, in question order."""
    if isinstance(qa, QAReport):  # from its status columns, without a QAResult per question
        if kind == "broken":
            return qa.with_status("broken")
        if kind == "not_found":
            return qa.with_status("not found")
        if kind == "ambiguous":
            return np.flatnonzero(qa.ambiguous).tolist()
        return list(range(len(qa)))
    if kind == "broken":
        return [i for i, r in enumerate(qa) if r.status == "broken"]
    if kind == "not_found":
        return [i for i, r in enumerate(qa) if r.status == "not found"]
    if kind == "ambiguous":
        return [i for i, r in enumerate(qa) if r.ambiguous]
    return list(range(len(qa)))


def answer_place(r: QAResult, chunks: Sequence[Chunk]) -> tuple[int, int] | None:
    """Where to bring ``r``'s answer into view: ``(chunk index, character offset)``.

    The first occurrence some chunk holds whole, with the first chunk that holds it; for a broken
    question its first occurrence, with the chunk it starts in (the first that cuts it). None
    when the answer is not in the document.
    """
    spans = r.item.spans
    if not spans:
        return None
    holding = set(r.containing)
    for span in spans:
        for i in sorted(holding):
            if chunks[i].start <= span.start and span.end <= chunks[i].end:
                return i, span.start
    first = spans[0]
    for i, chunk in enumerate(chunks):
        if chunk.start <= first.start < chunk.end:
            return i, first.start
    return (r.cutting[0], first.start) if r.cutting else None


QA_COLUMNS = ("question", "answer", "status", "in", "cut", "found", "ambiguous", "nearest")


def near_matches(text: str, qa: Sequence[QAResult], shown: Sequence[int]) -> dict[int, NearMatch]:
    """The nearest near-match of each shown question whose answer is not found (by index)."""
    missing = [i for i in shown if qa[i].status == "not found"]
    if not missing:
        return {}
    folded = fold(text)
    out = {}
    for i in missing:
        near = nearest(folded, qa[i].item.answer)
        if near is not None:
            out[i] = near
    return out


def near_label(text: str, near: NearMatch | None) -> str:
    """A near-match as the table shows it: its text (shortened) and its similarity."""
    if near is None:
        return ""
    body = " ".join(text[near.start : near.end].split())
    if len(body) > NEAR_PREVIEW:
        body = body[:NEAR_PREVIEW] + "…"
    return f"{body} ({near.similarity:.0%})"


def qa_rows(
    qa: Sequence[QAResult],
    shown: Sequence[int],
    columns: Mapping[str, str],
    statuses: Mapping[str, str],
    nearest_text: Mapping[int, str] | None = None,
) -> list[dict[str, Any]]:
    """One row per shown question, in the order of ``shown``.

    ``columns`` names ``QA_COLUMNS`` and ``statuses`` the three statuses and ``ambiguous`` (the
    mark of an answer whose place is a guess, ``chunkviz.views.explore.is_ambiguous``) in the UI
    language; ``nearest_text`` gives the near-match of an answer not found (``near_label``).
    """
    rows = []
    for i in shown:
        r = qa[i]
        rows.append(
            {
                columns["question"]: r.item.question,
                columns["answer"]: r.item.answer,
                columns["status"]: statuses[r.status],
                columns["in"]: ", ".join(f"#{c}" for c in r.containing),
                columns["cut"]: ", ".join(f"#{c}" for c in r.cutting)
                if r.status == "broken"
                else "",
                columns["found"]: len(r.item.spans),
                columns["ambiguous"]: statuses["ambiguous"] if r.ambiguous else "",
                columns["nearest"]: (nearest_text or {}).get(i, ""),
            }
        )
    return rows
