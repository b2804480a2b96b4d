"""Column settings of Explore's tables: headers readable at 1400 px, the full meaning in help.

Streamlit sizes a column to its cells, so a long text column (a question) squeezes the short
headers after it into "occurre…". Each table here gets fixed widths, a short header where the
full one does not fit, and the full label and its meaning as the header's help. Columns are
keyed by the labels the rows use (the catalogue's, in the UI language).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import streamlit as st

from chunkviz.text import has
from chunkviz.ui.i18n import tr
from chunkviz.views.explore import CHUNK_COLUMNS

Width = Literal["small", "medium", "large"] | int

#: QA table: column id -> width (question and answer are bounded so the counts stay readable).
QA_WIDTHS: dict[str, Width] = {
    "question": 340,
    "answer": 170,
    "status": 120,
    "in": 90,
    "cut": 90,
    "found": 60,
}
CHUNK_WIDTHS: dict[str, Width] = {
    "index": "small",
    "start": "small",
    "end": "small",
    "chars": "small",
    "tokens": "small",
    "prefix": "small",
    "preview": "large",
}


def _column(label: str, short_key: str, help_key: str, width: Width, **fields: Any) -> Any:
    header = tr(short_key) if has("en", short_key) else label
    help_text = tr(help_key, **fields) if has("en", help_key) else None
    return st.column_config.Column(header, help=help_text, width=width)


def qa_columns(ids: Sequence[str] = tuple(QA_WIDTHS)) -> dict[str, Any]:
    """``column_config`` of the QA table, keyed by its labels (``explore.col_<id>``).

    A column without a width here (one added later) is drawn small, with its full label.
    """
    return {
        tr(f"explore.col_{c}"): _column(
            tr(f"explore.col_{c}"),
            f"explore.col_short.{c}",
            f"explore.col_help.{c}",
            QA_WIDTHS.get(c, "small"),
        )
        for c in ids
    }


def chunk_columns(tokenizer: str, backend: str) -> dict[str, Any]:
    """``column_config`` of the chunk table; the tokens column's help names the tokenizer."""
    return {
        tr(f"explore.chunk_col.{c}"): _column(
            tr(f"explore.chunk_col.{c}"),
            f"explore.chunk_col_short.{c}",
            f"explore.chunk_col_help.{c}",
            CHUNK_WIDTHS[c],
            tokenizer=tokenizer,
            backend=backend,
        )
        for c in CHUNK_COLUMNS
    }
