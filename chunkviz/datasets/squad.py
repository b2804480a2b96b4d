"""SQuAD-format question sets: one document per paragraph context, any language.

The SQuAD v1.1 / v2.0 JSON layout is ``{"data": [{"title", "paragraphs": [{"context", "qas":
[{"id", "question", "answers": [{"text", "answer_start"}], "is_impossible"?}]}]}]}``;
``answer_start`` counts characters (Python ``len``) from the start of ``context``.

Which answer is used: the FIRST answer of each question (``answers[0]``), as in the seed study
(see ``chunkviz.datasets.jsquad``). Unanswerable questions (SQuAD v2.0) and answers whose text is
not found at ``answer_start`` are dropped, each with its reason in ``Dataset.dropped``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.errors import DatasetError, Message, Whole
from chunkviz.model import Span
from chunkviz.textio import read_json_file as textio_read_json_file

REASON_UNANSWERABLE = "unanswerable (no answer given)"
REASON_MISMATCH = "answer text not found at answer_start in the context"


def read_json_file(path: str | Path) -> Any:
    """Parse a JSON file, turning every failure into a DatasetError that names the file.

    The file comes through the project's one guarded reader (``chunkviz.textio``): regular
    files only (a FIFO or a device is refused, never waited on), size checked before reading,
    nesting and number lengths bounded before parsing.

    Raises:
        DatasetError: The file is missing, unreadable, not regular, too large, or not JSON.
    """
    return textio_read_json_file(path, error=DatasetError, fix=Message("fix_squad"))


def squad_articles(data: Any, *, name: str) -> list[Mapping[str, Any]]:
    """The ``data`` list of a SQuAD-format object, checked for its shape.

    Raises:
        DatasetError: ``data`` is missing or an article lacks ``paragraphs``.
    """
    if not isinstance(data, Mapping) or not isinstance(data.get("data"), list):
        raise DatasetError("squad_not_squad", file=Whole(name))
    articles: list[Mapping[str, Any]] = data["data"]
    for i, article in enumerate(articles):
        if not isinstance(article, Mapping) or not isinstance(article.get("paragraphs"), list):
            raise DatasetError("squad_no_paragraphs", file=Whole(name), article=i)
    return articles


def first_answer(qa: Mapping[str, Any], *, name: str) -> tuple[str, int] | None:
    """``(text, answer_start)`` of the question's first answer, or None if it has none.

    Raises:
        DatasetError: The question or its first answer lacks a required key.
    """
    for key in ("id", "question"):
        if key not in qa:
            raise DatasetError(
                "squad_question_key", file=Whole(name), key=key, found=sorted(map(str, qa))
            )
    answers = qa.get("answers") or []
    if qa.get("is_impossible") or not answers:
        return None
    answer = answers[0]
    if not isinstance(answer, Mapping) or "text" not in answer or "answer_start" not in answer:
        raise DatasetError("squad_answer", file=Whole(name), question=str(qa["id"]))
    return str(answer["text"]), int(answer["answer_start"])


def paragraph_questions(
    qas: Iterable[Mapping[str, Any]],
    *,
    context: str,
    skip: int,
    offset: int,
    doc_id: str,
    dropped: dict[str, str],
    name: str,
    skip_reason: str = "",
) -> list[Question]:
    """Questions of one paragraph with their first answer mapped into document coordinates.

    Args:
        qas: The paragraph's questions.
        context: The paragraph's context, as ``answer_start`` counts it.
        skip: Characters of ``context`` left out of the document (a title prefix); an answer
            that starts inside them is dropped with ``skip_reason``.
        offset: Where ``context[skip:]`` starts in the document.
        doc_id: The document's id.
        dropped: Receives ``qid -> reason`` for every question not kept.
        name: What to call the file in error messages.
        skip_reason: Why an answer inside the skipped prefix is dropped.
    """
    kept = []
    for qa in qas:
        qid = str(qa.get("id", ""))
        answer = first_answer(qa, name=name)
        if answer is None:
            dropped[qid] = REASON_UNANSWERABLE
            continue
        text, start = answer
        if context[start : start + len(text)] != text or not text:
            dropped[qid] = REASON_MISMATCH
            continue
        if start < skip:
            dropped[qid] = skip_reason
            continue
        begin = offset + start - skip
        span = Span(doc_id, begin, begin + len(text))
        kept.append(
            Question(
                qid,
                doc_id,
                str(qa["question"]),
                text,
                (span,),
                _alternatives(qa, context, skip, offset, doc_id, span),
            )
        )
    return kept


def _alternatives(
    qa: Mapping[str, Any], context: str, skip: int, offset: int, doc_id: str, first: Span
) -> tuple[Span, ...]:
    """Spans of ``answers[1:]`` that match the context and lie outside the skipped prefix."""
    out: list[Span] = []
    for answer in (qa.get("answers") or [])[1:]:
        if not isinstance(answer, Mapping):
            continue
        text, start = str(answer.get("text", "")), answer.get("answer_start")
        if not text or not isinstance(start, int) or start < skip:
            continue
        if context[start : start + len(text)] != text:
            continue
        span = Span(doc_id, offset + start - skip, offset + start - skip + len(text))
        if span != first and span not in out:
            out.append(span)
    return tuple(out)


def build_squad(data: Any, *, name: str) -> Dataset:
    """A Dataset from parsed SQuAD-format JSON: one document per paragraph context.

    Document ids are ``<article index>-<paragraph index>`` (stable for a given file); the title is
    the article title with the paragraph index.

    Raises:
        DatasetError: The object is not in SQuAD format.
    """
    documents: list[Document] = []
    questions: list[Question] = []
    dropped: dict[str, str] = {}
    for i, article in enumerate(squad_articles(data, name=name)):
        title = str(article.get("title", f"article {i}"))
        for j, paragraph in enumerate(article["paragraphs"]):
            if "context" not in paragraph:
                raise DatasetError("squad_no_context", file=Whole(name), paragraph=j, article=i)
            context = str(paragraph["context"])
            doc_id = f"{i}-{j}"
            documents.append(Document(doc_id, f"{title} ¶{j}", context, (0,) if context else ()))
            questions += paragraph_questions(
                paragraph.get("qas", []),
                context=context,
                skip=0,
                offset=0,
                doc_id=doc_id,
                dropped=dropped,
                name=name,
            )
    return Dataset(
        name,
        tuple(documents),
        tuple(questions),
        dropped,
        summary_notes(documents, questions, dropped),
    )


def load_squad(path: str | Path) -> Dataset:
    """Load any SQuAD-format JSON file (v1.1 or v2.0, any language).

    Raises:
        DatasetError: The file is missing, unreadable or not in SQuAD format.
    """
    p = Path(path)
    return build_squad(read_json_file(p), name=p.name)


def summary_notes(
    documents: Sequence[Document], questions: Sequence[Question], dropped: Mapping[str, str]
) -> tuple[str, ...]:
    """Counts worth showing: documents, questions kept, and dropped questions by reason."""
    notes = [f"{len(documents)} documents, {len(questions)} questions kept"]
    reasons: dict[str, int] = {}
    for reason in dropped.values():
        reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in sorted(reasons.items()):
        notes.append(f"{count} questions dropped: {reason}")
    return tuple(notes)
