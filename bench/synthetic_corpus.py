"""Validate probes and synthetic questions on JSQuAD: do they rank configurations like real ones?

With the real questions hidden, probes (``chunkviz.eval.probes``) and synthetic questions
(``chunkviz.eval.synthetic``) are drawn from the JSQuAD long documents alone. For the default
grid's 8 configurations, Spearman's rho is computed between

- the probe-based broken share and the real questions' broken count (lost before retrieval),
  for each probe method (character classes, fugashi/MeCab);
- the synthetic questions' Recall@5 and the real questions' Recall@5, per form and backend.

The real questions' figures are read from the shipped results files
(``chunkviz/results/jsquad-<backend>-all-s0-<hash>.json``, all 3,973 questions, computed by the same
runner). Synthetic figures are computed here with ``run_benchmark`` on ``--n`` questions drawn
by seed. Prints Markdown (reproduced in ``docs/benchmarks.md``) and writes the figures as JSON
with ``--json``.

    python bench/synthetic_corpus.py                       # bm25 and use-m3, n=800, seed 0
    python bench/synthetic_corpus.py --backends bm25 --n 400
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chunkviz.datasets import load_dataset  # noqa: E402
from chunkviz.eval.grid import default_grid  # noqa: E402
from chunkviz.eval.lost import lost_table  # noqa: E402
from chunkviz.eval.probes import METHODS, extract_probes, probe_dataset  # noqa: E402
from chunkviz.eval.results import load_results  # noqa: E402
from chunkviz.eval.runner import run_benchmark, shipped_results_dir  # noqa: E402
from chunkviz.eval.stats import spearman_rho  # noqa: E402
from chunkviz.eval.synthetic import synthetic_dataset  # noqa: E402

FORMS = ("cloze", "keywords", "template", "inverse")


def real_figures(backend: str) -> dict[str, Any]:
    (path,) = sorted(shipped_results_dir().glob(f"jsquad-{backend}-all-s0-*.json"))
    data = load_results(path)
    return {
        "file": path.name,
        "labels": list(data.labels),
        "recall@5": [data.metrics[lab]["recall@5"].mean for lab in data.labels],
        "broken": [c.broken for c in data.configs],
        "questions": len(data.question_ids),
    }


def probe_figures(dataset: Any, n: int, seed: int, real: dict[str, Any]) -> list[dict[str, Any]]:
    configs = default_grid()
    answers = {(q.doc_id, s.start, s.end) for q in dataset.questions for s in q.spans[:1]}
    out = []
    for method in METHODS:
        t0 = time.perf_counter()
        spans = {
            (d.doc_id, p.start, p.end)
            for d in dataset.documents
            for p in extract_probes(d.text, method=method)
        }
        probes = probe_dataset(dataset.documents, method=method, sample=n, seed=seed)
        rows = lost_table(probes, configs)
        shares = [r.share for r in rows]
        lengths = [s[2] - s[1] for s in spans]
        out.append(
            {
                "method": method,
                "probes_total": len(spans),
                "probes_sampled": len(probes.questions),
                "broken_share": dict(zip([r.config for r in rows], shares, strict=True)),
                "rho_vs_real_broken": spearman_rho(shares, real["broken"]),
                "rho_vs_real_recall@5": spearman_rho([-s for s in shares], real["recall@5"]),
                "answers_that_are_probes": sum(1 for a in answers if a in spans) / len(answers),
                "mean_probe_chars": sum(lengths) / len(lengths),
                "seconds": round(time.perf_counter() - t0, 2),
            }
        )
    return out


def synthetic_figures(
    dataset: Any, backend: str, n: int, seed: int, real: dict[str, Any], forms: list[str]
) -> list[dict[str, Any]]:
    out = []
    for form in forms:
        t0 = time.perf_counter()
        data = synthetic_dataset(dataset.documents, form, n=n, seed=seed)  # type: ignore[arg-type]
        results = run_benchmark(
            data, default_grid(), backend, sample=0, seed=seed, bootstrap=200, permutations=100
        )
        labels = list(results.labels)
        assert labels == real["labels"]
        recall = [results.metrics[lab]["recall@5"].mean for lab in labels]
        out.append(
            {
                "form": form,
                "backend": backend,
                "questions": len(data.questions),
                "recall@5": dict(zip(labels, recall, strict=True)),
                "rho_vs_real_recall@5": spearman_rho(recall, real["recall@5"]),
                "seconds": round(time.perf_counter() - t0, 1),
            }
        )
        print(
            f"  {form} {backend}: rho={out[-1]['rho_vs_real_recall@5']:.2f} "
            f"({out[-1]['seconds']} s)",
            file=sys.stderr,
        )
    return out


def markdown(report: dict[str, Any]) -> str:
    lines = [
        "### Probes: broken share per configuration vs the real questions' lost counts",
        "",
        "| method | probes (all) | sampled | answers that are probes | mean chars | "
        + " | ".join(report["labels"])
        + " | rho vs real broken | rho vs real Recall@5 |",
        "|---|---:|---:|---:|---:|" + "---:|" * len(report["labels"]) + "---:|---:|",
    ]
    for p in report["probes"]:
        shares = " | ".join(f"{100 * p['broken_share'][lab]:.1f}%" for lab in report["labels"])
        lines.append(
            f"| {p['method']} | {p['probes_total']} | {p['probes_sampled']} | "
            f"{100 * p['answers_that_are_probes']:.1f}% | {p['mean_probe_chars']:.1f} | {shares} | "
            f"{p['rho_vs_real_broken']:.2f} | {p['rho_vs_real_recall@5']:.2f} |"
        )
    real = report["real"]
    lines += [
        "",
        "Real questions (shipped results): broken "
        + ", ".join(
            f"{lab} {b}" for lab, b in zip(report["labels"], real["bm25"]["broken"], strict=True)
        ),
        "",
        "### Synthetic questions: Recall@5 per configuration vs the real questions'",
        "",
        "| form | backend | questions | " + " | ".join(report["labels"]) + " | rho vs real |",
        "|---|---|---:|" + "---:|" * len(report["labels"]) + "---:|",
    ]
    for backend, rows in report["synthetic"].items():
        r = real[backend]["recall@5"]
        lines.append(
            f"| **real** | {backend} | {real[backend]['questions']} | "
            + " | ".join(f"{v:.3f}" for v in r)
            + " | 1 |"
        )
        for s in rows:
            vals = " | ".join(f"{s['recall@5'][lab]:.3f}" for lab in report["labels"])
            lines.append(
                f"| {s['form']} | {backend} | {s['questions']} | {vals} | "
                f"{s['rho_vs_real_recall@5']:.2f} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backends", default="bm25,use-m3")
    parser.add_argument("--forms", default=",".join(FORMS))
    parser.add_argument("--n", type=int, default=800, help="probes / synthetic questions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    t0 = time.perf_counter()
    dataset = load_dataset("jsquad")
    backends = [b for b in args.backends.split(",") if b]
    real = {b: real_figures(b) for b in {"bm25", *backends}}
    report: dict[str, Any] = {
        "labels": real["bm25"]["labels"],
        "n": args.n,
        "seed": args.seed,
        "real": real,
        "probes": probe_figures(dataset, args.n, args.seed, real["bm25"]),
    }
    report["synthetic"] = {
        b: synthetic_figures(dataset, b, args.n, args.seed, real[b], args.forms.split(","))
        for b in backends
    }
    report["seconds"] = round(time.perf_counter() - t0, 1)
    print(markdown(report))
    print(f"\n({report['seconds']} s; n={args.n}, seed={args.seed})")
    if args.json:
        args.json.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
