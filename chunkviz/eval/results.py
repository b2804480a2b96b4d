"""Reading and writing the results file of a benchmark run.

The file is declared once, as structs, in ``chunkviz.eval.results_schema`` (documented field by
field in ``docs/results-schema.md``, its JSON Schema in ``docs/results-schema.json``);
``chunkviz.eval.results_checks`` holds the rules between fields. This module reads a file
through both: its size bounded before any work, decoded and typed by msgspec in one pass, then
checked; every failure is one ``ResultsFileError`` naming the file, the field
(``configs[2].chunks``), its value, the rule and the fix.

``save_results`` writes ``<run_id>.json`` atomically and never replaces a file that holds another
run; ``check_writable`` proves an output folder usable before any work; ``list_results`` lists the
files of some folders, each either readable or unreadable with its reason.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from chunkviz.atomic import cause, write_atomically
from chunkviz.errors import Message, ResultsFileError, Whole
from chunkviz.eval.grid import Config
from chunkviz.eval.pairwise import PairwiseResult
from chunkviz.eval.results_checks import MEAN_TOLERANCE, check_results
from chunkviz.eval.results_errors import parse_small, problem, shown_where
from chunkviz.eval.results_schema import (
    QUESTIONS_KINDS,
    READABLE_VERSIONS,
    SCHEMA,
    SCHEMA_VERSION,
    BackendRecord,
    BenchmarkRun,
    Budget,
    ConfigRecord,
    DatasetRecord,
    NdcgAll,
    QuestionsKind,
    QuestionsSource,
    Results,
    Retrieval,
    Sensitivity,
    StatsSettings,
    Timings,
)
from chunkviz.retrieval.cache import ENV_VAR, default_cache_dir
from chunkviz.textio import MAX_BYTES, loads_json, read_file_bytes, shown_path

__all__ = [
    "MEAN_TOLERANCE",
    "QUESTIONS_KINDS",
    "READABLE_VERSIONS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "VOLATILE",
    "BackendRecord",
    "BenchmarkRun",
    "Budget",
    "ConfigRecord",
    "DatasetRecord",
    "Listed",
    "NdcgAll",
    "PairwiseResult",
    "QuestionsKind",
    "QuestionsSource",
    "Results",
    "Retrieval",
    "Sensitivity",
    "StatsSettings",
    "Timings",
    "check_cache_writable",
    "check_writable",
    "list_results",
    "load_results",
    "results_from_dict",
    "results_from_json",
    "results_to_dict",
    "results_to_json",
    "run_id",
    "save_results",
    "settings_hash",
]

#: Fields that differ between two runs of the same inputs (the clock and the machine).
VOLATILE = ("created", "timings", "versions")
#: The end of every message about a damaged file (``error.fix_results``).
FIX = Message("fix_results")
#: What a results file is called when its reader names no file.
RESULTS = Message("where_results")
_UTF8_BOM = b"\xef\xbb\xbf"


# --------------------------------------------------------------------------- reading


class _Header(msgspec.Struct):
    """What decides whether the rest is read, and as which version."""

    schema: Any = None
    schema_version: Any = None


def _unreadable(problem: Message | str) -> ResultsFileError:
    """A results file that breaks a rule: ``problem``, then the one fix (``FIX``).

    The catalogue words the frame, the fix and a ``Message`` problem in the reader's language.
    A plain ``str`` problem is what ``results_errors.problem`` words from the file's JSON
    Schema when msgspec refuses a field (a field path and its rule, English like the schema):
    it stays as written, shown whole; the values in it are bounded where it is worded.
    """
    return ResultsFileError(
        "results_file", problem=problem if isinstance(problem, Message) else Whole(problem)
    )


def results_from_json(text: str | bytes, where: str = RESULTS) -> Results:
    """Decode, type and check a results file's text.

    Raises:
        ResultsFileError: Too large, not JSON, not a results file, a version this chunkviz
            does not read, or a field that breaks its rule: one message naming ``where``, the
            field, its value, the rule and the fix.
    """
    raw = text.encode("utf-8") if isinstance(text, str) else text
    if len(raw) > MAX_BYTES:  # before any work: a hostile file is refused unread
        raise _unreadable(
            Message("results_too_large", where=shown_where(where), size=len(raw), max=MAX_BYTES)
        )
    raw = raw.removeprefix(_UTF8_BOM)
    try:
        header = msgspec.json.decode(raw, type=_Header)
    except msgspec.ValidationError:  # a subclass of DecodeError: first
        header = _Header()  # not an object
    except msgspec.DecodeError:
        raise _not_json(raw, where) from None
    except RecursionError:
        raise _unreadable(Message("results_too_deep", where=shown_where(where))) from None
    _check_header(header, where)
    try:
        data = msgspec.json.decode(raw, type=Results)
    except msgspec.ValidationError as exc:  # a subclass of DecodeError: first
        raise _unreadable(problem(exc, lambda: parse_small(raw), where)) from None
    except msgspec.DecodeError:
        raise _not_json(raw, where) from None
    except RecursionError:
        raise _unreadable(Message("results_too_deep", where=shown_where(where))) from None
    return _checked(data, where)


def results_from_dict(data: Any, where: str = RESULTS) -> Results:
    """Type and check parsed JSON (``json.loads`` of a results file) like ``results_from_json``.

    Raises:
        ResultsFileError: As ``results_from_json``.
    """
    try:
        header = msgspec.convert(data, _Header)
    except msgspec.ValidationError:
        header = _Header()  # not an object
    _check_header(header, where)
    try:
        decoded = msgspec.convert(data, Results)
    except msgspec.ValidationError as exc:
        raise _unreadable(problem(exc, lambda: copy.deepcopy(data), where)) from None
    except RecursionError:
        raise _unreadable(Message("results_too_deep", where=shown_where(where))) from None
    return _checked(decoded, where)


def _check_header(header: _Header, where: str) -> None:
    if header.schema != SCHEMA:
        raise ResultsFileError("results_not_ours", where=shown_where(where), schema=SCHEMA)
    if header.schema_version not in READABLE_VERSIONS:
        readable = ", ".join(map(str, READABLE_VERSIONS))
        raise ResultsFileError(
            "results_version",
            where=shown_where(where),
            version=repr(header.schema_version),
            readable=readable,
        )


def _checked(data: Results, where: str) -> Results:
    try:
        check_results(data)
    except ResultsFileError as exc:
        raise _unreadable(
            Message("results_at", where=shown_where(where), problem=exc.message)
        ) from None
    return data


def _not_json(raw: bytes, where: str) -> ResultsFileError:
    """Why msgspec could not parse ``raw``, as the project's JSON reader words it."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _unreadable(Message("results_not_utf8", where=shown_where(where), reason=str(exc)))
    try:
        loads_json(text, where, error=ResultsFileError, parse_constant=_reject_constant, fix=FIX)
    except ResultsFileError as exc:
        return exc
    return _unreadable(Message("results_not_json", where=shown_where(where)))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


# --------------------------------------------------------------------------- writing


def results_to_dict(results: Results) -> dict[str, Any]:
    """Plain JSON-ready data, in the file's field order (``results_from_dict`` reads it back)."""
    data: dict[str, Any] = msgspec.json.decode(results_to_json(results))  # lists, not tuples
    return data


def results_to_json(results: Results) -> str:
    """The file's text: compact JSON, UTF-8 characters as they are."""
    return results.to_json()


# --------------------------------------------------------------------------- run ids


def settings_hash(settings: Mapping[str, Any]) -> str:
    """Eight hex digits of SHA-256 over the canonical JSON of ``settings``."""
    blob = json.dumps(settings, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:8]


def run_id(
    *,
    dataset: str,
    spec: str,
    backend: str,
    model: str,
    measure: str,
    sample: int,
    seed: int,
    configs: Sequence[Config],
    ks: Sequence[int],
    budget_chars: int,
    alpha: float,
    bootstrap: int,
    permutations: int,
    unit: str = "question",
    margins: Mapping[str, float] | None = None,
) -> str:
    """The file stem of a run: readable names, then a hash of everything that changes the result.

    ``jsquad-bm25-all-s0-1a2b3c4d``: dataset, backend, sample (``all`` or ``n500``), seed, and the
    hash of the dataset spec, backend and model, measure, grid (labels, strategies and
    parameters), the curves' cut-offs, the budget and the statistics settings (the unit of
    resampling and the equivalence margins included). Two runs that
    differ in any of them get different ids; two runs of the same inputs get the same id.
    """
    settings = {
        "schema_version": SCHEMA_VERSION,
        "spec": spec,
        "backend": backend,
        "model": model,
        "measure": measure,
        "sample": sample,
        "seed": seed,
        "grid": [c.as_dict() for c in configs],
        "ks": list(ks),
        "budget_chars": budget_chars,
        "alpha": alpha,
        "bootstrap": bootstrap,
        "permutations": permutations,
        "unit": unit,
        "margins": dict(sorted((margins or {}).items())),
    }
    # Cut: a document's name may be 244 characters, and the file name must fit NAME_MAX with
    # room to spare (``check_writable`` proves a name of ``MAX_RUN_ID`` characters fits).
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{dataset}-{backend}").strip("_")[:_MAX_SLUG]
    return f"{slug}-{'all' if sample == 0 else f'n{sample}'}-s{seed}-{settings_hash(settings)}"


# --------------------------------------------------------------------------- files


_MAX_SLUG = 80
#: Longest run id: the slug, ``-n<sample>-s<seed>-`` and the hash.
MAX_RUN_ID = _MAX_SLUG + len("-n10000000-s4294967295-") + 16


def check_writable(out_dir: str | Path, option: str = "--out") -> Path:
    """Create ``out_dir`` if needed and prove a file can be written there (before any work).

    Args:
        out_dir: The folder.
        option: What to call it in the message (``--out``, ``CHUNKVIZ_CACHE_DIR``).

    Raises:
        ResultsFileError: The folder cannot be created or written.
    """
    folder = Path(out_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # A name as long as the longest run id: a folder whose path leaves no room for the file
        # is refused now, not after the run.
        prefix = ".chunkviz-write-test-".ljust(MAX_RUN_ID, "x")
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".json")
        os.close(fd)
        Path(tmp).unlink()
    except OSError as exc:
        # The real cause: a read-only folder was once told to use "a shorter path".
        raise ResultsFileError(
            "folder_unwritable", path=Whole(f"{option} {shown_path(folder)}"), cause=cause(exc)
        ) from None
    return folder


def check_cache_writable(cache_dir: str | Path | None, kind: str) -> None:
    """Prove the embedding cache writable before a run that encodes (a lexical one does not).

    Args:
        cache_dir: ``--cache-dir``, or None for the default (``$CHUNKVIZ_CACHE_DIR``'s).
        kind: The backend's kind (``lexical``, ``dense``, ...).

    Raises:
        ResultsFileError: The folder cannot be created or written; the message names where
            it came from (``--cache-dir`` or the environment variable).
    """
    if kind == "lexical":
        return
    check_writable(
        cache_dir or default_cache_dir(),
        "--cache-dir" if cache_dir else f"the embedding cache (${ENV_VAR}/embeddings)",
    )


def _comparable(results: Results) -> dict[str, Any]:
    data = results_to_dict(results)
    for key in VOLATILE:
        data.pop(key, None)
    for c in data["configs"]:
        c.pop("encode_seconds")
    return data


def save_results(results: Results, out_dir: str | Path) -> Path:
    """Write ``out_dir/<run_id>.json`` atomically; returns the path.

    A file already there is replaced only when it holds the same run (equal apart from the
    clock, the machine and the measured times).

    Raises:
        ResultsFileError: The folder cannot be written, or a file with this id holds other
            contents (unreadable, or another run).
    """
    folder = check_writable(out_dir)
    path = folder / f"{results.run_id}.json"
    if path.exists():
        try:
            old = load_results(path)
        except ResultsFileError as exc:
            raise ResultsFileError(
                "results_exists_unreadable", path=Whole(str(path)), problem=exc.message
            ) from None
        if _comparable(old) != _comparable(results):
            raise ResultsFileError("results_exists_other", path=Whole(str(path)))
    blob = results_to_json(results).encode("utf-8")
    # What is written must read back: msgspec writes a NaN as null, which reading refuses.
    results_from_json(blob, Message("where_run_to_save", run_id=results.run_id))
    write_atomically(path, blob, "--out")
    return path


def load_results(path: str | Path) -> Results:
    """Read and check a results file.

    Raises:
        ResultsFileError: Missing, not JSON, not a chunkviz results file, another version, or a
            field that breaks its rule (the message names it).
    """
    p = Path(path)
    if not p.exists():
        raise ResultsFileError("results_missing", path=Whole(str(p)))
    raw = read_file_bytes(p, error=ResultsFileError)
    return results_from_json(raw, Message("where_results_file", path=Whole(str(p))))


@dataclass(frozen=True, slots=True)
class Listed:
    """One ``*.json`` file of a results folder.

    Attributes:
        path: The file.
        results: The run (None when unreadable).
        error: Why it cannot be used ("" when readable).
    """

    path: Path
    results: Results | None
    error: Message


def list_results(dirs: Iterable[str | Path]) -> list[Listed]:
    """Every ``*.json`` file in ``dirs`` (missing folders skipped), readable or with its reason.

    One damaged file is listed with its error; the others are read as usual.
    """
    out = []
    for d in dirs:
        folder = Path(d)
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.json")):
            try:
                out.append(Listed(path, load_results(path), Message.empty()))
            except ResultsFileError as exc:
                out.append(Listed(path, None, exc.message))
    return out
