"""Small-to-big retrieval: child hits expand to their parents, duplicates removed.

A hierarchical chunking (``parent_child``) holds small *children* (``result.chunks``, each with
``parent`` set) for retrieval and larger *parents* (``result.parents``) for context. After the
children are ranked for a query, the context handed to a language model is built here:

- ``expand_to_parents``: every child hit is replaced by its parent. Parents are gathered in the
  order of their best child hit and each appears once: seed 003's warning is that without this
  a top_k of 10 can carry the same paragraph five times.
- ``auto_merge``: a parent replaces its children only when at least ``min_children`` of them
  were retrieved; otherwise the children stay as they are (LlamaIndex's AutoMergingRetriever
  does this with a ratio).

With sentence windows the parents overlap (each child sentence has its own ± n window), so
``merge_overlaps`` also joins contexts whose spans overlap into one span.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from chunkviz.errors import ParameterError
from chunkviz.model import ChunkingResult
from chunkviz.retrieval.backends import score
from chunkviz.retrieval.base import Measure
from chunkviz.retrieval.ranking import rank_order

ContextKind = Literal["parent", "child"]
Fate = Literal["expanded", "absorbed", "kept"]


@dataclass(frozen=True, slots=True)
class Context:
    """One piece of context handed on after expansion.

    Attributes:
        kind: ``parent`` (a child hit expanded or merged) or ``child`` (kept as it is).
        start: Offset of the first character in the document.
        end: Offset one past the last character.
        parents: Indices into ``result.parents`` it is made of (empty for a kept child).
        children: Indices of the child hits that led to it, best rank first.
        rank: 0-based rank of its best child hit.
    """

    kind: ContextKind
    start: int
    end: int
    parents: tuple[int, ...]
    children: tuple[int, ...]
    rank: int

    @property
    def length(self) -> int:
        """Characters of context."""
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class Expansion:
    """The context built from the top-k child hits of one query.

    Attributes:
        hits: Child indices retrieved, best first (the top ``k`` of the ranking).
        contexts: Deduplicated contexts, in the order of their best child hit.
        duplicates_removed: Child hits whose parent was already in the context.
        naive_chars: Characters a naive expansion would send (one parent per hit, duplicates
            and overlaps included).
    """

    hits: tuple[int, ...]
    contexts: tuple[Context, ...]
    duplicates_removed: int
    naive_chars: int

    @property
    def context_chars(self) -> int:
        """Characters actually sent after deduplication."""
        return sum(c.length for c in self.contexts)


def _check(result: ChunkingResult, ranked_children: Sequence[int], k: int) -> tuple[int, ...]:
    if k < 1:
        raise ParameterError("at_least", name="k", value=k, min=1)
    if not result.parents:
        raise ParameterError("no_parents", strategy=result.strategy)
    n = len(result.chunks)
    hits = tuple(ranked_children[:k])
    bad = [i for i in hits if not 0 <= i < n]
    if bad or len(set(hits)) != len(hits):
        raise ParameterError("ranked_children", last=n - 1, value=str(bad or hits))
    return hits


def _merge_overlapping(contexts: list[Context], hits: Sequence[int]) -> list[Context]:
    """Join contexts whose spans overlap; the joined one keeps the best rank.

    Spans that only touch stay apart: adjacent parents of a hierarchy are separate contexts.
    """
    rank_of = {child: rank for rank, child in enumerate(hits)}
    order = sorted(range(len(contexts)), key=lambda i: (contexts[i].start, contexts[i].end))
    groups: list[list[int]] = []
    group_end = -1
    for i in order:
        c = contexts[i]
        if groups and c.start < group_end:
            groups[-1].append(i)
            group_end = max(group_end, c.end)
        else:
            groups.append([i])
            group_end = c.end
    merged = []
    for group in groups:
        members = [contexts[i] for i in group]
        best = min(members, key=lambda c: c.rank)
        children = sorted({ch for c in members for ch in c.children}, key=rank_of.__getitem__)
        merged.append(
            Context(
                kind=best.kind if len(members) == 1 else "parent",
                start=min(c.start for c in members),
                end=max(c.end for c in members),
                parents=tuple(sorted({p for c in members for p in c.parents})),
                children=tuple(children),
                rank=best.rank,
            )
        )
    return sorted(merged, key=lambda c: c.rank)


def expand_to_parents(
    result: ChunkingResult,
    ranked_children: Sequence[int],
    k: int,
    *,
    merge_overlaps: bool = True,
) -> Expansion:
    """Small-to-big: replace each of the top ``k`` child hits by its parent, once.

    Args:
        result: A chunking whose chunks point at parents (``parent_child``).
        ranked_children: Child indices ordered best first (a retriever's ranking).
        k: How many child hits to expand.
        merge_overlaps: Join parents whose spans overlap (sentence windows).

    Returns:
        The contexts in the order of each parent's best child hit.

    Raises:
        ParameterError: ``k < 1``, a chunking without parents, or a bad ranking.
    """
    hits = _check(result, ranked_children, k)
    by_parent: dict[int, list[int]] = {}
    first_rank: dict[int, int] = {}
    naive = 0
    for rank, child in enumerate(hits):
        parent = result.chunks[child].parent
        p = parent if parent is not None else -1 - child  # an orphan child stands for itself
        by_parent.setdefault(p, []).append(child)
        first_rank.setdefault(p, rank)
        naive += _span_length(result, p, child)
    contexts = [_context(result, p, children, first_rank[p]) for p, children in by_parent.items()]
    duplicates = len(hits) - len(by_parent)
    if merge_overlaps:
        contexts = _merge_overlapping(contexts, hits)
    return Expansion(hits, tuple(contexts), duplicates, naive)


def auto_merge(
    result: ChunkingResult,
    ranked_children: Sequence[int],
    k: int,
    *,
    min_children: int = 2,
    merge_overlaps: bool = True,
) -> Expansion:
    """Auto-merging: a parent replaces its children when at least ``min_children`` were hit.

    Args:
        result: A chunking whose chunks point at parents (``parent_child``).
        ranked_children: Child indices ordered best first.
        k: How many child hits to consider.
        min_children: Child hits of one parent needed to promote it (at least 1; 1 is the same
            as ``expand_to_parents``).
        merge_overlaps: Join contexts whose spans overlap.

    Returns:
        Parents that were promoted and the children that were not, best hit first.

    Raises:
        ParameterError: ``min_children < 1``, ``k < 1``, no parents, or a bad ranking.
    """
    if min_children < 1:
        raise ParameterError("at_least", name="min_children", value=min_children, min=1)
    hits = _check(result, ranked_children, k)
    by_parent: dict[int, list[int]] = {}
    for child in hits:
        parent = result.chunks[child].parent
        by_parent.setdefault(parent if parent is not None else -1 - child, []).append(child)
    rank_of = {child: rank for rank, child in enumerate(hits)}
    contexts: list[Context] = []
    duplicates = 0
    naive = 0
    for p, children in by_parent.items():
        naive += sum(_span_length(result, p, c) for c in children)
        if p >= 0 and len(children) >= min_children:
            contexts.append(_context(result, p, children, rank_of[children[0]]))
            duplicates += len(children) - 1
        else:
            for c in children:
                ch = result.chunks[c]
                contexts.append(Context("child", ch.start, ch.end, (), (c,), rank_of[c]))
    contexts.sort(key=lambda c: c.rank)
    if merge_overlaps:
        contexts = _merge_overlapping(contexts, hits)
    return Expansion(hits, tuple(contexts), duplicates, naive)


def _span_length(result: ChunkingResult, p: int, child: int) -> int:
    return result.parents[p].length if p >= 0 else result.chunks[child].length


def _context(result: ChunkingResult, p: int, children: list[int], rank: int) -> Context:
    if p < 0:
        c = result.chunks[children[0]]
        return Context("child", c.start, c.end, (), tuple(children), rank)
    parent = result.parents[p]
    return Context("parent", parent.start, parent.end, (p,), tuple(children), rank)


def rank_children(
    result: ChunkingResult, query: str, backend: Any, *, measure: Measure = "cosine"
) -> list[int]:
    """Child indices ordered best first for ``query`` under ``backend`` (ties: earlier first).

    The order is ``chunkviz.retrieval.ranking.rank_order``, the one ranking rule.

    Children are scored as they are embedded (prefix and text), the same way as every chunk.
    """
    if not result.chunks:
        return []

    scores = score(backend, [query], result.embed_texts(), measure)[0]

    return [int(i) for i in rank_order(scores)]


@dataclass(frozen=True, slots=True)
class HitRow:
    """What became of one child hit, for the page's table.

    Attributes:
        rank: 1-based rank of the child.
        child: Child index.
        parent: Its parent index (None for an orphan).
        fate: ``expanded`` (the best hit of its context: its parent is sent), ``absorbed``
            (a later hit whose parent is already in the context: the duplicate is removed),
            ``kept`` (sent as the child itself).
        context: Index into ``Expansion.contexts`` of what carries it.
    """

    rank: int
    child: int
    parent: int | None
    fate: Fate
    context: int


def hit_rows(result: ChunkingResult, expansion: Expansion) -> list[HitRow]:
    """One row per child hit, in rank order, saying which context carries it and why."""
    where = {child: i for i, ctx in enumerate(expansion.contexts) for child in ctx.children}
    rows = []
    for rank, child in enumerate(expansion.hits):
        ctx_index = where[child]
        ctx = expansion.contexts[ctx_index]
        parent = result.chunks[child].parent
        fate: Fate
        if ctx.kind == "child":
            fate = "kept"
        elif ctx.children[0] == child:
            fate = "expanded"
        else:
            fate = "absorbed"
        rows.append(HitRow(rank + 1, child, parent, fate, ctx_index))
    return rows
