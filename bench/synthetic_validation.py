"""Issue 22's figures on the JSQuAD validation split, in one command: does Tune's pick hold up?

For every JSQuAD validation article with at least ``--min-questions`` real questions (the real
questions hidden from Tune), ``chunkviz tune`` is run on the article alone with ``--n``
synthetic questions of the default form (``chunkviz.eval.tune.tune``: the same call as the CLI
and the page, the prior and the stability included), and the article's real questions
score the same 16 configurations (``bench/synthetic_per_document.py``'s ``Article``: the
benchmark's containment and pessimistic ties). Printed:

- **ranking**: median and minimum per-article Spearman rho between synthetic and real Recall@5
  over the 16 configurations (and the real questions' own split-half rho, the ceiling);
- **regret**: mean and maximum of the real best's Recall@5 minus the real Recall@5 of Tune's
  pick, and how often the pick is a real best;
- **held-out halves**: each article's real questions split in two by seed; on the half set
  aside, the pick's Recall@5 against always using fixed-400-80 and fixed-800-160 (means over
  articles);
- **stability**: how often Tune fell back (saturated, unstable) and the median share of
  resamples in which the rule's pick stayed the pick.

Acceptance (issue 22): median rho >= 0.85, mean regret <= 0.010, held-out pick >= fixed-400-80.

    python bench/synthetic_validation.py                 # bm25, 400 questions, seed 0
    python bench/synthetic_validation.py --json figures.json
    python bench/synthetic_validation.py --seeds 0,1,2,3,4   # and the median rho for 5 seeds
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

from synthetic_per_document import (  # noqa: E402
    DEFAULTS,
    Article,
    article_figures,
    document_blind_rhos,
)

from chunkviz.datasets import load_dataset  # noqa: E402
from chunkviz.eval.synthetic import DEFAULT_FORM, DEFAULT_QUESTIONS  # noqa: E402
from chunkviz.retrieval.backends import get_backend  # noqa: E402

TARGETS = {"median_rho": 0.85, "mean_regret": 0.010}


def figures(rows: list[dict[str, Any]], form: str) -> dict[str, Any]:
    """The issue's figures over the articles' rows (``article_figures`` with ``pick``)."""
    figs = [r["forms"][form] for r in rows]
    rhos = np.array([f["rho"] for f in figs], dtype=float)
    ranked = rhos[~np.isnan(rhos)]
    split = np.array([r["real_split_half_rho"] for r in rows], dtype=float)
    regret = np.array([f["regret"] for f in figs])
    stability = [f["stability"] for f in figs if f["stability"] is not None]
    blind = document_blind_rhos(rows)
    sizes = np.array([r["real_questions"] for r in rows])
    by_size = []
    for low, high in ((20, 50), (50, 100), (100, None)):
        keep = (sizes >= low) & (sizes < (high or np.inf))
        by_size.append(
            {
                "questions": f"{low}-{high - 1}" if high else f"{low}+",
                "articles": int(keep.sum()),
                "median_rho": float(np.nanmedian(rhos[keep])),
                "blind_median_rho": float(np.nanmedian(blind[keep])),
                "split_half": float(np.nanmedian(split[keep])),
            }
        )
    return {
        "by_size": by_size,
        "articles": len(rows),
        "ranked": int(ranked.size),
        "document_blind_median_rho": float(np.nanmedian(blind)),
        "median_rho": float(np.median(ranked)),
        "min_rho": float(ranked.min()),
        "real_split_half_median_rho": float(np.nanmedian(split)),
        "mean_regret": float(regret.mean()),
        "max_regret": float(regret.max()),
        "pick_is_real_best": int(sum(f["real_best"] for f in figs)),
        "heldout_pick": float(np.mean([f["heldout_pick"] for f in figs])),
        **{f"heldout_{d}": float(np.mean([f[f"heldout_{d}"] for f in figs])) for d in DEFAULTS},
        "drivers": dict(Counter(f["driver"] for f in figs)),
        "median_stability": float(np.median(stability)) if stability else float("nan"),
        "picks": dict(Counter(f["pick"] for f in figs).most_common()),
    }


def markdown(report: dict[str, Any]) -> str:
    f = report["figures"]
    held = f["heldout_pick"] - f["heldout_fixed-400-80"]
    lines = [
        f"{f['articles']} JSQuAD validation articles with at least {report['min_questions']} "
        f"real questions; backend {report['backend']}; {report['n']} synthetic "
        f"{report['form']} questions per article, seed {report['seed']}.",
        "",
        "| figure | value | target |",
        "|---|---:|---:|",
        f"| median per-article ρ (synthetic vs real Recall@5, 16 configurations) | "
        f"{f['median_rho']:.2f} | ≥ {TARGETS['median_rho']:.2f} |",
        f"| minimum per-article ρ | {f['min_rho']:.2f} | |",
        *(
            [
                f"| median per-article ρ by seed ({', '.join(map(str, report['seeds']))}) | "
                f"{', '.join(f'{x:.2f}' for x in report['median_rho_by_seed'])} (mean "
                f"{np.mean(report['median_rho_by_seed']):.3f}) | |"
            ]
            if len(report["seeds"]) > 1
            else []
        ),
        f"| reference blind to the document: other articles' mean real Recall@5 (median ρ) | "
        f"{f['document_blind_median_rho']:.2f} | |",
        f"| real questions' split-half ρ (median; the ceiling) | "
        f"{f['real_split_half_median_rho']:.2f} | |",
        f"| mean regret of Tune's pick (real Recall@5) | {f['mean_regret']:.4f} | "
        f"≤ {TARGETS['mean_regret']:.3f} |",
        f"| max regret | {f['max_regret']:.4f} | |",
        f"| pick is a real best | {f['pick_is_real_best']} of {f['articles']} | |",
        f"| held-out halves: Tune's pick | {f['heldout_pick']:.4f} | ≥ fixed-400-80 |",
        f"| held-out halves: always fixed-400-80 | {f['heldout_fixed-400-80']:.4f} | |",
        f"| held-out halves: always fixed-800-160 | {f['heldout_fixed-800-160']:.4f} | |",
        f"| picks the questions drove (not the prior) | {f['drivers'].get('questions', 0)} of "
        f"{f['articles']} | |",
        f"| median share of resamples keeping the rule's pick | {f['median_stability']:.0%} | |",
        "",
        "Picks: " + ", ".join(f"{k} {v}" for k, v in f["picks"].items()) + ".",
        "",
        f"By the number of real questions per article (median ρ at seed {report['seed']}):",
        "",
        "| real questions | articles | synthetic | blind to the document | split-half |",
        "|---|---:|---:|---:|---:|",
        *(
            f"| {b['questions']} | {b['articles']} | {b['median_rho']:.2f} | "
            f"{b['blind_median_rho']:.2f} | {b['split_half']:.2f} |"
            for b in f["by_size"]
        ),
        "",
        "Acceptance: median ρ "
        + ("met" if f["median_rho"] >= TARGETS["median_rho"] else "NOT met")
        + "; mean regret "
        + ("met" if f["mean_regret"] <= TARGETS["mean_regret"] else "NOT met")
        + f"; held-out pick vs fixed-400-80 {held:+.4f} ("
        + ("met" if held >= 0 else "NOT met")
        + ").",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", default="bm25")
    parser.add_argument("--form", default=DEFAULT_FORM)
    parser.add_argument(
        "--n", type=int, default=DEFAULT_QUESTIONS, help="synthetic questions per article"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--seeds",
        default=None,
        help="also report the median rho for these seeds, e.g. 0,1,2,3,4 "
        "(the table's other figures are --seed's)",
    )
    parser.add_argument("--min-questions", type=int, default=20)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    t0 = time.perf_counter()
    load = os.getloadavg()
    data = load_dataset("jsquad")
    backend = get_backend(args.backend)
    seeds = [args.seed] if args.seeds is None else [int(s) for s in args.seeds.split(",")]
    rows = []
    for doc in data.documents:
        real = [q for q in data.questions if q.doc_id == doc.doc_id]
        if len(real) < args.min_questions:
            continue
        article = Article(doc, backend)
        rows.append(
            article_figures(article, real, [args.form], n=args.n, seed=args.seed, pick=True)
        )
        for seed in seeds:
            if seed != args.seed:
                other = article_figures(article, real, [args.form], n=args.n, seed=seed, pick=False)
                rows[-1].setdefault("rho_by_seed", {})[seed] = other["forms"][args.form]["rho"]
        fig = rows[-1]["forms"][args.form]
        print(
            f"  {doc.doc_id}: rho={fig['rho']:.2f} pick={fig['pick']} "
            f"regret={fig['regret']:.3f} driver={fig['driver']}",
            file=sys.stderr,
            flush=True,
        )
    by_seed = [
        float(
            np.nanmedian(
                [
                    r["forms"][args.form]["rho"] if s == args.seed else r["rho_by_seed"][s]
                    for r in rows
                ]
            )
        )
        for s in seeds
    ]
    report = {
        "backend": args.backend,
        "form": args.form,
        "n": args.n,
        "seed": args.seed,
        "seeds": seeds,
        "median_rho_by_seed": by_seed,
        "min_questions": args.min_questions,
        "figures": figures(rows, args.form),
        "rows": rows,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(markdown(report))
    print(
        f"\n({report['seconds']} s; load average {load[0]:.2f} at the start, "
        f"{os.getloadavg()[0]:.2f} at the end)"
    )
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
