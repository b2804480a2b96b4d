"""Question/answer pairs as plain values: their columns, and where an answer occurs in a text.

The leaf under ``chunkviz.document`` (a document's own questions) and
``chunkviz.datasets.qa_pairs`` (a user's pairs file): it imports neither, so neither imports the
other through it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chunkviz.errors import DatasetError
from chunkviz.tokenizers import without_surrogates

#: The columns every pair needs; ``document`` is optional.
REQUIRED = ("question", "answer")
_ALIASES = {"質問": "question", "回答": "answer", "答え": "answer", "文書": "document"}


def occurrences(text: str, needle: str) -> list[int]:
    """Start of every occurrence of ``needle`` in ``text``, overlapping ones included."""
    if not needle:
        return []
    found = []
    i = text.find(needle)
    while i != -1:
        found.append(i)
        i = text.find(needle, i + 1)
    return found


def normalize_pairs(pairs: Sequence[Any], *, name: str = "qa pairs") -> list[dict[str, str]]:
    """Pairs as ``{"question", "answer", "document"}`` dicts of stripped strings.

    Raises:
        DatasetError: A pair is not a mapping or lacks ``question`` or ``answer``.
    """
    out = []
    for row, pair in enumerate(pairs, start=1):
        if not isinstance(pair, Mapping):
            raise DatasetError("qa_pair_type", file=name, row=row, kind=type(pair).__name__)
        keys = {_ALIASES.get(str(k).strip(), str(k).strip().lower()): v for k, v in pair.items()}
        for key in REQUIRED:
            if key not in keys:
                raise DatasetError(
                    "qa_missing_column", file=name, row=row, column=key, found=sorted(keys)
                )
        # A JSON "\\ud800" is a lone surrogate, which nothing downstream can encode as UTF-8.
        out.append(
            {
                k: "" if keys.get(k) is None else without_surrogates(str(keys[k])).strip()
                for k in (*REQUIRED, "document")
            }
        )
    return out
