"""Time the Similarity page's real-embedding analysis on a long document, with raw TF-IDF.

Prints the chunk count, the encode time, and the 2-D PCA through chunkviz's Gram-matrix route
against numpy's SVD of the same centred matrix, measured in the same run (best of N).

    python bench/similarity_lesson.py [--chars 200000] [--size 200] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from chunkviz import chunk
from chunkviz.retrieval.backends import get_backend
from chunkviz.views.similarity_lesson import DEFAULT_QUERY_TEXT, DEFAULT_TEXT, analyse, pca_2d


def _best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def _svd_pca(docs: np.ndarray, query: np.ndarray) -> np.ndarray:
    d = docs.astype(np.float64)
    mean = d.mean(axis=0)
    _, _, vt = np.linalg.svd(d - mean, full_matrices=False)
    return np.vstack([(d - mean) @ vt[:2].T, (query - mean) @ vt[:2].T])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chars", type=int, default=200_000)
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    text = (DEFAULT_TEXT * (args.chars // len(DEFAULT_TEXT) + 1))[: args.chars]
    result = chunk(text, "fixed", size=args.size, overlap=0)
    backend = get_backend("tfidf")
    t = time.perf_counter()
    docs = backend.encode_documents(result.embed_texts())
    encode_s = time.perf_counter() - t
    query = backend.encode_queries([DEFAULT_QUERY_TEXT])[0]
    lengths = [c.end - c.start for c in result.chunks]

    gram_s = _best(lambda: pca_2d(docs, query), args.repeat)
    svd_s = _best(lambda: _svd_pca(docs, query), args.repeat)
    analyse_s = _best(lambda: analyse(lengths, docs, query), args.repeat)
    ours = pca_2d(docs, query)
    ref = _svd_pca(docs, query)
    agree = np.allclose(np.abs(np.vstack([ours.chunks, ours.query])), np.abs(ref), atol=1e-6)

    print(
        f"document: {len(text):,} chars, fixed {args.size} -> {len(result.chunks)} chunks, "
        f"vectors {docs.shape}"
    )
    print(f"tfidf encode (once, cached by the page): {encode_s:.2f} s")
    print(
        f"pca_2d (Gram matrix): {gram_s:.2f} s   numpy SVD: {svd_s:.2f} s   "
        f"ratio SVD/Gram: {svd_s / gram_s:.1f}x   same projection: {agree}"
    )
    print(f"analyse (norms, ranks, movers, PCA): {analyse_s:.2f} s")


if __name__ == "__main__":
    main()
