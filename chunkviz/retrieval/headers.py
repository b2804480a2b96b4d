"""Contextual chunk headers: what a chunk is embedded with besides its own text.

Contextual retrieval embeds each chunk with where it comes from. Three settings:

- ``none``: the chunk as its strategy made it (its source text, after the strategy's own prefix
  when it has one, such as ``markdown``'s breadcrumb);
- ``title``: the document's title on a line of its own, then the chunk as in ``none``;
- ``headings``: the title and the Markdown heading breadcrumb of the section the chunk starts
  in, joined with `` > `` as ``markdown``'s prefix is (``規程 > 第5章 休暇 > 第21条``), on a line of
  its own, then the chunk's source text. For ``markdown`` chunks the breadcrumb is their own
  prefix, so it is not repeated. A text without headings gets the title alone.

A header is embedded (and indexed by BM25) with the chunk and is never part of its offsets: spans,
highlighting and exports see the same chunks under every setting.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Literal, get_args

from chunkviz.errors import ParameterError
from chunkviz.model import ChunkingResult
from chunkviz.strategies.markdown import BREADCRUMB_SEPARATOR, heading_sections

ContextMode = Literal["none", "title", "headings"]
CONTEXT_MODES: tuple[ContextMode, ...] = get_args(ContextMode)


def check_context(mode: str) -> ContextMode:
    """``mode`` as a ``ContextMode``.

    Raises:
        ParameterError: Not one of ``none``, ``title``, ``headings``.
    """
    for m in CONTEXT_MODES:
        if mode == m:
            return m
    raise ParameterError("one_of", name="context", value=mode, choices=list(CONTEXT_MODES))


def _one_line(text: str) -> str:
    """A title or heading on one line (a header must not look like the chunk's first line)."""
    return " ".join(text.split())


def breadcrumbs(text: str, starts: list[int]) -> list[tuple[str, ...]]:
    """The heading breadcrumb of the Markdown section each offset in ``starts`` lies in.

    An offset before the first heading, or in a text without headings, gets ``()``.
    """
    sections = [(s, crumbs) for s, _e, crumbs in heading_sections(text)]
    heads = [s for s, _ in sections]
    out: list[tuple[str, ...]] = []
    for start in starts:
        i = bisect_right(heads, start) - 1
        out.append(sections[i][1] if i >= 0 else ())
    return out


def contextual_texts(result: ChunkingResult, title: str, mode: str) -> list[str]:
    """What the retriever indexes for each chunk of ``result`` under ``mode``.

    Args:
        result: The chunking.
        title: The document's title (an empty title adds nothing).
        mode: ``none``, ``title`` or ``headings``.

    Returns:
        One text per chunk, in chunk order.

    Raises:
        ParameterError: An unknown ``mode``.
    """
    mode = check_context(mode)
    own = result.embed_texts()
    if mode == "none":
        return own
    name = _one_line(title)
    if mode == "title":
        return [f"{name}\n{t}" if name else t for t in own]

    chunks = result.chunks
    crumbs = breadcrumbs(result.text, [c.start for c in chunks])
    out = []
    for c, path, embedded in zip(chunks, crumbs, own, strict=True):
        parts = [name] if name else []
        parts += [_one_line(p) for p in path]
        line = BREADCRUMB_SEPARATOR.join(p for p in parts if p)
        crumb_prefix = BREADCRUMB_SEPARATOR.join(path) + "\n" if path else ""
        # markdown's own prefix is this breadcrumb: the header replaces it, never repeats it.
        body = result.text[c.start : c.end] if c.prefix in ("", crumb_prefix) else embedded
        out.append(f"{line}\n{body}" if line else body)
    return out
