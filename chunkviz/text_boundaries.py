"""Word and phrase boundaries as offsets, from BudouX's Japanese models, for any text.

A *boundary* is an offset ``p`` (``0 <= p <= len(text)``) where a word (or a phrase) may end;
``0`` and ``len(text)`` always are. Between two characters ``a = text[p - 1]`` and
``b = text[p]``:

- **Glue** (never a boundary): ``b`` is a combining mark, a zero-width joiner, a variation
  selector or an emoji skin-tone modifier; ``a`` is a zero-width joiner; ``a`` and ``b`` are a
  surrogate pair or two regional indicators (one flag).
- **Inside a word**: both are word characters (letters, digits, marks) and neither is Japanese
  (kana, kanji): ``Hello``, ``w1``, ``3``.
- **BudouX decides** when both are word characters and one is Japanese: its word model
  (``ja_word.json``) for ``level="word"``, its phrase model (``ja.json``, the one BudouX uses for
  line breaking) for ``level="phrase"``.
- Everywhere else (whitespace, punctuation, symbols, emoji on either side) is a boundary.

NOTE linear time. ``budoux.Parser.parse`` builds each phrase with ``chunks[-1] += char``, which
copies the phrase so far at every character: quadratic on a long phrase (a run of one
character is one phrase). Here every feature of every position is looked up at once with numpy
(``searchsorted`` over the model's keys packed into integers), so the cost is O(n log m) for a
text of n characters and a model of m features, with no Python step per character.

The model files and their feature names are BudouX's internals; ``_BUDOUX_FEATURES`` and
``_load_model`` hold them, and ``tests/test_text_boundaries.py`` checks that the scores agree
with ``budoux.Parser.parse`` so that a change of BudouX's format fails a test.
"""

from __future__ import annotations

import json
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

import numpy as np

from chunkviz.errors import MissingDependencyError, ParameterError
from chunkviz.model import ChunkingResult

Level = Literal["word", "phrase"]
LEVELS: tuple[Level, ...] = ("word", "phrase")

#: The model file of each level inside the ``budoux`` package (``budoux/models/``).
_MODEL_FILES: dict[str, str] = {"word": "ja_word.json", "phrase": "ja.json"}

#: BudouX's features: (name, offset of the first character relative to the position, length).
#: The position ``i`` is the boundary before ``text[i]``; ``UW1`` is ``text[i - 3]``, ``BW2``
#: ``text[i - 1:i + 1]``, ``TW4`` ``text[i:i + 3]`` (budoux/parser.py, ``Parser.parse``).
_BUDOUX_FEATURES: tuple[tuple[str, int, int], ...] = (
    ("UW1", -3, 1),
    ("UW2", -2, 1),
    ("UW3", -1, 1),
    ("UW4", 0, 1),
    ("UW5", 1, 1),
    ("UW6", 2, 1),
    ("BW1", -2, 2),
    ("BW2", -1, 2),
    ("BW3", 0, 2),
    ("TW1", -3, 3),
    ("TW2", -2, 3),
    ("TW3", -1, 3),
    ("TW4", 0, 3),
)

# Code points fit in 21 bits: a bigram packs into 42 bits and a trigram into 63.
_BITS = 21
_PAD = (1 << _BITS) - 1  # beyond the text: not a code point, so it matches no feature


def code_points(text: str, start: int = 0, end: int | None = None) -> Any:
    """``text[start:end]`` as a numpy array of code points (uint32; lone surrogates kept)."""
    stop = len(text) if end is None else end
    if stop <= start:
        return np.zeros(0, dtype=np.uint32)
    # A numpy string scalar stores UCS-4, so viewing it as uint32 gives the code points; this
    # is several times faster than encoding to UTF-32.
    return np.array(text[start:stop]).reshape(1).view(np.uint32)


@dataclass(frozen=True, slots=True)
class _Table:
    """One BudouX feature as sorted packed keys and their scores."""

    offset: int
    length: int
    keys: Any
    scores: Any


@dataclass(frozen=True, slots=True)
class _Model:
    tables: tuple[_Table, ...]
    total: int  # the sum of every score: a position is a boundary when 2 * its score > total


@lru_cache(maxsize=2)
def _load_model(level: str) -> _Model:
    try:
        raw = (
            resources.files("budoux")
            .joinpath("models", _MODEL_FILES[level])
            .read_text(encoding="utf-8")
        )
    except ModuleNotFoundError:
        raise MissingDependencyError("missing_budoux") from None
    data: dict[str, dict[str, int]] = json.loads(raw)
    unknown = sorted(set(data) - {name for name, _, _ in _BUDOUX_FEATURES})
    if unknown:
        raise MissingDependencyError("budoux_model", file=_MODEL_FILES[level], features=unknown)
    tables = []
    for name, offset, length in _BUDOUX_FEATURES:
        entries = data.get(name, {})
        keys = np.fromiter((_pack(k, length) for k in entries), dtype=np.int64, count=len(entries))
        scores = np.fromiter(entries.values(), dtype=np.int64, count=len(entries))
        order = np.argsort(keys, kind="stable")
        tables.append(_Table(offset, length, keys[order], scores[order]))
    total = sum(sum(group.values()) for group in data.values())
    return _Model(tuple(tables), int(total))


def _pack(key: str, length: int) -> int:
    if len(key) != length:
        raise MissingDependencyError("budoux_feature", feature=key, length=length)
    packed = 0
    for ch in key:
        packed = (packed << _BITS) | ord(ch)
    return packed


def _padded(text: str) -> Any:
    # The code points with three pad values on either side (features look 3 characters away).
    padded = np.full(len(text) + 6, _PAD, dtype=np.int64)
    padded[3 : len(text) + 3] = code_points(text)
    return padded


def _budoux_at(padded: Any, offsets: Any, level: Level) -> Any:
    """Whether BudouX's model breaks before each of ``offsets`` (``_padded`` text codes)."""
    model = _load_model(level)
    positions = offsets + 3
    score = np.zeros(positions.size, dtype=np.int64)
    for table in model.tables:
        if not table.keys.size:
            continue
        key = np.zeros(positions.size, dtype=np.int64)
        for k in range(table.length):
            key = (key << _BITS) | padded[positions + table.offset + k]
        at = np.searchsorted(table.keys, key)
        at[at == table.keys.size] = 0
        score += np.where(table.keys[at] == key, table.scores[at], 0)
    return 2 * score > model.total


def budoux_breaks(text: str, level: Level) -> Any:
    """Where BudouX's model breaks ``text``: a bool array, entry ``i - 1`` for offset ``i``.

    Exactly the breaks of ``budoux.Parser(model).parse(text)`` (offsets 1 .. len(text) - 1),
    computed in linear time (see the module docstring).
    """
    n = len(text)
    if n < 2:
        return np.zeros(0, dtype=bool)
    return _budoux_at(_padded(text), np.arange(1, n, dtype=np.int64), level)


# Character classes, per distinct code point (a text has few distinct characters).
_WORD, _JAPANESE, _EXTEND, _JOINER, _REGIONAL, _HIGH, _LOW = (1, 2, 4, 8, 16, 32, 64)


def _char_class(cp: int) -> int:
    if 0xD800 <= cp <= 0xDBFF:
        return _HIGH
    if 0xDC00 <= cp <= 0xDFFF:
        return _LOW
    if cp == 0x200D:
        return _JOINER
    if 0x1F1E6 <= cp <= 0x1F1FF:
        return _REGIONAL
    if 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF or 0x1F3FB <= cp <= 0x1F3FF:
        return _EXTEND
    category = unicodedata.category(chr(cp))
    if category[0] == "M":
        return _EXTEND | _WORD
    if category[0] not in "LN":
        return 0
    japanese = (
        0x3040 <= cp <= 0x30FF
        or 0x31F0 <= cp <= 0x31FF
        or 0x3400 <= cp <= 0x4DBF
        or 0x4E00 <= cp <= 0x9FFF
        or 0xF900 <= cp <= 0xFAFF
        or 0xFF66 <= cp <= 0xFF9F
        or 0x20000 <= cp <= 0x3FFFF
        or cp in (0x3005, 0x3006, 0x3007)
    )
    return _WORD | (_JAPANESE if japanese else 0)


def _classes(codes: Any) -> Any:
    distinct, inverse = np.unique(codes, return_inverse=True)
    table = np.fromiter(
        (_char_class(int(c)) for c in distinct), dtype=np.int64, count=distinct.size
    )
    return table[inverse.reshape(-1)]


@dataclass(frozen=True, slots=True, eq=False)
class Boundaries:
    """The word (or phrase) boundaries of one text.

    Attributes:
        level: ``word`` or ``phrase``.
        length: ``len()`` of the text.
        positions: Every boundary offset, increasing, ``0`` and ``length`` included (a read-only
            int64 array).
    """

    level: Level
    length: int
    positions: Any

    def is_boundary(self, offset: int) -> bool:
        """Whether a cut at ``offset`` falls between two words."""
        i = int(np.searchsorted(self.positions, offset))
        return i < self.positions.size and int(self.positions[i]) == offset

    def inside(self, offsets: Any) -> Any:
        """A bool array: which of ``offsets`` (increasing or not) fall inside a word."""
        values = np.asarray(offsets, dtype=np.int64)
        at = np.searchsorted(self.positions, values)
        at[at == self.positions.size] = self.positions.size - 1
        return self.positions[at] != values

    def word_at(self, offset: int) -> tuple[int, int]:
        """``(start, end)`` of the word that a cut at ``offset`` falls inside (or ends at)."""
        i = int(np.searchsorted(self.positions, offset, side="right"))
        if i >= self.positions.size:
            return int(self.positions[-1]), int(self.positions[-1])
        return int(self.positions[i - 1]), int(self.positions[i])


def check_level(level: str) -> Level:
    """``level`` as a ``Level``, or a ParameterError naming the choices."""
    if level not in LEVELS:
        raise ParameterError("boundary_level", value=level, choices=list(LEVELS))
    return level


@lru_cache(maxsize=8)
def text_boundaries(text: str, level: Level = "word") -> Boundaries:
    """The ``level`` boundaries of ``text`` (cached for the last few texts).

    Args:
        text: Any text; Japanese runs are segmented by BudouX, other scripts at spaces and
            punctuation (see the module docstring).
        level: ``word`` (BudouX's word model) or ``phrase`` (its phrase model).

    Returns:
        The boundaries, ``0`` and ``len(text)`` included.

    Raises:
        ParameterError: An unknown level.
        MissingDependencyError: budoux is not installed.
    """
    check_level(level)
    n = len(text)
    if n < 2:
        positions = np.arange(0, n + 1, dtype=np.int64) if n else np.zeros(1, dtype=np.int64)
    else:
        inner = np.flatnonzero(boundary_mask(text, np.arange(1, n, dtype=np.int64), level)) + 1
        positions = np.concatenate(([0], inner, [n])).astype(np.int64)
    positions.setflags(write=False)
    return Boundaries(level, n, positions)


def boundary_mask(text: str, offsets: Any, level: Level = "word") -> Any:
    """Whether each offset (strictly inside ``text``) is a ``level`` boundary: a bool array.

    The rules of the module docstring, decided from the characters around each offset only, so
    checking a chunking's cuts costs O(cuts), not O(len(text)).
    """
    at = np.asarray(offsets, dtype=np.int64)
    if not at.size:
        return np.zeros(0, dtype=bool)
    codes = code_points(text)
    cls = _classes(np.concatenate((codes[at - 1], codes[at])))
    a, b = cls[: at.size], cls[at.size :]
    glue = ((b & _EXTEND) != 0) | ((a & _JOINER) != 0) | ((b & _JOINER) != 0)
    glue |= ((a & _HIGH) != 0) & ((b & _LOW) != 0)
    glue |= ((a & _REGIONAL) != 0) & ((b & _REGIONAL) != 0)
    both_words = ((a & _WORD) != 0) & ((b & _WORD) != 0)
    japanese = ((a | b) & _JAPANESE) != 0
    decided = both_words & japanese & ~glue
    breaks = ~glue & ~(both_words & ~japanese)
    if decided.any():
        padded = np.full(codes.size + 6, _PAD, dtype=np.int64)
        padded[3 : codes.size + 3] = codes
        breaks[decided] = _budoux_at(padded, at[decided], level)
    return breaks


#: How far either side of a cut ``word_cuts`` looks for the ends of the word it cuts.
WORD_REACH = 32


def _words_around(text: str, cuts: Any, level: Level) -> list[tuple[int, int]]:
    """``(start, end)`` of the word around each cut, looking ``WORD_REACH`` characters away.

    A word longer than that is shown clipped to the reach. With many cuts (a window of a few
    characters) the whole text's boundaries are cheaper, and are used instead.
    """
    n = len(text)
    if cuts.size * (2 * WORD_REACH) >= n:
        positions = text_boundaries(text, level).positions
        after = np.searchsorted(positions, cuts, side="right")
        return list(zip(positions[after - 1].tolist(), positions[after].tolist(), strict=True))
    steps = np.arange(-WORD_REACH + 1, WORD_REACH, dtype=np.int64)
    around = cuts[:, None] + steps[None, :]
    valid = (around > 0) & (around < n)
    marks = np.zeros(around.shape, dtype=bool)
    marks[valid] = boundary_mask(text, around[valid], level)
    marks[~valid] = True  # the text's own ends are boundaries
    middle = WORD_REACH - 1  # the column of the cut itself
    # The nearest boundary column on each side (a side with none: its far edge, clipped).
    left = marks[:, :middle][:, ::-1]
    before = np.where(left.any(axis=1), middle - 1 - left.argmax(axis=1), 0)
    right = marks[:, middle + 1 :]
    after = np.where(right.any(axis=1), middle + 1 + right.argmax(axis=1), 2 * middle)
    starts = np.maximum(cuts - middle + before, 0)
    ends = np.minimum(cuts - middle + after, n)
    return list(zip(starts.tolist(), ends.tolist(), strict=True))


@dataclass(frozen=True, slots=True)
class WordCuts:
    """Where a chunking cuts the text, and which of those cuts fall inside a word.

    Attributes:
        level: ``word`` or ``phrase``: the boundaries the cuts were checked against.
        cuts: Every distinct chunk start and end strictly inside the text, increasing.
        inside: The cuts that fall inside a word, increasing.
    """

    level: Level
    cuts: tuple[int, ...]
    inside: tuple[int, ...]

    @property
    def count(self) -> int:
        """Number of cuts inside a word."""
        return len(self.inside)

    @property
    def share(self) -> float:
        """Cuts inside a word as a share of all cuts (0.0 when there is no cut)."""
        return len(self.inside) / len(self.cuts) if self.cuts else 0.0

    def words(
        self, text: str, start: int = 0, end: int | None = None
    ) -> dict[int, tuple[int, int]]:
        """``(start, end)`` of the word each cut inside ``[start, end]`` falls in, by cut.

        Only the cuts asked about are looked at (a page of the highlight, not the document).
        ``text`` must be the chunked text.
        """
        stop = len(text) if end is None else end
        lo, hi = bisect_left(self.inside, start), bisect_right(self.inside, stop)
        picked = np.array(self.inside[lo:hi], dtype=np.int64)
        if not picked.size:
            return {}
        return dict(zip(picked.tolist(), _words_around(text, picked, self.level), strict=True))


def cut_offsets(length: int, starts: Iterable[int], ends: Iterable[int]) -> Any:
    """Every distinct chunk start and end strictly inside a text of ``length``: an int64 array.

    The text's own start and end are cut by every chunking and are not counted; a cut shared by
    two chunks (one ends where the next starts) counts once.
    """
    offsets = np.unique(
        np.concatenate((np.fromiter(starts, dtype=np.int64), np.fromiter(ends, dtype=np.int64)))
    )
    return offsets[(offsets > 0) & (offsets < length)]


def word_cut_counts(
    text: str, starts: Iterable[int], ends: Iterable[int], level: Level = "word"
) -> tuple[int, int]:
    """``(cuts, cuts inside a word)`` of chunks with these offsets (``word_cuts``'s numbers)."""
    offsets = cut_offsets(len(text), starts, ends)
    if not offsets.size:
        return 0, 0
    return int(offsets.size), int((~boundary_mask(text, offsets, level)).sum())


def word_cuts(result: ChunkingResult, level: Level = "word") -> WordCuts:
    """The cuts ``result`` makes (``cut_offsets``) and those that fall inside a ``level`` unit.

    Raises:
        ParameterError: An unknown level.
    """
    check_level(level)
    columns = result.columns
    offsets = cut_offsets(len(result.text), columns.starts, columns.ends)
    if not offsets.size:
        return WordCuts(level, (), ())
    inside = offsets[~boundary_mask(result.text, offsets, level)]
    return WordCuts(level, tuple(offsets.tolist()), tuple(inside.tolist()))
