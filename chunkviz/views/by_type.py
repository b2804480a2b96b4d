"""Markdown of the by-type breakdown (``chunkviz.eval.by_type``) for the Benchmark page.

A type is shown in the reader's language when the catalogue knows it (JaQuAD's ten labels,
``by_type.t_<slug>``), else as the dataset wrote it, escaped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from chunkviz.eval.by_type import TypeComparison, TypeMetric
from chunkviz.eval.stats import PairwiseResult, format_p
from chunkviz.text import Lang, has, text
from chunkviz.views.markup import escape_markdown
from chunkviz.views.sentences import outcome_text


def type_slug(value: str) -> str:
    """``Lexical variation (world knowledge)`` -> ``lexical_variation_world_knowledge``."""
    return re.sub(r"[^a-z0-9]+", "_", value.lower()).strip("_")


def type_text(lang: Lang, value: str) -> str:
    """A type label in ``lang``: the catalogue's name for a known type, else the label itself."""
    key = f"by_type.t_{type_slug(value)}"
    return text(lang, key) if has(lang, key) else value


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    align = ["---", *("---:" for _ in header[1:])]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def _type_cell(lang: Lang, value: str) -> str:
    """A type label for a Markdown cell (escaped)."""
    return escape_markdown(type_text(lang, value))


def _type_header(lang: Lang, rows: Sequence[TypeMetric]) -> list[str]:
    return [
        text(lang, "by_type.col_config"),
        *(
            text(lang, "by_type.col_type_n", type=_type_cell(lang, r.type), n=r.questions)
            for r in rows
        ),
    ]


def metric_markdown(rows: Sequence[TypeMetric], labels: Sequence[str], lang: Lang) -> str:
    """Configurations as rows, types as columns: mean [95% CI]; each type's best in bold."""
    best = {r.type: max(e.mean for e in r.estimates.values()) for r in rows if r.estimates}
    body = []
    for lab in labels:
        cells = [escape_markdown(lab)]
        for r in rows:
            if not r.estimates:
                cells.append(text(lang, "by_type.too_few"))
                continue
            e = r.estimates[lab]
            mean = f"**{e.mean:.3f}**" if e.mean == best[r.type] else f"{e.mean:.3f}"
            cells.append(f"{mean} [{e.ci_low:.3f},\u00a0{e.ci_high:.3f}]")
        body.append(cells)
    return _table(_type_header(lang, rows), body)


def lost_markdown(rows: Sequence[TypeMetric], labels: Sequence[str], lang: Lang) -> str:
    """Answers of each type no chunk holds whole, per configuration (count and share)."""
    body = [
        [
            escape_markdown(lab),
            *(f"{r.lost[lab]:,} ({r.lost[lab] / r.questions:.1%})" for r in rows),
        ]
        for lab in labels
    ]
    return _table(_type_header(lang, rows), body)


def comparison_markdown(items: Sequence[TypeComparison], lang: Lang) -> str:
    """One pair by type: both means' difference with its interval, Holm p across the types."""
    header = [
        text(lang, "by_type.col_type"),
        text(lang, "by_type.col_questions"),
        text(lang, "by_type.col_diff"),
        text(lang, "by_type.col_p"),
        text(lang, "by_type.col_outcome"),
    ]
    body = []
    for item in items:
        r = item.result
        body.append(
            [
                _type_cell(lang, item.type),
                f"{item.questions:,}",
                f"{r.diff:+.3f} [{r.ci_low:+.3f},\u00a0{r.ci_high:+.3f}]",
                format_p(r.p_holm, bound=r.p_holm_bound),
                escape_markdown(outcome_text(r.outcome, r.a, r.b, r.delta, lang)),
            ]
        )
    return _table(header, body)


def loss_lines(
    losses: Sequence[tuple[str, str, PairwiseResult]], label: str, lang: Lang
) -> list[str]:
    """One sentence per (type, configuration) that beats ``label`` on that type."""
    return [
        text(
            lang,
            "by_type.loss",
            config=label,
            type=type_text(lang, t),
            other=other,
            diff=f"{r.diff:+.3f}",
            low=f"{r.ci_low:+.3f}",
            high=f"{r.ci_high:+.3f}",
            p=format_p(r.p_holm, bound=r.p_holm_bound),
        )
        for t, other, r in losses
    ]
