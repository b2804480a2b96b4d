"""Intrinsic boundary metrics of a chunking: do its cuts fall where the author's do?

Each is a pure function of one chunking (and, for Pk and WindowDiff, a reference
segmentation such as the author's paragraphs). Cuts are ``chunkviz.text_boundaries.
cut_offsets``: every distinct chunk start and end inside the text.

- **Pk** (Beeferman, Berger & Lafferty 1999): the share of position pairs ``(i, i + k)`` that
  one segmentation puts in the same segment and the other does not; ``k`` is half the mean
  reference segment length. 0 is perfect; lower is better.
- **WindowDiff** (Pevzner & Hearst 2002): the share of windows ``[i, i + k)`` holding a
  different number of boundaries in the two segmentations. Lower is better.
- **Size compliance**: the share of chunks, the last one aside, whose length is at least half
  of the configured ``size`` (a chunk far below its size wastes a retrieval slot); 1.0 for a
  chunking without a size.
- **Sentences cut**: the share of cuts that fall strictly inside a sentence
  (``chunkviz.segment.sentence_spans``).
- Words cut: ``chunkviz.text_boundaries.word_cut_counts``.

Positions are characters. A chunking with overlap has more cuts than segments: both the start
and the end of each overlap count as boundaries, which is what a reader of the highlight sees.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from chunkviz.errors import ParameterError
from chunkviz.model import ChunkingResult
from chunkviz.segment import sentence_spans
from chunkviz.text_boundaries import cut_offsets


def _indicator(length: int, boundaries: Iterable[int]) -> Any:
    # b[i] = 1 when a boundary falls between character i - 1 and character i (0 < i < length).
    marks = np.zeros(length + 1, dtype=np.int64)
    values = np.fromiter(boundaries, dtype=np.int64)
    values = values[(values > 0) & (values < length)]
    marks[values] = 1
    return marks


def reference_k(length: int, reference: Sequence[int]) -> int:
    """Half the mean segment length of ``reference`` (its boundaries), at least 1."""
    segments = len({b for b in reference if 0 < b < length}) + 1
    return max(1, round(length / segments / 2))


def pk(length: int, reference: Iterable[int], hypothesis: Iterable[int], k: int) -> float:
    """Pk of ``hypothesis`` boundaries against ``reference`` boundaries over ``length`` chars.

    Raises:
        ParameterError: ``k`` below 1.
    """
    if k < 1:
        raise ParameterError("at_least", name="k", value=k, min=1)
    if length <= k:
        return 0.0
    ref = np.cumsum(_indicator(length, reference))  # segment id of each character
    hyp = np.cumsum(_indicator(length, hypothesis))
    same_ref = ref[k:length] == ref[: length - k]
    same_hyp = hyp[k:length] == hyp[: length - k]
    return float(np.mean(same_ref != same_hyp))


def window_diff(length: int, reference: Iterable[int], hypothesis: Iterable[int], k: int) -> float:
    """WindowDiff of ``hypothesis`` against ``reference`` boundaries over ``length`` chars.

    Raises:
        ParameterError: ``k`` below 1.
    """
    if k < 1:
        raise ParameterError("at_least", name="k", value=k, min=1)
    if length <= k:
        return 0.0
    ref = np.cumsum(_indicator(length, reference))
    hyp = np.cumsum(_indicator(length, hypothesis))
    # Boundaries inside the window (i, i + k]: cumulative count at i + k minus at i.
    in_ref = ref[k:length] - ref[: length - k]
    in_hyp = hyp[k:length] - hyp[: length - k]
    return float(np.mean(in_ref != in_hyp))


def size_compliance(result: ChunkingResult, size: int | None) -> float:
    """Share of chunks (the last aside) at least half of ``size`` long; 1.0 without a size."""
    lengths = [c.length for c in result.chunks][:-1]
    if size is None or not lengths:
        return 1.0
    return sum(1 for n in lengths if 2 * n >= size) / len(lengths)


def sentences_cut(result: ChunkingResult) -> float:
    """Share of the chunking's cuts that fall strictly inside a sentence (0.0 without cuts)."""
    columns = result.columns
    cuts = cut_offsets(len(result.text), columns.starts, columns.ends)
    if not cuts.size:
        return 0.0
    spans = sentence_spans(result.text)
    if not spans:
        return 0.0
    starts = np.array([s for s, _ in spans], dtype=np.int64)
    ends = np.array([e for _, e in spans], dtype=np.int64)
    at = np.searchsorted(starts, cuts, side="right") - 1
    valid = at >= 0
    inside = np.zeros(cuts.size, dtype=bool)
    inside[valid] = (cuts[valid] > starts[at[valid]]) & (cuts[valid] < ends[at[valid]])
    return float(inside.mean())
