"""JaQuAD, the second Japanese corpus: each article's contexts as one long document.

JaQuAD (So et al., 2022, arXiv:2202.01764; CC BY-SA 3.0) is SQuAD v1.1 JSON over Japanese
Wikipedia, split over several files (``jaquad_dev_0000.json`` ...), with two labels the seed
study's JSQuAD lacks: each question's ``question_type`` (lexical variation by world knowledge
or by synonymy, syntactic variation, multiple-sentence reasoning, logical reasoning) and each
answer's ``answer_type`` (object, person, date/time, location, cause, manner).

How a document is built, so that JaQuAD's figures can be set beside JSQuAD's:

- one document per article (101 in the validation split), its id the article part of the
  question ids (``de-032`` for ``de-032-05-000``);
- its contexts in FILE ORDER (JaQuAD lists an article's contexts in order; unlike JSQuAD, no
  number has to be read from the ids), joined with ``SEPARATOR``, a blank line (two newlines):
  a context has no title prefix and itself separates its paragraphs with a blank line, so the
  document reads as the article does, and an answer's offset moves by the lengths before it and
  nothing else;
- ``Document.paragraph_starts`` holds the start of every paragraph: each context's start and
  each start after a blank line inside a context (1,705 paragraphs in 1,431 contexts), so the
  ``paragraph`` strategy cuts the article's own paragraphs, not the contexts the annotators
  were shown (those start at a subset of them);
- each question keeps its id, its FIRST answer (JaQuAD gives one) mapped to a span in document
  coordinates and checked against the context, and its ``question_type`` and ``answer_type``.

A question without an answer, or whose answer text is not at its ``answer_start``, is dropped with
its reason in ``Dataset.dropped`` (none is, in the validation split). ``jaquad:PATH`` reads one
file, or every ``*.json`` file of a folder in name order, the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.datasets.squad import (
    paragraph_questions,
    read_json_file,
    squad_articles,
    summary_notes,
)
from chunkviz.errors import DatasetError, Message, Whole
from chunkviz.paths import package_path
from chunkviz.segment import BLANK_LINE
from chunkviz.textio import shown_path

SEPARATOR = "\n\n"

#: The vendored validation split, shipped as package data: ``chunkviz/data/jaquad/*.json``.
DEFAULT_PATH = package_path("data", "jaquad")

#: At most this many files are read from a ``jaquad:FOLDER`` (the split has 4); each file is
#: bounded in size by the project's guarded reader.
MAX_FILES = 64

_QID = re.compile(r"^(?P<article>.+)-\d+-\d+$")


def article_id(paragraphs: list[Mapping[str, Any]], *, where: str) -> str | None:
    """The article id shared by the question ids ``<article>-<context>-<question>``.

    Returns:
        The id, or None when the article has no questions.

    Raises:
        DatasetError: An id is not of the JaQuAD form, or the ids name several articles.
    """
    found = set()
    for paragraph in paragraphs:
        for qa in paragraph.get("qas", []):
            m = _QID.match(str(qa.get("id", "")))
            if m is None:
                raise DatasetError("jaquad_question_id", where=where, id=str(qa.get("id")))
            found.add(m["article"])
    if len(found) > 1:
        raise DatasetError("jaquad_several_articles", where=where, found=sorted(found))
    return found.pop() if found else None


def _blank_line_starts(context: str) -> list[int]:
    """Offsets in ``context`` where a paragraph starts after a blank line."""
    return [m.end() for m in BLANK_LINE.finditer(context) if 0 < m.end() < len(context)]


def _types(qas: list[Mapping[str, Any]]) -> dict[str, tuple[str, str]]:
    """``qid -> (question_type, answer_type of the first answer)``, empty strings when absent."""
    out = {}
    for qa in qas:
        answers = qa.get("answers") or []
        first = answers[0] if answers and isinstance(answers[0], Mapping) else {}
        out[str(qa.get("id", ""))] = (
            str(qa.get("question_type") or ""),
            str(first.get("answer_type") or ""),
        )
    return out


def build_jaquad(data: Any, *, name: str = "jaquad", seen: set[str] | None = None) -> Dataset:
    """The long-document Dataset from parsed JaQuAD JSON (see the module docstring).

    Args:
        data: One parsed file.
        name: What to call it in messages and in ``Dataset.name``.
        seen: Article ids already taken (by earlier files of a folder); updated.

    Raises:
        DatasetError: The object is not in SQuAD format, a paragraph has no context, question
            ids are not of JaQuAD's form, or an article id repeats.
    """
    seen = set() if seen is None else seen
    documents: list[Document] = []
    questions: list[Question] = []
    dropped: dict[str, str] = {}
    for i, article in enumerate(squad_articles(data, name=name)):
        title = str(article.get("title", ""))
        paragraphs = list(article["paragraphs"])
        where = Message("where_article", file=Whole(name), article=i, title=title)
        doc_id = article_id(paragraphs, where=where) or f"{name}-article-{i}"
        if doc_id in seen:
            raise DatasetError("jaquad_id_twice", where=where, id=doc_id)
        seen.add(doc_id)
        starts: list[int] = []
        contexts: list[str] = []
        offset = 0
        for j, paragraph in enumerate(paragraphs):
            if not isinstance(paragraph, Mapping) or "context" not in paragraph:
                raise DatasetError("squad_no_context", file=Whole(name), paragraph=j, article=i)
            context = str(paragraph["context"])
            if contexts:
                offset += len(SEPARATOR)
            starts += [offset, *(offset + s for s in _blank_line_starts(context))]
            contexts.append(context)
            qas = list(paragraph.get("qas", []))
            types = _types(qas)
            kept = paragraph_questions(
                qas,
                context=context,
                skip=0,
                offset=offset,
                doc_id=doc_id,
                dropped=dropped,
                name=name,
            )
            questions += [
                Question(
                    q.qid, q.doc_id, q.question, q.answer, q.spans, q.alternatives, *types[q.qid]
                )
                for q in kept
            ]
            offset += len(context)
        text = SEPARATOR.join(contexts)
        documents.append(Document(doc_id, title, text, tuple(starts) if text else ()))
    return Dataset(
        name,
        tuple(documents),
        tuple(questions),
        dropped,
        summary_notes(documents, questions, dropped),
    )


def jaquad_files(path: Path) -> list[Path]:
    """The files ``jaquad:PATH`` reads: PATH itself, or a folder's ``*.json`` in name order.

    Raises:
        DatasetError: The folder holds no ``.json`` file, or more than ``MAX_FILES``.
    """
    if not path.is_dir():
        return [path]
    files = sorted(p for p in path.glob("*.json") if p.is_file())
    if not files:
        raise DatasetError("jaquad_no_file", folder=shown_path(path))
    if len(files) > MAX_FILES:
        raise DatasetError(
            "jaquad_too_many_files", folder=shown_path(path), count=len(files), max=MAX_FILES
        )
    return files


def load_jaquad(path: str | Path | None = None) -> Dataset:
    """Load JaQuAD-format data as long documents (the vendored validation split by default).

    Args:
        path: A file in JaQuAD's format, or a folder of such files read in name order (article
            ids must not repeat across them); None for the vendored split (``DEFAULT_PATH``).

    Raises:
        DatasetError: The file or folder is missing (for the vendored split, the message says
            where it is expected), unreadable, or not in JaQuAD's format.
    """
    if path is None:
        if not DEFAULT_PATH.is_dir() or not any(DEFAULT_PATH.glob("*.json")):
            raise DatasetError("jaquad_missing", path=shown_path(DEFAULT_PATH))
        p, name = DEFAULT_PATH, "jaquad"
    else:
        p = Path(path)
        name = p.name
    seen: set[str] = set()
    parts = [build_jaquad(read_json_file(f), name=f.name, seen=seen) for f in jaquad_files(p)]
    documents = tuple(d for part in parts for d in part.documents)
    questions = tuple(q for part in parts for q in part.questions)
    dropped = {k: v for part in parts for k, v in part.dropped.items()}
    return Dataset(
        name, documents, questions, dropped, summary_notes(documents, questions, dropped)
    )
