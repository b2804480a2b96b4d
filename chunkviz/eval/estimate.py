"""How long a benchmark run will spend encoding, said before it starts.

A dense run's time is its encoding: every unique chunk text (and question) that the embedding
cache does not hold yet, at the encoder's speed. The speeds are measured on this project's
machine (docs/benchmarks.md, "Encoder threads" and "e5-small"), per CPU thread on an idle core;
a busy machine is slower, which the page says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chunkviz.datasets.base import Dataset
from chunkviz.datasets.sampling import sample_questions
from chunkviz.eval.grid import Config, chunk_config
from chunkviz.retrieval.base import Backend
from chunkviz.retrieval.cache import EmbeddingCache
from chunkviz.retrieval.headers import contextual_texts
from chunkviz.retrieval.index import vector_backends

#: Characters encoded per second by one thread on an idle core (docs/benchmarks.md).
CHARS_PER_THREAD_SECOND: dict[str, float] = {"e5-small": 1600.0, "use-m3": 32000.0}


@dataclass(frozen=True, slots=True)
class EncodeEstimate:
    """What a run will encode and about how long it takes.

    Attributes:
        backend: The encoder's name (a hybrid's dense component).
        chars: Characters of every unique text the run embeds (chunks and questions).
        missing_chars: Those not in the cache yet: what the run will encode.
        seconds: Estimated encoding time on an idle machine (None: speed unknown).
    """

    backend: str
    chars: int
    missing_chars: int
    seconds: float | None


def encode_estimate(
    dataset: Dataset,
    configs: Sequence[Config],
    backend: Backend,
    cache: EmbeddingCache,
    *,
    sample: int = 0,
    seed: int = 0,
) -> EncodeEstimate | None:
    """The encoding a run of ``configs`` on ``dataset`` needs; None for a lexical backend.

    Chunks every document under every configuration (cheap beside the encoding) and asks the
    cache which texts it lacks.
    """
    encoders = vector_backends(backend)
    if not encoders:
        return None
    encoder = encoders[0]
    chunks = list(
        dict.fromkeys(
            t
            for c in configs
            for d in dataset.documents
            for t in contextual_texts(chunk_config(c, d), d.title, c.context)
        )
    )
    questions = list(
        dict.fromkeys(q.question for q in sample_questions(dataset, sample, seed).questions)
    )
    missing = sum(map(len, cache.missing(encoder, chunks, "document"))) + sum(
        map(len, cache.missing(encoder, questions, "query"))
    )
    total = sum(map(len, chunks)) + sum(map(len, questions))
    rate = CHARS_PER_THREAD_SECOND.get(encoder.name)
    threads = int(getattr(encoder, "threads", 1) or 1)
    seconds = None if rate is None else missing / (rate * threads)
    return EncodeEstimate(encoder.name, total, missing, seconds)
