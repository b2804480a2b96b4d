"""Hugging Face ``datasets`` in SQuAD's columns, from the hub or from a local file.

Rows need ``context``, ``question`` and ``answers`` (``{"text": [...], "answer_start": [...]}``
as on the hub, or a list of ``{"text", "answer_start"}``); ``id`` and ``title`` are optional.
Rows are grouped into one document per distinct (title, context), then read exactly as a
SQuAD-format file (``chunkviz.datasets.squad``): the first answer is the question's answer.

``datasets`` is imported inside the function, so ``import chunkviz`` never loads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from chunkviz.datasets.base import Dataset
from chunkviz.datasets.squad import build_squad
from chunkviz.errors import DatasetError, Message, MissingDependencyError, Whole
from chunkviz.textio import check_regular_file

#: ``hf:<builder>:PATH`` reads a local file with ``datasets``'s packaged loader of that format.
LOCAL_BUILDERS = ("json", "csv", "parquet")
DEFAULT_SPLIT = "validation"
REQUIRED_COLUMNS = ("context", "question", "answers")


def parse_hub_spec(spec: str) -> tuple[str, str | None, str]:
    """``(name, data_files, split)`` for the part of a dataset spec after ``hf:``.

    ``json:PATH`` (``csv``, ``parquet``) gives ``(builder, PATH, "train")``; ``NAME[:SPLIT]``
    gives ``(NAME, None, SPLIT or "validation")``.

    Raises:
        DatasetError: An empty name or path.
    """
    head, sep, rest = spec.partition(":")
    if head in LOCAL_BUILDERS:
        if not rest:
            raise DatasetError("hub_no_file", spec=Whole(spec), builder=head)
        return head, rest, "train"
    if not head:
        raise DatasetError("hub_no_name", spec=Whole(spec))
    return head, None, (rest or DEFAULT_SPLIT) if sep else DEFAULT_SPLIT


def load_hub(spec: str, *, cache_dir: str | Path | None = None) -> Dataset:
    """Load ``NAME[:SPLIT]`` from the hub or ``json:PATH`` from disk through ``datasets``.

    Args:
        spec: What follows ``hf:`` in a dataset spec.
        cache_dir: ``datasets``'s cache folder (its default when None).

    Raises:
        MissingDependencyError: ``datasets`` is not installed.
        DatasetError: The hub cannot be reached (offline, ``HF_HUB_OFFLINE=1``), the dataset,
            split or file does not exist, or the rows lack SQuAD's columns.
    """
    name, data_files, split = parse_hub_spec(spec)
    try:
        import datasets
    except ImportError:
        raise MissingDependencyError("hub_not_installed") from None
    if data_files is not None:
        # datasets opens the file itself: refuse here what the project's reader refuses.
        check_regular_file(data_files, error=DatasetError)
    try:
        rows = datasets.load_dataset(
            name,
            data_files=data_files,
            split=split,
            cache_dir=None if cache_dir is None else str(cache_dir),
        )
    except (OSError, ValueError) as exc:
        # ConnectionError (offline / unreachable hub), FileNotFoundError and
        # DatasetNotFoundError (no such dataset), ValueError (unknown split, bad file).
        where = Whole(data_files) if data_files else Message("where_hub", name=name, split=split)
        raise DatasetError(
            "hub_load", spec=Whole(spec), where=where, kind=type(exc).__name__, reason=str(exc)
        ) from None
    missing = [c for c in REQUIRED_COLUMNS if c not in rows.column_names]
    if missing:
        raise DatasetError(
            "hub_column",
            spec=Whole(spec),
            column=missing[0],
            columns=list(rows.column_names),
            required=list(REQUIRED_COLUMNS),
        )
    label = Path(data_files).name if data_files else f"{name}:{split}"
    return build_squad(rows_to_squad(rows, name=label), name=label)


def rows_to_squad(rows: Iterable[Mapping[str, Any]], *, name: str) -> dict[str, Any]:
    """SQuAD-format JSON from flat rows, one paragraph per distinct (title, context).

    Raises:
        DatasetError: A row's ``answers`` is in neither accepted layout.
    """
    articles: dict[str, dict[str, dict[str, Any]]] = {}
    for i, row in enumerate(rows):
        title = str(row.get("title") or "")
        context = str(row["context"])
        paragraph = articles.setdefault(title, {}).setdefault(
            context, {"context": context, "qas": []}
        )
        paragraph["qas"].append(
            {
                "id": str(row.get("id") or f"row{i}"),
                "question": str(row["question"]),
                "answers": _answers(row["answers"], row=i, name=name),
            }
        )
    return {
        "data": [
            {"title": title or f"article {k}", "paragraphs": list(paragraphs.values())}
            for k, (title, paragraphs) in enumerate(articles.items())
        ]
    }


def _answers(value: Any, *, row: int, name: str) -> list[dict[str, Any]]:
    if (
        isinstance(value, Mapping)
        and "text" in value
        and "answer_start" in value
        and len(value["text"]) == len(value["answer_start"])
    ):
        return [
            {"text": t, "answer_start": s}
            for t, s in zip(value["text"], value["answer_start"], strict=True)
        ]
    if isinstance(value, list) and all(
        isinstance(a, Mapping) and "text" in a and "answer_start" in a for a in value
    ):
        return [dict(a) for a in value]
    raise DatasetError("hub_answers", file=name, row=row, value=str(value))
