"""Do intrinsic boundary metrics track retrieval? Per-document Spearman rho against recall.

For every document of the dataset and every configuration of a grid (the default grid, three
recursive windows and the default grid's fixed windows snapped to phrases), this computes the
boundary metrics of ``chunkviz.eval.boundary_metrics`` (Pk and WindowDiff against the author's
paragraphs, size compliance, sentences cut) and ``chunkviz.text_boundaries`` (words cut), the
share of the document's answers cut, and the document's Recall@5 and recall at the 2,000-
character budget from one benchmark run (BM25 by default). Per document, Spearman's rho
between a metric and recall across the configurations; the table gives the mean rho over
documents with a 95% bootstrap interval over documents (``chunkviz.eval.stats.bootstrap_ci``).

A metric *tracks recall* when its interval excludes 0 on the side it should: negative for
the ones where lower is better (Pk, WindowDiff, cuts), positive for size compliance.
"Answers cut" tracks recall by construction (a cut answer cannot be retrieved whole); it is
the yardstick, not a finding.

    PYTHONPATH=. python bench/boundary_metrics.py
    PYTHONPATH=. python bench/boundary_metrics.py --dataset jsquad:PATH --sample 1000
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict

import numpy as np
from scipy.stats import spearmanr

from chunkviz.datasets import load_dataset
from chunkviz.eval.boundary_metrics import (
    pk,
    reference_k,
    sentences_cut,
    size_compliance,
    window_diff,
)
from chunkviz.eval.grid import chunk_config, default_grid, make_config, snapped
from chunkviz.eval.runner import run_benchmark
from chunkviz.eval.stats import bootstrap_ci
from chunkviz.text_boundaries import cut_offsets, word_cut_counts

METRICS = {  # name -> does a better chunking have a higher value?
    "Pk vs paragraphs": False,
    "WindowDiff vs paragraphs": False,
    "size compliance": True,
    "words cut": False,
    "sentences cut": False,
    "answers cut": False,
}


def grid() -> list:
    base = list(default_grid())
    recursive = [
        make_config("recursive", {"size": s, "overlap": o})
        for s, o in ((200, 0), (400, 80), (800, 0))
    ]
    return [*base, *recursive, *snapped(base)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="jsquad")
    parser.add_argument("--backend", default="bm25")
    parser.add_argument("--sample", type=int, default=0)
    args = parser.parse_args(argv)
    dataset = load_dataset(args.dataset)
    configs = grid()
    started = time.perf_counter()
    res = run_benchmark(
        dataset,
        configs,
        args.backend,
        spec=args.dataset,
        sample=args.sample,
        bootstrap=200,
        permutations=200,
    )
    doc_of = {q.qid: q.doc_id for q in dataset.questions}
    by_doc: dict[str, list[int]] = defaultdict(list)
    for i, qid in enumerate(res.question_ids):
        by_doc[doc_of[qid]].append(i)
    # values[metric][doc] = one value per configuration
    values: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    recall: dict[str, dict[str, list[float]]] = {
        "Recall@5": defaultdict(list),
        "recall@budget": defaultdict(list),
    }
    for document in dataset.documents:
        asked = by_doc.get(document.doc_id)
        if not asked:
            continue
        n = len(document.text)
        reference = [p for p in document.paragraph_starts if 0 < p < n]
        k = reference_k(n, reference)
        for c in configs:
            result = chunk_config(c, document)
            cols = result.columns
            cuts = cut_offsets(n, cols.starts, cols.ends).tolist()
            total, inside = word_cut_counts(document.text, cols.starts, cols.ends)
            ranks = [res.ranks[c.label][i] for i in asked]
            budget_k = res.budget.k[c.label]
            row = values
            row["Pk vs paragraphs"][document.doc_id].append(pk(n, reference, cuts, k))
            row["WindowDiff vs paragraphs"][document.doc_id].append(
                window_diff(n, reference, cuts, k)
            )
            row["size compliance"][document.doc_id].append(
                size_compliance(result, c.params.get("size"))
            )
            row["words cut"][document.doc_id].append(inside / total if total else 0.0)
            row["sentences cut"][document.doc_id].append(sentences_cut(result))
            row["answers cut"][document.doc_id].append(sum(r is None for r in ranks) / len(ranks))
            recall["Recall@5"][document.doc_id].append(
                float(np.mean([r is not None and r <= 5 for r in ranks]))
            )
            recall["recall@budget"][document.doc_id].append(
                float(np.mean([r is not None and r <= budget_k for r in ranks]))
            )
    seconds = time.perf_counter() - started
    print(
        f"dataset={res.dataset.name}: {res.dataset.documents} documents, "
        f"{res.dataset.questions} questions, {len(configs)} configurations "
        f"({', '.join(c.label for c in configs)}), backend={res.backend.name}, "
        f"{seconds:.0f} s",
        file=sys.stderr,
    )
    budget = res.budget.chars
    print(
        f"| metric | mean over configurations | ρ with Recall@5 (docs) | ρ with recall@"
        f"{budget:,} chars (docs) | tracks recall? |"
    )
    print("|---|---|---|---|---|")
    for name, higher_better in METRICS.items():
        cells = []
        tracks = []
        for target in ("Recall@5", "recall@budget"):
            rhos = []
            for doc, xs in values[name].items():
                ys = recall[target][doc]
                if np.ptp(xs) == 0 or np.ptp(ys) == 0:
                    continue  # a constant has no rank correlation
                rho = spearmanr(xs, ys).statistic
                if np.isfinite(rho):
                    rhos.append(float(rho))
            if not rhos:
                cells.append("— (constant)")
                tracks.append(False)
                continue
            est = bootstrap_ci(rhos, resamples=2000, seed=0)
            cells.append(f"{est.mean:+.2f} [{est.ci_low:+.2f}, {est.ci_high:+.2f}] (n={len(rhos)})")
            tracks.append(est.ci_low > 0 if higher_better else est.ci_high < 0)
        mean = float(np.mean([v for xs in values[name].values() for v in xs]))
        verdict = (
            "yes, both"
            if all(tracks)
            else "at k only"
            if tracks[0]
            else "at the budget only"
            if tracks[1]
            else "**no**"
        )
        print(f"| {name} | {mean:.3f} | {cells[0]} | {cells[1]} | {verdict} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
