"""Chunks as plain records for JSON, JSONL and CSV exports (all derived from offsets).

CSV cells are neutralised as OWASP recommends against formula injection ("CSV Injection",
owasp.org/www-community/attacks/CSV_Injection): every cell is quoted, and a text cell that
starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'`` so that a
spreadsheet reads it as text instead of running it. ``start``, ``end`` and ``length`` still refer
to the document; JSON and JSONL carry the text verbatim.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TextIO

from chunkviz.model import ChunkingResult

#: First characters that make a spreadsheet read a cell as a formula (OWASP's list).
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
CSV_FIELDS = ("index", "start", "end", "length", "text", "prefix", "parent")


def chunk_records(result: ChunkingResult) -> list[dict[str, Any]]:
    """One record per chunk: ``index``, ``start``, ``end``, ``length``, ``text``.

    ``prefix`` and ``parent`` are added only when the chunk has them.
    """
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
        records.append(record)
    return records


def to_json(result: ChunkingResult) -> str:
    """The chunking as a JSON document: strategy, params and the chunk records."""
    import json

    payload = {
        "strategy": result.strategy,
        "params": dict(result.params),
        "chunks": chunk_records(result),
    }
    return json.dumps(payload, ensure_ascii=False, indent=2)


def to_jsonl(result: ChunkingResult) -> str:
    """One JSON chunk record per line."""
    import json

    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in chunk_records(result))


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
    import csv

    writer = csv.DictWriter(stream, fieldnames=list(fields), extrasaction="ignore",
                            lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writeheader()
    for record in records:
        writer.writerow({k: csv_cell(v) for k, v in record.items()})


def to_csv(result: ChunkingResult) -> str:
    """The chunk records as CSV (index, start, end, length, text, prefix, parent)."""
    import io

    buffer = io.StringIO()
    write_csv(buffer, chunk_records(result))
    return buffer.getvalue()
