"""Key phrases a chunking cuts, for a document without questions (issue 39).

An engineer's own manual usually comes with no question/answer pairs, so Explore showed
"0 / 0" and no red at all. Tune already draws candidate answers from the document itself
(``chunkviz.eval.probes``: numbers with units, kanji and katakana compounds, Latin terms,
quoted terms, table cells); here the same *key phrases* are checked against a chunking by the
machinery that checks answers (``assess_qa``): a phrase that no chunk holds whole is cut. They
are counted and labelled as key phrases, never as answers or questions.
"""

from __future__ import annotations

from dataclasses import replace

from chunkviz.document import Document, Question
from chunkviz.eval.probes import extract_probes
from chunkviz.model import Span
from chunkviz.text import Lang, text
from chunkviz.views.explore import QAReport, first_broken, qa_counts
from chunkviz.views.highlight import Labels, Mark, labels_for


def key_phrases(document: Document) -> tuple[Question, ...]:
    """Each key phrase of ``document`` (Tune's probes) as a record with its one span.

    The phrase is both the record's text and its answer, so a mark's tooltip names the phrase;
    ids are ``kp<start>-<end>`` (distinct: probes are distinct spans).
    """
    text = document.text
    return tuple(
        Question(
            f"kp{p.start}-{p.end}",
            document.doc_id,
            text[p.start : p.end],
            text[p.start : p.end],
            (Span(document.doc_id, p.start, p.end),),
        )
        for p in extract_probes(text)
    )


def cut_phrase_marks(report: QAReport, start: int, end: int) -> tuple[Mark, ...]:
    """The red marks of the key phrases a boundary cuts that touch ``[start, end)``.

    Phrases held whole are not drawn: a document has one about every ten characters, and an
    underline under each would hide the cut ones.
    """
    return tuple(m for m in report.marks(start, end) if m.broken)


def key_phrase_labels(lang: Lang) -> Labels:
    """The view's tooltip words, the red marks named as cut key phrases (never answers)."""
    return replace(
        labels_for(lang),
        broken=text(lang, "highlight.kp_broken"),
        cut=text(lang, "highlight.kp_cut"),
    )


def key_phrase_line(lang: Lang, report: QAReport) -> str:
    """The sentence above the highlight when the document has no questions (Markdown).

    How many key phrases a boundary cuts, and the chunk whose end cuts the first one; it says
    what they are (phrases from the document, not answers) and how to check real answers.
    """
    if not len(report):
        return text(lang, "lesson.no_questions")
    cut = qa_counts(report).broken
    if not cut:
        return text(lang, "lesson.kp_none_cut", total=len(report))
    first = first_broken(report)
    chunks = first.cutting if first is not None and first.cutting else (0,)
    return text(lang, "lesson.kp_cut", n=cut, total=len(report), chunk=chunks[0])
