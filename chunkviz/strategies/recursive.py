"""Recursive splitting: cut at the coarsest separator that makes pieces fit, then pack them.

The algorithm works on integer offsets only (pieces are never copied as strings):

1. **Pieces.** The text is cut after every match of the first separator (blank line); each
   separator stays with the piece before it, so pieces tile the text. A piece that fits in
   ``size`` is kept whole; a piece that does not is cut again with the next separator
   (line break, sentence end ``。！？ . ! ?``, ``、`` and ``,``, whitespace), and so on down to
   single characters (``unit="chars"``) or single tokens (``unit="tokens"``). Sentence ends come
   before ``、``: LangChain's Japanese recipe lists ``、`` first and so cuts at commas although a
   sentence end is in reach. Each level scans the over-long piece only, with one regex per
   separator character (a literal first character is found fastest); in ranges of 200,000
   characters or more, Japanese sentence ends are located with numpy over the code points and
   the regex runs only where a bracket, another terminator, a space or と follows.
2. **Packing.** Chunks take consecutive pieces greedily: a chunk grows while the next piece still
   fits in ``size``. Chunk ends are therefore always piece ends. Pieces of different levels are
   packed together (the sentences of an over-long paragraph may share a chunk with the short
   paragraph before it); LangChain instead merges only pieces of one level and starts a new
   chunk around every over-long piece, which gives more, smaller chunks.
3. **Overlap.** The next chunk starts with the longest run of *whole* trailing pieces of the
   previous chunk whose length is at most ``overlap``, shortened from its front if the next new
   piece would not fit in ``size`` with it, and never the whole previous chunk (so every chunk
   starts after the one before and ends after it). Overlap is thus at most ``overlap`` and is 0
   where the last piece alone is longer than ``overlap``; it is never cut inside a piece.

The chunks tile the text (``gaps="none"``): separators and whitespace belong to a chunk.

Sizes in tokens count the tokens of the document's own tokenization that a chunk overlaps (a
token cut by a chunk boundary counts on both sides), from the tokenizer's offsets; re-tokenizing
a chunk on its own can differ by a token at its edges (SentencePiece's leading ``▁``).

Packing uses binary search over the piece offsets (or token keys), so it costs
O(chunks · log pieces) Python steps; finding the over-long pieces uses C-level iteration.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, compress, count
from operator import sub
from typing import Any, Literal

import numpy as np

from chunkviz.model import ChunkingResult, ChunkSequence
from chunkviz.segment import (
    BLANK_REST,
    JA_TERMINATOR_FOLLOWERS,
    SENTENCE_SEPARATORS,
    sentence_spans,
)
from chunkviz.strategies.common import OVERLAP, SIZE, UNIT, Unit, resolve_tokenizer
from chunkviz.strategies.packing import Bounds
from chunkviz.strategies.registry import Strategy, register
from chunkviz.strategies.snap import MAX_SHIFT, SNAP, Snap
from chunkviz.text_boundaries import Level, code_points, text_boundaries
from chunkviz.tokenizers import Tokenizer, token_boundaries


@dataclass(frozen=True, slots=True)
class Separator:
    """One level of separators: every match of one of its patterns ends a piece.

    Attributes:
        name: What the level cuts at.
        patterns: ``(literal, regex)`` pairs; every regex match is a separator (kept with the
            piece before it). ``literal`` is the character each match starts with, or "" when
            there is none: ``str.find`` skips a pattern whose literal does not occur in the
            range (and the prefix before its first occurrence), and the regex engine itself
            finds a literal first character several times faster than a character class.
        single: Literals whose separator is that one character unless the next character is
            in ``followers`` or the previous one in ``leaders``; long ranges find them with
            numpy instead of a regex match each.
        followers: See ``single``.
        leaders: See ``single`` (a terminator right after another one is inside a run, where
            the regex decides; ``chunkviz.segment`` explains why).
    """

    name: str
    patterns: tuple[tuple[str, re.Pattern[str]], ...]
    single: frozenset[str] = frozenset()
    followers: str = ""
    leaders: str = ""

    def cut_array(
        self, text: str, start: int, end: int, absent: set[str] | None = None
    ) -> list[int] | Any:
        """Ends of the separator matches in ``text[start:end]``, increasing, without repeats.

        A numpy array when the range is long enough for the numpy fast path, else a list.
        ``absent`` holds literals known not to occur in the range: they are not searched for,
        and the literals this call finds missing are added to it (levels share literals, and a
        literal missing from a range is missing from every part of it).
        """
        found: list[Any] = []  # lists of ends, or numpy arrays from the fast path
        codes = None
        for literal, pattern in self.patterns:
            if absent is not None and literal in absent:
                continue
            first = text.find(literal, start, end) if literal else start
            if first < 0:
                if absent is not None:
                    absent.add(literal)
                continue
            ends = None
            if literal and end - first >= _VECTOR_MIN:
                if codes is None:
                    codes = code_points(text, start, end)
                if literal in self.single:
                    ends = _single_char_cuts(
                        text, start, end, codes, literal, pattern, self.followers, self.leaders
                    )
                else:
                    ends = _candidate_cuts(text, start, end, codes, literal, pattern)
            if ends is None:
                ends = list(map(_match_end, pattern.finditer(text, first, end)))
            if len(ends):
                found.append(ends)
        if codes is not None and found:
            # Sort, then drop the repeats of separators that end at the same offset (np.unique's
            # hash-based default is many times slower on large int arrays).
            merged = np.sort(np.concatenate(found), kind="stable")
            if merged.size > 1:
                merged = merged[np.concatenate(([True], merged[1:] != merged[:-1]))]
            return merged
        if len(found) <= 1:
            return found[0] if found else []
        # Sorting concatenated sorted runs is a merge for Timsort; dict.fromkeys drops repeats.
        return list(dict.fromkeys(sorted(chain.from_iterable(found))))


_match_end = re.Match.end  # mapped over finditer: no Python-level loop per match

# Ranges shorter than this use the regex alone (numpy's fixed costs do not pay off: measured
# slower on the one 36,000-character JSQuAD article, faster on the 20 MB text).
_VECTOR_MIN = 200_000


def _single_char_cuts(
    text: str,
    start: int,
    end: int,
    codes: Any,
    literal: str,
    pattern: re.Pattern[str],
    followers: str,
    leaders: str = "",
) -> Any:
    """The ends ``pattern.finditer`` gives, as a numpy array, without a match object each.

    Where ``literal`` is followed by a character outside ``followers`` (or ends the range) and
    preceded by one outside ``leaders`` (looking before the range too, as the regex's lookbehind
    does), the separator is that one character; elsewhere the regex decides. Ends come out
    non-decreasing (a match starting inside an earlier one, as in the run ``。。``, ends where
    that one does), so repeats are adjacent and dropped.
    """
    at = np.flatnonzero(codes == ord(literal))
    ends = at + (start + 1)
    inside = ends < end
    special = np.zeros(at.size, dtype=bool)
    special[inside] = np.isin(codes[at[inside] + 1], [ord(c) for c in followers])
    if leaders and at.size:
        special[at > 0] |= np.isin(codes[at[at > 0] - 1], [ord(c) for c in leaders])
        if at[0] == 0 and start > 0 and text[start - 1] in leaders:
            special[0] = True
    keep = np.ones(at.size, dtype=bool)
    for i in np.flatnonzero(special).tolist():
        m = pattern.match(text, int(at[i]) + start, end)
        if m is None:
            keep[i] = False
        else:
            ends[i] = m.end()
    ends = ends[keep]
    if ends.size:
        ends = ends[np.concatenate(([True], ends[1:] != ends[:-1]))]
    return ends


# A regex scan costs about as much per character as a regex match costs per this many
# characters: with fewer candidates than (range length / this), matching at each occurrence of
# the literal found by numpy beats scanning the range with the regex.
_CHARS_PER_CANDIDATE = 500


def _candidate_cuts(
    text: str, start: int, end: int, codes: Any, literal: str, pattern: re.Pattern[str]
) -> Any:
    """The ends ``pattern.finditer(text, start, end)`` gives, from a match at each ``literal``.

    Every match starts with ``literal``, so trying the occurrences in order, skipping those
    inside the previous match, is what finditer does. Returns None when the occurrences are
    so many that the regex scan is cheaper.
    """
    at = np.flatnonzero(codes == ord(literal))
    if at.size * _CHARS_PER_CANDIDATE > end - start:
        return None
    out: list[int] = []
    last = start
    match = pattern.match
    for position in (at + start).tolist():
        if position < last:
            continue
        m = match(text, position, end)
        if m is not None:
            last = m.end()
            out.append(last)
    return np.array(out, dtype=np.int64)


def _level(name: str, *patterns: tuple[str, str]) -> Separator:
    return Separator(name, tuple((lit, re.compile(src)) for lit, src in patterns))


#: Default separator levels, coarsest first.
DEFAULT_SEPARATORS: tuple[Separator, ...] = (
    _level("blank line", ("\n", "\n" + BLANK_REST), ("\r", "\r\n?" + BLANK_REST)),
    _level("line break", ("\n", r"\n\s*"), ("\r", r"\r\s*")),
    # 。！？ with closing brackets; . ! ? before whitespace (see chunkviz.segment)
    Separator(
        "sentence end", SENTENCE_SEPARATORS, frozenset("。！？"), JA_TERMINATOR_FOLLOWERS, "。！？"
    ),
    _level("comma", ("、", r"、\s*"), ("，", r"，\s*"), (",", r",\s+")),
    _level("whitespace", ("", r"\s+")),
)

#: Index of the comma level in DEFAULT_SEPARATORS (sentence falls back from here).
CLAUSE_LEVEL = 3


@dataclass(frozen=True, slots=True)
class BoundaryLevel(Separator):
    """A level that cuts at word or phrase boundaries (``snap``), before single characters.

    A word longer than ``max_shift`` characters is cut between its characters right away, so a
    chunk end moves back by fewer than ``max_shift`` characters from where the character level
    would have cut; shorter words stay whole. The boundaries are computed only when a piece
    reaches this level (most texts never need it: sentences and commas fit first).

    Attributes:
        level: ``word`` or ``phrase`` (``chunkviz.text_boundaries``).
        max_shift: Longest word kept whole, in characters.
    """

    level: Level = "word"
    max_shift: int = 0

    def cut_array(
        self, text: str, start: int, end: int, absent: set[str] | None = None
    ) -> list[int] | Any:
        """Boundaries in ``(start, end]`` plus every offset inside a word over ``max_shift``."""
        positions = text_boundaries(text, self.level).positions
        lo = int(np.searchsorted(positions, start, side="right"))
        hi = int(np.searchsorted(positions, end, side="right"))
        cuts = np.concatenate((positions[lo:hi], [end])).astype(np.int64)
        lengths = np.diff(cuts, prepend=start)
        long_words = np.flatnonzero(lengths > self.max_shift)
        if long_words.size:
            pieces = [cuts]
            for i in long_words.tolist():
                word_end = int(cuts[i])
                pieces.append(np.arange(word_end - int(lengths[i]) + 1, word_end, dtype=np.int64))
            cuts = np.concatenate(pieces)
            cuts.sort(kind="stable")
        cuts = cuts[np.concatenate(([True], cuts[1:] != cuts[:-1]))]
        return cuts.tolist() if end - start < _VECTOR_MIN else cuts


def snap_separators(snap: Snap, max_shift: int) -> tuple[Separator, ...]:
    """The default levels, with a word or phrase level before single characters (``snap``)."""
    if snap == "none":
        return DEFAULT_SEPARATORS
    return (*DEFAULT_SEPARATORS, BoundaryLevel(snap, (), level=snap, max_shift=max_shift))


class Ruler:
    """Sizes of ranges ``[a, b)`` of one text, in characters or tokens, via monotone keys.

    ``cost(a, b) = end_key(b) - start_key(a)``. For characters both keys are the offset itself.
    For tokens, ``start_key(a)`` is the index of the token containing ``a`` and ``end_key(b)``
    the number of tokens starting before ``b``, so the cost counts every token the range
    overlaps. Both keys grow with the offset, which is what lets packing use binary search.
    """

    __slots__ = ("_bounds", "tokens")

    def __init__(self, text: str, tokenizer: Tokenizer | None) -> None:
        """Measure ``text`` in characters (``tokenizer=None``) or in its tokens."""
        self.tokens = tokenizer is not None
        self._bounds = token_boundaries(tokenizer, text) if tokenizer is not None else []

    def start_key(self, a: int) -> int:
        """Key of a range starting at ``a``."""
        return bisect_right(self._bounds, a) - 1 if self.tokens else a

    def end_key(self, b: int) -> int:
        """Key of a range ending at ``b``."""
        return bisect_left(self._bounds, b) if self.tokens else b

    def cost(self, a: int, b: int) -> int:
        """Size of ``[a, b)`` in this measure's unit."""
        return self.end_key(b) - self.start_key(a)

    def finest_cuts(self, start: int, end: int) -> list[int]:
        """Cut positions strictly inside ``(start, end)`` that leave pieces of size 1."""
        if not self.tokens:
            return list(range(start + 1, end))
        b = self._bounds
        return b[bisect_right(b, start) : bisect_left(b, end)]


def piece_ends(
    text: str,
    start: int,
    end: int,
    size: int,
    measure: Ruler,
    separators: Sequence[Separator] = DEFAULT_SEPARATORS,
    level: int = 0,
) -> list[int] | Any:
    """End offsets of the pieces of ``text[start:end]``, each of size at most ``size``.

    A list, or an int64 numpy array when a long range had to be cut into single characters
    (see ``_Ends``). The last entry is ``end``. Pieces come from the coarsest separator level at
    which they fit; ``level`` is where to begin (a caller that already knows there is no blank
    line skips it).
    """
    out = _Ends()
    _split_into(text, start, end, size, measure, separators, level, out, set())
    return out.result()


class _Ends:
    """Piece ends in the order they are found; long runs of one-character pieces as ranges.

    NOTE a run of a million characters without a separator (spaces, dots, one long line) is a
    million one-character pieces: as Python ints in lists they took about 44 bytes each, and the
    time per piece grew with the run (memory-bound: 4.4 to 5.5 times the time for 4 times the
    run, issue 14); as an int64 range they take 8 bytes and no Python object each.
    """

    __slots__ = ("parts", "tail")

    def __init__(self) -> None:
        self.parts: list[Any] = []
        self.tail: list[int] = []

    def append(self, end: int) -> None:
        """One more piece end."""
        self.tail.append(end)

    def extend(self, ends: Iterable[int]) -> None:
        """More piece ends, increasing."""
        self.tail.extend(ends)

    def every_character(self, start: int, end: int) -> None:
        """One piece per character of ``[start, end)``: ends ``start + 1`` to ``end``."""
        if self.tail:
            self.parts.append(self.tail)
            self.tail = []
        self.parts.append(np.arange(start + 1, end + 1, dtype=_offset_type(end)))

    def result(self) -> list[int] | Any:
        """The ends: a list, or a numpy array when a run was kept as a range."""
        if not self.parts:
            return self.tail
        if len(self.parts) == 1 and not self.tail:
            return self.parts[0]

        last = int(self.tail[-1]) if self.tail else int(self.parts[-1][-1])
        kind = _offset_type(last)
        return np.concatenate([np.asarray(p, dtype=kind) for p in (*self.parts, self.tail)])


def _offset_type(largest: int) -> Any:
    """The narrowest numpy integer type for offsets up to ``largest``.

    NOTE 4 bytes per piece where they suffice: besides the memory, an array above glibc's
    largest mmap threshold (32 MiB) is mapped afresh, page by page, on every call, which made a
    run of 4 million characters cost more per character than a run of one million.
    """
    # Headroom for the sums the packer searches for (an offset plus a chunk size).
    return np.int32 if largest < 2**31 - 2**24 else np.int64


def _split_into(
    text: str,
    start: int,
    end: int,
    size: int,
    measure: Ruler,
    separators: Sequence[Separator],
    level: int,
    out: _Ends,
    absent: set[str],
) -> None:
    if level >= len(separators):
        if not measure.tokens and end - start >= max(_VECTOR_MIN, 2):
            out.every_character(start, end)
            return
        out.extend(measure.finest_cuts(start, end))
        out.append(end)
        return
    found = separators[level].cut_array(text, start, end, absent)
    if not len(found) or (len(found) == 1 and found[0] == end):
        # No separator inside: the whole range is one piece.
        _split_into(text, start, end, size, measure, separators, level + 1, out, absent)
        return
    over: Iterable[int]
    if isinstance(found, list) or measure.tokens:
        cuts: list[int] = found if isinstance(found, list) else found.tolist()
        if cuts[-1] == end:
            cuts.pop()
        cuts.append(end)
        # Piece sizes and the over-long pieces are found with C-level iteration (map,
        # compress): a Python loop over every piece would cost as much as the regex scan.
        piece_starts = chain((start,), cuts)
        if measure.tokens:
            costs = map(sub, map(measure.end_key, cuts), map(measure.start_key, piece_starts))
        else:
            costs = map(sub, cuts, piece_starts)
        over = compress(count(), map(size.__lt__, costs))
    else:
        # A long range came back as a numpy array: piece lengths in one vector operation.

        if found[-1] != end:
            found = np.append(found, end)
        over = np.flatnonzero(np.diff(found, prepend=start) > size).tolist()
        cuts = found.tolist()
    done = 0
    for i in over:
        out.extend(cuts[done:i])
        _split_into(
            text,
            cuts[i - 1] if i else start,
            cuts[i],
            size,
            measure,
            separators,
            level + 1,
            out,
            set(absent),
        )
        done = i + 1
    out.extend(cuts[done:])


def pack_columns(
    starts: Sequence[int],
    ends: Sequence[int],
    size: int,
    overlap: int,
    measure: Ruler,
    max_pieces: int | None = None,
) -> tuple[list[int], list[int]]:
    """Greedily pack consecutive pieces ``[starts[i], ends[i])`` into chunks.

    Args:
        starts: Piece starts, increasing.
        ends: Piece ends, increasing, ``starts[i] < ends[i] <= starts[i + 1]`` (pieces may
            leave gaps, such as the whitespace between sentences). Every piece must have size
            at most ``size``.
        size: Largest chunk size in the measure's unit.
        overlap: Largest size of the whole trailing pieces repeated in the next chunk.
        measure: How sizes are counted.
        max_pieces: Largest number of pieces per chunk (None: no limit).

    Returns:
        Chunk starts and chunk ends, in order (two lists: ``ChunkSequence`` takes them as
        they are), each chunk from a piece start to a piece end; see the module docstring for
        the overlap rule.
    """
    m = len(starts)
    chunk_starts: list[int] = []
    chunk_ends: list[int] = []
    if m == 0:
        return chunk_starts, chunk_ends
    sk: Sequence[int] = starts
    ek: Sequence[int] = ends
    if measure.tokens:
        sk = list(map(measure.start_key, starts))
        ek = list(map(measure.end_key, ends))
    search_right, search_left = bisect_right, bisect_left
    if not isinstance(starts, list):
        # int64 arrays (a long run of one-character pieces): bisect would box every element it
        # reads; searchsorted over a view of the bounded range does not.
        search_right, search_left = _searchsorted("right"), _searchsorted("left")
    last = m - 1
    # A chunk has at most `limit` pieces: every piece costs at least 1, so at most `size` fit;
    # bounding the searches keeps them local on long texts.
    limit = min(size, max_pieces) if max_pieces is not None else size
    add_start = chunk_starts.append
    add_end = chunk_ends.append
    i = 0
    while True:
        # The last piece j whose chunk i..j still fits (j >= i: every piece fits on its own).
        hi = i + limit
        j = search_right(ek, sk[i] + size, i, hi if hi < m else m) - 1
        add_start(starts[i])
        add_end(ends[j])
        if j == last:
            if not isinstance(starts, list):
                return list(map(int, chunk_starts)), list(map(int, chunk_ends))
            return chunk_starts, chunk_ends
        if overlap:
            # The first start k > i whose trailing pieces k..j fit in overlap, then moved on
            # until piece j + 1 fits with them (in size and in max_pieces); k = j + 1: none.
            lo = j + 2 - limit
            if lo <= i:
                lo = i + 1
            k = search_left(sk, ek[j] - overlap, lo, j + 1)
            i = search_left(sk, ek[j + 1] - size, k, j + 1)
        else:
            i = j + 1


def _searchsorted(side: Literal["left", "right"]) -> Any:
    """``bisect_left``/``bisect_right`` with ``lo`` and ``hi`` for a sorted numpy array."""

    def search(values: Any, x: int, lo: int, hi: int) -> int:
        return lo + int(np.searchsorted(values[lo:hi], x, side))

    return search


def recursive_spans(text: str, start: int, end: int, **options: Any) -> list[tuple[int, int]]:
    """Recursive chunks of ``text[start:end]`` as absolute ``(start, end)`` offsets.

    Other strategies (paragraph, sentence, markdown) call this for a region that is too long;
    ``options`` are ``recursive_columns``'s keyword arguments.
    """
    chunk_starts, chunk_ends = recursive_columns(text, start, end, **options)
    return list(zip(chunk_starts, chunk_ends, strict=True))


def recursive_columns(
    text: str,
    start: int,
    end: int,
    *,
    size: int,
    overlap: int,
    measure: Ruler,
    level: int = 0,
    separators: Sequence[Separator] = DEFAULT_SEPARATORS,
) -> tuple[list[int], list[int]]:
    """Recursive chunks of ``text[start:end]``: chunk starts and chunk ends, two lists.

    Args:
        text: The document.
        start: Where the region starts.
        end: Where it ends.
        size: Largest chunk size in ``measure``'s unit.
        overlap: Largest size of whole trailing pieces repeated in the next chunk.
        measure: How sizes are counted.
        level: The separator level to begin at (``CLAUSE_LEVEL`` inside a sentence).
        separators: The levels, coarsest first (``snap_separators`` adds a word level).
    """
    if end <= start:
        return [], []
    if measure.cost(start, end) <= size:
        return [start], [end]
    ends = piece_ends(text, start, end, size, measure, separators, level=level)
    starts: Any
    if isinstance(ends, list):
        starts = [start, *ends[:-1]]
    else:
        starts = np.concatenate((np.array([start], dtype=ends.dtype), ends[:-1]))
    return pack_columns(starts, ends, size, overlap, measure)


def recursive_split(
    text: str,
    *,
    size: int,
    overlap: int = 0,
    unit: Unit = "chars",
    snap: Snap = "none",
    max_shift: int = 10,
    tokenizer: Tokenizer | None = None,
) -> ChunkingResult:
    """Split at the coarsest separators that make pieces fit, then pack pieces up to ``size``.

    Args:
        text: The document.
        size: Largest chunk size in ``unit``.
        overlap: Largest size of whole trailing pieces repeated at the start of the next chunk.
        unit: ``chars`` (code points) or ``tokens`` of ``tokenizer``.
        snap: ``none``, or ``word``/``phrase``: cut a run without separators at word or phrase
            boundaries (``BoundaryLevel``) before cutting between characters.
        max_shift: Longest word kept whole, in characters (``BoundaryLevel``).
        tokenizer: Tokenizer for ``unit="tokens"``; the bundled SentencePiece model by default.

    Returns:
        Chunks that tile the text (overlapping by at most ``overlap``).
    """
    params: dict[str, object] = {"size": size, "overlap": overlap, "unit": unit}
    if snap != "none":
        params.update(snap=snap, max_shift=max_shift)  # recorded only when on (see fixed)
    measure = Ruler(text, resolve_tokenizer(unit, tokenizer))
    starts, ends = recursive_columns(
        text,
        0,
        len(text),
        size=size,
        overlap=overlap,
        measure=measure,
        separators=snap_separators(snap, max_shift),
    )
    return ChunkingResult(text, ChunkSequence(starts, ends), "recursive", params)


def sentence_units(text: str, max_size: int) -> list[Bounds]:
    """Sentences of ``text`` (``chunkviz.segment.sentence_spans``), each at most ``max_size``.

    A sentence longer than ``max_size`` is cut the way ``recursive`` cuts it below the sentence
    level: at ``、`` and commas, then at whitespace, then between characters.
    """
    measure = Ruler(text, None)
    units: list[Bounds] = []
    for s, e in sentence_spans(text):
        if e - s <= max_size:
            units.append((s, e))
        else:
            units.extend(
                recursive_spans(
                    text, s, e, size=max_size, overlap=0, measure=measure, level=CLAUSE_LEVEL
                )
            )
    return units


register(
    Strategy(
        name="recursive",
        description="Split at blank lines, then lines, sentence ends (。！？ . ! ?), 、 and "
        "commas, spaces and characters, as far as needed; pack pieces up to size.",
        params=(SIZE, OVERLAP, UNIT, SNAP, MAX_SHIFT),
        gaps="none",
        fn=recursive_split,
        size_param="size",
        resources=frozenset({"tokenizer"}),
    )
)
