"""Column settings of Explore's tables: headers readable at 1400 px, the full meaning in help.

Streamlit sizes a column to its cells, so a long text column (a question) squeezes the short
headers after it into "occurre…". Each table here gets fixed widths, a short header where the
full one does not fit, and the full label and its meaning as the header's help. Columns are
keyed by the labels the rows use (the catalogue's, in the UI language).
"""

from __future__ import annotations

from typing import Any, Literal

import streamlit as st

from chunkviz.text import has
from chunkviz.ui.i18n import tr
from chunkviz.views.explore import CHUNK_COLUMNS

Width = Literal["small", "medium", "large"] | int

#: QA table: column id -> width (question and answer are bounded so the counts stay readable).
QA_WIDTHS: dict[str, Width] = {"question": 340, "answer": 170, "status": 120, "in": 90,
                               "cut": 90, "found": 60}
CHUNK_WIDTHS: dict[str, Width] = {"index": "small", "start": "small", "end": "small",
                                  "chars": "small", "tokens": "small", "prefix": "small",
                                  "preview": "large"}


def _column(label: str, short_key: str, help_text: str, width: Width) -> Any:
    header = tr(short_key) if has("en", short_key) else label
    return st.column_config.Column(header, help=help_text, width=width)


def qa_columns() -> dict[str, Any]:
    """``column_config`` of the QA table, keyed by its labels (``explore.col_<id>``)."""
    return {tr(f"explore.col_{c}"): _column(tr(f"explore.col_{c}"), f"explore.col_short.{c}",
                                            tr(f"explore.col_help.{c}"), width)
            for c, width in QA_WIDTHS.items()}


def chunk_columns(tokenizer: str, backend: str) -> dict[str, Any]:
    """``column_config`` of the chunk table; the tokens column's help names the tokenizer."""
    return {tr(f"explore.chunk_col.{c}"): _column(
        tr(f"explore.chunk_col.{c}"), f"explore.chunk_col_short.{c}",
        tr(f"explore.chunk_col_help.{c}", tokenizer=tokenizer, backend=backend),
        CHUNK_WIDTHS[c]) for c in CHUNK_COLUMNS}
