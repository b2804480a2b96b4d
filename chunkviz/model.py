"""The data model: chunks are offsets into the original text, never copies of it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, islice, repeat
from operator import le, lt
from types import MappingProxyType
from typing import Any, cast, overload


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


class ClippedRange(Sequence[int]):
    """``min(v, limit)`` for every ``v`` of an increasing ``range``: the ends of fixed windows.

    Iteration runs at C speed (a range and ``itertools``), and ordering is known without a scan,
    so a fixed window's offsets cost O(1) to build and to check.
    """

    __slots__ = ("_limit", "_range")

    def __init__(self, values: range, limit: int) -> None:
        """Clip ``values`` (a range with a positive step) at ``limit``."""
        if values.step <= 0:
            raise ValueError(f"ClippedRange needs an increasing range (got {values})")
        self._range = values
        self._limit = limit

    @property
    def unclipped(self) -> range:
        """The values before clipping."""
        return self._range

    @property
    def limit(self) -> int:
        """The value every larger one is clipped to."""
        return self._limit

    def __len__(self) -> int:
        return len(self._range)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        if isinstance(index, slice):
            return [min(v, self._limit) for v in self._range[index]]
        return min(self._range[index], self._limit)

    def __iter__(self) -> Iterator[int]:
        r, limit = self._range, self._limit
        # Values below the limit come straight from the range; the rest are the limit itself.
        inside = range(r.start, min(r.stop, limit + 1), r.step) if r.start <= limit else range(0)
        return chain(inside, repeat(limit, len(r) - len(inside)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"ClippedRange({self._range!r}, {self._limit})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (ClippedRange, (self._range, self._limit))


def _increasing(values: Sequence[int]) -> bool:
    """Whether ``values`` never decreases (known without a scan for ranges and ClippedRange)."""
    if isinstance(values, range | ClippedRange):
        return True
    return all(map(le, values, islice(values, 1, None)))


class ChunkSequence(Sequence[Chunk]):
    """The chunks of a result, held as offset columns; ``Chunk`` objects are built on demand.

    Every ``ChunkingResult`` holds its chunks in this one form: ``starts`` and ``ends``, and
    ``parents`` and ``prefixes`` columns when some chunk has them. Strategies that make many
    chunks (``fixed``, ``recursive``) hand their offset columns straight in, so a caller that
    only needs offsets or texts (``ChunkingResult.chunk_texts``) never pays for ``Chunk``
    objects; the others hand in chunks (``from_chunks``). It behaves as an immutable tuple of
    ``Chunk``: indexing, slicing (to a tuple), iteration, ``len`` and equality with any sequence
    of chunks.
    """

    __slots__ = ("_ends", "_items", "_parents", "_prefixes", "_starts")

    def __init__(
        self,
        starts: Sequence[int],
        ends: Sequence[int],
        parents: Sequence[int | None] | None = None,
        prefixes: Sequence[str] | None = None,
    ) -> None:
        """Chunks ``Chunk(starts[i], ends[i], parents[i], prefixes[i])``, columns of one length."""
        n = len(starts)
        for name, column in (("ends", ends), ("parents", parents), ("prefixes", prefixes)):
            if column is not None and len(column) != n:
                raise ValueError(f"{n} starts but {len(column)} {name}")
        self._starts = starts
        self._ends = ends
        # A column is kept only when some chunk has a value in it (the class's invariant, which
        # the fast paths of equality and of prefixed texts rely on).
        self._parents = (
            parents if parents is not None and any(p is not None for p in parents) else None
        )
        self._prefixes = prefixes if prefixes is not None and any(prefixes) else None
        self._items: tuple[Chunk, ...] | None = None

    @classmethod
    def from_spans(cls, spans: Iterable[tuple[int, int]]) -> ChunkSequence:
        """Chunks of ``(start, end)`` spans, held as two columns: no ``Chunk`` object each.

        NOTE a text of many short blocks makes hundreds of thousands of chunks; a frozen
        ``Chunk`` each (allocated, then traversed by the garbage collector) made the time per
        chunk grow with their number (issue 14's growth ratios up to 6.6 for paragraph).
        """
        starts: list[int] = []
        ends: list[int] = []
        for start, end in spans:
            starts.append(start)
            ends.append(end)
        return cls(starts, ends)

    @classmethod
    def of(cls, chunks: Iterable[Chunk]) -> ChunkSequence:
        """``chunks`` in this form (the value itself when it already is one)."""
        if isinstance(chunks, ChunkSequence):
            return chunks
        items = tuple(chunks)
        seq = cls(
            [c.start for c in items],
            [c.end for c in items],
            [c.parent for c in items],
            [c.prefix for c in items],
        )
        seq._items = items  # the chunks are already built: keep them
        return seq

    @property
    def starts(self) -> Sequence[int]:
        """Start offsets, in chunk order."""
        return self._starts

    @property
    def ends(self) -> Sequence[int]:
        """End offsets, in chunk order."""
        return self._ends

    @property
    def parents(self) -> Sequence[int | None] | None:
        """Parent index of every chunk (None: no chunk has a parent)."""
        return self._parents

    @property
    def prefixes(self) -> Sequence[str] | None:
        """Prefix of every chunk (None: no chunk has one)."""
        return self._prefixes

    def _materialized(self) -> tuple[Chunk, ...]:
        if self._items is None:
            n = len(self._starts)
            parents = self._parents if self._parents is not None else repeat(None, n)
            prefixes = self._prefixes if self._prefixes is not None else repeat("", n)
            self._items = tuple(map(Chunk, self._starts, self._ends, parents, prefixes))
        return self._items

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, index: int) -> Chunk: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Chunk, ...]: ...

    def __getitem__(self, index: int | slice) -> Chunk | tuple[Chunk, ...]:
        return self._materialized()[index]

    def __iter__(self) -> Iterator[Chunk]:
        return iter(self._materialized())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ChunkSequence):
            if (
                self._parents is None
                and self._prefixes is None
                and (other._parents is None and other._prefixes is None)
            ):
                return list(self._starts) == list(other._starts) and list(self._ends) == list(
                    other._ends
                )
            return self._materialized() == other._materialized()
        if isinstance(other, Sequence) and not isinstance(other, str):
            return self._materialized() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._materialized())

    def __repr__(self) -> str:
        shown = ", ".join(map(repr, islice(self, 3)))
        more = f", ... ({len(self)} chunks)" if len(self) > 3 else ""
        return f"ChunkSequence({shown}{more})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (ChunkSequence, (self._starts, self._ends, self._parents, self._prefixes))

    def check_bounds(self, length: int) -> str | None:
        """A description of the first broken invariant, or None when the offsets are sound.

        Checked at C speed: ``0 <= start < end <= length`` and starts and ends non-decreasing.
        """
        starts, ends = self._starts, self._ends
        if not starts:
            return None
        if type(starts) is range and type(ends) is ClippedRange:
            # Fixed windows: both increase, so start < end holds everywhere once it holds at
            # the first chunk and at the last (the only one that can be clipped).
            limit, unclipped = ends.limit, ends.unclipped
            first_end, last_end = min(unclipped.start, limit), min(unclipped[-1], limit)
            if starts.step <= 0:
                return "chunks out of order"
            if not (starts.start < first_end and starts[-1] < last_end):
                return "a chunk with start >= end"
            if starts.start < 0 or last_end > length:
                return f"offsets outside 0..{length}"
            return None
        if (isinstance(starts, range) and starts.step < 0) or not (
            _increasing(starts) and _increasing(ends)
        ):
            return "chunks out of order"
        if not all(map(lt, starts, ends)):
            return "a chunk with start >= end"
        if starts[0] < 0 or ends[-1] > length:
            return f"offsets outside 0..{length}"
        return None


@dataclass(frozen=True)
class ChunkingResult:
    """The text, its ordered chunks, and the strategy and parameters that made them.

    ``text[c.start:c.end]`` is each chunk's source text; ``__post_init__`` checks the bounds
    so that no strategy can return an inconsistent result.
    """

    text: str
    chunks: Sequence[Chunk]  # any sequence of chunks in; always a ChunkSequence once built
    strategy: str
    params: Mapping[str, Any] = field(default_factory=dict)
    parents: tuple[Chunk, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        if type(self.parents) is not tuple:
            object.__setattr__(self, "parents", tuple(self.parents))
        chunks = ChunkSequence.of(self.chunks)  # the one representation of chunks
        object.__setattr__(self, "chunks", chunks)
        n = len(self.text)
        problem = chunks.check_bounds(n)
        if problem:
            raise ValueError(f"{problem}; this is a bug in strategy {self.strategy!r}")
        for i, c in enumerate(self.parents):
            if not (0 <= c.start < c.end <= n):
                raise ValueError(
                    f"parent {i} has offsets ({c.start}, {c.end}) outside 0 <= start < end"
                    f" <= {n}; this is a bug in strategy {self.strategy!r}"
                )
        if chunks.parents is not None:
            for i, p in enumerate(chunks.parents):
                if p is not None and not (0 <= p < len(self.parents)):
                    raise ValueError(
                        f"chunk {i} points at parent {p} but there are {len(self.parents)}"
                        f" parents; this is a bug in strategy {self.strategy!r}"
                    )

    def __len__(self) -> int:
        return len(self.chunks)

    def __reduce__(self) -> tuple[Any, ...]:
        # The read-only params mapping does not pickle; rebuild from a plain dict (st.cache_data
        # and multiprocessing pickle results).
        return (
            ChunkingResult,
            (self.text, self.chunks, self.strategy, dict(self.params), self.parents),
        )

    @property
    def columns(self) -> ChunkSequence:
        """The chunks as offset columns (what ``chunks`` always holds)."""
        return cast(ChunkSequence, self.chunks)

    def starts(self) -> list[int]:
        """Start offset of every chunk, in order."""
        return list(self.columns.starts)

    def chunk_text(self, i: int) -> str:
        """Source text of chunk ``i`` (without its prefix)."""
        c = self.chunks[i]
        return self.text[c.start : c.end]

    def chunk_texts(self) -> list[str]:
        """Source texts of all chunks, in order."""
        t = self.text
        ends = self.columns.ends
        if type(ends) is ClippedRange and ends.limit == len(t):
            # Slicing clips at the end of the text by itself, and a range iterates faster.
            ends = ends.unclipped
        # ChunkSequence holds as many starts as ends.
        return [t[s:e] for s, e in zip(self.columns.starts, ends)]  # noqa: B905

    def embed_texts(self) -> list[str]:
        """What an embedding model sees for each chunk: prefix and source text."""
        texts = self.chunk_texts()
        prefixes = self.columns.prefixes
        if prefixes is None:
            return texts
        return [p + t for p, t in zip(prefixes, texts, strict=True)]
