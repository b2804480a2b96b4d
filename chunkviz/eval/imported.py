"""An uploaded chunk file, aligned to one document: a chunking the app can select like a strategy.

``import_chunks`` bounds the file before it parses it (bytes, then the number of chunks and
their characters, which bound the alignment's work), reads it as ``chunkviz audit`` does
(``chunkviz.eval.align``) and aligns it to the document. The result is a value: the aligned
offsets (never the uploaded bytes), the file's name, the report, and an ``id`` that digests the
document's text and the offsets. A configuration names it as ``(IMPORTED, {"id": id})``; the
cache layer resolves that id where chunking happens (``chunkviz.ui.resources.chunk_cached``).
``imported_config`` makes it a configuration of the benchmark runner (Tune's grid, the CLI's
``tune --chunks``), labelled ``imported-<id>`` in both.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from chunkviz.errors import InputTextError, Whole
from chunkviz.eval.align import (
    MAX_CHARS_PER_DOCUMENT_CHAR,
    MAX_CHUNK_FILE_BYTES,
    MAX_IMPORTED_CHUNKS,
    STRATEGY,
    AlignmentReport,
    align_chunks,
    check_chunks,
    loads_chunks,
)
from chunkviz.eval.grid import ImportedConfig
from chunkviz.model import ChunkingResult
from chunkviz.textio import decode_bytes

#: The reserved strategy name of an imported chunking (not in the registry).
IMPORTED = STRATEGY
__all__ = [
    "IMPORTED",
    "MAX_CHARS_PER_DOCUMENT_CHAR",
    "MAX_CHUNK_FILE_BYTES",
    "MAX_IMPORTED_CHUNKS",
    "ImportedChunking",
    "check_chunk_file",
    "import_chunks",
    "imported_config",
    "imported_label",
]


@dataclass(frozen=True)
class ImportedChunking:
    """Chunks from another library, aligned to one document.

    Attributes:
        id: 16 hex digits of SHA-256 over the document's text and the aligned offsets.
        name: The uploaded file's name (the user's text: escape it when rendered).
        report: The alignment report (offsets, chunks not found as-is, wrong claimed starts,
            text no chunk holds).
        result: The aligned chunking of the document, strategy ``imported``.
    """

    id: str
    name: str
    report: AlignmentReport
    result: ChunkingResult

    def matches(self, text: str) -> bool:
        """Whether the chunks were aligned to ``text``."""
        return self.result.text == text


def check_chunk_file(size: int, name: str) -> None:
    """Refuse a chunk file of more than ``MAX_CHUNK_FILE_BYTES`` (before reading it).

    Raises:
        InputTextError: The file is too large.
    """
    if size > MAX_CHUNK_FILE_BYTES:
        raise InputTextError(
            "chunks_too_large",
            file=Whole(name),
            mb=f"{size / 1e6:.1f}",
            max_mib=MAX_CHUNK_FILE_BYTES // (1024 * 1024),
        )


def import_chunks(data: bytes, name: str, text: str) -> ImportedChunking:
    """Read a chunk file's bytes (JSON list or JSONL) and align its chunks to ``text``.

    Args:
        data: The file's content.
        name: The file's name (for messages and labels).
        text: The document the chunks were made from.

    Returns:
        The aligned chunking.

    Raises:
        InputTextError: The file is larger than ``MAX_CHUNK_FILE_BYTES``, not text, neither
            JSON nor JSONL, not a chunk format, holds more than ``MAX_IMPORTED_CHUNKS``
            chunks or far more chunk text than the document has.
    """
    check_chunk_file(len(data), name)
    fmt, chunks = loads_chunks(decode_bytes(data, name=name), name)
    check_chunks(name, chunks, len(text))
    report = align_chunks(text, chunks, format=fmt)
    result = report.result(name)
    if not result.chunks:
        raise InputTextError("chunks_none_aligned", file=Whole(name), count=len(chunks), format=fmt)
    h = hashlib.sha256(text.encode("utf-8", "surrogatepass"))
    h.update(json.dumps([[c.start, c.end] for c in result.chunks]).encode("ascii"))
    return ImportedChunking(h.hexdigest()[:16], name, report, result)


def imported_label(chunking: ImportedChunking) -> str:
    """The label of an imported chunking in a grid and a results file: ``imported-<id>``.

    An id, not the file name: labels reach figures and results files, a file name is the
    user's text.
    """
    return f"{IMPORTED}-{chunking.id[:8]}"


def imported_config(chunking: ImportedChunking, doc_id: str) -> ImportedConfig:
    """The chunking as a configuration of the benchmark runner, for the document ``doc_id``."""
    return ImportedConfig(
        imported_label(chunking),
        IMPORTED,
        {"file": chunking.name, "offsets": chunking.report.digest},
        {doc_id: chunking.result},
    )
