"""How large the index of a chunking is, said truthfully for dense and for lexical backends.

A dense backend stores one vector per chunk: chunks x dimensions x 4 bytes (float32), known
without encoding anything. A lexical backend (BM25, TF-IDF) stores term weights, not one vector
per chunk: its size is that of the index it builds over the chunks' texts, the same
``Index.nbytes`` the benchmark records as ``index_bytes``; its dimensions are the distinct
terms (character n-grams) of those texts. A chunk count is never shown as a size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from chunkviz.model import ChunkingResult
from chunkviz.retrieval.index import LexicalBackend


@dataclass(frozen=True, slots=True)
class IndexSize:
    """The index of one chunking under one backend.

    Attributes:
        kind: ``dense`` (one vector per chunk) or ``lexical`` (term weights).
        nbytes: Bytes the index takes.
        entries: Vectors stored (dense) or the chunks indexed (lexical).
        dims: Vector dimensions (dense) or distinct terms (lexical).
    """

    kind: Literal["dense", "lexical"]
    nbytes: int
    entries: int
    dims: int


def index_size(result: ChunkingResult, backend: Any) -> IndexSize | None:
    """The index ``backend`` would hold for ``result``'s chunks; None when it cannot say.

    Args:
        result: The chunking.
        backend: A retrieval backend (``chunkviz.retrieval.backends.get_backend``).
    """
    count = len(result.chunks)
    dims = getattr(backend, "dims", None)
    if isinstance(dims, int) and dims > 0:
        return IndexSize("dense", count * dims * 4, count, dims)
    if isinstance(backend, LexicalBackend) and count:
        # Embedded text, as the benchmark indexes it: a chunk's prefix and its source text.
        texts = [c.prefix + result.text[c.start : c.end] for c in result.chunks]
        index = backend.build_index(texts)
        return IndexSize("lexical", int(index.nbytes), count, int(index.dims))
    return None
