"""Lexical backends over character n-grams: BM25 (through ``bm25s``) and raw TF-IDF.

Why character n-grams: Japanese has no spaces, and a morphological analyser would be one more
dependency with its own dictionary. Character bigrams need nothing and match the question's
wording well; on a 600-question sample of the JSQuAD long documents (paragraph chunks,
``bench/retrieval.py --ngram-sweep``) bigrams beat unigrams and trigrams on Recall@5 — see
docs/benchmarks.md, "Retrieval benchmark".

Text is normalised before n-grams are formed: NFKC (full-width Latin and digits become
half-width), case-folded, and every run of whitespace becomes one space. This only shapes the
terms; offsets reported by ``CharNgramTokenizer`` always refer to the original text.
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

import numpy as np

from chunkviz.errors import MissingDependencyError, ParameterError, shown
from chunkviz.retrieval.base import BackendKind, Measure
from chunkviz.tokenizers import Tokenizer, without_surrogates

_SPACE = re.compile(r"\s+")


def normalize_for_terms(text: str) -> str:
    """NFKC, case-folded, whitespace runs collapsed to one space, stripped.

    A lone surrogate (text decoded with ``surrogateescape``, or an escaped JSON surrogate) becomes
    U+FFFD: terms are hashed as UTF-8, which has no encoding for it.
    """
    text = without_surrogates(text)
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def char_ngrams(text: str, n: int) -> list[str]:
    """Overlapping character n-grams of the normalised text (the whole text when shorter)."""
    t = normalize_for_terms(text)
    if not t:
        return []
    if len(t) <= n:
        return [t]
    return [t[i : i + n] for i in range(len(t) - n + 1)]


class CharNgramTokenizer:
    """Tokens are overlapping character n-grams, reported with offsets into the original text.

    Token ``i`` spans ``(i, i + n)``: the count is ``len(text) - n + 1``, the number of terms BM25
    sees (up to normalisation, which may merge whitespace). Counting in tokens therefore counts
    characters, which is what a lexical backend's "length" is.
    """

    def __init__(self, n: int) -> None:
        """Tokenizer of ``n``-grams."""
        self.n = n
        self.name = f"char-{n}gram"

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """``(i, i + n)`` for every start ``i`` (one span for a text shorter than ``n``)."""
        if not text:
            return []
        if len(text) <= self.n:
            return [(0, len(text))]
        return [(i, i + self.n) for i in range(len(text) - self.n + 1)]

    def count(self, text: str) -> int:
        """``len(token_spans(text))`` without the list: ``len(text) - n + 1``, at least 1."""
        return max(len(text) - self.n + 1, 1) if text else 0


def _check_n(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 5:
        raise ParameterError("ngram_size", value=shown(n))


#: Scores are sums of per-term weights in fixed point: each weight a whole multiple of
#: 2**-FIXED_POINT_BITS (bm25s's float32 weights above 2**-9 need no rounding at all), summed
#: in int64. Integer sums are exact in any order, so two chunks whose matched weights are the
#: same tie exactly, whatever the vocabulary order, the hash seed or the thread count.
FIXED_POINT_BITS = 32
_SCALE = float(2**FIXED_POINT_BITS)


class BM25Index:
    """A BM25 index over a fixed list of documents; scores every document for every query.

    Scores are exact sums of the per-term weights (fixed point, ``FIXED_POINT_BITS``), returned
    as float64: equal sums tie exactly, which float32 sums in vocabulary order did not.
    """

    def __init__(self, matrix: Any, vocab: dict[str, int], n: int) -> None:
        """Index of ``matrix``, a scipy CSR (documents, vocabulary) of per-term BM25 weights."""
        self._vocab = vocab
        self._n = n
        self.size = int(matrix.shape[0])
        self.dims = int(matrix.shape[1])
        # The index's size as bm25s holds it (float32 weights), whatever we score with.
        self.nbytes = int(matrix.data.nbytes + matrix.indices.nbytes + matrix.indptr.nbytes)
        weights = np.rint(np.asarray(matrix.data, dtype=np.float64) * _SCALE).astype(np.int64)
        self._max_weight = int(weights.max()) if weights.size else 0
        fixed = matrix.copy()
        fixed.data = weights
        self._terms = fixed.T.tocsr()  # (vocabulary, documents), ready for query @ terms

    def scores(self, queries: Sequence[str | tuple[str, ...]]) -> np.ndarray:
        """BM25 scores, shape ``(len(queries), documents)``, float64.

        A query term counts once per occurrence, as in ``bm25s.BM25.get_scores``. Each query is
        its text or its n-grams (``BM25Backend.prepare_queries``, made once for every index).

        Raises:
            ParameterError: Queries so long that a score could overflow the fixed point
                (hundreds of millions of matched terms).
        """
        # Optional (chunkviz[lexical]): scipy loads only when an index is searched.
        from scipy import sparse

        rows, cols = [], []
        for i, q in enumerate(queries):
            for term in char_ngrams(q, self._n) if isinstance(q, str) else q:
                j = self._vocab.get(term)
                if j is not None:
                    rows.append(i)
                    cols.append(j)
        if len(rows) * self._max_weight >= 2**62:
            raise ParameterError("queries_too_long", terms=len(rows))
        counts = sparse.csr_matrix(
            (np.ones(len(rows), dtype=np.int64), (rows, cols)),
            shape=(len(queries), self.dims),
        )
        out = np.asarray((counts @ self._terms).toarray(), dtype=np.float64)
        out /= _SCALE  # a power of two: exact
        return out


class BM25Backend:
    """BM25 (Lucene variant, k1=1.5, b=0.75, ``bm25s`` defaults) over character n-grams.

    BM25 is its own scoring function: the ``measure`` of the uniform interface is ignored, and a
    results file records ``bm25`` as the measure. There are no vectors to compare with
    dot/cosine/L2: use ``tfidf`` for that.
    """

    kind: BackendKind = "lexical"
    normalized = False
    raw_vectors = False
    max_input_tokens: int | None = None
    document_prefix = ""
    query_prefix = ""

    def __init__(self, n: int = 2, *, k1: float = 1.5, b: float = 0.75) -> None:
        """A BM25 backend over ``n``-grams.

        Raises:
            ParameterError: ``n`` outside 1..5.
            MissingDependencyError: ``bm25s`` is not installed.
        """
        _check_n(n)
        _require("bm25s", "bm25s")
        self.n, self.k1, self.b = n, k1, b
        self.name = "bm25" if n == 2 else f"bm25-{n}gram"
        self.model = f"bm25s char-{n}gram k1={k1} b={b}"
        self.tokenizer: Tokenizer = CharNgramTokenizer(n)

    def measure_name(self, measure: Measure) -> str:
        """What the results file records as the measure: always ``bm25``."""
        return "bm25"

    def build_index(self, documents: Sequence[str], measure: Measure = "cosine") -> BM25Index:
        """Index ``documents`` (the measure is ignored: BM25 has its own score)."""
        # Optional (chunkviz[lexical]): loaded only when a BM25 index is built.
        import bm25s
        from scipy import sparse

        tokens = [char_ngrams(t, self.n) or [""] for t in documents]
        # The vocabulary in sorted order: bm25s would number the terms in the iteration order
        # of a set of strings, which changes with PYTHONHASHSEED.
        vocab = {term: i for i, term in enumerate(sorted(set().union(*tokens)))}
        ids = [[vocab[t] for t in doc] for doc in tokens]
        retriever = bm25s.BM25(k1=self.k1, b=self.b)
        retriever.index((ids, vocab), create_empty_token=False, show_progress=False)
        s = retriever.scores
        # bm25s stores one column per term (CSC over documents x terms).
        matrix = sparse.csc_matrix(
            (s["data"], s["indices"], s["indptr"]),
            shape=(int(s["num_docs"]), len(s["indptr"]) - 1),
        ).tocsr()
        return BM25Index(matrix, vocab, self.n)

    def prepare_queries(self, texts: Sequence[str]) -> list[tuple[str, ...]]:
        """The n-grams of each query, formed once however many indexes score them."""
        return [tuple(char_ngrams(t, self.n)) for t in texts]

    def encode_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Not available: BM25 weights depend on the whole collection.

        Raises:
            ParameterError: Always; the message points at ``tfidf``.
        """
        raise ParameterError("bm25_no_vectors")

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Not available; see ``encode_documents``.

        Raises:
            ParameterError: Always.
        """
        return self.encode_documents(texts)


class TfidfIndex:
    """TF-IDF document vectors (sparse) scored under dot, cosine or L2."""

    def __init__(self, backend: TfidfBackend, matrix: Any, measure: Measure) -> None:
        self._backend = backend
        self._matrix = matrix
        self._measure = measure
        self._sq = np.asarray(matrix.multiply(matrix).sum(axis=1), dtype=np.float64).ravel()
        self.size = int(matrix.shape[0])
        self.dims = int(matrix.shape[1])
        self.nbytes = self.size * self.dims * 4  # as dense float32 vectors, like a dense index

    def scores(self, queries: Any) -> np.ndarray:
        """Scores of every document for prepared queries (a sparse matrix of query terms)."""
        dot = np.asarray((queries @ self._matrix.T).toarray(), dtype=np.float64)
        qsq = np.asarray(queries.multiply(queries).sum(axis=1), dtype=np.float64)
        return _sparse_measure(dot, qsq, self._sq[None, :], self._measure)


def _sparse_measure(dot: np.ndarray, qsq: np.ndarray, dsq: np.ndarray, measure: str) -> np.ndarray:
    if measure == "dot":
        return dot
    out: np.ndarray
    if measure == "cosine":
        with np.errstate(divide="ignore", invalid="ignore"):
            out = dot / np.sqrt(qsq * dsq)
        out = np.nan_to_num(out, nan=0.0, posinf=0.0, neginf=0.0)
        return out
    if measure == "l2":
        out = -np.sqrt(np.maximum(qsq + dsq - 2.0 * dot, 0.0))
        return out
    raise ParameterError("one_of", name="measure", value=measure, choices=["dot", "cosine", "l2"])


class TfidfBackend:
    """Raw TF-IDF over character n-grams, for the dot / cosine / L2 lesson.

    Documents are term counts times IDF (``TfidfTransformer(norm=None, smooth_idf=True)`` fitted
    on the documents being compared); queries are plain term counts, so ``q·d = Σ tf_q tf_d idf``.
    With ``norm=None`` a document's vector norm grows with its length, which is exactly what the
    Similarity page shows (``raw_vectors=True``, ``normalized=False``). Terms are hashed
    (``HashingVectorizer``, ``n_features`` columns, no alternating sign) so that queries encoded in
    a later call land in the same space without a stored vocabulary.
    """

    kind: BackendKind = "lexical"
    normalized = False
    raw_vectors = True
    max_input_tokens: int | None = None
    document_prefix = ""
    query_prefix = ""

    def __init__(self, n: int = 2, *, n_features: int = 2**14) -> None:
        """A TF-IDF backend over ``n``-grams hashed into ``n_features`` dimensions.

        Raises:
            ParameterError: ``n`` outside 1..5 or ``n_features`` < 16.
            MissingDependencyError: scikit-learn is not installed.
        """
        _check_n(n)
        if n_features < 16:
            raise ParameterError("at_least", name="n_features", value=n_features, min=16)
        _require("sklearn", "scikit-learn")
        self.n, self.n_features = n, n_features
        self.name = "tfidf" if n == 2 else f"tfidf-{n}gram"
        self.model = f"sklearn tfidf char-{n}gram raw hash{n_features}"
        self.tokenizer: Tokenizer = CharNgramTokenizer(n)

    def measure_name(self, measure: Measure) -> str:
        """The measure is applied as given."""
        return measure

    def _counts(self, texts: Sequence[str]) -> Any:
        # Optional (chunkviz[lexical]): loaded only when TF-IDF vectors are made.
        from sklearn.feature_extraction.text import HashingVectorizer

        vec = HashingVectorizer(
            analyzer=lambda t: char_ngrams(t, self.n),
            n_features=self.n_features,
            alternate_sign=False,
            norm=None,
        )
        return vec.transform(list(texts)).astype(np.float64)

    def _weighted(self, texts: Sequence[str]) -> Any:
        # Optional (chunkviz[lexical]): loaded only when TF-IDF vectors are made.
        from sklearn.feature_extraction.text import TfidfTransformer

        counts = self._counts(texts)
        if counts.shape[0] == 0:
            return counts
        return TfidfTransformer(norm=None, smooth_idf=True).fit_transform(counts)

    def build_index(self, documents: Sequence[str], measure: Measure = "cosine") -> TfidfIndex:
        """Index ``documents`` for scoring under ``measure``."""
        return TfidfIndex(self, self._weighted(documents).tocsr(), measure)

    def prepare_queries(self, texts: Sequence[str]) -> Any:
        """Term counts of the queries (sparse)."""
        return self._counts(texts).tocsr()

    def encode_documents_sparse(self, texts: Sequence[str]) -> Any:
        """``encode_documents`` as a sparse CSR matrix (float64), never densified.

        Semantic chunking compares adjacent rows only; a dense matrix of a megabyte's sentences
        is sentences × ``n_features`` floats (about 6 KB per character of text).
        """
        return self._weighted(texts).tocsr()

    def encode_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Dense raw TF-IDF vectors, IDF fitted on ``texts``; shape ``(len(texts), n_features)``."""
        out: np.ndarray = np.asarray(self._weighted(texts).toarray(), dtype=np.float32)
        return out

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Dense term-count vectors of the queries; shape ``(len(texts), n_features)``."""
        out: np.ndarray = np.asarray(self._counts(texts).toarray(), dtype=np.float32)
        return out


def _require(module: str, package: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise MissingDependencyError(
            "not_installed", package=package, requirement="chunkviz[lexical]"
        )
