"""Does snapping fixed windows to word or phrase boundaries help retrieval? (issue 38)

One benchmark run (``chunkviz.eval.runner.run_benchmark``, BM25 by default) over fixed windows
200/0, 400/80 and 800/0, each unsnapped and snapped to BudouX phrase and word boundaries
(``snap``, ``max_shift`` 10 characters). For every window it reports the chunks, the cuts
inside a word (``configs[].words_cut``), the answers no chunk holds whole (lost before
retrieval), Recall@5 and recall at a 2,000-character context budget (``recall@budget``), with
the run's paired tests of each snapped window against its unsnapped twin: the difference, its
95% bootstrap interval over documents, the Holm-adjusted p over all pairs of the run, and the
decision rule's verdict (equivalent within ±0.01, better, worse, inconclusive).

    PYTHONPATH=. python bench/snap.py                       # JSQuAD, BM25
    PYTHONPATH=. python bench/snap.py --dataset jsquad:PATH # any JSQuAD-format file
    PYTHONPATH=. python bench/snap.py --snap phrase --max-shift 20 --sample 1000
    PYTHONPATH=. python bench/snap.py --speed   # boundaries vs budoux.Parser.parse, same run
    PYTHONPATH=. python bench/snap.py --mecab   # BudouX words vs MeCab (fugashi + unidic-lite)

The Markdown table goes to standard output (docs/benchmarks.md, "Snapping cuts to word
boundaries").
"""

from __future__ import annotations

import argparse
import sys
import time

from chunkviz.datasets import load_dataset
from chunkviz.eval.grid import Config, make_config
from chunkviz.eval.runner import run_benchmark

WINDOWS = ((200, 0), (400, 80), (800, 0))


def _configs(snaps: list[str], max_shift: int) -> list[tuple[Config, list[Config]]]:
    out = []
    for size, overlap in WINDOWS:
        base = make_config("fixed", {"size": size, "overlap": overlap})
        snapped = [
            make_config(
                "fixed", {"size": size, "overlap": overlap, "snap": s, "max_shift": max_shift}
            )
            for s in snaps
        ]
        out.append((base, snapped))
    return out


def _estimate(metrics: dict, label: str, key: str) -> str:
    e = metrics[label][key]
    return f"{e.mean:.3f} [{e.ci_low:.3f}, {e.ci_high:.3f}]"


def _test(rows: tuple, key: str, a: str, b: str) -> str:
    for r in rows:
        if r.metric == key and {r.a, r.b} == {a, b}:
            sign = -1 if r.b == b else 1  # diff is a - b; shown: snapped minus unsnapped
            low, high = sorted((sign * r.ci_low, sign * r.ci_high))
            verdict = r.verdict if isinstance(r.verdict, str) else ""
            return (
                f"{sign * r.diff:+.3f} [{low:+.3f}, {high:+.3f}], p_Holm {r.p_holm:.3g} ({verdict})"
            )
    return "—"


def speed() -> None:
    """Seconds of ``text_boundaries`` against BudouX's own parser on the same texts.

    Texts: the JSQuAD articles joined into one line (about 200,000 characters, the design's
    "usable" size) and a run of one character (BudouX appends to a phrase character by
    character: quadratic; lengths stay small enough to finish).
    """
    import budoux

    from chunkviz.text_boundaries import text_boundaries

    parser = budoux.load_default_japanese_parser()
    article = "".join(d.text for d in load_dataset("jsquad").documents)[:200_000]
    cases = [("JSQuAD articles, one line", article)]
    cases += [(f"run of one character, {n:,}", "あ" * n) for n in (50_000, 100_000, 200_000)]
    print("| text | characters | text_boundaries (s) | budoux parse (s) | ratio |")
    print("|---|---|---|---|---|")
    text_boundaries(article[:100], "phrase")  # load the model outside the timing
    for name, text in cases:
        text_boundaries.cache_clear()
        t0 = time.perf_counter()
        text_boundaries(text, "phrase")
        ours = time.perf_counter() - t0
        t0 = time.perf_counter()
        parser.parse(text)
        theirs = time.perf_counter() - t0
        print(f"| {name} | {len(text):,} | {ours:.3f} | {theirs:.3f} | {theirs / ours:.1f}x |")


def mecab_boundaries(text: str) -> set[int]:
    """Offsets between two MeCab tokens (fugashi + unidic-lite), line by line."""
    import fugashi  # the reference, where installed (requirements-dev)

    tagger = fugashi.Tagger()
    out: set[int] = set()
    start = 0
    for line in text.splitlines(keepends=True):
        pos = 0
        for word in tagger(line):
            k = line.find(word.surface, pos)  # MeCab drops whitespace: read on from pos
            if k < 0:
                continue
            out.update((start + k, start + k + len(word.surface)))
            pos = k + len(word.surface)
        start += len(line)
    return out


def mecab(dataset_spec: str) -> None:
    """BudouX's word boundaries against MeCab's, and the cuts inside a word of each."""
    from chunkviz import chunk
    from chunkviz.text_boundaries import text_boundaries, word_cut_counts

    agree = ours_only = theirs_only = 0
    cut_rows: dict[str, list[int]] = {}
    for document in load_dataset(dataset_spec).documents:
        text = document.text
        theirs = mecab_boundaries(text)
        ours = set(text_boundaries(text, "word").positions.tolist())
        # Positions MeCab can judge: between two non-space characters.
        judged = {
            p for p in range(1, len(text)) if not text[p - 1].isspace() and not text[p].isspace()
        }
        agree += len(ours & theirs & judged)
        ours_only += len((ours - theirs) & judged)
        theirs_only += len((theirs - ours) & judged)
        for size, overlap in ((400, 80), (200, 0)):
            r = chunk(text, "fixed", size=size, overlap=overlap)
            cols = r.columns
            cuts, inside = word_cut_counts(text, cols.starts, cols.ends)
            in_mecab = sum(
                1
                for p in set(cols.starts) | set(cols.ends)
                if 0 < p < len(text) and p not in theirs
            )
            row = cut_rows.setdefault(f"fixed {size}/{overlap}", [0, 0, 0])
            row[0] += cuts
            row[1] += inside
            row[2] += in_mecab
    precision = agree / (agree + ours_only)
    recall = agree / (agree + theirs_only)
    print(
        f"BudouX word boundaries vs MeCab/unidic-lite: precision {precision:.3f}, recall "
        f"{recall:.3f}, F1 {2 * precision * recall / (precision + recall):.3f}"
    )
    print("| windows | cuts | inside a BudouX word | inside a MeCab word |")
    print("|---|---|---|---|")
    for name, (cuts, inside, in_mecab) in cut_rows.items():
        print(f"| {name} | {cuts:,} | {inside / cuts:.1%} | {in_mecab / cuts:.1%} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="jsquad", help="dataset spec (jsquad, jsquad:PATH)")
    parser.add_argument("--backend", default="bm25")
    parser.add_argument("--snap", default="phrase,word", help="levels, comma-separated")
    parser.add_argument("--max-shift", type=int, default=10)
    parser.add_argument("--sample", type=int, default=0, help="questions (0: all)")
    parser.add_argument("--permutations", type=int, default=5000)
    parser.add_argument("--bootstrap", type=int, default=2000)
    parser.add_argument("--speed", action="store_true", help="boundaries vs BudouX's parser")
    parser.add_argument("--mecab", action="store_true", help="BudouX words vs MeCab's")
    args = parser.parse_args(argv)
    if args.speed:
        speed()
        return 0
    if args.mecab:
        mecab(args.dataset)
        return 0
    snaps = [s.strip() for s in args.snap.split(",") if s.strip()]
    groups = _configs(snaps, args.max_shift)
    configs = [c for base, snapped in groups for c in (base, *snapped)]
    dataset = load_dataset(args.dataset)
    started = time.perf_counter()
    res = run_benchmark(
        dataset,
        configs,
        args.backend,
        spec=args.dataset,
        sample=args.sample,
        permutations=args.permutations,
        bootstrap=args.bootstrap,
    )
    seconds = time.perf_counter() - started
    budget = res.budget.chars
    print(
        f"dataset={res.dataset.name} ({res.dataset.documents} documents, "
        f"{res.dataset.questions} questions), backend={res.backend.name}, "
        f"max_shift={args.max_shift}, {seconds:.0f} s",
        file=sys.stderr,
    )
    print(
        f"| window | chunks | cuts inside words | answers lost | Recall@5 | Δ Recall@5 vs "
        f"unsnapped | recall@{budget:,} chars | Δ recall@{budget:,} chars vs unsnapped |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for base, snapped in groups:
        for c in (base, *snapped):
            rec = res.config(c.label)
            share = (rec.words_cut or 0) / rec.cuts if rec.cuts else 0.0
            same = c is base
            at_k = "—" if same else _test(res.pairwise, "recall@5", base.label, c.label)
            at_budget = (
                "—" if same else _test(res.budget.pairwise, "recall@budget", base.label, c.label)
            )
            print(
                f"| `{c.label}` | {rec.chunks:,} | {rec.words_cut:,} of {rec.cuts:,} "
                f"({share:.1%}) | {rec.broken} | {_estimate(res.metrics, c.label, 'recall@5')}"
                f" | {at_k} | {_estimate(res.budget.metrics, c.label, 'recall@budget')} | "
                f"{at_budget} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
