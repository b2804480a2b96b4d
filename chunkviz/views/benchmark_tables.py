"""Markdown tables of a benchmark run: the Benchmark page and ``chunkviz bench`` print the same.

Pure string building from ``chunkviz.views.dashboard`` values, so tests can read them. Column
names come from a translation function (the page's catalogue); ``ENGLISH`` is the command line's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chunkviz.eval.stats import Replication
from chunkviz.views.dashboard import (
    Cell,
    Lang,
    Matrix,
    RunSummary,
    SensitivityRow,
    TableRow,
    format_bytes,
    metric_label,
    outcome_text,
)
from chunkviz.views.markup import escape_markdown

Tr = Callable[[str], str]

#: Column names for the command line (the page passes its own translated ones).
ENGLISH: dict[str, str] = {
    "col_config": "Configuration",
    "col_chunks": "Chunks",
    "col_index": "Index size",
    "col_encode": "Encode time",
    "col_index_build": "Index build",
    "encode_none": "— (cached)",
    "col_lost": "Lost before retrieval",
    "predicted": "formula:",
    "row_minus_col": "row − column",
}

#: Wide Markdown tables scroll inside their own box instead of widening the page: at 390 px the
#: main table needs about 700 px, and the page itself must not scroll sideways. The page hands
#: this to ``st.html`` once per run.
RESPONSIVE_TABLES_CSS = (
    "<style>[data-testid='stMarkdownContainer'] table"
    "{display:block;max-width:100%;overflow-x:auto;}</style>"
)

TIED_MARK = "▲"


def encode_time_text(seconds: float, t: Tr) -> str:
    """An encode time as a reader should take it: seconds, or that nothing was encoded.

    The runner charges a configuration only for texts it encoded itself (``encode_stage``): a
    configuration whose vectors all came from the embedding cache, or from a configuration
    before it, is charged exactly 0. That is "nothing was encoded", not "encoding is free", so
    it reads ``— (cached)``; a real time below the printed precision reads ``< 0.01 s``.
    """
    if seconds <= 0:
        return t("encode_none")
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


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], right_from: int = 1) -> str:
    align = ["---" if i < right_from else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main_table_markdown(rows: Sequence[TableRow], t: Tr, encode_key: str = "col_encode") -> str:
    """The main table.

    Metrics with 95% CIs (a clear best in bold, a tied top group marked), chunks, index size,
    encode time (``encode_key`` names its header: index build time for a lexical backend) and
    questions lost before retrieval.
    """
    metrics = list(rows[0].cells) if rows else []
    header = [t("col_config"), *(f"{metric_label(m)} [95% CI]" for m in metrics),
              t("col_chunks"), t("col_index"), t(encode_key), t("col_lost")]
    body = []
    for r in rows:
        chunks = f"{r.chunks:,}"
        if r.predicted_chunks is not None and r.predicted_chunks != r.chunks:
            chunks += f" ({t('predicted')} {r.predicted_chunks:,})"
        body.append([
            escape_markdown(r.label),
            *(cell_text(r.cells[m]) for m in metrics),
            chunks,
            format_bytes(r.index_bytes),
            encode_time_text(r.encode_seconds, t),
            f"{r.broken:,} / {r.questions:,} ({r.broken_share:.1%})",
        ])
    return _table(header, body)


def matrix_markdown(matrix: Matrix, t: Tr) -> str:
    """Row-minus-column differences.

    ✓ marks a difference that survives the Holm correction, ≡ a pair equivalent within ±δ (and
    not significantly different), n.s. neither.
    """
    header = [t("row_minus_col"), *(escape_markdown(lab) for lab in matrix.labels)]
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


def runs_records(runs: Sequence[RunSummary], t: Tr) -> list[dict[str, object]]:
    """The run list as records for a dataframe."""
    return [
        {
            t("col_file"): r.path.name,
            t("col_folder"): str(r.path.parent),
            t("col_backend"): r.backend,
            t("col_model"): r.model,
            t("col_dataset"): r.dataset,
            t("col_sample"): t("all") if r.sample == 0 else str(r.sample),
            t("col_seed"): r.seed,
            t("col_questions"): r.questions,
            t("col_configs"): r.configs,
            t("col_date"): r.created,
        }
        for r in runs
    ]


def sensitivity_markdown(rows: Sequence[SensitivityRow], names: Sequence[str], t: Tr,
                         lang: Lang) -> str:
    """Pairs whose outcome depends on a definition: the main outcome, then one per definition.

    A cell is bold where the definition changes the outcome.
    """
    header = [t("col_pair"), t("col_main"), *(t(f"def_{n}") for n in names)]
    body = []
    for r in rows:
        cells = [escape_markdown(f"{r.a} vs {r.b}"),
                 escape_markdown(outcome_text(r.main, r.a, r.b, r.delta, lang))]
        for n in names:
            o = r.under.get(n)
            text = "—" if o is None else escape_markdown(outcome_text(o, r.a, r.b, r.delta, lang))
            cells.append(f"**{text}**" if o is not None and o != r.main else text)
        body.append(cells)
    return _table(header, body, right_from=len(header))


def replication_markdown(reps: Sequence[Replication], t: Tr, lang: Lang) -> str:
    """Every pair with a conclusion on either question set: both outcomes and whether it holds."""
    header = [t("col_pair"), t("col_this"), t("col_other"), t("col_holds")]
    body = [
        [escape_markdown(f"{r.a} vs {r.b}"),
         escape_markdown(outcome_text(r.first, r.a, r.b, None, lang)),
         escape_markdown(outcome_text(r.second, r.a, r.b, None, lang)),
         t(f"rep_{r.status}")]
        for r in reps if r.status != "neither"
    ]
    return _table(header, body, right_from=len(header))
