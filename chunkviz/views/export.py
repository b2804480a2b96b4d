"""Chunks as plain records for JSON, JSONL and CSV exports (all derived from offsets)."""

from __future__ import annotations

from typing import Any

from chunkviz.model import ChunkingResult


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


def to_csv(result: ChunkingResult) -> str:
    """The chunk records as CSV (index, start, end, length, text, prefix, parent)."""
    import csv
    import io

    buffer = io.StringIO()
    fields = ["index", "start", "end", "length", "text", "prefix", "parent"]
    writer = csv.DictWriter(buffer, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for record in chunk_records(result):
        writer.writerow(record)
    return buffer.getvalue()
