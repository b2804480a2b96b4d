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
