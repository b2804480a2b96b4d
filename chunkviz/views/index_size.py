"""How large the index of a chunking is, said truthfully for dense and for lexical backends.

A dense backend stores one vector per chunk: chunks x dimensions x 4 bytes (float32), known
without encoding anything. A lexical backend (BM25, TF-IDF) stores term weights, not one vector
per chunk: its size is that of the index it builds over the chunks' texts, the same
``Index.nbytes`` the benchmark records as ``index_bytes``; its dimensions are the distinct
terms (character n-grams) of those texts. A chunk count is never shown as a size.

Building a lexical index takes about 0.1 s per 20,000 characters here (0.7 s at 200,000), paid
on every slider move; above ``LEXICAL_LIMIT`` embedded characters it is not built and the size
is left unknown (the Benchmark and Tune pages record it).

A hybrid backend keeps both of its components' indexes (it fuses their rankings at query
time), so its index is the lexical one plus the dense one: their sum, never "—".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from chunkviz.model import ChunkingResult
from chunkviz.retrieval.index import LexicalBackend
from chunkviz.views.numbers import format_bytes

#: Embedded characters up to which Explore builds a lexical index to measure it.
LEXICAL_LIMIT = 30_000


@dataclass(frozen=True, slots=True)
class IndexSize:
    """The index of one chunking under one backend.

    Attributes:
        kind: ``dense`` (one vector per chunk) or ``lexical`` (term weights).
        nbytes: Bytes the index takes (None: a lexical index over ``LEXICAL_LIMIT``, not built).
        entries: Vectors stored (dense) or the chunks indexed (lexical).
        dims: Vector dimensions (dense) or distinct terms (lexical; None when not built); a
            hybrid's are its dense component's.
        parts: A hybrid's components' sizes, lexical then dense (empty otherwise).
    """

    kind: Literal["dense", "lexical", "hybrid"]
    nbytes: int | None
    entries: int
    dims: int | None
    parts: tuple[IndexSize, ...] = ()


def index_size(
    result: ChunkingResult, backend: Any, *, lexical_limit: int = LEXICAL_LIMIT
) -> IndexSize | None:
    """The index ``backend`` would hold for ``result``'s chunks; None when it cannot say.

    Args:
        result: The chunking.
        backend: A retrieval backend (``chunkviz.retrieval.backends.get_backend``).
        lexical_limit: Largest embedded text (characters) over which a lexical index is built.
    """
    count = len(result.chunks)
    components = getattr(backend, "components", None)
    if components:
        parts = [index_size(result, c, lexical_limit=lexical_limit) for c in components]
        if any(p is None for p in parts):
            return None
        known = tuple(p for p in parts if p is not None)
        total = (
            sum(p.nbytes or 0 for p in known) if all(p.nbytes is not None for p in known) else None
        )
        dense = next((p.dims for p in known if p.kind == "dense"), None)
        return IndexSize("hybrid", total, count, dense, known)
    dims = getattr(backend, "dims", None)
    if isinstance(dims, int) and dims > 0:
        return IndexSize("dense", count * dims * 4, count, dims)
    if isinstance(backend, LexicalBackend) and count:
        # Embedded text, as the benchmark indexes it: a chunk's prefix and its source text.
        texts = [c.prefix + result.text[c.start : c.end] for c in result.chunks]
        if sum(map(len, texts)) > lexical_limit:
            return IndexSize("lexical", None, count, None)
        index = backend.build_index(texts)
        return IndexSize("lexical", int(index.nbytes), count, int(index.dims))
    return None


def index_metric(size: IndexSize | None) -> tuple[str, str, dict[str, int]]:
    """What Explore's "Index size" shows: the value, its help's variant and the help's numbers.

    The variant is ``dense``, ``lexical``, ``hybrid``, ``skipped`` (a lexical index not built;
    ``hybrid_skipped`` for a hybrid's) or ``none`` (a backend that does not say); the value is
    ``—`` unless the size is known. A hybrid's numbers add ``terms``, its lexical index's
    distinct n-grams.
    """
    if size is None:
        return "—", "none", {"vectors": 0, "dims": 0}
    fields = {"vectors": size.entries, "dims": size.dims or 0}
    if size.kind == "hybrid":
        fields["terms"] = next((p.dims or 0 for p in size.parts if p.kind == "lexical"), 0)
        if size.nbytes is None:
            return "—", "hybrid_skipped", fields
    if size.nbytes is None:
        return "—", "skipped", fields
    return format_bytes(size.nbytes), size.kind, fields
