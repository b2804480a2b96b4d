"""Sentence boundaries for Japanese and English text, as offsets (regex based, one pass).

Rules (``sentence_spans``):

- Japanese: a run of ``。！？`` ends a sentence, together with the closing brackets right after
  it (``」』）】〕〉》``; terminators and brackets form one run, ``。」。``) - unless the run is
  followed by the quotative ``と``/``って`` (``「はい。」と言った。`` is one sentence).
- English: a run of ``. ! ?`` (with closing quotes or brackets) followed by whitespace or the end
  of the text. A ``.`` does not end a sentence after a common abbreviation (``Mr.``, ``Dr.``,
  ``e.g.``, ``i.e.``, ``etc.`` ...) or a single capital initial (``J. Smith``, ``U.S.``); a
  ``.`` between digits (``3.14``) is never followed by whitespace, so it never ends one.
- Every line break ends a sentence (headings, list items and Japanese lines are units).

Sentences never start or end with whitespace; the whitespace between them belongs to no
sentence, so the spans cover every non-whitespace character of the text exactly once.
"""

from __future__ import annotations

import re

#: A line break (CRLF, CR or LF), as a regex source.
LINE_BREAK = r"(?:\r\n|\r|\n)"
#: What follows the first line break of a blank line: blank space, another line break, and any
#: whitespace after it (``recursive`` builds its blank-line level from this).
BLANK_REST = rf"[^\S\r\n]*{LINE_BREAK}\s*"
#: A blank line between two blocks: a line break, blank space, another line break (the one
#: blank-line rule of every strategy).
BLANK_LINE = re.compile(LINE_BREAK + BLANK_REST)

# Closing quotes and brackets that stay with the sentence they close.
_CLOSE_JA = "」』）】〕〉》"
_CLOSE_EN = "\"'”’)\\]"
# Abbreviations after which "." does not end a sentence (case-sensitive, as written).
_ABBREVIATIONS = (
    "Mr",
    "Mrs",
    "Ms",
    "Dr",
    "Prof",
    "Sr",
    "Jr",
    "St",
    "vs",
    "etc",
    "e.g",
    "i.e",
    "cf",
    "al",
    "Fig",
    "fig",
    "Inc",
    "Ltd",
    "Co",
    "approx",
    "Eq",
    "eq",
    "No",
    "Vol",
    "pp",
)
# Checked right after the ".", so that the regex engine looks at them only at a ".".
_NOT_AFTER_ABBREVIATION = "".join(
    f"(?<!\\b{re.escape(a)}\\.)" for a in sorted(_ABBREVIATIONS, key=len, reverse=True)
)

_CLOSE = _CLOSE_JA + _CLOSE_EN

# NOTE linear time. A run of terminators that ends no sentence ("a....b", "。。。と") makes the
# regex engine try a match at every character of the run, and each try reads to the run's end:
# quadratic (60,000 dots took 57 s). A terminator right after another one of its script is
# inside a run whose first terminator has already been tried with the same outcome (the run's
# end decides), so such a start fails at once: checked right after the terminator, on the two
# characters before the current position. The one exception is an English run whose first "."
# ends an abbreviation or initial ("Mr.. Smith", "etc..."): the second "." may start.
_JA_RUN_START = "(?<![。！？].)"
_EN_RUN_START = (
    "(?:(?<![.!?].)"
    + "".join(f"|(?<=\\b{re.escape(a)}\\..)" for a in sorted(_ABBREVIATIONS, key=len, reverse=True))
    + "|(?<=\\b[A-Z]\\..))"
)

#: The end of a sentence's own text: a terminator with its closing brackets (no whitespace).
#: One character class comes first and each branch checks which one it saw (measured about
#: twice as fast as an alternation of the two branches at the top). Runs are taken possessively
#: (``*+``): only the run's end decides, so backtracking into it could never succeed.
TERMINATOR = (
    "[。！？.!?]"
    # Japanese: the run and its brackets, unless a quotative と/って follows (「はい。」と).
    f"(?:(?<=[。！？]){_JA_RUN_START}[。！？{_CLOSE}]*+(?![とっ])"
    # English: not after an abbreviation or an initial, and whitespace or the end must follow.
    f"|(?<=[.!?]){_EN_RUN_START}{_NOT_AFTER_ABBREVIATION}(?<!\\b[A-Z]\\.)"
    f"[.!?{_CLOSE}]*+(?=\\s|\\Z))"
)

# A boundary: a terminator and the horizontal space after it, or a line break with the
# whitespace around it. ``end`` marks where the sentence's own text stops. The horizontal space
# before a line break is read from its first character only (a start inside a run of spaces
# that no line break ends would read to the run's end again: quadratic); the break itself may
# still start a match right after spaces that a terminator took.
_BOUNDARY = re.compile(
    f"(?P<end>{TERMINATOR})[^\\S\\r\\n]*+"
    "|(?P<line>)(?:(?<![^\\S\\r\\n])[^\\S\\r\\n]++)?(?:\\r\\n|\\r|\\n)\\s*+"
)

# The run of terminators and brackets is taken whole (possessive: no backtracking into it) and
# must not be followed by a quotative と/って; the same rule as TERMINATOR's lookahead, checked
# in one pass over the run instead of two. Both start with the run-start checks above.
_JA_AFTER = f"{_JA_RUN_START}[。！？{_CLOSE}]*+(?![とっ])\\s*+"
_EN_AFTER = f"{_EN_RUN_START}[.!?{_CLOSE}]*+(?=\\s|\\Z)\\s*+"
_NOT_ABBREVIATION_OR_INITIAL = _NOT_AFTER_ABBREVIATION + r"(?<!\b[A-Z]\.)"
#: Characters after a Japanese terminator that make its separator longer than the terminator
#: itself (a run, brackets, whitespace) or cancel it (と/って): anywhere else, a Japanese
#: terminator's separator is exactly that one character.
JA_TERMINATOR_FOLLOWERS = (
    "。！？"
    + _CLOSE
    + "とっ"
    + "".join(
        chr(c)
        for c in range(0x3001)
        if chr(c).isspace()  # every Unicode space is below U+3001
    )
)

#: Separator patterns for splitters, ``(character, regex)`` for each terminator character (each
#: regex starts with that literal character, which the regex engine searches for much faster
#: than a character class): a terminator, its brackets and all whitespace after it. A match
#: ends where the next sentence starts. Matches of different patterns can end at the same
#: offset (``！。``), so a splitter drops repeated ends.
SENTENCE_SEPARATORS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("。", re.compile("。" + _JA_AFTER)),
    ("！", re.compile("！" + _JA_AFTER)),
    ("？", re.compile("？" + _JA_AFTER)),
    (".", re.compile(r"\." + _NOT_ABBREVIATION_OR_INITIAL + _EN_AFTER)),
    ("!", re.compile("!" + _EN_AFTER)),
    ("?", re.compile(r"\?" + _EN_AFTER)),
)

_LEADING_SPACE = re.compile(r"\s*")


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of each sentence of ``text[start:end]``, in order.

    Args:
        text: The document.
        start: Offset where the region to segment starts.
        end: Offset where it ends (``len(text)`` by default).

    Returns:
        Non-empty spans without surrounding whitespace, covering every non-whitespace
        character of the region; offsets refer to ``text`` itself.
    """
    stop = len(text) if end is None else end
    pos = _LEADING_SPACE.match(text, start, stop).end()  # type: ignore[union-attr]
    spans: list[tuple[int, int]] = []
    append = spans.append
    for m in _BOUNDARY.finditer(text, pos, stop):
        sentence_end = m.end("end") if m.group("line") is None else m.start()
        if sentence_end > pos:
            append((pos, sentence_end))
        pos = m.end()
    if pos < stop:
        tail = pos + len(text[pos:stop].rstrip())
        if tail > pos:
            append((pos, tail))
    return spans
