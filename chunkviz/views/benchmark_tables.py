"""Markdown tables of a benchmark run: the Benchmark page and ``chunkviz bench`` print the same.

Pure string building from the ``chunkviz.views`` values of a run, so tests can read them. Column
names come from the catalogue in the reader's language (the command line's is English).
"""

from __future__ import annotations

from collections.abc import Sequence

from chunkviz.eval.measures import metric_label
from chunkviz.eval.stats import Replication
from chunkviz.text import Lang, text
from chunkviz.views.main_table import Cell, TableRow
from chunkviz.views.markup import escape_markdown
from chunkviz.views.numbers import format_bytes
from chunkviz.views.retests import SensitivityRow
from chunkviz.views.run_list import RunSummary
from chunkviz.views.sentences import outcome_text
from chunkviz.views.significance import Matrix

TIED_MARK = "▲"


def encode_time_text(seconds: float, lang: Lang) -> str:
    """An encode time as a reader should take it: seconds, or that nothing was encoded.

    The runner charges a configuration only for texts it encoded itself (``encode_stage``): a
    configuration whose vectors all came from the embedding cache, or from a configuration
    before it, is charged exactly 0. That is "nothing was encoded", not "encoding is free", so
    it reads ``— (cached)``; a real time below the printed precision reads ``< 0.01 s``.
    """
    if seconds <= 0:
        return text(lang, "benchmark.encode_none")
    return "< 0.01 s" if seconds < 0.005 else f"{seconds:.2f} s"


def cell_text(cell: Cell) -> str:
    """``0.917 [0.826, 1.000]``: bold for a clear best, ``▲`` for the tied group at the top."""
    mean = f"{cell.mean:.3f}"
    if cell.best:
        mean = f"**{mean}**"
    elif cell.tied:
        mean = f"{mean} {TIED_MARK}"
    # NOTE: a no-break space inside the interval: a narrow column wraps between the mean and its
    # interval, never inside the interval.
    return f"{mean} [{cell.ci_low:.3f},\u00a0{cell.ci_high:.3f}]"


def _headers(lang: Lang, *keys: str) -> list[str]:
    return [text(lang, f"benchmark.{key}") for key in keys]


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], right_from: int = 1) -> str:
    align = ["---" if i < right_from else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main_table_markdown(
    rows: Sequence[TableRow], lang: Lang, encode_key: str = "col_encode"
) -> str:
    """The main table.

    Metrics with 95% CIs (a clear best in bold, a tied top group marked), chunks, index size,
    encode time (``encode_key`` names its header: index build time for a lexical backend) and
    questions lost before retrieval.
    """
    metrics = list(rows[0].cells) if rows else []
    first, *rest = _headers(lang, "col_config", "col_chunks", "col_index", encode_key, "col_lost")
    header = [first, *(f"{metric_label(m)} [95% CI]" for m in metrics), *rest]
    body = []
    for r in rows:
        chunks = f"{r.chunks:,}"
        if r.predicted_chunks is not None and r.predicted_chunks != r.chunks:
            chunks += f" ({text(lang, 'benchmark.predicted')} {r.predicted_chunks:,})"
        body.append(
            [
                escape_markdown(r.label),
                *(cell_text(r.cells[m]) for m in metrics),
                chunks,
                format_bytes(r.index_bytes),
                encode_time_text(r.encode_seconds, lang),
                f"{r.broken:,} / {r.questions:,} ({r.broken_share:.1%})",
            ]
        )
    return _table(header, body)


def matrix_markdown(matrix: Matrix, lang: Lang) -> str:
    """Row-minus-column differences.

    ✓ marks a difference that survives the Holm correction, ≡ a pair equivalent within ±δ (and
    not significantly different), n.s. neither.
    """
    header = [*_headers(lang, "row_minus_col"), *(escape_markdown(lab) for lab in matrix.labels)]
    body = []
    for lab, cells in zip(matrix.labels, matrix.cells, strict=True):
        row = [escape_markdown(lab)]
        for c in cells:
            if c is None:
                row.append("—")
            elif c.significant:
                row.append(f"**{c.diff:+.3f} ✓**")
            elif c.equivalent:
                row.append(f"{c.diff:+.3f} ≡")
            else:
                row.append(f"{c.diff:+.3f} (n.s.)")
        body.append(row)
    return _table(header, body)


def runs_records(runs: Sequence[RunSummary], lang: Lang) -> list[dict[str, object]]:
    """The run list as records for a dataframe."""
    return [
        {
            text(lang, "benchmark.col_file"): r.path.name,
            text(lang, "benchmark.col_folder"): str(r.path.parent),
            text(lang, "benchmark.col_backend"): r.backend,
            text(lang, "benchmark.col_model"): r.model,
            text(lang, "benchmark.col_dataset"): r.dataset,
            text(lang, "benchmark.col_sample"): (
                text(lang, "benchmark.all") if r.sample == 0 else str(r.sample)
            ),
            text(lang, "benchmark.col_seed"): r.seed,
            text(lang, "benchmark.col_questions"): r.questions,
            text(lang, "benchmark.col_configs"): r.configs,
            text(lang, "benchmark.col_date"): r.created,
        }
        for r in runs
    ]


def sensitivity_markdown(rows: Sequence[SensitivityRow], names: Sequence[str], lang: Lang) -> str:
    """Pairs whose outcome depends on a definition: the main outcome, then one per definition.

    A cell is bold where the definition changes the outcome.
    """
    header = _headers(lang, "col_pair", "col_main", *(f"def_{n}" for n in names))
    body = []
    for r in rows:
        cells = [
            escape_markdown(f"{r.a} vs {r.b}"),
            escape_markdown(outcome_text(r.main, r.a, r.b, r.delta, lang)),
        ]
        for n in names:
            o = r.under.get(n)
            shown = "—" if o is None else escape_markdown(outcome_text(o, r.a, r.b, r.delta, lang))
            cells.append(f"**{shown}**" if o is not None and o != r.main else shown)
        body.append(cells)
    return _table(header, body, right_from=len(header))


def replication_markdown(reps: Sequence[Replication], lang: Lang) -> str:
    """Every pair with a conclusion on either question set: both outcomes and whether it holds."""
    header = _headers(lang, "col_pair", "col_this", "col_other", "col_holds")
    body = [
        [
            escape_markdown(f"{r.a} vs {r.b}"),
            escape_markdown(outcome_text(r.first, r.a, r.b, None, lang)),
            escape_markdown(outcome_text(r.second, r.a, r.b, None, lang)),
            text(lang, f"benchmark.rep_{r.status}"),
        ]
        for r in reps
        if r.status != "neither"
    ]
    return _table(header, body, right_from=len(header))
