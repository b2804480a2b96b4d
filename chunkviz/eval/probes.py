"""Probe spans: candidate answers drawn from the document itself, so loss needs no labels.

Questions about a manual or a policy ask for short factual phrases: numbers with units and dates
(``1989年10月``, ``10万円``), katakana and kanji noun compounds (``寒帯ジェット気流``), Latin-script
terms and names, quoted terms, table cells. ``extract_probes`` finds such spans, deterministically
and offline, by one of two methods:

- ``chars``: runs of character classes (digits with unit characters, kanji/katakana runs,
  capitalised Latin words, the inside of quotes, Markdown and tab-separated table cells);
- ``fugashi``: the same quotes, cells and Latin terms, with Japanese noun compounds and numbers
  taken from a morphological analyser (MeCab through fugashi, with the unidic-lite dictionary),
  merging consecutive noun tokens.

Which one is the default was chosen on JSQuAD (``bench/synthetic_corpus.py``, recorded in
``docs/benchmarks.md``): see ``DEFAULT_METHOD``. Probes become questions (``probe_dataset``) so
that "lost before retrieval" runs through ``chunkviz.eval.lost`` with no labels at all; every such
question is marked synthetic.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.datasets.sampling import sample_questions
from chunkviz.errors import MissingDependencyError, ParameterError
from chunkviz.model import Span

ProbeKind = Literal["number", "katakana", "kanji", "compound", "latin", "quoted", "cell"]
Method = Literal["chars", "fugashi"]
METHODS: tuple[Method, ...] = ("chars", "fugashi")
#: Chosen on JSQuAD: both methods rank the grid's configurations exactly as the real answers do
#: (docs/benchmarks.md); character classes need no extra package and make probes closer in
#: length to real answers, so they are the default.
DEFAULT_METHOD: Method = "chars"
MIN_CHARS = 2
MAX_CHARS = 40
SYNTHETIC_NOTE = (
    "synthetic: probe spans extracted from the document (candidate answers, not real questions)"
)
#: On JSQuAD (800 probes, seed 0; docs/benchmarks.md), Spearman's rho between the default grid's
#: ranking by probe-based broken share and by the real answers' broken counts.
VALIDATION_RHO = 1.0
VALIDATION_NOTE = (
    "probe lost counts ranked JSQuAD's 8 default configurations like the real answers' lost "
    f"counts with Spearman rho = {VALIDATION_RHO:.2f}; they count cut key phrases, not "
    "retrieval quality"
)

_NUM = r"[0-9０-９]+(?:[.,．，][0-9０-９]+)*"
_UNIT = (
    r"(?:km|kg|cm|mm|ms|GB|MB|KB|m|g|[年月日時分秒万億兆千百十円ドル％%人名個件回歳倍度本号条項章巻"
    r"世紀代台点位枚冊社校]"
    r")"
)
_NUMBER = re.compile(rf"(?:{_NUM}{_UNIT}{{0,3}})+")
#: The characters of kanji and katakana runs (regex class bodies): probes are made of them, and
#: shaped questions grow their words to whole runs of them (``script_of``).
KANJI = "\u4e00-\u9fff\u3005"
KATAKANA = "\u30a1-\u30fa\u30fc"
_JA_RUN = re.compile(f"[{KANJI}{KATAKANA}]+")
_LATIN_WORD = r"[A-Za-zＡ-Ｚａ-ｚ][A-Za-z0-9Ａ-Ｚａ-ｚ０-９&'\-]*"
_LATIN_RUN = re.compile(rf"{_LATIN_WORD}(?: {_LATIN_WORD})*")
_WORD = re.compile(_LATIN_WORD)
_OPENERS = frozenset(
    (
        "The",
        "A",
        "An",
        "In",
        "On",
        "At",
        "It",
        "This",
        "That",
        "These",
        "Those",
        "For",
        "By",
        "With",
        "From",
        "As",
    )
)
_QUOTED = re.compile(r"「([^「」\n]+)」|『([^『』\n]+)』|“([^“”\n]+)”|\"([^\"\n]+)\"|‘([^‘’\n]+)’")
_KATAKANA = re.compile(f"[{KATAKANA}]+")
_KANJI = re.compile(f"[{KANJI}]+")
_TABLE_RULE = re.compile(r"^[\s|:\-+]+$")


@dataclass(frozen=True, slots=True)
class Probe:
    """A candidate answer span ``[start, end)`` of the document, and what kind of phrase it is."""

    start: int
    end: int
    kind: ProbeKind


def script_of(c: str) -> str:
    """The run the character ``c`` belongs to: ``kanji``, ``katakana``, ``word`` or ``""``.

    ``word``: other letters and digits; ``""``: hiragana, punctuation, spaces (no run to grow).
    """
    if _KATAKANA.fullmatch(c):
        return "katakana"
    if _KANJI.fullmatch(c):
        return "kanji"
    if "\u3040" <= c <= "\u309f":
        return ""
    return "word" if c.isalnum() else ""


def _ja_kind(s: str) -> ProbeKind:
    if _KATAKANA.fullmatch(s):
        return "katakana"
    if _KANJI.fullmatch(s):
        return "kanji"
    return "compound"


def mostly_latin(text: str) -> bool:
    """Whether at least half of the letters (of the first 20,000 characters) are Latin."""
    letters = sum(1 for ch in text[:20000] if ch.isalpha())
    latin = sum(1 for ch in text[:20000] if ch.isascii() and ch.isalpha())
    return letters > 0 and latin / letters >= 0.5


def _latin(text: str) -> Iterator[Probe]:
    # In a Latin-script document every word is Latin: only names, acronyms and words with digits
    # are terms there (runs of them, such as "New York Times", are one probe). In a Japanese
    # document any Latin run is a term.
    if not mostly_latin(text):
        for m in _LATIN_RUN.finditer(text):
            yield Probe(m.start(), m.end(), "latin")
        return
    run: list[tuple[int, int]] = []
    for m in _WORD.finditer(text):
        w = m.group()
        term = w[0].isupper() or any(ch.isdigit() for ch in w)
        if term and run and text[run[-1][1] : m.start()] == " ":
            run.append((m.start(), m.end()))
            continue
        yield from _latin_run(text, run)
        run = [(m.start(), m.end())] if term else []
    yield from _latin_run(text, run)


def _latin_run(text: str, run: Sequence[tuple[int, int]]) -> Iterator[Probe]:
    if not run:
        return
    start, end = run[0][0], run[-1][1]
    before = text[:start].rstrip()[-1:]
    opening = before in {"", ".", "!", "?", ":"}
    if opening and len(run) > 1 and text[run[0][0] : run[0][1]] in _OPENERS:
        run = run[1:]
        start = run[0][0]
    # A single capitalised word that opens a sentence is not a name.
    if len(run) == 1 and opening and text[start + 1 : end].islower():
        return
    yield Probe(start, end, "latin")


def _quoted(text: str) -> Iterator[Probe]:
    for m in _QUOTED.finditer(text):
        g = next(i for i in range(1, 6) if m.group(i) is not None)
        yield Probe(m.start(g), m.end(g), "quoted")


def _cells(text: str) -> Iterator[Probe]:
    pos = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        table = (body.count("|") >= 2 or "\t" in body) and not _TABLE_RULE.match(body)
        if table:
            sep = "|" if "|" in body else "\t"
            offset = 0
            for cell in body.split(sep):
                left = len(cell) - len(cell.lstrip())
                stripped = cell.strip()
                if stripped:
                    start = pos + offset + left
                    yield Probe(start, start + len(stripped), "cell")
                offset += len(cell) + 1
        pos += len(line)


def _chars_japanese(text: str) -> Iterator[Probe]:
    numbers = [(m.start(), m.end()) for m in _NUMBER.finditer(text)]
    for start, end in numbers:
        yield Probe(start, end, "number")
    units = {end for _, end in numbers}
    for m in _JA_RUN.finditer(text):
        # The unit characters of a number (the 万円 of 10万円) are part of that number's probe.
        if m.end() in units and text[m.start() - 1 : m.start()].isdigit():
            continue
        yield Probe(m.start(), m.end(), _ja_kind(m.group()))


@lru_cache(maxsize=1)
def _tagger() -> Any:
    try:
        import fugashi  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise MissingDependencyError("fugashi_not_installed") from None
    try:
        return fugashi.Tagger()
    except RuntimeError as exc:
        raise MissingDependencyError("fugashi_no_dictionary", reason=str(exc)) from None


def _fugashi_japanese(text: str) -> Iterator[Probe]:
    tagger = _tagger()
    pos = 0
    run: list[tuple[int, int]] = []

    def flush() -> Iterator[Probe]:
        if run:
            start, end = run[0][0], run[-1][1]
            s = text[start:end]
            kind: ProbeKind = (
                "number"
                if any(ch.isdigit() for ch in s)
                else "latin"
                if s.isascii()
                else _ja_kind(s)
            )
            yield Probe(start, end, kind)
        run.clear()

    # MeCab drops whitespace; each token's offset is found from the running position (the
    # surface always lies at or after it), never by searching the whole text.
    for line_start, line in _lines(text):
        pos = 0
        for word in tagger(line):
            surface = word.surface
            k = line.find(surface, pos)
            if k < 0:
                continue
            gap = k > pos
            start, end = line_start + k, line_start + k + len(surface)
            pos = k + len(surface)
            pos1 = word.feature.pos1
            noun = pos1 in {"名詞", "接頭辞", "接尾辞"} or (pos1 == "記号" and surface == "々")
            if noun and not gap:
                run.append((start, end))
            elif noun:
                yield from flush()
                run.append((start, end))
            else:
                yield from flush()
        yield from flush()


def _lines(text: str) -> Iterator[tuple[int, str]]:
    pos = 0
    for line in text.splitlines(keepends=True):
        yield pos, line.rstrip("\r\n")
        pos += len(line)


def extract_probes(
    text: str,
    *,
    method: Method = DEFAULT_METHOD,
    min_chars: int = MIN_CHARS,
    max_chars: int = MAX_CHARS,
) -> tuple[Probe, ...]:
    """Candidate answer spans of ``text``, distinct and in document order.

    Args:
        text: The document.
        method: ``chars`` (character classes) or ``fugashi`` (MeCab noun compounds).
        min_chars: Shortest probe kept.
        max_chars: Longest probe kept (longer runs are rarely what a question asks for).

    Returns:
        Probes sorted by ``(start, end)``; a span found by two rules is kept once, with the
        kind of the first rule (numbers, Japanese compounds, Latin terms, quotes, cells).

    Raises:
        ParameterError: An unknown method or bad length bounds.
        MissingDependencyError: ``fugashi`` without fugashi and unidic-lite installed.
    """
    if method not in METHODS:
        raise ParameterError("one_of", name="method", value=method, choices=list(METHODS))
    if not 1 <= min_chars <= max_chars:
        raise ParameterError("probe_chars", min_chars=min_chars, max_chars=max_chars)
    japanese = _fugashi_japanese(text) if method == "fugashi" else _chars_japanese(text)
    seen: dict[tuple[int, int], Probe] = {}
    for source in (japanese, _latin(text), _quoted(text), _cells(text)):
        for p in source:
            n = p.end - p.start
            if min_chars <= n <= max_chars and (p.start, p.end) not in seen:
                seen[(p.start, p.end)] = p
    return tuple(sorted(seen.values(), key=lambda p: (p.start, p.end)))


def probe_questions(document: Document, probes: Sequence[Probe]) -> tuple[Question, ...]:
    """One synthetic question per probe: its text is the probe, its answer the probe's span."""
    out = []
    for p in probes:
        answer = document.text[p.start : p.end]
        out.append(
            Question(
                f"{document.doc_id}:probe:{p.start}-{p.end}",
                document.doc_id,
                answer,
                answer,
                (Span(document.doc_id, p.start, p.end),),
            )
        )
    return tuple(out)


def probe_dataset(
    documents: Sequence[Document],
    *,
    method: Method = DEFAULT_METHOD,
    sample: int = 0,
    seed: int = 0,
    name: str = "probes",
) -> Dataset:
    """The documents with their probes as questions, for ``lost_table`` and friends.

    Args:
        documents: The documents (all kept: they are the index).
        method: Probe extraction method.
        sample: How many probes to keep over all documents (0: all), drawn with the project's
            one sampler (``chunkviz.datasets.sampling.sample_questions``), so reproducible by
            seed.
        seed: Seed of the sample.
        name: The dataset's name in reports.

    Returns:
        A dataset whose notes say that its questions are synthetic probes.
    """
    questions = tuple(
        q for d in documents for q in probe_questions(d, extract_probes(d.text, method=method))
    )
    data = Dataset(
        name, tuple(documents), questions, notes=(SYNTHETIC_NOTE, f"probe method: {method}")
    )
    if sample and sample < len(questions):
        data = sample_questions(data, sample, seed)
    return data


def lost_sentence(config: str, broken: int, total: int) -> str:
    """``of 812 key phrases in your document, 14 are cut by fixed-100-0``."""
    return f"of {total} key phrases in your document, {broken} are cut by {config}"
