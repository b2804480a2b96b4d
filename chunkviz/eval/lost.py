"""Lost before retrieval: how many questions no chunk can answer, per chunking configuration.

A question is *broken* under a chunking when NONE of its answer spans is contained in a single
chunk (``chunkviz.eval.spans``): no retriever, however good, can return a chunk holding the whole
answer. Counting needs no model, only the chunkings and the spans.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from chunkviz.cost import predicted_chunk_count
from chunkviz.datasets.base import Dataset, Question
from chunkviz.errors import ParameterError
from chunkviz.eval.grid import Config, chunk_config
from chunkviz.eval.spans import analyze_spans


@dataclass(frozen=True, slots=True)
class LostRow:
    """The count for one configuration over a whole dataset.

    Attributes:
        config: The configuration's label (``fixed-100-0``, ``paragraph``).
        chunks: Chunks made over all documents.
        predicted_chunks: The fixed-window formula ceil((L - o) / (c - o)) summed over the
            documents (``chunkviz.cost.predicted_chunk_count``); None for other strategies and
            for token units, where the formula would need token counts.
        questions: Questions counted.
        broken: Questions none of whose spans any chunk contains.
        broken_ids: Their ids, in dataset order.
    """

    config: str
    chunks: int
    predicted_chunks: int | None
    questions: int
    broken: int
    broken_ids: tuple[str, ...] = ()

    @property
    def share(self) -> float:
        """``broken / questions`` (0.0 when there are no questions)."""
        return self.broken / self.questions if self.questions else 0.0

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        return {
            "config": self.config,
            "chunks": self.chunks,
            "predicted_chunks": self.predicted_chunks,
            "questions": self.questions,
            "broken": self.broken,
            "share": self.share,
            "broken_ids": list(self.broken_ids),
        }


def predicted_chunks(dataset: Dataset, config: Config) -> int | None:
    """The formula's chunk count for a character-window configuration, else None."""
    params = config.params
    if config.strategy != "fixed" or params.get("unit", "chars") != "chars":
        return None
    size, overlap = int(params["size"]), int(params.get("overlap", 0))
    return sum(predicted_chunk_count(len(d.text), size, overlap) for d in dataset.documents)


def lost_row(
    dataset: Dataset, config: Config, *, progress: Callable[[int], object] | None = None
) -> LostRow:
    """Chunk every document of ``dataset`` under ``config`` and count broken questions.

    Args:
        dataset: Documents and questions (all documents are chunked, even those without a
            question in a sample: they are the index a retriever searches).
        config: The chunking configuration.
        progress: Called with 1 after each document (e.g. ``tqdm.update``).
    """
    by_doc: dict[str, list[Question]] = {}
    for q in dataset.questions:
        by_doc.setdefault(q.doc_id, []).append(q)
    chunks = 0
    broken: set[str] = set()
    for document in dataset.documents:
        result = chunk_config(config, document)
        chunks += len(result)
        questions = by_doc.get(document.doc_id, [])
        spans = [s for q in questions for s in q.spans]
        statuses = iter(analyze_spans(result, spans).statuses)
        for q in questions:
            if not any([next(statuses).contained for _ in q.spans]):
                broken.add(q.qid)
        if progress is not None:
            progress(1)
    ids = tuple(q.qid for q in dataset.questions if q.qid in broken)
    return LostRow(
        config.label,
        chunks,
        predicted_chunks(dataset, config),
        len(dataset.questions),
        len(ids),
        ids,
    )


def lost_table(
    dataset: Dataset,
    configs: Sequence[Config],
    *,
    progress: Callable[[int], object] | None = None,
) -> list[LostRow]:
    """One ``LostRow`` per configuration, in the order given (see ``lost_row``)."""
    return [lost_row(dataset, c, progress=progress) for c in configs]


def format_lost_table(rows: Sequence[LostRow]) -> str:
    """The rows as an aligned plain-text table (what ``chunkviz lost`` prints)."""
    header = ("config", "chunks", "predicted", "questions", "broken", "share")
    body = [
        (
            r.config,
            str(r.chunks),
            "-" if r.predicted_chunks is None else str(r.predicted_chunks),
            str(r.questions),
            str(r.broken),
            f"{100 * r.share:.1f}%",
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in (header, *body)) for i in range(len(header))]
    lines = []
    for row in (header, *body):
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells))
    return "\n".join(lines)


def lost_by_type(
    dataset: Dataset, rows: Sequence[LostRow], kind: str = "question"
) -> list[tuple[str, int, dict[str, int]]]:
    """Broken questions per type (JaQuAD's question or answer types), per configuration.

    Args:
        dataset: The dataset the rows counted (its questions carry the types).
        rows: ``lost_table``'s rows.
        kind: ``question`` (``Question.question_type``) or ``answer`` (``answer_type``).

    Returns:
        ``(type, questions of that type, {config: broken})``, most questions first; empty when
        no question is labelled.

    Raises:
        ParameterError: An unknown ``kind``.
    """
    if kind not in ("question", "answer"):
        raise ParameterError("one_of", name="kind", value=kind, choices=["question", "answer"])
    of = {
        q.qid: q.question_type if kind == "question" else q.answer_type for q in dataset.questions
    }
    sizes = Counter(t for t in of.values() if t)
    return [
        (t, n, {r.config: sum(1 for qid in r.broken_ids if of.get(qid) == t) for r in rows})
        for t, n in sorted(sizes.items(), key=lambda item: (-item[1], item[0]))
    ]


def format_lost_by_type(table: Sequence[tuple[str, int, dict[str, int]]]) -> str:
    """``lost_by_type`` as an aligned plain-text table: a row per type, a column per config."""
    if not table:
        return ""
    configs = list(table[0][2])
    header = ("type", "questions", *configs)
    body = [(t, str(n), *(f"{c[k]} ({100 * c[k] / n:.1f}%)" for k in configs)) for t, n, c in table]
    widths = [max(len(row[i]) for row in (header, *body)) for i in range(len(header))]
    return "\n".join(
        "  ".join(
            [
                row[0].ljust(widths[0]),
                *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)),
            ]
        )
        for row in (header, *body)
    )
