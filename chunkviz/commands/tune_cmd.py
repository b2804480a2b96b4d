"""``chunkviz tune DOC [--qa FILE] [--synthetic N]``: a recommended configuration for DOC.

Runs the benchmark runner on this one document over the tune grid (16 configurations), with the
user's pairs, synthetic questions, or both, and prints the table, the Pareto fronts and the
recommendation (``chunkviz.eval.tune``, the same function a page calls). With ``--chunks`` the
chunks of another library, aligned to the document, join the grid as ``imported-<id>``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from chunkviz.commands.options import SEED, integer, real
from chunkviz.errors import ParameterError
from chunkviz.eval.decision import DEFAULT_BUDGET_CHARS
from chunkviz.eval.synthetic import DEFAULT_FORM, DEFAULT_QUESTIONS, FORMS
from chunkviz.limits import MAX_BUDGET_CHARS, MIN_BUDGET_CHARS


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "tune",
        help="benchmark a grid on one document and recommend a configuration",
        description="Benchmark the tune grid (fixed and recursive 100-800 characters at 0%% "
        "and 20%% overlap, sentences, paragraphs) on DOC with your question/answer pairs "
        "and/or synthetic questions, print the Pareto front of quality against index size and "
        "context tokens, and name the cheapest configuration whose Recall@5 is equivalent to "
        "the best's within --margin (else the cheapest not significantly worse).",
    )
    p.add_argument("doc", help="the document (a text file)")
    p.add_argument("--qa", default=None, help="your question/answer pairs (CSV or JSON)")
    p.add_argument(
        "--synthetic",
        type=integer(0, 100_000),
        default=None,
        metavar="N",
        help=f"synthetic questions to add (default {DEFAULT_QUESTIONS} without --qa, "
        "else 0; 0 without --qa counts only the key phrases each configuration cuts)",
    )
    p.add_argument(
        "--form",
        choices=FORMS,
        default=DEFAULT_FORM,
        help=f"synthetic question form (default {DEFAULT_FORM}; lm needs --lm)",
    )
    p.add_argument(
        "--lm",
        default=None,
        metavar="hf:PATH",
        help="a local causal language model that writes the questions of --form lm",
    )
    p.add_argument(
        "--chunks",
        default=None,
        help="chunks made by another library (JSON/JSONL), added as 'imported-<id>'",
    )
    p.add_argument(
        "--margin",
        type=real(0, 1, low_open=True, fix="try 0.01"),
        default=None,
        metavar="DELTA",
        help="equivalence margin of the recommendation, in Recall@5 (default 0.01, "
        "the Benchmark page's): the cheapest configuration equivalent to the best "
        "within +-DELTA is recommended, else the cheapest not significantly worse",
    )
    p.add_argument(
        "--budget",
        type=integer(MIN_BUDGET_CHARS, MAX_BUDGET_CHARS, fix=f"try {DEFAULT_BUDGET_CHARS}"),
        default=DEFAULT_BUDGET_CHARS,
        metavar="CHARS",
        help="the reader's context budget in characters, where the recommendation "
        f"is made (default {DEFAULT_BUDGET_CHARS:,}: the seed study's 5 x 400); "
        "equal k is shown beside it",
    )
    p.add_argument("--backend", default="bm25", help="bm25 (default), tfidf, use-m3, st:<model>")
    p.add_argument("--seed", type=SEED, default=0, help="seed of the questions and statistics")
    p.add_argument("--out", default=None, help="also write the results file into this folder")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (default) or json: one chunkviz.tune document on standard output "
        "(its JSON Schema: docs/cli-schema.json)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace, extra: list[str]) -> int:
    """Read, tune, print."""
    # Deferred: the CLI imports every command to build its parser; this loads only when it runs.
    from chunkviz.eval.grid import tune_grid
    from chunkviz.eval.preflight import preflight
    from chunkviz.eval.results import save_results
    from chunkviz.eval.tune import document_from_file, probe_lost, qa_questions, tune
    from chunkviz.views.tune_report import format_probe_lost, format_tune

    # Backend, context tokenizer, embedding cache and results folder, before any work.
    backend = preflight(args.backend, out_dir=args.out).backend
    document = document_from_file(args.doc)
    questions = qa_questions(args.qa, document) if args.qa else ()
    default = 0 if args.qa else DEFAULT_QUESTIONS
    synthetic = args.synthetic if args.synthetic is not None else default
    writer = None
    if args.form == "lm":
        if not args.lm:
            raise ParameterError("tune_form_lm_needs_lm")
        # Deferred: the language model (torch, chunkviz[models]) loads only for --form lm.
        from chunkviz.lm import get_language_model

        writer = get_language_model(args.lm)
    grid = list(tune_grid())
    if args.chunks:
        # The page's import: bounded, aligned, labelled imported-<id> as in Tune's grid.
        # Deferred: the CLI imports every command to build its parser; this loads only when it runs.
        from chunkviz.eval.align import format_report
        from chunkviz.eval.imported import import_chunks, imported_config
        from chunkviz.textio import read_file_bytes

        chunking = import_chunks(
            read_file_bytes(args.chunks), Path(args.chunks).name, document.text
        )
        print(format_report(chunking.report, limit=5), file=sys.stderr)
        grid.append(imported_config(chunking, document.doc_id))
    if not questions and not synthetic and args.format == "json":
        raise ParameterError("tune_json_needs_questions")
    if not questions and not synthetic:
        # No questions at all: lost before retrieval is all that can be counted.
        print(format_probe_lost(*probe_lost(document, grid)))
        return 0
    # Deferred: tqdm loads only when a progress bar is drawn.
    from tqdm import tqdm

    from chunkviz.eval.engine import run_fraction

    with tqdm(total=1000, desc="tune", file=sys.stderr, disable=args.quiet or None) as bar:

        def progress(stage: Any, done: int, total: int, message: str) -> None:
            bar.n = round(1000 * run_fraction(stage, done, total))
            bar.set_postfix_str(f"{stage}: {message}"[:50])
            bar.refresh()

        result = tune(
            document,
            questions=questions,
            synthetic=synthetic,
            form=args.form,
            configs=grid,
            backend=backend,
            seed=args.seed,
            progress=progress,
            writer=writer,
            margin=args.margin,
            budget=args.budget,
        )
    if args.format == "json":
        from chunkviz.outputs import to_json, tune_report

        print(to_json(tune_report(result)))
    else:
        print(format_tune(result))
    if args.out:
        path = save_results(result.results, args.out)
        print(f"results: {path}", file=sys.stderr)
    return 0
