"""Users' question/answer pairs: read from CSV or JSON, answers located in the document text.

A pair has ``question`` and ``answer`` and optionally ``document``, the NAME of the document
the answer is in (a file name, or the name the Explore page shows); with a single document it may
be left out. Column names are matched without case; ``質問``, ``回答``/``答え`` and ``文書`` are
accepted for Japanese spreadsheets.

Locating the answer is a search (``chunkviz.locate``, width, compatibility forms and
whitespace aside, as a reader finds it): every occurrence of the answer in the document is found,
overlapping ones included, and every occurrence counts as a relevant span. Nothing is dropped
silently: ``QAPairsReport.issues`` lists each answer that was not found, found more than once,
empty, or aimed at an unknown document.
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

# Re-exported: the loaders and the runner name them from here.
from chunkviz.answers import normalize_pairs as normalize_pairs
from chunkviz.answers import occurrences as occurrences
from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.errors import DatasetError, Message
from chunkviz.locate import find_all, fold
from chunkviz.model import Span
from chunkviz.textio import decode_bytes, loads_json, neutral_bidi, read_file_bytes, read_text_file

IssueKind = Literal["not_found", "multiple", "empty", "unknown_document"]
DEFAULT_DOCUMENT = "document"
#: Most pairs one file may hold: every pair is searched in the document, so the count bounds
#: the work (1.5 million pairs took 104 s and 2.7 GB).
MAX_QA_PAIRS = 50_000


@dataclass(frozen=True, slots=True)
class PairIssue:
    """Something the user should know about one pair.

    Attributes:
        row: 1-based position of the pair in the input (in a CSV, the data row number).
        kind: ``not_found`` / ``empty`` / ``unknown_document`` (pair not kept) or ``multiple``
            (kept; every occurrence counts as relevant).
        question: The question.
        answer: The answer text searched for.
        document: The document it was searched in (or named).
        occurrences: How many times the answer occurs in the document.
    """

    row: int
    kind: IssueKind
    question: str
    answer: str
    document: str
    occurrences: int = 0

    @property
    def kept(self) -> bool:
        """Whether the pair is still among the dataset's questions."""
        return self.kind == "multiple"

    def message(self) -> str:
        """One line for the user, in English."""
        q = f"pair {self.row} ({self.question[:40]!r})"
        if self.kind == "not_found":
            return (
                f"{q}: answer {self.answer[:40]!r} is not in {self.document!r}; "
                "fix the answer text so it matches the document exactly"
            )
        if self.kind == "multiple":
            return (
                f"{q}: answer {self.answer[:40]!r} occurs {self.occurrences} times in "
                f"{self.document!r}; all occurrences count as relevant"
            )
        if self.kind == "empty":
            return f"{q}: the question or the answer is empty; fill both in"
        if not self.document:
            return f"{q}: names no document; add a 'document' column naming the loaded document"
        return (
            f"{q}: document {self.document!r} is not loaded; name one of the loaded documents "
            "in the 'document' column"
        )


@dataclass(frozen=True)
class QAPairsReport:
    """The located pairs as a Dataset, and every issue found while locating them."""

    dataset: Dataset
    issues: tuple[PairIssue, ...]

    @property
    def not_found(self) -> tuple[PairIssue, ...]:
        """Pairs whose answer is not in their document."""
        return tuple(i for i in self.issues if i.kind == "not_found")

    @property
    def multiple(self) -> tuple[PairIssue, ...]:
        """Pairs whose answer occurs more than once (kept, all occurrences relevant)."""
        return tuple(i for i in self.issues if i.kind == "multiple")

    def messages(self) -> list[str]:
        """One line per issue, in input order."""
        return [i.message() for i in self.issues]


def locate_qa_pairs(
    pairs: Sequence[Any], documents: str | Mapping[str, str], *, name: str = "qa pairs"
) -> QAPairsReport:
    """Locate every pair's answer in its document.

    Args:
        pairs: Mappings with ``question``, ``answer`` and optionally ``document`` (what the
            Explore page keeps in ``st.session_state["qa_pairs"]``).
        documents: The document text (named ``"document"``; every pair is searched in it and
            the ``document`` column is ignored), or texts by document name (a pair without a
            ``document`` is searched in the only text, or reported when there are several).
        name: What to call the pairs in messages and in the Dataset.

    Returns:
        The Dataset (one Question per pair kept, with every occurrence as a span) and the issues.

    Raises:
        DatasetError: A pair lacks ``question`` or ``answer``.
    """
    texts = {DEFAULT_DOCUMENT: documents} if isinstance(documents, str) else dict(documents)
    only = next(iter(texts)) if len(texts) == 1 else None
    questions: list[Question] = []
    issues: list[PairIssue] = []
    dropped: dict[str, str] = {}
    for row, pair in enumerate(normalize_pairs(pairs, name=name), start=1):
        qid = f"qa{row}"
        question, answer, doc = pair["question"], pair["answer"], pair["document"]
        if isinstance(documents, str) or (not doc and only is not None):
            doc = only or doc  # a single given text takes every pair
        issue: PairIssue | None = None
        starts: list[int] = []
        places: list[tuple[int, int]] = []
        if not question or not answer:
            issue = PairIssue(row, "empty", question, answer, doc)
        elif doc not in texts:
            issue = PairIssue(row, "unknown_document", question, answer, doc)
        else:
            places = find_all(fold(texts[doc]), answer)
            starts = [a for a, _ in places]
            if not starts:
                issue = PairIssue(row, "not_found", question, answer, doc)
            elif len(starts) > 1:
                issue = PairIssue(row, "multiple", question, answer, doc, len(starts))
        if issue is not None:
            issues.append(issue)
            if not issue.kept:
                dropped[qid] = issue.message()
                continue
        spans = tuple(Span(doc, a, b) for a, b in places)
        questions.append(Question(qid, doc, question, answer, spans))
    dataset = Dataset(
        name,
        tuple(Document(n, n, t) for n, t in texts.items()),
        tuple(questions),
        dropped,
        (
            f"{len(questions)} of {len(questions) + len(dropped)} pairs located",
            *(i.message() for i in issues),
        ),
    )
    return QAPairsReport(dataset, tuple(issues))


def parse_qa_pairs(data: bytes, *, name: str) -> list[dict[str, str]]:
    """Pairs from the bytes of a CSV, JSON or JSON Lines file (UTF-8, Shift_JIS/CP932, EUC-JP).

    The format follows the name's suffix (``.csv``/``.tsv``, ``.json``, ``.jsonl``); for another
    suffix, text starting with ``[`` or ``{`` is JSON and anything else CSV. JSON is a list of
    objects or an object with a ``qa_pairs`` list.

    Raises:
        DatasetError: Malformed JSON or CSV (nested too deeply, a number too long, a field too
            long), a JSON value that is not a list of pairs, a missing column, or more than
            ``MAX_QA_PAIRS`` pairs.
        InputTextError: The bytes are binary or in no detectable encoding.
    """
    text = decode_bytes(data, name=name)
    pairs = _parse(text, name)
    if len(pairs) > MAX_QA_PAIRS:
        raise DatasetError("qa_too_many", file=name, max=MAX_QA_PAIRS)
    return normalize_pairs(pairs, name=name)


def _parse(text: str, name: str) -> list[Any]:
    """The raw pairs of a CSV, JSON or JSON Lines text (at most ``MAX_QA_PAIRS + 1``)."""
    suffix = Path(name).suffix.lower()
    stripped = text.lstrip()
    if suffix == ".jsonl":
        lines = itertools.islice(
            ((n, ln) for n, ln in enumerate(text.splitlines(), start=1) if ln.strip()),
            MAX_QA_PAIRS + 1,
        )
        pairs: Any = [
            loads_json(
                line,
                name,
                line=n,
                what="JSON Lines",
                error=DatasetError,
                fix=Message("fix_qa_jsonl"),
            )
            for n, line in lines
        ]
    elif suffix == ".json" or (suffix not in (".csv", ".tsv") and stripped[:1] in ("[", "{")):
        pairs = loads_json(text, name, error=DatasetError, fix=Message("fix_qa_json"))
        if isinstance(pairs, Mapping) and isinstance(pairs.get("qa_pairs"), list):
            pairs = pairs["qa_pairs"]
        if not isinstance(pairs, list):
            raise DatasetError("qa_not_list", file=name, kind=type(pairs).__name__)
    else:
        delimiter = "\t" if suffix == ".tsv" else ","
        reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
        if not reader.fieldnames:
            raise DatasetError("qa_empty", file=name)
        try:
            pairs = list(itertools.islice(reader, MAX_QA_PAIRS + 1))
        except csv.Error as exc:
            raise DatasetError(
                "qa_bad_csv",
                file=name,
                line=reader.line_num,
                reason=str(exc),
                limit=csv.field_size_limit(),
            ) from None
        if not pairs:
            normalize_pairs([dict.fromkeys(reader.fieldnames, "")], name=name)  # names the column
    return list(pairs)


def read_qa_pairs(path: str | Path) -> list[dict[str, str]]:
    """Pairs from a CSV, JSON or JSON Lines file on disk (see ``parse_qa_pairs``).

    Raises:
        DatasetError: The file cannot be read or parsed, or a column is missing.
    """
    p = Path(path)
    return parse_qa_pairs(read_file_bytes(p, error=DatasetError), name=neutral_bidi(p.name))


def load_qa_dataset(pairs_path: str | Path, document_paths: Sequence[str | Path]) -> Dataset:
    """The Dataset of a QA pairs file over document files (named by their file names).

    Issues (answers not found or found several times) are in ``Dataset.notes`` and, for pairs
    not kept, in ``Dataset.dropped``.

    Raises:
        DatasetError: A file cannot be read or parsed, or a column is missing.
        InputTextError: A document is binary or undecodable.
    """
    documents = {Path(d).name: read_text_file(d, newlines="lf") for d in document_paths}
    pairs = read_qa_pairs(pairs_path)
    return locate_qa_pairs(pairs, documents, name=Path(pairs_path).name).dataset
