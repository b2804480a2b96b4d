"""Do JSQuAD's conclusions hold on JaQuAD? Pair by pair, at equal k and at the context budget.

Reads the shipped results files (``chunkviz/results/``) of every backend run on both bundled
corpora with the default grid and all questions, and sets each configuration pair's outcome on
JSQuAD beside its outcome on JaQuAD (``chunkviz.eval.stats.replicate``; outcomes by the one
decision rule, ``chunkviz.eval.decision``):

- **holds**: the same conclusion on both (one better, or equivalent within the margin);
- **reverses**: one configuration better on one corpus, the other on the other;
- **differs**: two different conclusions that are not a reversal (better on one, equivalent on
  the other);
- **one only**: a conclusion on one corpus, inconclusive (or saturated) on the other;
- **neither**: inconclusive on both.

The seed study's own conclusions are called out: natural paragraphs against every fixed window,
and 20% overlap against none at each size. "Saturation hides" lists pairs one corpus separates
and the other cannot, at Recall@5. "Metrics that separate" counts, per corpus, the pairs each
metric separates (Recall@1 and Recall@5, MRR@10, nDCG@10, Recall@budget, MRR@budget; Recall@1 is
tested from the ranks exactly as the runner tests its own metrics,
``chunkviz.eval.separation``) and names the headline metric: the one that separates
the most pairs.

    python bench/replication.py                                  # print Markdown
    python bench/replication.py --write docs/benchmarks.md       # replace its section there
    python bench/replication.py --jsquad A.json --jaquad B.json  # any two runs of one grid
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chunkviz.eval.by_type import metric_by_type  # noqa: E402
from chunkviz.eval.measures import metric_label  # noqa: E402
from chunkviz.eval.results import Results, load_results  # noqa: E402
from chunkviz.eval.runner import shipped_results_dir  # noqa: E402
from chunkviz.eval.separation import SEPARATING, headline, separation  # noqa: E402
from chunkviz.eval.separation import tests_of as tests  # noqa: E402
from chunkviz.eval.stats import PairwiseResult, Replication, replicate  # noqa: E402
from chunkviz.views import by_type as by_type_views  # noqa: E402

START = "<!-- replication:start (python bench/replication.py --write docs/benchmarks.md) -->"
END = "<!-- replication:end -->"

STATUSES = ("holds", "reverses", "differs", "one only", "neither")


def seed_pairs(labels: Sequence[str]) -> list[tuple[str, str, str]]:
    """The seed study's conclusions as ``(claim, a, b)``: paragraph vs fixed, overlap vs none."""
    out = [("paragraph vs fixed", "paragraph", lab) for lab in labels if lab.startswith("fixed-")]
    for lab in labels:
        parts = lab.split("-")
        if len(parts) == 3 and parts[0] == "fixed" and parts[2] != "0":
            none = f"fixed-{parts[1]}-0"
            if none in labels:
                out.append(("overlap vs none", lab, none))
    return out


def status(rep: Replication) -> str:
    """The replication's status in this script's words (a reversal told apart)."""
    if rep.status == "contradicts":
        directional = {"a_better", "b_better"}
        return "reverses" if {rep.first, rep.second} == directional else "differs"
    return {"holds": "holds", "one_only": "one only", "neither": "neither"}[rep.status]


def outcome_words(outcome: str, a: str, b: str, delta: float | None) -> str:
    """``paragraph better``, ``equivalent ±0.01``, ``inconclusive``, ``saturated``."""
    if outcome == "a_better":
        return f"{a} better"
    if outcome == "b_better":
        return f"{b} better"
    if outcome == "equivalent":
        return f"equivalent ±{delta:g}" if delta is not None else "equivalent"
    return outcome


def oriented(results: Results, metric: str) -> dict[tuple[str, str], PairwiseResult]:
    """Every test of ``metric`` under both orientations."""
    out = {}
    for p in tests(results, metric):
        out[(p.a, p.b)] = p
        out[(p.b, p.a)] = p.flipped()
    return out


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def replications(first: Results, second: Results, metric: str) -> list[Replication]:
    """``replicate`` over the two files' tests of ``metric``."""
    return replicate(tests(first, metric), tests(second, metric))


def pair_rows(
    js: Results, ja: Results, pairs: Sequence[tuple[str, str, str]], equal_k: str, budget: str
) -> list[list[str]]:
    """One row per pair: each corpus's outcome and the status, at equal k and at the budget."""
    rows = []
    for claim, a, b in pairs:
        row = [claim, f"{a} vs {b}"] if claim else [f"{a} vs {b}"]
        for metric in (equal_k, budget):
            x, y = oriented(js, metric)[(a, b)], oriented(ja, metric)[(a, b)]
            rep = Replication(metric, a, b, x.outcome, y.outcome)
            row += [
                f"{outcome_words(x.outcome, a, b, x.delta)} ({x.diff:+.3f})",
                f"{outcome_words(y.outcome, a, b, y.delta)} ({y.diff:+.3f})",
                f"**{status(rep)}**" if status(rep) in ("reverses", "differs") else status(rep),
            ]
        rows.append(row)
    return rows


def hidden(js: Results, ja: Results, metric: str) -> tuple[list[str], list[str]]:
    """Pairs one corpus separates on ``metric`` and the other cannot (JSQuAD-only, JaQuAD-only)."""
    js_only, ja_only = [], []
    undecided = ("inconclusive", "saturated")
    for rep in replications(js, ja, metric):
        what = f"{rep.a} vs {rep.b}"
        if rep.first in undecided and rep.second not in undecided:
            ja_only.append(f"{what} ({outcome_words(rep.second, rep.a, rep.b, None)})")
        if rep.second in undecided and rep.first not in undecided:
            js_only.append(f"{what} ({outcome_words(rep.first, rep.a, rep.b, None)})")
    return js_only, ja_only


def backend_section(js: Results, ja: Results, equal_k: str, budget: str) -> str:
    """Everything for one backend's pair of runs."""
    name = js.backend.name
    labels = js.labels
    out = [
        f"### {name}: JSQuAD vs JaQuAD",
        "",
        f"Files: `{js.run_id}.json` ({js.dataset.questions:,} questions, "
        f"{js.dataset.documents} documents) and `{ja.run_id}.json` "
        f"({ja.dataset.questions:,} questions, {ja.dataset.documents} documents); "
        f"equal k is {metric_label(equal_k)}, the budget is {js.budget.chars:,} characters "
        f"({metric_label(budget)}); outcomes by the decision rule with the files' margins, "
        "Holm over the 28 pairs of each metric, documents resampled.",
        "",
        "**The seed study's conclusions** (difference first minus second in brackets):",
        "",
    ]
    header = [
        "claim",
        "pair",
        *(
            f"{c} ({label})"
            for label in ("equal k", "budget")
            for c in ("JSQuAD", "JaQuAD", "status")
        ),
    ]
    out += [table(header, pair_rows(js, ja, seed_pairs(labels), equal_k, budget)), ""]
    out += ["**Every pair, counted** (28 pairs per metric):", ""]
    rows = []
    for metric in SEPARATING:
        counts = Counter(status(r) for r in replications(js, ja, metric))
        rows.append([metric_label(metric), *(str(counts[s]) for s in STATUSES)])
    out += [table(["metric", *STATUSES], rows), ""]
    for metric in SEPARATING:
        for rep in replications(js, ja, metric):
            if status(rep) in ("reverses", "differs"):
                out.append(
                    f"- {metric_label(metric)}, {rep.a} vs {rep.b} {status(rep)}: "
                    f"{outcome_words(rep.first, rep.a, rep.b, None)} on JSQuAD, "
                    f"{outcome_words(rep.second, rep.a, rep.b, None)} on JaQuAD."
                )
    out.append("")
    js_only, ja_only = hidden(js, ja, "recall@5")
    out += [
        f"**Saturation hides** (at {metric_label('recall@5')}): JaQuAD separates "
        f"{len(ja_only)} pair(s) that JSQuAD cannot"
        + (": " + "; ".join(ja_only) if ja_only else "")
        + f". JSQuAD separates {len(js_only)} pair(s) that JaQuAD cannot"
        + (": " + "; ".join(js_only) if js_only else "")
        + ".",
        "",
    ]
    out += [
        "**Metrics that separate** (pairs of 28 with a significant difference / shown "
        "equivalent / inconclusive / saturated):",
        "",
    ]
    sep = {"JSQuAD": separation(js), "JaQuAD": separation(ja)}
    rows = [
        [
            metric_label(metric),
            *(
                f"{s.separated} / {s.equivalent} / {s.inconclusive} / {s.saturated}"
                for s in (sep[d][i] for d in sep)
            ),
        ]
        for i, metric in enumerate(SEPARATING)
    ]
    out += [table(["metric", "JSQuAD", "JaQuAD"], rows), ""]
    for corpus, counts in sep.items():
        best = headline(counts)
        tied = [
            metric_label(s.metric)
            for s in counts
            if s.metric != best.metric and s.separated == best.separated
        ]
        r5 = next(s.separated for s in counts if s.metric == "recall@5")
        out.append(
            f"- {corpus}: headline metric **{metric_label(best.metric)}**: it separates "
            f"{best.separated} of {best.pairs} pairs, the most of any metric"
            + (f" (tied with {', '.join(tied)}; the first in the list wins)" if tied else "")
            + f"; Recall@5 separates {r5}."
        )
    rows_by_type = metric_by_type(ja, equal_k, "question")
    if rows_by_type:
        out += [
            "",
            f"**JaQuAD by question type** ({metric_label(equal_k)}, mean [95% CI]; "
            "`chunkviz.eval.by_type`, the Benchmark page's section):",
            "",
            by_type_views.metric_markdown(rows_by_type, ja.labels, "en"),
            "",
            "Answers lost before retrieval, by question type:",
            "",
            by_type_views.lost_markdown(rows_by_type, ja.labels, "en"),
        ]
    out += ["", "**Every pair**:", ""]
    all_pairs = [("", p.a, p.b) for p in tests(js, equal_k)]
    header = [
        "pair",
        *(
            f"{c} ({label})"
            for label in ("equal k", "budget")
            for c in ("JSQuAD", "JaQuAD", "status")
        ),
    ]
    out += [table(header, pair_rows(js, ja, all_pairs, equal_k, budget)), ""]
    return "\n".join(out)


def shipped_pairs(folder: Path) -> list[tuple[Results, Results]]:
    """``(jsquad run, jaquad run)`` per backend with full runs of both on the same grid."""
    runs: dict[tuple[str, str], Results] = {}
    for path in sorted(folder.glob("*.json")):
        r = load_results(path)
        if r.dataset.spec in ("jsquad", "jaquad") and r.dataset.sample == 0:
            runs[(r.dataset.spec, r.backend.name)] = r
    return [
        (js, runs[("jaquad", b)])
        for (spec, b), js in sorted(runs.items())
        if spec == "jsquad" and ("jaquad", b) in runs and runs[("jaquad", b)].labels == js.labels
    ]


def report(pairs: Sequence[tuple[Results, Results]], equal_k: str, budget: str) -> str:
    """The whole Markdown section."""
    head = (
        "Produced by `python bench/replication.py --write docs/benchmarks.md` from the "
        "shipped results files; backends: " + ", ".join(js.backend.name for js, _ in pairs) + "."
    )
    return "\n\n".join([head, *(backend_section(js, ja, equal_k, budget) for js, ja in pairs)])


def write_section(doc: Path, body: str) -> None:
    """Replace the text between ``START`` and ``END`` in ``doc``.

    Raises:
        SystemExit: ``doc`` lacks the two marker lines (put them where the section goes).
    """
    text = doc.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(
            f"{doc} has no replication section: add the lines {START!r} and "
            f"{END!r} where it goes, then rerun"
        )
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    doc.write_text(before + f"{START}\n{body.rstrip()}\n{END}" + after, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Print the Markdown (or write it into a document's section)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--results",
        type=Path,
        default=shipped_results_dir(),
        help="folder of results files (default: the shipped ones)",
    )
    p.add_argument("--jsquad", type=Path, help="a JSQuAD run (with --jaquad: just these two)")
    p.add_argument("--jaquad", type=Path, help="a JaQuAD run of the same grid")
    p.add_argument("--metric", default="recall@5", help="the equal-k metric of the pair tables")
    p.add_argument(
        "--budget-metric", default="recall@budget", help="the budget metric of the pair tables"
    )
    p.add_argument("--write", type=Path, help="replace the section in this Markdown file")
    args = p.parse_args(argv)
    if args.jsquad or args.jaquad:
        if not (args.jsquad and args.jaquad):
            p.error("--jsquad and --jaquad go together")
        pairs = [(load_results(args.jsquad), load_results(args.jaquad))]
    else:
        pairs = shipped_pairs(args.results)
    if not pairs:
        p.error(f"no backend has full runs of both jsquad and jaquad in {args.results}")
    body = report(pairs, args.metric, args.budget_metric)
    if args.write:
        write_section(args.write, body)
        print(f"wrote the replication section of {args.write}")
    else:
        print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
