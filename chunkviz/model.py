"""The data model: chunks are offsets into the original text, never copies of it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, slots=True)
class Chunk:
    """A half-open span ``[start, end)`` of code points in the chunked text.

    Attributes:
        start: Offset of the first character (``len()`` units, i.e. code points).
        end: Offset one past the last character.
        parent: Index into ``ChunkingResult.parents`` for hierarchical strategies.
        prefix: Context embedded with the chunk but not part of the source
            (a heading breadcrumb, a repeated table header).
    """

    start: int
    end: int
    parent: int | None = None
    prefix: str = ""

    @property
    def length(self) -> int:
        """Number of code points the chunk covers."""
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class Span:
    """A span of a document that must stay whole, e.g. the answer to a question.

    Attributes:
        doc_id: Identifier of the document the offsets refer to.
        start: Offset of the first character.
        end: Offset one past the last character.
    """

    doc_id: str
    start: int
    end: int


def _frozen_params(params: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(params))


@dataclass(frozen=True)
class ChunkingResult:
    """The text, its ordered chunks, and the strategy and parameters that made them.

    ``text[c.start:c.end]`` is each chunk's source text; ``__post_init__`` checks the bounds
    so that no strategy can return an inconsistent result.
    """

    text: str
    chunks: tuple[Chunk, ...]
    strategy: str
    params: Mapping[str, Any] = field(default_factory=dict)
    parents: tuple[Chunk, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", _frozen_params(self.params))
        object.__setattr__(self, "chunks", tuple(self.chunks))
        object.__setattr__(self, "parents", tuple(self.parents))
        n = len(self.text)
        for label, items in (("chunk", self.chunks), ("parent", self.parents)):
            for i, c in enumerate(items):
                if not (0 <= c.start < c.end <= n):
                    raise ValueError(
                        f"{label} {i} has offsets ({c.start}, {c.end}) outside 0 <= start < end"
                        f" <= {n}; this is a bug in strategy {self.strategy!r}"
                    )
        for i, c in enumerate(self.chunks):
            if c.parent is not None and not (0 <= c.parent < len(self.parents)):
                raise ValueError(
                    f"chunk {i} points at parent {c.parent} but there are {len(self.parents)}"
                    f" parents; this is a bug in strategy {self.strategy!r}"
                )

    def __len__(self) -> int:
        return len(self.chunks)

    def chunk_text(self, i: int) -> str:
        """Source text of chunk ``i`` (without its prefix)."""
        c = self.chunks[i]
        return self.text[c.start : c.end]

    def chunk_texts(self) -> list[str]:
        """Source texts of all chunks, in order."""
        t = self.text
        return [t[c.start : c.end] for c in self.chunks]

    def embed_texts(self) -> list[str]:
        """What an embedding model sees for each chunk: prefix and source text."""
        t = self.text
        return [c.prefix + t[c.start : c.end] for c in self.chunks]
