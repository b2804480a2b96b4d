"""The seed study's corpus: JSQuAD articles turned into long documents.

How a document is built (seed 000, "測り方の細部"):

- one document per article (59 in JSQuAD v1.3 validation);
- its paragraphs in NUMERIC paragraph order: the number is the ``pN`` of the question ids
  (``a10336p12q0`` is paragraph 12 of article 10336). The raw JSON lists them in lexicographic
  order (p0, p1, p10, p11, ..., p2), which still passes naive offset checks;
- each context's ``"<title> [SEP] "`` prefix removed, bodies concatenated with no separator, and
  the start of every body kept in ``Document.paragraph_starts`` (the natural-paragraph chunking);
- each question's answer mapped to a span in document coordinates.

Which answer: JSQuAD questions carry up to three answers (often the same text, sometimes a longer
variant). The FIRST answer (``answers[0]``) is the question's answer. A question is dropped when
that answer starts inside the removed title prefix. This rule reproduces the study's counts
exactly: 469 of 4,442 questions dropped, 3,973 kept. (Dropping when ANY answer lies in the prefix
would drop 524; only when ALL do, 404.) The test suite recomputes these numbers from the data.
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
from chunkviz.textio import shown_path

SEPARATOR = " [SEP] "
REASON_IN_TITLE = "the answer lies in the article title, which is removed from the document"

#: The vendored file, shipped as package data: ``chunkviz/data/jsquad/valid-v1.3.json``.
DEFAULT_PATH = package_path("data", "jsquad", "valid-v1.3.json")

_QID = re.compile(r"^(?P<article>.+?)p(?P<paragraph>\d+)q\d+$")


def paragraph_number(paragraph: Mapping[str, Any], *, where: str) -> tuple[str, int]:
    """``(article id, paragraph number)`` read from the paragraph's question ids.

    Raises:
        DatasetError: The paragraph has no questions, an id is not ``<article>p<N>q<M>``, or its
            questions disagree on the paragraph.
    """
    found = set()
    for qa in paragraph.get("qas", []):
        m = _QID.match(str(qa.get("id", "")))
        if m is None:
            raise DatasetError("jsquad_question_id", where=where, id=str(qa.get("id")))
        found.add((m["article"], int(m["paragraph"])))
    if len(found) != 1:
        raise DatasetError(
            "jsquad_paragraph_number", where=where, found=[f"{a}p{n}" for a, n in sorted(found)]
        )
    return found.pop()


def build_jsquad(data: Any, *, name: str = "jsquad") -> Dataset:
    """The long-document Dataset from parsed JSQuAD JSON (see the module docstring).

    Raises:
        DatasetError: The object is not in SQuAD format, a context lacks its title prefix, or
            paragraph numbers cannot be read from question ids.
    """
    documents: list[Document] = []
    questions: list[Question] = []
    dropped: dict[str, str] = {}
    for i, article in enumerate(squad_articles(data, name=name)):
        title = str(article.get("title", ""))
        prefix = title + SEPARATOR
        numbered = []
        for j, paragraph in enumerate(article["paragraphs"]):
            where = Message(
                "where_paragraph", file=Whole(name), article=i, title=title, paragraph=j
            )
            numbered.append((*paragraph_number(paragraph, where=where), paragraph, where))
        article_ids = {a for a, _, _, _ in numbered}
        if len(article_ids) > 1:
            raise DatasetError(
                "jsquad_mixed_ids",
                where=Message("where_article", file=Whole(name), article=i, title=title),
                found=sorted(article_ids),
            )
        doc_id = numbered[0][0] if numbered else f"article-{i}"
        # NOTE: the numeric sort is the whole point; raw order is p0, p1, p10, ..., p2, ...
        numbered.sort(key=lambda item: item[1])
        starts: list[int] = []
        bodies: list[str] = []
        offset = 0
        for _, _, paragraph, where in numbered:
            context = str(paragraph.get("context", ""))
            if not context.startswith(prefix):
                raise DatasetError("jsquad_prefix", where=where, prefix=prefix)
            body = context[len(prefix) :]
            starts.append(offset)
            bodies.append(body)
            questions += paragraph_questions(
                paragraph["qas"],
                context=context,
                skip=len(prefix),
                offset=offset,
                doc_id=doc_id,
                dropped=dropped,
                name=name,
                skip_reason=REASON_IN_TITLE,
            )
            offset += len(body)
        documents.append(Document(doc_id, title, "".join(bodies), tuple(starts)))
    return Dataset(
        name,
        tuple(documents),
        tuple(questions),
        dropped,
        summary_notes(documents, questions, dropped),
    )


def load_jsquad(path: str | Path | None = None) -> Dataset:
    """Load a JSQuAD-format file as long documents (the vendored validation split by default).

    Args:
        path: A file in JSQuAD's format; None for the vendored file (``DEFAULT_PATH``).

    Raises:
        DatasetError: The file is missing (for the vendored file, the message says where it is
            expected), unreadable, or not in JSQuAD's format.
    """
    if path is None:
        if not DEFAULT_PATH.is_file():
            raise DatasetError("jsquad_missing", path=shown_path(DEFAULT_PATH))
        return build_jsquad(read_json_file(DEFAULT_PATH), name="jsquad")
    p = Path(path)
    return build_jsquad(read_json_file(p), name=p.name)
