r"""Bring your own chunks: align another library's chunk texts to exact offsets in the document.

LangChain, LlamaIndex and chonkie hand back chunk *texts*, sometimes with a claimed start index
that was recovered with ``str.find`` (wrong on repeated text), stripped of whitespace, or joined
with text that is not in the document at all. This module finds where each chunk really lies,
under the monotonic rule: chunk ``i + 1`` starts after chunk ``i`` starts, so a repeated passage
is never matched to an earlier copy that a previous chunk already consumed.

Each chunk is searched for, in this order, stopping at the first success:

1. its claimed start, when the text is there, the claim keeps the order and the chunk would not
   lie inside the previous one (where ``str.find`` points on repeated text);
2. exactly, near where the previous chunk ended (a window of a few chunk lengths either side of
   where the chunk is expected to start);
3. with whitespace ignored on both sides (stripped or re-joined whitespace), in that window;
4. piece by piece in that window (``partial``): the chunk's longest runs that are in the
   document, kept when they cover at least 30% of its non-whitespace characters (a chunk that
   holds the pattern ``\s+`` literally is aligned this way);
5. exactly, then ignoring whitespace, anywhere after the previous chunk (the only steps that scan
   the rest of the document, reached only by chunks with nothing near the expected place).

Whatever is not found is reported as ``missing``. Cost: steps 1-4 touch a window bounded by the
chunk's length, so aligning a document's chunks is linear in the document for any library whose
chunks come in document order. Step 5 scans the rest of the document, so a file of chunks that
are nowhere near their place (text of another document) would cost chunks x document; its scans
share a budget of ``_SCAN_BUDGET`` document lengths (at least ``_SCAN_FLOOR`` characters),
after which such chunks are reported missing without a scan.
"""

from __future__ import annotations

import hashlib
import json
import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from chunkviz.errors import InputTextError, Message, Whole
from chunkviz.model import Chunk, ChunkingResult
from chunkviz.textio import (
    decode_bytes,
    json_problem,
    json_values,
    neutral_bidi,
    read_file_bytes,
)

ChunkFormat = Literal["strings", "langchain", "llamaindex", "chonkie"]
Match = Literal["exact", "claimed", "whitespace", "partial", "missing", "empty"]

FORMATS: tuple[ChunkFormat, ...] = ("strings", "langchain", "llamaindex", "chonkie")
STRATEGY = "imported"

_WINDOW_SLACK = 2048  # characters searched past the expected start, beyond 2 chunk lengths
_ANCHOR = 4  # characters that must match to start a partial alignment
_PIECE = 3  # characters that must match to continue one
_PIECE_SLACK = 8  # how far a partial alignment's next piece may lie past the last one
_ANCHOR_TRIES = 256  # places in a chunk tried as the anchor of a partial alignment
_ANCHOR_RADIUS = 128  # how far from its expected place an anchor's occurrences are scored
_CANDIDATES = 8  # occurrences of an anchor scored, nearest to the expected place first
# Steps (one search for a piece, in ``_runs``) the partial alignment of one chunk may take, per
# character of the chunk, plus a floor; and all chunks of one alignment together, per character
# of all chunks, plus a floor. A chunk in its place needs about one step per run of matching
# text; text from elsewhere (a chunk file of another document, a document of one repeated
# character) took 40-100 ms a chunk before, 311 s for 20,000 chunks. Past the file's budget,
# chunks are not searched piece by piece (``AlignmentReport.unsearched``): work stays linear.
_CHUNK_STEPS_PER_CHAR = 8
_CHUNK_STEPS_FLOOR = 64
_FILE_STEPS_PER_CHAR = 2
_FILE_STEPS_FLOOR = 200_000
_SEARCH_STEP = 64  # characters of window an anchor search reads per step it is charged
# Share of a chunk's non-whitespace characters a partial alignment must cover: text the document
# lacks (``\s+`` between every word) can be 40% of a chunk of short English words.
_PARTIAL_SHARE = 0.3
# Characters all step-5 scans of one alignment may read, in document lengths: far more than
# any real chunk list needs (each chunk that needs one at all scans once), and a bound on a
# hostile or mismatched one.
_SCAN_BUDGET = 64
_SCAN_FLOOR = 50_000_000  # ...and at least this many characters (tens of ms of str.find)
_WS = re.compile(r"\s+")

#: Chunk files above this many bytes are refused before they are read.
MAX_CHUNK_FILE_BYTES = 32 * 1024 * 1024
#: At most this many chunks: the count bounds the alignment's work (with its budget).
MAX_IMPORTED_CHUNKS = 20_000
#: Chunk characters allowed per document character (overlap repeats text; 4 is 75% overlap).
MAX_CHARS_PER_DOCUMENT_CHAR = 4
_CHAR_SLACK = 10_000


@dataclass(frozen=True, slots=True)
class ImportedChunk:
    """One chunk as another library returned it.

    Attributes:
        text: The chunk's text.
        start: The start offset the library claimed, or None when it gave none.
        end: The end offset the library claimed, or None.
    """

    text: str
    start: int | None = None
    end: int | None = None


@dataclass(frozen=True, slots=True)
class AlignedChunk:
    """Where one imported chunk lies in the document.

    Attributes:
        index: Position of the chunk in the imported list.
        start: Aligned start offset (None when the chunk could not be aligned).
        end: Aligned end offset (None when the chunk could not be aligned).
        match: How it was found: ``claimed`` (at its claimed start), ``exact`` (its text is in
            the document as-is), ``whitespace`` (equal once whitespace is ignored), ``partial``
            (pieces of it are), ``missing`` or ``empty`` (no text).
        matched: Non-whitespace characters of the chunk found in the document.
        claimed_start: The start the library claimed, if any.
    """

    index: int
    start: int | None
    end: int | None
    match: Match
    matched: int
    claimed_start: int | None

    @property
    def aligned(self) -> bool:
        """Whether the chunk has offsets."""
        return self.start is not None

    @property
    def as_is(self) -> bool:
        """Whether the chunk's text occurs in the document exactly as given."""
        return self.match in ("exact", "claimed")

    @property
    def claim_wrong(self) -> bool:
        """Whether the library claimed a start offset that differs from the true one.

        A claim on a chunk that cannot be aligned at all is wrong too: no offset is right for
        text the document does not hold.
        """
        return self.claimed_start is not None and self.claimed_start != self.start


@dataclass(frozen=True, slots=True)
class Gap:
    """Text of the document that no aligned chunk holds (whitespace at its ends trimmed)."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class AlignmentReport:
    """The result of aligning imported chunks to a document.

    Attributes:
        text: The document.
        format: The chunk format that was read.
        chunks: One entry per imported chunk, in the imported order.
        gaps: Non-whitespace text that no aligned chunk holds, in document order.
        nested: Indices of aligned chunks that lie inside the previous chunk's span; they are
            left out of ``result()`` (offsets there must grow in both start and end, and such
            a chunk adds nothing a span check could see).
        unsearched: Chunks not searched piece by piece because the alignment's budget of work
            was spent (see ``_FILE_STEPS_PER_CHAR``); they count as missing.
    """

    text: str
    format: str
    chunks: tuple[AlignedChunk, ...]
    gaps: tuple[Gap, ...]
    nested: tuple[int, ...] = ()
    unsearched: int = 0

    @property
    def not_as_is(self) -> tuple[AlignedChunk, ...]:
        """Chunks whose text is not in the document exactly as given."""
        return tuple(c for c in self.chunks if not c.as_is and c.match != "empty")

    @property
    def wrong_claims(self) -> tuple[AlignedChunk, ...]:
        """Chunks whose claimed start offset is wrong."""
        return tuple(c for c in self.chunks if c.claim_wrong)

    @property
    def aligned_count(self) -> int:
        """How many chunks have offsets."""
        return sum(1 for c in self.chunks if c.aligned)

    @property
    def uncovered_chars(self) -> int:
        """Characters of the gaps (non-whitespace text no chunk holds, with inner spaces)."""
        return sum(g.end - g.start for g in self.gaps)

    @property
    def digest(self) -> str:
        """Eight hex digits of SHA-256 over the aligned offsets.

        It names the chunking in a run id: two imports with other offsets are other
        configurations.
        """
        blob = json.dumps([[c.start, c.end] for c in self.chunks], separators=(",", ":"))
        return hashlib.sha256(blob.encode("ascii")).hexdigest()[:8]

    def result(self, label: str | None = None) -> ChunkingResult:
        """The aligned chunks as a ``ChunkingResult`` of strategy ``imported``.

        It works wherever a registered strategy's result does (span checks, lost counts, the
        benchmark through ``chunkviz.eval.grid.ImportedConfig``).

        Args:
            label: What to call the chunking in its parameters (default: the format).
        """
        skip = set(self.nested)
        chunks = tuple(
            Chunk(c.start, c.end)
            for c in self.chunks
            if c.start is not None and c.end is not None and c.index not in skip
        )
        params = {
            "format": self.format,
            "source": label or self.format,
            "imported": len(self.chunks),
            "aligned": len(chunks),
        }
        return ChunkingResult(self.text, chunks, STRATEGY, params)


# ----------------------------------------------------------------------------------- reading


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def _one(item: Any, index: int) -> tuple[ChunkFormat, ImportedChunk]:
    if isinstance(item, str):
        return "strings", ImportedChunk(item)
    if not isinstance(item, Mapping):
        raise InputTextError("chunk_type", index=index, kind=type(item).__name__)
    if "kwargs" in item and isinstance(item["kwargs"], Mapping):  # langchain_core.load.dumpd
        item = item["kwargs"]
    if "page_content" in item:
        meta = item.get("metadata") or {}
        start = _as_int(meta.get("start_index")) if isinstance(meta, Mapping) else None
        return "langchain", ImportedChunk(str(item["page_content"]), start)
    text = item.get("text")
    if text is None and isinstance(item.get("text_resource"), Mapping):
        text = item["text_resource"].get("text")
    if not isinstance(text, str):
        raise InputTextError("chunk_no_text", index=index)
    if "start_char_idx" in item or "end_char_idx" in item or "class_name" in item:
        return "llamaindex", ImportedChunk(
            text, _as_int(item.get("start_char_idx")), _as_int(item.get("end_char_idx"))
        )
    if "start_index" in item or "end_index" in item:
        return "chonkie", ImportedChunk(
            text, _as_int(item.get("start_index")), _as_int(item.get("end_index"))
        )
    return "strings", ImportedChunk(text)


def parse_chunks(items: Any) -> tuple[ChunkFormat, tuple[ImportedChunk, ...]]:
    """Read chunks given as plain data (what ``json.load`` returns).

    Args:
        items: A list of strings, LangChain ``Document`` dumps (``page_content``,
            ``metadata.start_index``), LlamaIndex node dumps (``text``, ``start_char_idx``,
            ``end_char_idx``) or chonkie ``Chunk.to_dict()``s (``text``, ``start_index``,
            ``end_index``). A dictionary holding such a list under ``chunks``, ``nodes`` or
            ``documents`` works too.

    Returns:
        The format (the one most items have) and the chunks.

    Raises:
        InputTextError: Not a list, or an item that is none of the formats.
    """
    if isinstance(items, Mapping):
        for key in ("chunks", "nodes", "documents"):
            if isinstance(items.get(key), list):
                items = items[key]
                break
    if isinstance(items, str | bytes) or not isinstance(items, Sequence):
        raise InputTextError("chunks_not_list", kind=type(items).__name__)
    parsed = [_one(item, i) for i, item in enumerate(items)]
    counts = {f: 0 for f in FORMATS}
    for fmt, _ in parsed:
        counts[fmt] += 1
    fmt = max(FORMATS, key=lambda f: counts[f]) if parsed else "strings"
    return fmt, tuple(c for _, c in parsed)


def read_chunks(path: str | Path) -> tuple[ChunkFormat, tuple[ImportedChunk, ...]]:
    """Read a chunk file: a JSON list, or JSONL with one chunk (string or object) per line.

    Raises:
        InputTextError: The file is missing, unreadable, not a regular file, larger than
            ``MAX_CHUNK_FILE_BYTES``, or not one of the formats.
    """
    p = Path(path)
    # The project's one reader: regular files only, size limit before reading, binary refusal,
    # encoding detection (BOM included), JSON bounded before parsing.
    data = read_file_bytes(p, max_bytes=MAX_CHUNK_FILE_BYTES)
    return loads_chunks(decode_bytes(data, name=p.name), p.name)


_CHUNKS_FIX = Message("fix_chunks")


def loads_chunks(raw: str, name: str) -> tuple[ChunkFormat, tuple[ImportedChunk, ...]]:
    """Read chunks from the text of a chunk file: a JSON list, or JSONL (one chunk a line).

    Args:
        raw: The file's text.
        name: What to call the file in messages.

    Raises:
        InputTextError: Neither JSON nor JSONL (nested too deeply, a number too long, ...), or
            not one of the formats.
    """
    problem = json_problem(raw)
    if problem is not None:
        raise InputTextError(
            "chunks_bad_json",
            file=Whole(neutral_bidi(name)),
            problem=Whole(problem),
            fix=_CHUNKS_FIX,
        )
    _check_count(name, json_values(raw))  # before millions of objects are built
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        data = []
        for n, line in enumerate(raw.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                data.append(json.loads(line))
            except (ValueError, RecursionError) as exc:
                reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "not a JSON value"
                raise InputTextError(
                    "chunks_bad_line",
                    file=Whole(neutral_bidi(name)),
                    line=n,
                    problem=Whole(reason),
                    fix=_CHUNKS_FIX,
                ) from None
    except (ValueError, RecursionError):  # json_problem bounds both; kept as a last guard
        raise InputTextError(
            "chunks_not_json", file=Whole(neutral_bidi(name)), fix=_CHUNKS_FIX
        ) from None
    return parse_chunks(data)


def _check_count(name: str, count: int) -> None:
    if count > MAX_IMPORTED_CHUNKS:
        raise InputTextError(
            "chunks_too_many", file=Whole(neutral_bidi(name)), count=count, max=MAX_IMPORTED_CHUNKS
        )


def check_chunks(name: str, chunks: Sequence[ImportedChunk], document_chars: int) -> None:
    """Refuse more chunks, or more chunk text, than an alignment to the document may take.

    Every path that aligns a file of chunks checks it (``audit``, ``tune --chunks``, Tune's
    upload), so none of them does work that another refuses.

    Raises:
        InputTextError: More than ``MAX_IMPORTED_CHUNKS`` chunks, or more chunk text than
            ``MAX_CHARS_PER_DOCUMENT_CHAR`` per document character (plus 10,000).
    """
    _check_count(name, len(chunks))
    name = neutral_bidi(name)
    chars = sum(len(c.text) for c in chunks)
    limit = MAX_CHARS_PER_DOCUMENT_CHAR * document_chars + _CHAR_SLACK
    if chars > limit:
        raise InputTextError(
            "chunks_too_much_text",
            file=Whole(name),
            chars=chars,
            document=document_chars,
            max=limit,
            per_char=MAX_CHARS_PER_DOCUMENT_CHAR,
        )


# ---------------------------------------------------------------------------------- aligning


class _Stripped:
    """The document with whitespace removed, and where each kept character came from."""

    __slots__ = ("_reversed", "origin", "text")

    def __init__(self, text: str) -> None:
        parts: list[str] = []
        origin: list[int] = []
        for m in re.finditer(r"\S+", text):
            parts.append(m.group())
            origin.extend(range(m.start(), m.end()))
        self.text = "".join(parts)
        self.origin = origin
        self._reversed: str | None = None

    @property
    def reversed(self) -> str:
        """The stripped text backwards (made on first use: partial alignment runs backwards)."""
        if self._reversed is None:
            self._reversed = self.text[::-1]
        return self._reversed

    def at_or_after(self, pos: int) -> int:
        """Index in the stripped text of the first kept character at or after ``pos``."""
        return bisect_left(self.origin, pos)

    def span(self, k: int, length: int) -> tuple[int, int]:
        """Document offsets of stripped characters ``[k, k + length)``."""
        return self.origin[k], self.origin[k + length - 1] + 1


class _Budget:
    """Steps of partial alignment left (one step: one search for a piece of a chunk)."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


def _runs(text: str, piece: str, pos: int, budget: _Budget) -> tuple[int, int]:
    r"""Greedily match ``piece``'s runs in ``text`` from ``pos`` on; returns (end, matched).

    A character of ``piece`` that starts no run is skipped (text the document does not hold,
    such as a literal ``\s+``). The next run may start at most ``_PIECE_SLACK`` characters,
    plus as many as were skipped in ``piece`` since the last run, past where the last one
    ended: the document may hold a little text the chunk lacks (a dropped separator), but the
    alignment cannot drift further than the chunk itself does. Each search takes a step of
    ``budget``; the match stops where the budget runs out.
    """
    i, n, matched, last, size, skipped = 0, len(piece), 0, pos, len(text), 0
    while i < n and budget.left > 0:
        budget.left -= 1
        part = piece[i : i + _PIECE]
        # A short leftover at the end of the chunk is too common to look for: only adjacent.
        reach = pos + _PIECE_SLACK + skipped + _PIECE if len(part) == _PIECE else pos + len(part)
        nxt = text.find(part, pos, reach)
        if nxt < 0:
            i += 1
            skipped += 1
            continue
        j = 0
        while i + j < n and nxt + j < size and text[nxt + j] == piece[i + j]:
            j += 1
        matched += j
        i += j
        pos = last = nxt + j
        skipped = 0
    return last, matched


def _partial(
    doc: _Stripped, piece: str, lo: int, expected: int, hi: int, budget: _Budget
) -> tuple[int, int, int] | None:
    """Align ``piece`` (whitespace removed) by its runs found in ``doc.text[lo:hi]``.

    An anchor of ``_ANCHOR`` characters is looked for in the window, nearest to where it
    should be if the chunk starts at ``expected``; from it the runs are matched forwards, and
    backwards on the reversed text, so the span reaches the chunk's first and last characters
    that the document holds.

    Returns:
        ``(first stripped index, last stripped index + 1, characters matched)``, or None when
        no anchor's runs cover ``_PARTIAL_SHARE`` of ``piece`` within ``budget``.
    """
    text, n = doc.text, len(piece)
    if n < _ANCHOR:
        return None
    # Anchors are tried from the chunk's start (a short backward run is the least ambiguous),
    # at most _ANCHOR_TRIES positions of which at most 4 are found and scored.
    positions = range(0, min(n - _ANCHOR + 1, _ANCHOR_TRIES))
    size = len(text)
    tried = 0
    for a in positions:
        if budget.left <= 0:
            break
        budget.left -= 1 + (hi - lo) // _SEARCH_STEP  # the search for the anchor
        anchor = piece[a : a + _ANCHOR]
        k = _nearest(text, anchor, lo, expected + a, hi)
        if k < 0:
            continue
        # On repetitive text the anchor occurs many times near the expected place: score the
        # _CANDIDATES occurrences within _ANCHOR_RADIUS of it nearest to it, keep the best.
        near: list[int] = []
        j = text.find(anchor, max(lo, expected + a - _ANCHOR_RADIUS), hi)
        while 0 <= j <= expected + a + _ANCHOR_RADIUS:
            if j != k:
                near.append(j)
            j = text.find(anchor, j + 1, hi)
        near.sort(key=lambda c: (abs(c - expected - a), c))
        candidates = [k, *near[: _CANDIDATES - 1]]
        best: tuple[int, int, int] | None = None
        for k in candidates:
            end, forward = _runs(text, piece[a:], k, budget)
            back_end, backward = _runs(doc.reversed, piece[:a][::-1], size - k, budget)
            matched = forward + backward
            if best is None or matched > best[2]:
                best = (size - back_end, end, matched)
        if best is not None and best[2] >= _PARTIAL_SHARE * n:
            return best
        tried += 1
        if tried >= 4:
            break
    return None


def _nearest(hay: str, needle: str, lo: int, expected: int, hi: int) -> int:
    """The occurrence of ``needle`` in ``hay[lo:hi]`` whose start is nearest ``expected``.

    Ties go to the later one (at ``expected`` or after); -1 when there is none.
    """
    after = hay.find(needle, expected, hi)
    before = hay.rfind(needle, lo, min(hi, expected - 1 + len(needle))) if expected > lo else -1
    if before >= expected:
        before = -1
    if after < 0:
        return before
    if before < 0:
        return after
    return before if expected - before < after - expected else after


def align_chunks(
    text: str, chunks: Sequence[ImportedChunk | str], *, format: str = "strings"
) -> AlignmentReport:
    """Find each imported chunk's exact offsets in ``text`` (see the module docstring).

    Args:
        text: The document the chunks were made from.
        chunks: The chunks in the order the library returned them (strings are chunks without
            a claimed offset).
        format: The format they were read in, recorded in the report.

    Returns:
        The report: offsets and how each chunk was found, wrong claimed starts, and the text no
        chunk holds.
    """
    doc = _Stripped(text)
    n = len(text)
    out: list[AlignedChunk] = []
    pieces = [_WS.sub("", c if isinstance(c, str) else c.text) for c in chunks]
    # Chunks in their places hold the document's text about once (1.25 times at 20% overlap):
    # beyond twice the document, more chunk text earns no more budget.
    budget = _Budget(
        _FILE_STEPS_PER_CHAR * min(sum(map(len, pieces)), 2 * len(doc.text)) + _FILE_STEPS_FLOOR
    )
    unsearched = 0
    # ``reach``: where the previous chunk ends, or would end if the chunks that could not be
    # aligned since then were where expected (so one lost chunk does not misplace the next).
    prev_start, prev_end, step, reach = -1, 0, 0, 0
    scan_left = max(_SCAN_BUDGET * (n + 1), _SCAN_FLOOR)
    for index, raw in enumerate(chunks):
        item = ImportedChunk(raw) if isinstance(raw, str) else raw
        t, claim = item.text, item.start
        piece = pieces[index]
        lo = prev_start + 1
        if not piece:
            # Whitespace alone cannot be searched for; it is placed only at a claimed start
            # that holds it and keeps the order.
            if t and claim is not None and lo <= claim and text.startswith(t, claim):
                out.append(AlignedChunk(index, claim, claim + len(t), "claimed", 0, claim))
                prev_start, prev_end = claim, max(prev_end, claim + len(t))
                reach = prev_end
            else:
                out.append(AlignedChunk(index, None, None, "empty", 0, claim))
                # It still took its place: the next chunk is expected after it, as after a
                # chunk that could not be aligned (otherwise the gap it leaves reads as a
                # dropped separator, and every later chunk on repeated text slips by one).
                reach = min(n, max(lo, reach + step)) + len(t)
            continue
        # Where the chunk should start if the library keeps its last step (the distance from
        # a chunk's end to the next one's start: 0 for adjacent chunks, -overlap, +1 for a
        # dropped separator). On repeated text the copy nearest to it is taken.
        expected = min(n, max(lo, reach + step))
        hi = min(n, max(prev_end, lo, expected) + 2 * len(t) + _WINDOW_SLACK)
        # The window also ends below: after chunks that could not be aligned, ``expected`` runs
        # ahead of ``lo``, and a window from ``lo`` would grow with every lost chunk.
        wlo = max(lo, expected - 2 * len(t) - _WINDOW_SLACK)
        found: tuple[int, int, Match, int] | None = None
        # A claim inside the previous chunk's span is an earlier copy (str.find's answer on
        # repeated text), not where a next chunk starts: no library nests its chunks.
        if (
            claim is not None
            and lo <= claim
            and claim + len(t) > prev_end
            and text.startswith(t, claim)
        ):
            found = (claim, claim + len(t), "claimed", len(piece))
        if found is None:
            k = _nearest(text, t, wlo, expected, hi + len(t))
            if k >= 0:
                found = (k, k + len(t), "exact", len(piece))
        slo = doc.at_or_after(lo)
        swlo = doc.at_or_after(wlo)
        shi = doc.at_or_after(hi)
        if found is None:
            k = _nearest(doc.text, piece, swlo, doc.at_or_after(expected), shi + len(piece))
            if k >= 0:
                found = (*doc.span(k, len(piece)), "whitespace", len(piece))
        if found is None and budget.left <= 0:
            unsearched += 1
        elif found is None:
            mine = _Budget(
                min(budget.left, _CHUNK_STEPS_PER_CHAR * len(piece) + _CHUNK_STEPS_FLOOR)
            )
            start_left = mine.left
            part = _partial(doc, piece, swlo, doc.at_or_after(expected), shi + len(piece), mine)
            budget.left -= start_left - mine.left
            if part is not None:
                a, b, matched = part
                found = (doc.span(a, 1)[0], doc.span(b - 1, 1)[1], "partial", matched)
        if found is None and scan_left > 0:
            scan_left -= (n - lo) + (len(doc.text) - slo)
            k = text.find(t, lo)
            if k >= 0:
                found = (k, k + len(t), "exact", len(piece))
            else:
                k = doc.text.find(piece, slo)
                if k >= 0:
                    found = (*doc.span(k, len(piece)), "whitespace", len(piece))
        if found is None:
            out.append(AlignedChunk(index, None, None, "missing", 0, claim))
            reach = expected + len(t)
            continue
        start, end, match, matched = found
        out.append(AlignedChunk(index, start, end, match, matched, claim))
        if prev_start >= 0 and reach == prev_end:
            step = start - prev_end
        prev_start, prev_end = start, max(prev_end, end)
        reach = prev_end
    nested: list[int] = []
    reach = 0
    for c in out:
        if c.start is None or c.end is None:
            continue
        if c.end <= reach and reach > 0:
            nested.append(c.index)
        reach = max(reach, c.end)
    return AlignmentReport(text, format, tuple(out), _gaps(text, out), tuple(nested), unsearched)


def _gaps(text: str, chunks: Sequence[AlignedChunk]) -> tuple[Gap, ...]:
    spans = sorted((c.start, c.end) for c in chunks if c.start is not None and c.end is not None)
    gaps: list[Gap] = []
    pos = 0
    for s, e in [*spans, (len(text), len(text))]:
        if s > pos:
            segment = text[pos:s]
            left = len(segment) - len(segment.lstrip())
            right = len(segment.rstrip())
            if right > left:
                gaps.append(Gap(pos + left, pos + right, segment[left:right]))
        pos = max(pos, e)
    return tuple(gaps)


def align_file(text: str, path: str | Path) -> AlignmentReport:
    """Read a chunk file (``read_chunks``), bound it (``check_chunks``), align it to ``text``."""
    fmt, chunks = read_chunks(path)
    check_chunks(Path(path).name, chunks, len(text))
    return align_chunks(text, chunks, format=fmt)


def report_dict(report: AlignmentReport) -> dict[str, Any]:
    """The report as plain data (``chunkviz audit --format json``)."""
    return {
        "format": report.format,
        "chunks": len(report.chunks),
        "aligned": report.aligned_count,
        "not_as_is": [
            {
                "index": c.index,
                "match": c.match,
                "start": c.start,
                "end": c.end,
                "matched_chars": c.matched,
            }
            for c in report.not_as_is
        ],
        "wrong_claims": [
            {"index": c.index, "claimed_start": c.claimed_start, "start": c.start}
            for c in report.wrong_claims
        ],
        "uncovered": [{"start": g.start, "end": g.end, "text": g.text} for g in report.gaps],
        "nested": list(report.nested),
        "unsearched": report.unsearched,
        "offsets": [[c.start, c.end] for c in report.chunks],
    }


def _clip(s: str, width: int = 40) -> str:
    s = s.replace("\n", "\\n")
    return s if len(s) <= width else s[: width - 1] + "…"


def format_report(report: AlignmentReport, *, limit: int = 20) -> str:
    """The report as plain text (what ``chunkviz audit`` prints).

    Args:
        report: The alignment report.
        limit: How many items of each list to print (the counts are always complete).
    """
    total = len(report.chunks)
    as_is = sum(1 for c in report.chunks if c.as_is)
    lines = [
        f"{total} chunks read as {report.format}; {report.aligned_count} aligned to offsets in "
        f"the document ({as_is} found as-is), {total - report.aligned_count} not aligned.",
        f"chunk text not found as-is: {len(report.not_as_is)}",
    ]
    if report.unsearched:
        lines.append(
            f"  {report.unsearched} chunks were not searched piece by piece: the alignment's "
            "budget of work ran out (most chunks are far from any text of the document); check "
            "that the chunks were made from this document"
        )
    for c in report.not_as_is[:limit]:
        where = f"aligned to {c.start}..{c.end}" if c.aligned else "not aligned"
        lines.append(f"  chunk {c.index}: {c.match}, {where} ({c.matched} characters matched)")
    lines.append(f"claimed start indices that are wrong: {len(report.wrong_claims)}")
    for c in report.wrong_claims[:limit]:
        truth = "the text is not in the document" if c.start is None else f"it starts at {c.start}"
        lines.append(f"  chunk {c.index}: claimed {c.claimed_start}, {truth}")
    lines.append(
        f"text no chunk holds: {len(report.gaps)} spans, {report.uncovered_chars} characters"
    )
    for g in report.gaps[:limit]:
        lines.append(f"  {g.start}..{g.end}: {_clip(g.text)!r}")
    if report.nested:
        lines.append(
            f"chunks inside the previous chunk (left out of the chunking): "
            f"{', '.join(map(str, report.nested[:limit]))}"
        )
    return "\n".join(lines)
