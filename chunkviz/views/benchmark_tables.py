"""Markdown tables of a benchmark run: the Benchmark page and ``chunkviz bench`` print the same.

Pure string building from ``chunkviz.views.dashboard`` values, so tests can read them. Column
names come from a translation function (the page's catalogue); ``ENGLISH`` is the command line's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chunkviz.views.dashboard import Cell, Matrix, RunSummary, TableRow, format_bytes, metric_label
from chunkviz.views.markup import escape_markdown

Tr = Callable[[str], str]

#: Column names for the command line (the page passes its own translated ones).
ENGLISH: dict[str, str] = {
    "col_config": "Configuration",
    "col_chunks": "Chunks",
    "col_index": "Index size",
    "col_encode": "Encode time",
    "col_lost": "Lost before retrieval",
    "predicted": "formula:",
    "row_minus_col": "row − column",
}


def cell_text(cell: Cell) -> str:
    """``0.917 [0.826, 1.000]``, the mean in bold when it is the column's best."""
    mean = f"{cell.mean:.3f}"
    if cell.best:
        mean = f"**{mean}**"
    return f"{mean} [{cell.ci_low:.3f}, {cell.ci_high:.3f}]"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], right_from: int = 1) -> str:
    align = ["---" if i < right_from else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main_table_markdown(rows: Sequence[TableRow], t: Tr) -> str:
    """The main table.

    Metrics with 95% CIs (best in bold), chunks, index size, encode time and questions lost
    before retrieval.
    """
    metrics = list(rows[0].cells) if rows else []
    header = [t("col_config"), *(f"{metric_label(m)} [95% CI]" for m in metrics),
              t("col_chunks"), t("col_index"), t("col_encode"), t("col_lost")]
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
            f"{r.encode_seconds:.2f} s",
            f"{r.broken:,} / {r.questions:,} ({r.broken_share:.1%})",
        ])
    return _table(header, body)


def matrix_markdown(matrix: Matrix, t: Tr) -> str:
    """Row-minus-column differences; a ✓ marks those that survive the Holm correction."""
    header = [t("row_minus_col"), *(escape_markdown(lab) for lab in matrix.labels)]
    body = []
    for lab, cells in zip(matrix.labels, matrix.cells, strict=True):
        row = [escape_markdown(lab)]
        for c in cells:
            if c is None:
                row.append("—")
            elif c.significant:
                row.append(f"**{c.diff:+.3f} ✓**")
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
