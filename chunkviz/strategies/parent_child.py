"""Parent-child chunking: small children to retrieve, larger parents to read (small-to-big).

Seed 003: "search small, hand over big". Children are ``result.chunks`` (each with ``parent``
set), parents are ``result.parents``; ``chunkviz.views.parent_expansion`` expands a query's child
hits to their parents (duplicates removed) or auto-merges them. Two ways to build the hierarchy:

- ``hierarchy``: sentences are packed into parents of at most ``parent_size`` characters, and
  each parent's sentences into children of at most ``child_size``; a child never crosses its
  parent's edge.
- ``sentence_window``: every sentence is a child and its parent is the window of ``window``
  sentences on each side (LlamaIndex's SentenceWindowNodeParser). Windows that come out
  identical (short documents) are stored once.

A sentence longer than ``child_size`` is cut first (at 、/commas, spaces, then characters), so
children always respect ``child_size``.
"""

from __future__ import annotations

from typing import Literal

from chunkviz.model import Chunk, ChunkingResult
from chunkviz.strategies.packing import Bounds, pack
from chunkviz.strategies.recursive import sentence_units
from chunkviz.strategies.registry import Param, Strategy, register

Mode = Literal["hierarchy", "sentence_window"]

MODE = Param(
    "mode",
    "choice",
    "hierarchy",
    choices=("hierarchy", "sentence_window"),
    help="hierarchy: children packed inside parents; sentence_window: each sentence is a child, "
    "its parent is the sentences around it.",
)
CHILD_SIZE = Param(
    "child_size",
    "int",
    200,
    min=1,
    max=100_000,
    unit="chars",
    at_most="parent_size",
    help="Largest child (retrieved) chunk in characters.",
)
PARENT_FACTOR = 5
PARENT_SIZE = Param(
    "parent_size",
    "int",
    None,
    min=1,
    max=100_000,
    unit="chars",
    optional=True,
    help=f"Largest parent (context) chunk in characters (hierarchy mode); empty: "
    f"{PARENT_FACTOR} x child_size.",
)
WINDOW = Param(
    "window",
    "int",
    1,
    min=0,
    max=50,
    unit="sentences",
    help="Sentences on each side of a child that its parent adds (sentence_window mode).",
)


def _hierarchy(
    units: list[Bounds], child_size: int, parent_size: int
) -> tuple[list[Chunk], list[Chunk]]:
    parents = pack(units, parent_size)
    children: list[Chunk] = []
    u = 0
    for p, (_, pe) in enumerate(parents):
        inside: list[Bounds] = []
        while u < len(units) and units[u][1] <= pe:
            inside.append(units[u])
            u += 1
        children.extend(Chunk(s, e, parent=p) for s, e in pack(inside, child_size))
    return children, [Chunk(s, e) for s, e in parents]


def _windows(units: list[Bounds], window: int) -> tuple[list[Chunk], list[Chunk]]:
    n = len(units)
    parents: list[Chunk] = []
    children: list[Chunk] = []
    for i, (s, e) in enumerate(units):
        parent = Chunk(units[max(0, i - window)][0], units[min(n - 1, i + window)][1])
        if not parents or parents[-1] != parent:
            parents.append(parent)  # windows only move forward, so equal ones are adjacent
        children.append(Chunk(s, e, parent=len(parents) - 1))
    return children, parents


def parent_child_split(
    text: str,
    *,
    mode: Mode = "hierarchy",
    child_size: int = 200,
    parent_size: int | None = None,
    window: int = 1,
) -> ChunkingResult:
    """Children for retrieval, each pointing at its parent for context.

    Args:
        text: The document.
        mode: ``hierarchy`` or ``sentence_window``.
        child_size: Largest child in characters.
        parent_size: Largest parent in characters (``hierarchy``); None: ``PARENT_FACTOR`` times
            ``child_size``, so that a grid over ``child_size`` never conflicts with it.
        window: Sentences on each side in a parent (``sentence_window``).

    Returns:
        Children in ``chunks`` (with ``parent``), parents in ``parents``.
    """
    params = {"mode": mode, "child_size": child_size, "parent_size": parent_size, "window": window}
    units = sentence_units(text, child_size)
    if mode == "hierarchy":
        cap = parent_size if parent_size is not None else PARENT_FACTOR * child_size
        children, parents = _hierarchy(units, child_size, cap)
    else:
        children, parents = _windows(units, window)
    return ChunkingResult(text, tuple(children), "parent_child", params, parents=tuple(parents))


register(
    Strategy(
        name="parent_child",
        description="Parent-child (small-to-big): small children for retrieval inside larger "
        "parents, or sentence windows; children point at their parent.",
        params=(MODE, CHILD_SIZE, PARENT_SIZE, WINDOW),
        gaps="whitespace",
        fn=parent_child_split,
        size_param="child_size",
    )
)
