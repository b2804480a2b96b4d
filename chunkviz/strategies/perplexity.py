"""Perplexity splitting ("Meta-PPL", seed 004): cut where a language model's surprise jumps.

Each sentence gets a perplexity from a language model; boundary ``i`` (between sentence ``i``
and ``i + 1``) is a cut candidate when the perplexity changes by more than ``threshold`` in
log space: ``|ln PPL[i+1] - ln PPL[i]| > threshold`` (1.0 is a factor of e ≈ 2.7). Log space
makes one threshold work for models whose perplexities live on different scales (a character
model of Japanese, GPT-2 on English). Seed 004's code cuts on a drop of more than 0.4 in raw
perplexity and only once the chunk is longer than its size; here rises and drops both count,
``min_size`` plays that role and ``max_size`` is a hard cap (an over-long sentence is cut).
Per-sentence perplexities are noisy (short lines, headings, code): on the seed articles the
median adjacent change of the offline model is 0.6-0.9, hence the default of 1.0.

The language model is a resource (``language_model``, see ``chunkviz.lm.LanguageModel``).
Without one, ``lm`` names it: ``char-ngram`` (the offline default: a Kneser-Ney character
``order``-gram model fitted on the document's own sentences) or ``hf:<local path or cached
name>`` (a causal model through ``transformers``; ModelUnavailableError when it is not on this
machine). ``perplexity_curve`` exposes the curve and the cuts for the picture.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from chunkviz.lm import CHAR_NGRAM, LanguageModel, get_language_model
from chunkviz.model import Chunk, ChunkingResult
from chunkviz.strategies.packing import Bounds, group_units
from chunkviz.strategies.recursive import sentence_units
from chunkviz.strategies.registry import Param, Strategy, register
from chunkviz.strategies.semantic import MAX_SIZE, MIN_SIZE

THRESHOLD = Param(
    "threshold",
    "float",
    1.0,
    min=0.0,
    max=20.0,
    unit="ln PPL",
    help="Cut where the log-perplexity of adjacent sentences differs by more than this "
    "(1.0 = by a factor of e ≈ 2.7; 0.4 ≈ 1.5).",
)
LM = Param(
    "lm",
    "str",
    CHAR_NGRAM,
    help="Language model: char-ngram (offline, fitted on the document) or hf:<local causal "
    "model path or cached name>.",
)
ORDER = Param(
    "order",
    "int",
    3,
    min=1,
    max=8,
    unit="chars",
    help="n of the character n-gram model (ignored for hf: models).",
)


@dataclass(frozen=True, slots=True)
class PerplexityCurve:
    """What the perplexity splitter saw and decided, for the picture.

    Attributes:
        units: The sentences (over-long ones cut), as ``(start, end)``.
        perplexities: Perplexity of each unit (NaN: nothing to predict).
        changes: ``|ln PPL[i+1] - ln PPL[i]|`` per boundary (NaN when either is NaN).
        threshold: The threshold on ``changes``.
        breakpoints: Boundaries whose change exceeds the threshold.
        cuts: Boundaries where a chunk ends (breakpoints kept, plus forced ones).
        forced: Cuts made by ``max_size``.
        suppressed: Breakpoints skipped because the chunk was below ``min_size``.
        spans: The chunks.
        model: Name of the language model used.
    """

    units: tuple[Bounds, ...]
    perplexities: tuple[float, ...]
    changes: tuple[float, ...]
    threshold: float
    breakpoints: tuple[int, ...]
    cuts: tuple[int, ...]
    forced: tuple[int, ...]
    suppressed: tuple[int, ...]
    spans: tuple[Bounds, ...]
    model: str


def perplexity_curve(
    text: str,
    *,
    threshold: float = 1.0,
    min_size: int = 100,
    max_size: int = 1000,
    lm: str = CHAR_NGRAM,
    order: int = 3,
    language_model: LanguageModel | None = None,
) -> PerplexityCurve:
    """Per-sentence perplexities, their log changes and the resulting cuts.

    Args:
        text: The document.
        threshold: Smallest ``|Δ ln PPL|`` that makes a boundary a cut candidate.
        min_size: Shortest chunk (characters) a candidate may end.
        max_size: Longest chunk (characters).
        lm: ``char-ngram`` or ``hf:<model>``, used when ``language_model`` is None.
        order: n of the character n-gram model.
        language_model: A ``LanguageModel``; overrides ``lm`` and ``order``.

    Returns:
        The curve and the chunks.

    Raises:
        ParameterError: An unknown ``lm``.
        ModelUnavailableError: An ``hf:`` model that is not on this machine.
    """
    model = language_model if language_model is not None else get_language_model(lm, order=order)
    units = sentence_units(text, max_size)
    ppl = np.asarray(model.perplexities(text, units), dtype=np.float64) if units else np.zeros(0)
    with np.errstate(invalid="ignore", divide="ignore"):
        logs = np.log(ppl)
    changes = np.abs(np.diff(logs)) if len(units) > 1 else np.zeros(0)
    wanted = [bool(c > threshold) for c in changes]  # NaN compares False: no cut
    grouping = group_units(units, wanted, min_size=min_size, max_size=max_size)
    return PerplexityCurve(
        units=tuple(units),
        perplexities=tuple(float(x) for x in ppl),
        changes=tuple(float(x) for x in changes),
        threshold=threshold,
        breakpoints=tuple(i for i, w in enumerate(wanted) if w),
        cuts=grouping.cuts,
        forced=grouping.forced,
        suppressed=grouping.suppressed,
        spans=grouping.spans,
        model=str(getattr(model, "name", type(model).__name__)),
    )


def perplexity_split(
    text: str,
    *,
    threshold: float = 1.0,
    min_size: int = 100,
    max_size: int = 1000,
    lm: str = CHAR_NGRAM,
    order: int = 3,
    language_model: LanguageModel | None = None,
) -> ChunkingResult:
    """Chunks that end where perplexity jumps (see ``perplexity_curve`` for the arguments).

    Returns:
        The chunking; whitespace between sentences at a cut is in no chunk.

    Raises:
        ParameterError: An unknown ``lm``.
        ModelUnavailableError: An ``hf:`` model that is not on this machine.
    """
    curve = perplexity_curve(
        text,
        threshold=threshold,
        min_size=min_size,
        max_size=max_size,
        lm=lm,
        order=order,
        language_model=language_model,
    )
    params = {
        "threshold": threshold,
        "min_size": min_size,
        "max_size": max_size,
        "lm": lm,
        "order": order,
    }
    chunks = tuple(Chunk(s, e) for s, e in curve.spans)
    return ChunkingResult(text, chunks, "perplexity", params)


register(
    Strategy(
        name="perplexity",
        description="Perplexity (Meta-PPL): cut where sentence perplexity jumps by more than a "
        "threshold in log space; offline character n-gram model by default.",
        params=(THRESHOLD, MIN_SIZE, MAX_SIZE, LM, ORDER),
        gaps="whitespace",
        fn=perplexity_split,
        size_param="max_size",
        resources=frozenset({"language_model"}),
    )
)
