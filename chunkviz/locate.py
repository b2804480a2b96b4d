"""Answers found in a document as a reader finds them: width, compatibility forms and spaces aside.

A user types ``ABC 2024`` and the document shows ``ＡＢＣ２０２４``; a PDF names ``文`` as the
Kangxi radical ``⽂``; a line break sits inside an answer. A reader sees the same words. Both
sides are folded (NFKC, compatibility ideographs to unified ones, whitespace left out) and
searched; every match is mapped back to exact offsets of the shown text, so a span is always
``text[start:end]`` of the document, never of the folded copy.

An answer that is still not found gets its nearest near-match (``nearest``): the window of the
text that shares the most character pairs with it, with a similarity, for the user to fix it.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from chunkviz.pdf.compat import compat_table

#: The shortest similarity (difflib ratio of the folded texts) a near-match is reported with.
MIN_NEAR = 0.5


@dataclass(frozen=True, slots=True)
class Folded:
    """A text folded for search and, for each folded character, the offset it came from.

    Attributes:
        text: The folded text.
        origin: ``origin[j]`` is the offset in the original text of folded character ``j``;
            one more entry, ``len(original)``, closes the last match.
    """

    text: str
    origin: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Offsets in the original text of the folded characters ``[start, end)``."""
        return self.origin[start], self.origin[end - 1] + 1


def _fold_char(ch: str, cache: dict[str, str]) -> str:
    got = cache.get(ch)
    if got is None:
        got = unicodedata.normalize("NFKC", ch.translate(compat_table()))
        got = "".join(c for c in got if not c.isspace())
        cache[ch] = got
    return got


@lru_cache(maxsize=4)
def fold(text: str) -> Folded:
    """``text`` folded for search (see the module docstring), with each character's origin.

    Cached for the last few texts: every pair added to a document searches the same text.
    """
    cache: dict[str, str] = {}
    parts: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if ch.isascii() and not ch.isspace():
            parts.append(ch)
            origin.append(i)
            continue
        f = _fold_char(ch, cache)
        if f:
            parts.append(f)
            origin.extend([i] * len(f))
    origin.append(len(text))
    return Folded("".join(parts), tuple(origin))


def fold_query(answer: str) -> str:
    """An answer folded the way ``fold`` folds the text."""
    return fold(answer).text


def find_all(folded: Folded, answer: str) -> list[tuple[int, int]]:
    """Every occurrence of ``answer`` in the folded text, as ``(start, end)`` of the original.

    Overlapping occurrences are included.
    """
    needle = fold_query(answer)
    if not needle:
        return []
    found = []
    i = folded.text.find(needle)
    while i != -1:
        found.append(folded.span(i, i + len(needle)))
        i = folded.text.find(needle, i + 1)
    return found


def locate(text: str, answer: str) -> list[tuple[int, int]]:
    """``find_all(fold(text), answer)``: the answer's occurrences as a reader sees ``text``."""
    return find_all(fold(text), answer)


@dataclass(frozen=True, slots=True)
class NearMatch:
    """The closest a text comes to an answer it does not contain.

    Attributes:
        start: Start offset in the original text.
        end: End offset.
        similarity: difflib's ratio of the folded answer and the folded window, 0..1.
    """

    start: int
    end: int
    similarity: float


def nearest(folded: Folded, answer: str) -> NearMatch | None:
    """The window of the text most like ``answer``, or None below ``MIN_NEAR`` similarity.

    Candidate windows are voted for by the answer's character pairs (each pair found in the text
    votes for the window it would start); the best few are scored with difflib.
    """
    needle = fold_query(answer)
    hay = folded.text
    if len(needle) < 2 or not hay:
        return None
    votes: Counter[int] = Counter()
    for k in range(len(needle) - 1):
        pair = needle[k : k + 2]
        i = hay.find(pair)
        seen = 0
        while i != -1 and seen < 200:  # a pair common in the text says little; stop counting
            votes[max(0, i - k)] += 1
            i = hay.find(pair, i + 1)
            seen += 1
    best: tuple[float, int, int] | None = None
    for start, _ in sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))[:20]:
        for a in range(max(0, start - 2), start + 3):
            b = min(len(hay), a + len(needle))
            if a >= b:
                continue
            score = SequenceMatcher(None, needle, hay[a:b], autojunk=False).ratio()
            if best is None or score > best[0]:
                best = (score, a, b)
    if best is None or best[0] < MIN_NEAR:
        return None
    start, end = folded.span(best[1], best[2])
    return NearMatch(start, end, round(best[0], 3))
