"""MTCB in and out: chonkie's Massive Text Chunking Benchmark's dataset layout.

MTCB (github.com/chonkie-inc/mtcb) publishes each dataset as a Hugging Face dataset with two
configurations, each with one ``train`` split, stored as ``corpus/train-*.parquet`` and
``questions/train-*.parquet``:

- ``corpus``: one row per document, its text in ``text`` (a few datasets use ``content``);
- ``questions``: one row per question, ``question`` and ``chunk-must-contain``, a passage copied
  from a document (older files call it ``supporting_passage``). MTCB counts a retrieved chunk as
  relevant when the passage is a substring of the chunk's text.

``read_mtcb(folder)`` reads such a folder (a snapshot of the hub repository, parquet, or the JSON
Lines ``write_mtcb`` writes) as a ``Dataset``: each passage becomes the spans of its exact
occurrences in the first document that holds it (MTCB's own nano datasets map a question to that
document), so "a chunk contains a span" is MTCB's "the chunk contains the passage" within that
document. ``write_mtcb(dataset, folder)`` writes chunkviz's corpora in that layout (JSON Lines,
with the ``configs`` card ``datasets.load_dataset(folder, "questions")`` reads), each question's
passage being its answer span's text.

What maps and what does not:

- A chunkviz question is a span (document, start, end); an MTCB question is a passage. An
  exported question keeps its spans in extra columns (``document_id``, ``spans``) and the
  corpus keeps ``id`` and ``paragraph_starts``, so reading the export back gives the same
  documents, questions and spans, and the same scores. MTCB itself ignores these columns.
- A passage read from MTCB's own files has no position: every exact occurrence in its document
  counts, as MTCB's substring rule counts any of them; an occurrence in a *second* document
  counts for MTCB but not here (the count of such passages is in the dataset's notes).
- A passage found in no document is dropped and listed (MTCB would count it a miss).
- A JSQuAD question's other annotated answers (``alternatives``) have no MTCB column and are not
  exported; only the sensitivity definition "any annotated answer" uses them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from chunkviz.answers import occurrences
from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.errors import DatasetError, Message
from chunkviz.model import Span
from chunkviz.textio import (
    MAX_BYTES,
    check_regular_file,
    loads_json,
    read_file_bytes,
    shown_path,
)

CONFIGS = ("corpus", "questions")
PASSAGE = "chunk-must-contain"
#: Column names MTCB's older files use.
OLD_PASSAGE = "supporting_passage"
OLD_TEXT = "content"
#: Largest MTCB folder read, over all its files (the full Gacha corpus is about 60 MB).
MAX_TOTAL_BYTES = 4 * MAX_BYTES
#: The dataset card that tells ``datasets.load_dataset`` which files make each configuration.
CARD = """---
configs:
- config_name: corpus
  data_files:
  - split: train
    path: corpus/train-*
- config_name: questions
  data_files:
  - split: train
    path: questions/train-*
---
# {name}

Exported by chunkviz in MTCB's layout (github.com/chonkie-inc/mtcb): `corpus` (`id`, `title`,
`text`) and `questions` (`question`, `chunk-must-contain`, and chunkviz's `id`, `answer`,
`document_id`, `spans`).
"""
FIX = Message("fix_mtcb")


def _files(folder: Path, config: str) -> list[Path]:
    sub = folder / config
    found = (
        sorted(p for p in sub.glob("*") if p.suffix in (".parquet", ".jsonl"))
        if sub.is_dir()
        else []
    )
    found += [p for p in (folder / f"{config}.jsonl", folder / f"{config}.parquet") if p.is_file()]
    if not found:
        raise DatasetError("mtcb_no_files", folder=shown_path(folder), config=config, fix=FIX)
    return found


def _rows(path: Path) -> Iterator[Mapping[str, Any]]:
    if path.suffix == ".parquet":
        check_regular_file(path, error=DatasetError)
        try:
            import pyarrow.parquet as pq
        except ImportError:
            raise DatasetError("mtcb_needs_pyarrow", file=shown_path(path.name)) from None
        try:
            table = pq.read_table(path)
        except Exception as exc:  # noqa: BLE001 - pyarrow raises many types on a bad file
            raise DatasetError(
                "mtcb_bad_parquet", file=shown_path(path.name), reason=str(exc), fix=FIX
            ) from None
        yield from table.to_pylist()
        return
    try:
        text = read_file_bytes(path, error=DatasetError).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DatasetError(
            "mtcb_not_utf8", file=shown_path(path.name), reason=exc.reason, byte=exc.start, fix=FIX
        ) from None
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        row = loads_json(line, path.name, line=n, fix=FIX, error=DatasetError)
        if not isinstance(row, dict):
            raise DatasetError("mtcb_not_object", file=shown_path(path.name), line=n, fix=FIX)
        yield row


def _text(row: Mapping[str, Any], file: str, number: int) -> str:
    value = row.get("text") or row.get(OLD_TEXT)
    if not isinstance(value, str):
        raise DatasetError("mtcb_no_text", file=shown_path(file), document=number, fix=FIX)
    return value


def _int_list(value: Any) -> tuple[int, ...]:
    if isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        return tuple(value)
    return ()


def read_mtcb(folder: str | Path) -> Dataset:
    """Read an MTCB dataset folder (``corpus/`` and ``questions/``) as a ``Dataset``.

    Raises:
        DatasetError: A missing folder or file, too large a folder, a row without text,
            question or passage, or no question whose passage is in the corpus.
    """
    root = Path(folder)
    if not root.is_dir():
        raise DatasetError("mtcb_not_folder", folder=shown_path(root), fix=FIX)
    files = {config: _files(root, config) for config in CONFIGS}
    total = sum(p.stat().st_size for paths in files.values() for p in paths)
    if total > MAX_TOTAL_BYTES:
        raise DatasetError(
            "mtcb_too_large", folder=shown_path(root), bytes=total, max=MAX_TOTAL_BYTES
        )
    documents: list[Document] = []
    seen: set[str] = set()
    for path in files["corpus"]:
        for row in _rows(path):
            raw_id = row.get("id", row.get("doc_id"))
            doc_id = str(raw_id) if raw_id is not None else f"d{len(documents)}"
            if doc_id in seen:
                raise DatasetError(
                    "mtcb_id_twice",
                    file=shown_path(path.name),
                    document=len(documents) + 1,
                    id=doc_id,
                    fix=FIX,
                )
            seen.add(doc_id)
            text = _text(row, path.name, len(documents) + 1)
            starts = tuple(s for s in _int_list(row.get("paragraph_starts")) if 0 <= s < len(text))
            documents.append(
                Document(doc_id, str(row.get("title") or doc_id), text, paragraph_starts=starts)
            )
    by_id = {d.doc_id: d for d in documents}
    questions: list[Question] = []
    dropped: dict[str, str] = {}
    elsewhere = 0
    count = 0
    for path in files["questions"]:
        for row in _rows(path):
            count += 1
            qid = str(row.get("id") or f"q{count}")
            question = row.get("question")
            passage = row.get(PASSAGE) or row.get(OLD_PASSAGE)
            if not isinstance(question, str) or not isinstance(passage, str) or not passage:
                dropped[qid] = "no question or no chunk-must-contain passage"
                continue
            span = _exported_span(row, passage, by_id)
            if span is not None:
                doc, spans = span
            else:
                holders = [d for d in documents if passage in d.text]
                if not holders:
                    dropped[qid] = "passage found in no document"
                    continue
                doc = holders[0]
                elsewhere += len(holders) > 1
                spans = tuple(
                    Span(doc.doc_id, s, s + len(passage)) for s in occurrences(doc.text, passage)
                )
            answer = row.get("answer")
            questions.append(
                Question(
                    qid, doc.doc_id, question, answer if isinstance(answer, str) else passage, spans
                )
            )
    if not questions:
        raise DatasetError("mtcb_no_question", folder=shown_path(root), count=count, fix=FIX)
    notes = [f"{len(documents)} documents, {len(questions)} questions kept"]
    if elsewhere:
        notes.append(
            f"{elsewhere} passages also occur in another document (MTCB would count "
            "a chunk of that document; here only the first document's occurrences "
            "count)"
        )
    if dropped:
        notes.append(f"{len(dropped)} questions dropped (see dropped)")
    return Dataset(root.name, tuple(documents), tuple(questions), dropped, tuple(notes))


def _exported_span(
    row: Mapping[str, Any], passage: str, by_id: Mapping[str, Document]
) -> tuple[Document, tuple[Span, ...]] | None:
    """The spans chunkviz exported with the passage, when they are there and still valid.

    ``spans`` is every answer span of the question (``[start, end]`` pairs in
    ``document_id``); the first is the passage's.
    """
    doc = by_id.get(str(row.get("document_id")))
    pairs = row.get("spans")
    if doc is None or not isinstance(pairs, list) or not pairs:
        return None
    spans = []
    for pair in pairs:
        bounds = _int_list(pair)
        if len(bounds) != 2 or not 0 <= bounds[0] < bounds[1] <= len(doc.text):
            return None
        spans.append(Span(doc.doc_id, bounds[0], bounds[1]))
    if doc.text[spans[0].start : spans[0].end] != passage:
        return None
    return doc, tuple(spans)


def _jsonl(rows: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")


def write_mtcb(dataset: Dataset, folder: str | Path) -> Path:
    """Write ``dataset`` in MTCB's layout (JSON Lines) into ``folder``; returns the folder.

    A question's passage (``chunk-must-contain``) is the text of its first answer span; a
    question without a span is left out (MTCB has no place for it). Files are written
    atomically: a reader never sees half a file.

    Raises:
        ResultsFileError: The folder cannot be written.
    """
    from chunkviz.atomic import write_atomically
    from chunkviz.eval.results import check_writable

    root = check_writable(folder, "--out")
    by_id = {d.doc_id: d for d in dataset.documents}
    corpus = [
        {
            "id": d.doc_id,
            "title": d.title,
            "text": d.text,
            "paragraph_starts": list(d.paragraph_starts),
        }
        for d in dataset.documents
    ]
    questions = []
    for q in dataset.questions:
        spans = [s for s in q.spans if s.doc_id == q.doc_id]
        if not spans or q.doc_id not in by_id:
            continue
        first = spans[0]
        questions.append(
            {
                "id": q.qid,
                "question": q.question,
                PASSAGE: by_id[q.doc_id].text[first.start : first.end],
                "answer": q.answer,
                "document_id": q.doc_id,
                "spans": [[s.start, s.end] for s in spans],
            }
        )
    write_atomically(root / "corpus" / "train-00000-of-00001.jsonl", _jsonl(corpus), "--out")
    write_atomically(root / "questions" / "train-00000-of-00001.jsonl", _jsonl(questions), "--out")
    write_atomically(root / "README.md", CARD.format(name=dataset.name).encode("utf-8"), "--out")
    return root
