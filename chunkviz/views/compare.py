"""Compare configurations on one document: boundaries, counts, lost answers, retrieval ranks.

Every configuration is chunked on the same text and judged on the same questions, whose ground
truth is a span of the text (not a chunk id), so any two strategies can be compared. For each
question the rank of its best chunk (the best-ranked chunk that holds a whole answer span) is
computed under one backend; a question no chunk can answer has no rank (lost before retrieval).
"""

from __future__ import annotations

import html
import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from chunkviz.document import Question
from chunkviz.eval.imported import IMPORTED
from chunkviz.eval.metrics import recall_at_k
from chunkviz.model import ChunkingResult
from chunkviz.retrieval.backends import score
from chunkviz.retrieval.base import Backend, Measure
from chunkviz.retrieval.ranking import best_relevant_ranks
from chunkviz.strategies.snap import active_params
from chunkviz.text import Lang, has, text
from chunkviz.text.messages import value_text
from chunkviz.text_boundaries import cut_offsets as cut_offsets_of
from chunkviz.text_boundaries import word_cuts
from chunkviz.views.explore import QAResult, assess_qa
from chunkviz.views.markup import escape_html

Rank = int | None


@dataclass(frozen=True)
class Outcome:
    """One configuration's result on the document.

    Attributes:
        label: The configuration's name on the page.
        result: The chunking.
        qa: Status of every question (contained, broken, not found).
        ranks: Per question, the 1-based rank of its best chunk under the backend (None when no
            chunk holds a whole answer span).
    """

    label: str
    result: ChunkingResult
    qa: tuple[QAResult, ...]
    ranks: tuple[Rank, ...]

    @property
    def count(self) -> int:
        """Number of chunks."""
        return len(self.result.chunks)

    @property
    def mean_chars(self) -> float:
        """Mean chunk length in characters (0 without chunks)."""
        lengths = [c.length for c in self.result.chunks]
        return float(np.mean(lengths)) if lengths else 0.0

    @property
    def words_cut(self) -> int:
        """Cuts inside a word (``chunkviz.text_boundaries.word_cuts``)."""
        return word_cuts(self.result).count

    @property
    def broken(self) -> int:
        """Questions whose every answer span is cut by a boundary."""
        return sum(1 for r in self.qa if r.status == "broken")

    @property
    def lost_chars(self) -> int:
        """Characters of the text that no chunk covers (whitespace gaps and more)."""
        covered = 0
        end = 0
        for c in self.result.chunks:
            covered += max(0, c.end - max(c.start, end))
            end = max(end, c.end)
        return len(self.result.text) - covered

    def recall_at(self, k: int) -> float | None:
        """Share of the questions found in the document whose best chunk ranks within ``k``.

        Broken questions count as misses (``chunkviz.eval.metrics.recall_at_k``); None when no
        question was found.
        """
        found = [r for q, r in zip(self.qa, self.ranks, strict=True) if q.status != "not found"]
        if not found:
            return None
        return float(recall_at_k(found, k).mean())


def question_ranks(
    result: ChunkingResult,
    qa: Sequence[QAResult],
    backend: Backend,
    *,
    measure: Measure = "cosine",
) -> tuple[Rank, ...]:
    """Rank of each question's best containing chunk when ``backend`` ranks the chunks.

    Chunks are scored as they are embedded (prefix and text); ties count against the answer
    (``chunkviz.retrieval.ranking``).
    """
    if not qa:
        return ()
    if not result.chunks:
        return tuple(None for _ in qa)

    scores = score(backend, [r.item.question for r in qa], result.embed_texts(), measure)
    return tuple(best_relevant_ranks(scores, [list(r.containing) for r in qa]))


def outcome(
    label: str,
    result: ChunkingResult,
    items: Sequence[Question],
    backend: Backend | None,
    *,
    measure: Measure = "cosine",
) -> Outcome:
    """Judge ``result`` on ``items``; ranks need a backend (None: every rank is None)."""
    qa = tuple(assess_qa(result, items))
    if backend is None:
        return Outcome(label, result, qa, tuple(None for _ in qa))
    return Outcome(label, result, qa, question_ranks(result, qa, backend, measure=measure))


#: The column and status words of the tables below, as the catalogues name them.
WORDS = (
    "configuration",
    "strategy",
    "chunks",
    "mean chars",
    "broken answers",
    "questions",
    "chars in no chunk",
    "cuts inside words",
    "question",
    "answer",
    "broken",
    "not found",
)


def table_words(lang: Lang) -> dict[str, str]:
    """``words`` for ``summary_rows`` and ``rank_rows`` in ``lang``."""
    return {w: text(lang, f"compare.words.{w}") for w in WORDS}


def diff_words(lang: Lang) -> dict[str, str]:
    """``words`` for ``diff_rows`` in ``lang``."""
    return {
        w: text(lang, f"compare.diff_col_{w.replace(' ', '_')}")
        for w in ("question", "answer", "broken in")
    }


def _relabel(row: dict[str, Any], words: Mapping[str, str]) -> dict[str, Any]:
    return {words.get(k, k): v for k, v in row.items()}


def summary_rows(
    outcomes: Sequence[Outcome],
    ks: Sequence[int] = (1, 5),
    words: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """One row per configuration: counts, lengths, lost answers and Recall@k.

    ``words`` renames the columns (``chunks``, ``broken answers`` ...) for the UI language.
    """
    rows = []
    for o in outcomes:
        row: dict[str, Any] = {
            "configuration": o.label,
            "strategy": o.result.strategy,
            "chunks": o.count,
            "mean chars": round(o.mean_chars, 1),
            "broken answers": o.broken,
            "questions": len(o.qa),
            "chars in no chunk": o.lost_chars,
            "cuts inside words": o.words_cut,
        }
        for k in ks:
            value = o.recall_at(k)
            row[f"Recall@{k}"] = None if value is None else round(value, 3)
        rows.append(_relabel(row, words or {}))
    return rows


def rank_rows(
    outcomes: Sequence[Outcome], words: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """One row per question: its best chunk's rank under each configuration.

    A cell is the rank as text, ``"broken"`` when no chunk holds a whole answer span, or
    ``"not found"`` when the answer is not in the document (text throughout, so that a table
    column has one type). ``words`` renames the ``question``/``answer`` columns and the two
    status words for the UI language.
    """
    words = words or {}
    if not outcomes:
        return []
    rows = []
    for qi, first in enumerate(outcomes[0].qa):
        row: dict[str, Any] = {"question": first.item.question, "answer": first.item.answer}
        for o in outcomes:
            status = o.qa[qi].status
            rank = o.ranks[qi]
            row[o.label] = str(rank) if rank is not None else words.get(status, status)
        rows.append(_relabel(row, words))
    return rows


def config_label(strategy: str, params: Mapping[str, Any]) -> str:
    """A short label such as ``fixed size=400 overlap=0`` (parameters in schema order).

    An imported chunking is called by its file: ``imported: chunks.json``.
    """
    if strategy == IMPORTED:
        return f"{IMPORTED}: {params.get('name', params.get('id', ''))}"
    shown = " ".join(f"{k}={v}" for k, v in active_params(params).items() if v is not None)
    return f"{strategy} {shown}".strip()


def config_text(lang: Lang, strategy: str, params: Mapping[str, Any]) -> str:
    """A configuration in words of ``lang``: ``fixed サイズ 400・オーバーラップ 0・単位 文字``.

    The strategy keeps its registry name (it names the configuration everywhere, as in
    ``fixed-400-80``); each parameter is named by the catalogue and a unit value (``chars``)
    is its word. An imported chunking is called by its file, as ``config_label`` does.
    """
    if strategy == IMPORTED:
        return config_label(strategy, params)
    shown = [
        text(
            lang,
            "recorded.param_value",
            name=text(lang, f"param.{k}") if has(lang, f"param.{k}") else k,
            value=_value_word(lang, v),
        )
        for k, v in active_params(params).items()
        if v is not None
    ]
    return f"{strategy} {text(lang, 'recorded.param_sep').join(shown)}".strip()


def _value_word(lang: Lang, value: Any) -> str:
    """A parameter's value in words: a unit (``chars``) or a choice (``phrase``), catalogued."""
    if isinstance(value, str):
        for table in ("unit", "choice"):
            if has(lang, f"{table}.{value}"):
                return text(lang, f"{table}.{value}")
    return value_text(lang, value)


def cut_offsets(result: ChunkingResult) -> frozenset[int]:
    """Where ``result`` cuts its text: every chunk start and end strictly inside the text.

    A *cut* is an offset at which some chunk begins or ends. With overlap a chunk's start and
    the previous chunk's end are both cuts (``fixed size=100 overlap=20`` cuts at 80 and 100,
    180 and 200, ...); with whitespace gaps (paragraphs) the end of one chunk and the start of
    the next are two cuts around the gap. The document's own edges (0 and its length) are cut
    by every chunking and are not counted.
    """
    columns = result.columns
    return frozenset(cut_offsets_of(len(result.text), columns.starts, columns.ends).tolist())


@dataclass(frozen=True, slots=True)
class BoundaryDiff:
    """The cuts and broken answers of configuration A against configuration B on one text.

    Attributes:
        only_a: Cut offsets A makes and B does not, ascending.
        only_b: Cut offsets B makes and A does not, ascending.
        shared: Cut offsets both make, ascending.
        broken_only_a: Indices of the questions broken under A and contained under B.
        broken_only_b: Indices of the questions broken under B and contained under A.
    """

    only_a: tuple[int, ...]
    only_b: tuple[int, ...]
    shared: tuple[int, ...]
    broken_only_a: tuple[int, ...]
    broken_only_b: tuple[int, ...]


def boundary_diff(a: Outcome, b: Outcome) -> BoundaryDiff:
    """Which cuts (``cut_offsets``) and which broken answers differ between ``a`` and ``b``.

    Both outcomes must be on the same text and the same questions, as Compare makes them.

    Raises:
        ValueError: When the texts or the numbers of questions differ.
    """
    if a.result.text != b.result.text or len(a.qa) != len(b.qa):
        raise ValueError("boundary_diff needs two outcomes on the same text and questions")
    cuts_a, cuts_b = cut_offsets(a.result), cut_offsets(b.result)
    pairs = list(zip(a.qa, b.qa, strict=True))
    return BoundaryDiff(
        only_a=tuple(sorted(cuts_a - cuts_b)),
        only_b=tuple(sorted(cuts_b - cuts_a)),
        shared=tuple(sorted(cuts_a & cuts_b)),
        broken_only_a=tuple(
            i for i, (x, y) in enumerate(pairs) if x.status == "broken" and y.status == "contained"
        ),
        broken_only_b=tuple(
            i for i, (x, y) in enumerate(pairs) if y.status == "broken" and x.status == "contained"
        ),
    )


# A text span of ``chunkviz.views.highlight.render_html``: its ``data-s`` is its first character
# and its body is escaped text (no nested tags).
_TEXT_SPAN = re.compile(r'(<span [^>]*?data-s=")(\d+)("[^>]*>)([^<]*)(</span>)')


def mark_cuts(
    markup: str,
    here: Sequence[int],
    there: Sequence[int],
    *,
    here_title: str,
    there_title: str,
) -> str:
    """``markup`` (from ``render_html``) with a marker before the characters at given cuts.

    ``here`` are cuts this panel's configuration makes and the other does not (class
    ``bd-here``); ``there`` are cuts only the other configuration makes (class ``bd-there``),
    drawn here too so the two panels show the same places. A cut inside a text span splits it
    into two spans with the same classes and tooltip, the second with its own ``data-s``; cuts
    outside the rendered range are left out. The markers hold no text, so the panel's text stays
    exactly the document's.
    """
    kinds = {offset: ("bd-there", escape_html(there_title)) for offset in there}
    kinds.update({offset: ("bd-here", escape_html(here_title)) for offset in here})
    if not kinds:
        return markup
    wanted = sorted(kinds)

    def marked(match: re.Match[str]) -> str:
        head, first, attrs, body, tail = match.groups()
        start = int(first)
        chars = html.unescape(body)
        lo = bisect_left(wanted, start)
        hi = bisect_left(wanted, start + len(chars))
        if lo == hi:
            return match.group(0)
        pieces = [start, *(c for c in wanted[lo:hi] if c > start), start + len(chars)]
        out = []
        for a, b in zip(pieces, pieces[1:], strict=False):
            kind = kinds.get(a)
            if kind is not None:
                cls, words = kind
                out.append(
                    f'<span class="bd {cls}" role="img" aria-label="{words}" '
                    f'title="{words}"></span>'
                )
            out.append(f"{head}{a}{attrs}{escape_html(chars[a - start : b - start])}{tail}")
        return "".join(out)

    return _TEXT_SPAN.sub(marked, markup)


def diff_rows(
    a: Outcome, b: Outcome, diff: BoundaryDiff, words: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """One row per question broken under exactly one of ``a`` and ``b`` (A's first).

    Columns ``question``, ``answer`` and ``broken in`` (the configuration's label); ``words``
    renames the columns for the UI language.
    """
    rows = []
    for indices, where in ((diff.broken_only_a, a), (diff.broken_only_b, b)):
        for qi in indices:
            item = where.qa[qi].item
            rows.append(
                _relabel(
                    {"question": item.question, "answer": item.answer, "broken in": where.label},
                    words or {},
                )
            )
    return rows
