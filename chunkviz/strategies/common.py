"""Parameter schemas and helpers shared by several strategies."""

from __future__ import annotations

from typing import Literal

from chunkviz.strategies.registry import Param
from chunkviz.tokenizers import Tokenizer, bundled_sentencepiece

Unit = Literal["chars", "tokens"]

MAX_SIZE = 100_000

SIZE = Param(
    "size",
    "int",
    400,
    min=1,
    max=MAX_SIZE,
    unit="chars/tokens",
    help="Largest chunk length, in the chosen unit.",
)
OVERLAP = Param(
    "overlap",
    "int",
    0,
    min=0,
    max=MAX_SIZE - 1,
    unit="chars/tokens",
    less_than="size",
    help="How much of the end of a chunk is repeated at the start of the next (must be < size).",
)
UNIT = Param(
    "unit",
    "choice",
    "chars",
    choices=("chars", "tokens"),
    help="Count lengths in characters (len()) or in tokens of the active model's tokenizer.",
)


def resolve_tokenizer(unit: str, tokenizer: Tokenizer | None) -> Tokenizer | None:
    """The tokenizer to count with: None for chars, the given or the bundled one for tokens."""
    if unit == "chars":
        return None
    return tokenizer if tokenizer is not None else bundled_sentencepiece()
