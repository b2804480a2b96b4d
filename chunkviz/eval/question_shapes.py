"""The shapes of real questions: where a question's words lie around its answer.

Whether a chunking answers a question depends on where the question's words fall relative to its
answer: a few characters away in the answer's own sentence, in a neighbouring sentence that a
sentence-aligned chunk leaves out, or far away (a topic word, a word that points elsewhere). The
``shaped`` synthetic questions (``chunkviz.eval.synthetic``) copy these layouts from people's
questions onto new answers, so that they are hard for the same reasons real questions are.

A shape is one real question's layout, a tuple of pieces ``(sentences, place, length,
paragraph)``; a piece is a longest run of the question's characters (two or more) that occurs in
the document, taken at its occurrence nearest the answer:

- ``sentences == 0``: in the answer's sentence; ``place`` counts the characters between the
  piece and the answer: ``-(gap + 1)`` when the piece ends ``gap`` characters before the answer,
  ``gap`` when it starts ``gap`` characters after it (``0``: it touches or overlaps the answer's
  end);
- ``sentences != 0``: that many sentences before (negative) or after the answer's; ``place`` is
  where in that sentence the piece starts, as a share of the room it leaves (0: at the start,
  1: at the end);
- ``paragraph``: whether the piece lies in the answer's paragraph. JSQuAD's writers saw one
  paragraph: a piece inside it is a word they took from it, a piece outside it is mostly a
  short run their own words share with the rest of the article by chance (half are two
  characters long).

Shapes hold lengths and distances only, never the questions' words. ``SHAPES_FILE`` holds those
of JSQuAD's validation questions (CC BY-SA 4.0, vendored in ``chunkviz/data/jsquad``), made by
``python -m chunkviz shapes --out chunkviz/data/question_shapes.json``; a test keeps the file
equal to what the command computes.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.errors import DatasetError
from chunkviz.paths import package_path
from chunkviz.segment import sentence_spans
from chunkviz.strategies.paragraph import natural_paragraphs
from chunkviz.textio import shown_path

Piece = tuple[int, float, int, bool]
Shape = tuple[Piece, ...]
#: The longest piece looked for: a question rarely copies more of the document in one run.
MAX_PIECE = 40
SHAPES_FILE = ("data", "question_shapes.json")
SOURCE = (
    "JSQuAD v1.3 validation (CC BY-SA 4.0): the layout of each real question around its answer, "
    "lengths and distances only"
)


def _nearest(text: str, piece: str, start: int, end: int) -> int:
    """The occurrence of ``piece`` nearest the answer ``[start, end)`` (one that overlaps wins)."""
    n = len(piece)
    inside = text.find(piece, max(0, start - n + 1), end + n - 1)
    if inside >= 0:
        return inside
    before = text.rfind(piece, 0, start)
    after = text.find(piece, end)
    if before < 0:
        return after
    if after < 0 or start - (before + n) <= after - end:
        return before
    return after


def paragraph_starts(document: Document) -> list[int]:
    """Where ``document``'s paragraphs start: the ``paragraph`` strategy's paragraphs.

    A shape's ``paragraph`` flag is recorded and applied over these, so the JSQuAD questions and
    the shaped questions made from them speak of the same paragraphs.
    """
    return [s for s, _ in natural_paragraphs(document.text, document.paragraph_starts or None)]


def question_shape(
    text: str,
    sentences: Sequence[tuple[int, int]],
    paragraph_starts: Sequence[int],
    question: str,
    answer: str,
    start: int,
    end: int,
) -> Shape:
    """The layout of ``question`` (answered by ``text[start:end]``) over ``text``'s sentences.

    ``paragraph_starts`` are the starts of the document's paragraphs (``paragraph_starts``).

    Linear in the question times the document: each piece grows one character at a time while it
    still occurs (a substring of a present string is present), and its nearest occurrence is one
    search each way.
    """
    starts = [s for s, _ in sentences]
    home = max(0, bisect_right(starts, start) - 1)
    paragraph = bisect_right(paragraph_starts, start)
    pieces: list[Piece] = []
    i = 0
    while i < len(question) - 1:
        length = 0
        for n in range(2, min(MAX_PIECE, len(question) - i) + 1):
            run = question[i : i + n]
            if (answer and (answer in run or run in answer)) or run not in text:
                break
            length = n
        if not length:
            i += 1
            continue
        at = _nearest(text, question[i : i + length], start, end)
        j = max(0, bisect_right(starts, at) - 1)
        if j == home:
            place = float(
                -(start - (at + length) + 1) if at + length <= start else max(0, at - end)
            )
        else:
            s, e = sentences[j]
            place = round(max(0.0, min(1.0, (at - s) / max(1, e - s - length))), 2)
        pieces.append(
            (j - home, place, length, j == home or bisect_right(paragraph_starts, at) == paragraph)
        )
        i += length
    return tuple(pieces)


def dataset_shapes(data: Dataset) -> dict[str, list[Shape]]:
    """Every question's shape, by document id, in the dataset's order."""
    by_doc: dict[str, list[Question]] = {}
    for q in data.questions:
        by_doc.setdefault(q.doc_id, []).append(q)
    out: dict[str, list[Shape]] = {}
    for doc in data.documents:
        questions = by_doc.get(doc.doc_id, [])
        if not questions:
            continue
        sentences = sentence_spans(doc.text)
        paragraphs = paragraph_starts(doc)
        out[doc.doc_id] = [
            question_shape(
                doc.text,
                sentences,
                paragraphs,
                q.question,
                q.answer,
                q.spans[0].start,
                q.spans[0].end,
            )
            for q in questions
            if q.spans
        ]
    return out


def shapes_json(shapes: Mapping[str, Sequence[Shape]]) -> str:
    """The committed file's text: the source, then one line per document."""
    lines = [
        f"  {json.dumps(doc)}: {json.dumps([[list(p) for p in s] for s in v])}"
        for doc, v in shapes.items()
    ]
    return (
        '{\n"source": ' + json.dumps(SOURCE) + ',\n"shapes": {\n' + ",\n".join(lines) + "\n}\n}\n"
    )


def _piece(raw: Any, path: str, doc: str) -> Piece:
    if (
        not isinstance(raw, list)
        or len(raw) != 4
        or not isinstance(raw[0], int)
        or not isinstance(raw[1], int | float)
        or not isinstance(raw[2], int)
        or raw[2] < 2
        or not isinstance(raw[3], bool)
    ):
        raise DatasetError("shape_piece", file=shown_path(path), document=doc, value=repr(raw))
    return (raw[0], float(raw[1]), raw[2], raw[3])


@lru_cache(maxsize=1)
def shipped_shapes() -> Mapping[str, tuple[Shape, ...]]:
    """The shapes shipped with the package (``SHAPES_FILE``), by source document id."""
    path = package_path(*SHAPES_FILE)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))["shapes"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise DatasetError("shapes_unreadable", file=shown_path(path), reason=str(err)) from err
    return {
        doc: tuple(tuple(_piece(p, str(path), doc) for p in shape) for shape in shapes)
        for doc, shapes in raw.items()
    }


def shapes_for(doc_id: str) -> tuple[Shape, ...]:
    """The shipped shapes a document draws from: all but those of its own real questions.

    A JSQuAD article never borrows the layouts of its own questions, so measuring synthetic
    questions against those real ones (``bench/synthetic_validation.py``) stays honest.
    """
    return tuple(
        s for doc, shapes in shipped_shapes().items() if doc != doc_id for s in shapes if s
    )
