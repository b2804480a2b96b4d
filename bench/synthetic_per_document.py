"""Per-document validation of synthetic questions on JSQuAD: does Tune's synthetic pick agree?

Tune runs on one document, so its synthetic questions must rank that document's configurations
as the document's real questions do. For every JSQuAD validation article with at least
``--min-questions`` real questions, with the real questions hidden from the synthetic side:

- ``rho``: Spearman's rho between the tune grid's 16 configurations ranked by synthetic Recall@5
  and by the real questions' Recall@5 (ties get average ranks; an article whose real or
  synthetic Recall@5 is the same for every configuration has no ranking and is counted apart);
- ``bias``: mean synthetic minus mean real Recall@5 over the grid (the calibration of difficulty);
- ``mean-profile rho``: rho between the grid's mean synthetic and mean real Recall@5 over the
  articles (does the form rank the configurations like real questions on average? A form
  whose questions favour one kind of chunking shows it here);
- with ``--pick``: the configuration Tune recommends from the synthetic questions alone
  (``chunkviz.eval.tune.tune``, the same rule as the page and the CLI), its **regret** (the real
  best's Recall@5 minus the pick's) and, on the held-out half of each article's real questions
  (a seeded half the labels would have used is set aside), the pick's Recall@5 against always
  using fixed-400-80 and fixed-800-160;
- the same real questions' split-half agreement (rho between two halves), the ceiling any
  synthetic ranking is measured against.

All figures use the benchmark's definitions (``analyze_spans`` containment, pessimistic ties in
``best_relevant_ranks``). Prints Markdown (reproduced in ``docs/benchmarks.md``), ``--json``
writes the per-article figures.

    python bench/synthetic_per_document.py --pick                 # default form, bm25, seed 0
    python bench/synthetic_per_document.py --forms shaped,calibrated,context,cloze
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chunkviz.datasets import load_dataset  # noqa: E402
from chunkviz.datasets.base import Document, Question  # noqa: E402
from chunkviz.eval.grid import chunk_config, tune_grid  # noqa: E402
from chunkviz.eval.spans import analyze_spans  # noqa: E402
from chunkviz.eval.stats import spearman_rho  # noqa: E402
from chunkviz.eval.synthetic import DEFAULT_FORM, DEFAULT_QUESTIONS, synthetic_dataset  # noqa: E402
from chunkviz.eval.tune import tune  # noqa: E402
from chunkviz.retrieval.backends import get_backend  # noqa: E402
from chunkviz.retrieval.index import build_index, prepare_queries  # noqa: E402
from chunkviz.retrieval.ranking import best_relevant_ranks  # noqa: E402

K = 5
DEFAULTS = ("fixed-400-80", "fixed-800-160")


class Article:
    """One article's chunkings and indexes over the tune grid, built once for every question set."""

    def __init__(self, document: Document, backend: Any) -> None:
        self.document = document
        self.backend = backend
        self.configs = tune_grid()
        self.labels = [c.label for c in self.configs]
        self.chunkings = [chunk_config(c, document) for c in self.configs]
        self.indexes = [build_index(backend, r.embed_texts()) for r in self.chunkings]

    def hits(self, questions: Sequence[Question]) -> np.ndarray:
        """Recall@K per configuration (rows) and question (columns): 1 when found in the top K."""
        out = np.zeros((len(self.configs), len(questions)))
        if not questions:
            return out
        queries = prepare_queries(self.backend, [q.question for q in questions])
        for c, (result, index) in enumerate(zip(self.chunkings, self.indexes, strict=True)):
            report = analyze_spans(result, [q.spans[0] for q in questions])
            ranks = best_relevant_ranks(
                index.scores(queries), [list(st.containing) for st in report.statuses]
            )
            out[c] = [r is not None and r <= K for r in ranks]
        return out


def halves(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A seeded split of ``n`` questions into the half the labels would use and the held-out one."""
    order = np.random.default_rng(seed).permutation(n)
    return order[: n // 2], order[n // 2 :]


def article_figures(
    article: Article,
    real: Sequence[Question],
    forms: Sequence[str],
    *,
    n: int,
    seed: int,
    pick: bool,
) -> dict[str, Any]:
    doc = article.document
    real_hits = article.hits(real)
    real_recall = real_hits.mean(axis=1)
    a, b = halves(len(real), seed)
    row: dict[str, Any] = {
        "doc_id": doc.doc_id,
        "chars": len(doc.text),
        "real_questions": len(real),
        "real_recall@5": dict(zip(article.labels, real_recall.round(4).tolist(), strict=True)),
        "real_split_half_rho": spearman_rho(
            real_hits[:, a].mean(axis=1), real_hits[:, b].mean(axis=1)
        ),
        "forms": {},
    }
    for form in forms:
        made = synthetic_dataset([doc], form, n=n, seed=seed).questions  # type: ignore[arg-type]
        syn = article.hits(made).mean(axis=1)
        fig: dict[str, Any] = {
            "questions": len(made),
            "rho": spearman_rho(syn, real_recall) if len(made) else float("nan"),
            "bias": float(syn.mean() - real_recall.mean()),
            "saturated_configs": int(np.count_nonzero(syn >= 0.995)),
            "recall@5": syn.round(4).tolist(),
        }
        if pick and made:
            result = tune(doc, synthetic=n, form=form, seed=seed)  # type: ignore[arg-type]
            label = result.pick
            p = article.labels.index(label)
            held = real_hits[:, b].mean(axis=1)
            stability = result.stability
            fig.update(
                {
                    "pick": label,
                    "driver": result.recommendation.driver,
                    "stability": None if stability is None else stability.share,
                    "real_best": bool(real_recall[p] == real_recall.max()),
                    "regret": float(real_recall.max() - real_recall[p]),
                    "heldout_pick": float(held[p]),
                    **{f"heldout_{d}": float(held[article.labels.index(d)]) for d in DEFAULTS},
                }
            )
        row["forms"][form] = fig
    return row


def document_blind_rhos(rows: Sequence[dict[str, Any]]) -> np.ndarray:
    """Per article, rho of a ranking that looks at no document: the other articles' mean real
    Recall@5 per configuration. A synthetic form must beat it to say something about *this*
    document rather than about Wikipedia articles in general."""
    real = np.array([list(r["real_recall@5"].values()) for r in rows])
    return np.array(
        [
            spearman_rho((real.sum(axis=0) - real[i]) / (len(rows) - 1), real[i])
            for i in range(len(rows))
        ]
    )


def summary(rows: Sequence[dict[str, Any]], form: str) -> dict[str, Any]:
    figs = [r["forms"][form] for r in rows]
    rhos = np.array([f["rho"] for f in figs], dtype=float)
    ranked = rhos[~np.isnan(rhos)]
    out: dict[str, Any] = {
        "form": form,
        "articles": len(rows),
        "ranked": int(ranked.size),
        "median_rho": float(np.median(ranked)) if ranked.size else float("nan"),
        "min_rho": float(ranked.min()) if ranked.size else float("nan"),
        "mean_bias": float(np.mean([f["bias"] for f in figs])),
        "median_saturated": float(np.median([f["saturated_configs"] for f in figs])),
        # Does the form rank the grid like the real questions on average over the articles?
        "mean_profile_rho": spearman_rho(
            np.mean([f["recall@5"] for f in figs], axis=0),
            np.mean([list(r["real_recall@5"].values()) for r in rows], axis=0),
        ),
    }
    if all("pick" in f for f in figs):
        out.update(
            {
                "mean_regret": float(np.mean([f["regret"] for f in figs])),
                "max_regret": float(np.max([f["regret"] for f in figs])),
                "heldout_pick": float(np.mean([f["heldout_pick"] for f in figs])),
                **{
                    f"heldout_{d}": float(np.mean([f[f"heldout_{d}"] for f in figs]))
                    for d in DEFAULTS
                },
            }
        )
    return out


def markdown(report: dict[str, Any]) -> str:
    lines = [
        f"Articles with at least {report['min_questions']} real questions: "
        f"{report['articles']}; backend {report['backend']}; {report['n']} synthetic questions "
        f"per article, seed {report['seed']}. Real questions' split-half rho (the ceiling): "
        f"median {report['real_split_half_median_rho']:.2f}.",
        "",
        "| form | median rho | min rho | mean-profile rho | mean bias | saturated (median) | "
        "mean regret | max regret | held-out: pick | fixed-400-80 | fixed-800-160 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in report["summary"]:

        def f(key: str, fmt: str = "{:.3f}", s: dict[str, Any] = s) -> str:
            return fmt.format(s[key]) if key in s else "–"

        lines.append(
            f"| {s['form']} | {f('median_rho', '{:.2f}')} | {f('min_rho', '{:.2f}')} | "
            f"{f('mean_profile_rho', '{:.2f}')} | "
            f"{f('mean_bias', '{:+.3f}')} | {f('median_saturated', '{:.0f}')} | "
            f"{f('mean_regret', '{:.4f}')} | {f('max_regret')} | {f('heldout_pick', '{:.4f}')} | "
            f"{f('heldout_fixed-400-80', '{:.4f}')} | {f('heldout_fixed-800-160', '{:.4f}')} |"
        )
    lines += [
        "",
        "Reference with no synthetic questions, blind to the document: each article's grid "
        "ranked by the other articles' mean real Recall@5: median rho "
        f"{report['document_blind_median_rho']:.2f} (lowest "
        f"{report['document_blind_min_rho']:.2f}).",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--forms", default=DEFAULT_FORM)
    parser.add_argument("--backend", default="bm25")
    parser.add_argument(
        "--n", type=int, default=DEFAULT_QUESTIONS, help="synthetic questions per article"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-questions", type=int, default=20)
    parser.add_argument(
        "--pick", action="store_true", help="also run Tune's recommendation per article (slower)"
    )
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    t0 = time.perf_counter()
    data = load_dataset("jsquad")
    backend = get_backend(args.backend)
    forms = [f for f in args.forms.split(",") if f]
    rows = []
    for doc in data.documents:
        real = [q for q in data.questions if q.doc_id == doc.doc_id]
        if len(real) < args.min_questions:
            continue
        rows.append(
            article_figures(
                Article(doc, backend), real, forms, n=args.n, seed=args.seed, pick=args.pick
            )
        )
        print(
            f"  {doc.doc_id}: "
            + ", ".join(f"{f} rho={rows[-1]['forms'][f]['rho']:.2f}" for f in forms),
            file=sys.stderr,
        )
    split = np.array([r["real_split_half_rho"] for r in rows], dtype=float)
    blind = document_blind_rhos(rows)
    report = {
        "backend": args.backend,
        "n": args.n,
        "seed": args.seed,
        "min_questions": args.min_questions,
        "articles": len(rows),
        "real_split_half_median_rho": float(np.nanmedian(split)),
        "document_blind_median_rho": float(np.nanmedian(blind)),
        "document_blind_min_rho": float(np.nanmin(blind)),
        "summary": [summary(rows, f) for f in forms],
        "rows": rows,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(markdown(report))
    print(f"\n({report['seconds']} s)")
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
