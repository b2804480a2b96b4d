"""Chunks as plain records for JSON, JSONL and CSV exports (all derived from offsets).

CSV cells are neutralised as OWASP recommends against formula injection ("CSV Injection",
owasp.org/www-community/attacks/CSV_Injection): every cell is quoted, and a text cell that
starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'`` so that a
spreadsheet reads it as text instead of running it. ``start``, ``end`` and ``length`` still refer
to the document; JSON and JSONL carry the text verbatim.

Given the ``Document`` and its question report (``chunkviz.views.explore.qa_report``, the one
rule for broken answers), an export also says what it is an export of: the document's name, the
configuration, and for each chunk the questions whose answer it holds whole
(``answers_contained``) and the broken questions whose answer it cuts (``answers_broken``).
Without them (the CLI's ``chunk``), the records are the chunks alone.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from chunkviz.model import ChunkingResult

if TYPE_CHECKING:
    from chunkviz.document import Document
    from chunkviz.text_boundaries import WordCuts
    from chunkviz.views.explore import QAResult

#: First characters that make a spreadsheet read a cell as a formula (OWASP's list).
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
CSV_FIELDS = ("index", "start", "end", "length", "text", "prefix", "parent")
#: Columns a CSV export of a document's chunking adds: where the chunks come from, their QA.
CONTEXT_FIELDS = ("document", "strategy", "params", "answers_contained", "answers_broken")
#: Columns added when the export is given the chunking's cuts inside words (issue 38).
WORD_CUT_FIELDS = ("start_in_word", "end_in_word")


def chunk_records(
    result: ChunkingResult,
    qa: Sequence[QAResult] | None = None,
    word_cuts: WordCuts | None = None,
) -> list[dict[str, Any]]:
    """One record per chunk: ``index``, ``start``, ``end``, ``length``, ``text``.

    ``prefix`` and ``parent`` are added only when the chunk has them. With ``qa`` (the
    question report of this chunking), each record also lists the question ids whose answer the
    chunk holds whole (``answers_contained``) and the broken ones whose answer it cuts
    (``answers_broken``). With ``word_cuts`` (``chunkviz.text_boundaries.word_cuts`` of this
    chunking), each record says whether its start and its end fall inside a word
    (``start_in_word``, ``end_in_word``).
    """
    inside = frozenset(word_cuts.inside) if word_cuts is not None else None
    contained: dict[int, list[str]] = {}
    cut: dict[int, list[str]] = {}
    for r in qa or ():
        for i in r.containing:
            contained.setdefault(i, []).append(r.item.qid)
        if r.status == "broken":
            for i in r.cutting:
                cut.setdefault(i, []).append(r.item.qid)
    records: list[dict[str, Any]] = []
    text = result.text
    for i, c in enumerate(result.chunks):
        record: dict[str, Any] = {
            "index": i,
            "start": c.start,
            "end": c.end,
            "length": c.end - c.start,
            "text": text[c.start : c.end],
        }
        if c.prefix:
            record["prefix"] = c.prefix
        if c.parent is not None:
            record["parent"] = c.parent
        if qa is not None:
            record["answers_contained"] = contained.get(i, [])
            record["answers_broken"] = cut.get(i, [])
        if inside is not None:
            record["start_in_word"] = c.start in inside
            record["end_in_word"] = c.end in inside
        records.append(record)
    return records


def document_name(document: Document) -> str:
    """The name exports give a document: its title (an uploaded file's name), else its id."""
    return document.title or document.doc_id


def document_id(document: Document) -> str:
    """A document's id as exports give it: a sample's name, else a hash of its text.

    An upload's own id is the browser's upload id (``f8712631-…:False``): internal, and another
    on every upload of the same file. The text's hash is the same for the same text.
    """
    if document.origin in ("upload", "paste"):
        digest = hashlib.sha256(document.text.encode("utf-8", "surrogatepass")).hexdigest()
        return f"sha256:{digest[:16]}"
    return document.doc_id


def document_info(document: Document) -> dict[str, Any]:
    """What an export says about its document: name, id, origin, length, question count."""
    return {
        "name": document_name(document),
        "id": document_id(document),
        "origin": document.origin,
        "chars": len(document.text),
        "questions": len(document.questions),
    }


def question_records(qa: Sequence[QAResult]) -> list[dict[str, Any]]:
    """One record per question: id, question, answer, status and the chunks that hold/cut it."""
    return [
        {
            "id": r.item.qid,
            "question": r.item.question,
            "answer": r.item.answer,
            "status": r.status,
            "in_chunks": list(r.containing),
            "cut_by_chunks": list(r.cutting) if r.status == "broken" else [],
        }
        for r in qa
    ]


def export_stem(result: ChunkingResult, document: Document | None = None) -> str:
    """A download's file name stem: ``chunks-<document>-<strategy>``, safe on every system.

    A document's name is the user's text (an uploaded file's name): only letters, digits,
    ``-``, ``_`` and ``.`` are kept, at most 40 of them.
    """
    if document is None:
        return f"chunks-{result.strategy}"
    name = re.sub(r"[^\w.-]+", "_", document_name(document)).strip("._")[:40]
    return f"chunks-{name}-{result.strategy}" if name else f"chunks-{result.strategy}"


def to_json(
    result: ChunkingResult,
    document: Document | None = None,
    qa: Sequence[QAResult] | None = None,
    word_cuts: WordCuts | None = None,
) -> str:
    """The chunking as a JSON document: strategy, params and the chunk records.

    With ``document`` it starts with the document's description (``document_info``); with
    ``qa`` it ends with the questions and their status, and each chunk carries its QA status;
    with ``word_cuts``, ``word_cuts`` counts the cuts and those inside a word.
    """
    payload: dict[str, Any] = {}
    if document is not None:
        payload["document"] = document_info(document)
    payload["strategy"] = result.strategy
    payload["params"] = dict(result.params)
    if word_cuts is not None:
        payload["word_cuts"] = {
            "level": word_cuts.level,
            "cuts": len(word_cuts.cuts),
            "inside_words": word_cuts.count,
        }
    payload["chunks"] = chunk_records(result, qa, word_cuts)
    if qa is not None:
        payload["questions"] = question_records(qa)
    return json.dumps(payload, ensure_ascii=False, indent=2)


def _context(result: ChunkingResult, document: Document | None) -> dict[str, Any]:
    if document is None:
        return {}
    return {
        "document": document_name(document),
        "strategy": result.strategy,
        "params": dict(result.params),
    }


def to_jsonl(
    result: ChunkingResult,
    document: Document | None = None,
    qa: Sequence[QAResult] | None = None,
    word_cuts: WordCuts | None = None,
) -> str:
    """One JSON chunk record per line; each line names its document and configuration if given."""
    context = _context(result, document)
    return "".join(
        json.dumps({**context, **r}, ensure_ascii=False) + "\n"
        for r in chunk_records(result, qa, word_cuts)
    )


def csv_cell(value: Any) -> Any:
    """``value`` made safe for a spreadsheet: a string starting with a formula trigger gets ``'``.

    Numbers and None pass unchanged (a negative number is a number, not a formula).
    """
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def write_csv(
    stream: TextIO, records: Iterable[Mapping[str, Any]], fields: Sequence[str] = CSV_FIELDS
) -> None:
    """Write ``records`` as CSV to ``stream``: every cell quoted and neutralised (``csv_cell``).

    Missing fields are empty and fields outside ``fields`` are left out.
    """
    writer = csv.DictWriter(
        stream,
        fieldnames=list(fields),
        extrasaction="ignore",
        lineterminator="\n",
        quoting=csv.QUOTE_ALL,
    )
    writer.writeheader()
    for record in records:
        writer.writerow({k: csv_cell(v) for k, v in record.items()})


def to_csv(
    result: ChunkingResult,
    document: Document | None = None,
    qa: Sequence[QAResult] | None = None,
    word_cuts: WordCuts | None = None,
) -> str:
    """The chunk records as CSV (index, start, end, length, text, prefix, parent).

    With ``document`` and ``qa``, every row also names the document and the configuration
    (``params`` as JSON) and lists the question ids separated by spaces (``CONTEXT_FIELDS``).
    """
    context = _context(result, document)
    if context:
        context["params"] = json.dumps(context["params"], ensure_ascii=False, sort_keys=True)
    rows = []
    for record in chunk_records(result, qa, word_cuts):
        row = {**context, **record}
        for field in ("answers_contained", "answers_broken"):
            if field in row:
                row[field] = " ".join(row[field])
        rows.append(row)
    fields = (*CSV_FIELDS, *CONTEXT_FIELDS) if context or qa is not None else CSV_FIELDS
    if word_cuts is not None:
        fields = (*fields, *WORD_CUT_FIELDS)
    buffer = io.StringIO()
    write_csv(buffer, rows, fields)
    return buffer.getvalue()
