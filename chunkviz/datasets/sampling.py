"""A seeded, reproducible sample of a dataset's questions (the study drew 500).

How the sample is drawn: each question gets the key ``sha256(f"{seed}:{qid}")`` and the ``n``
questions with the smallest keys are kept, in the dataset's order. This is the same on every run,
machine, Python and NumPy version (it uses neither ``random`` nor a NumPy generator, whose
algorithms may change between versions), it does not depend on the order of the questions in the
file, and samples are nested: with one seed, the sample of 500 is part of the sample of 1,000.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from chunkviz.datasets.base import Dataset, Question
from chunkviz.errors import ParameterError


def sample_key(seed: int, qid: str) -> bytes:
    """The sort key of question ``qid`` under ``seed``."""
    return hashlib.sha256(f"{seed}:{qid}".encode()).digest()


def sample_questions(dataset: Dataset, n: int, seed: int = 0) -> Dataset:
    """``dataset`` with ``n`` of its questions, drawn reproducibly from ``seed``.

    Args:
        dataset: The full dataset; its documents are all kept (they are the retrieval index).
        n: How many questions; 0 means all of them.
        seed: Any integer; the same seed gives the same sample.

    Returns:
        A Dataset with the sampled questions in their original order and a note saying so.

    Raises:
        ParameterError: ``n`` is negative or larger than the number of questions.
    """
    total = len(dataset.questions)
    if n < 0 or n > total:
        raise ParameterError("sample_range", value=n, total=total, dataset=dataset.name)
    if n == 0 or n == total:
        return dataset
    chosen = sorted(range(total), key=lambda i: sample_key(seed, dataset.questions[i].qid))[:n]
    questions: tuple[Question, ...] = tuple(dataset.questions[i] for i in sorted(chosen))
    note = f"sample of {n} of {total} questions (seed {seed})"
    return replace(dataset, questions=questions, notes=(*dataset.notes, note))
