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
from chunkviz.eval.results_checks import (
    MEAN_TOLERANCE,
    PAIRWISE_METRICS,
    RANK_METRICS,
    SPAN_METRICS,
    check_results,
)
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
    PairwiseRow,
    QuestionsKind,
    QuestionsSource,
    Results,
    ResultsFile,
    Retrieval,
    Sensitivity,
    StatsSettings,
    Timings,
    from_file,
    results_json_schema,
)
from chunkviz.retrieval.cache import ENV_VAR, default_cache_dir
from chunkviz.textio import MAX_BYTES, loads_json, read_file_bytes, shown_path

__all__ = [
    "MEAN_TOLERANCE", "PAIRWISE_METRICS", "QUESTIONS_KINDS", "RANK_METRICS", "READABLE_VERSIONS",
    "SCHEMA", "SCHEMA_VERSION", "SPAN_METRICS", "VOLATILE", "BackendRecord", "BenchmarkRun",
    "Budget", "ConfigRecord", "DatasetRecord", "Listed", "NdcgAll", "PairwiseRow",
    "QuestionsKind", "QuestionsSource", "Results", "ResultsFile", "Retrieval", "Sensitivity",
    "StatsSettings", "Timings", "check_cache_writable", "check_writable", "list_results",
    "load_results", "results_from_dict", "results_from_json", "results_to_dict",
    "results_to_json", "run_id", "save_results", "settings_hash",
]

#: Fields that differ between two runs of the same inputs (the clock and the machine).
VOLATILE = ("created", "timings", "versions")
#: The end of every message about a damaged file (``error.fix_results``).
FIX = Message("fix_results")
_UTF8_BOM = b"\xef\xbb\xbf"


# --------------------------------------------------------------------------- reading


class _Header(msgspec.Struct):
    """What decides whether the rest is read, and as which version."""

    schema: Any = None
    schema_version: Any = None


def _unreadable(problem: str) -> ResultsFileError:
    """A results file that breaks a rule: ``problem``, then the one fix (``FIX``).

    The catalogue words the frame and the fix in the reader's language; the problem itself (a
    field path and its rule, English like the schema) stays as written, shown whole (a plain
    value is cut at ``VALUE_LIMIT``); the values in it are bounded where it is worded.
    """
    return ResultsFileError("results_file", problem=Whole(problem))


def results_from_json(text: str | bytes, where: str = "results") -> Results:
    """Decode, type and check a results file's text.

    Raises:
        ResultsFileError: Too large, not JSON, not a results file, a version this chunkviz
            does not read, or a field that breaks its rule: one message naming ``where``, the
            field, its value, the rule and the fix.
    """
    raw = text.encode("utf-8") if isinstance(text, str) else text
    if len(raw) > MAX_BYTES:  # before any work: a hostile file is refused unread
        raise _unreadable(f"{where} has {len(raw):,} bytes; at most {MAX_BYTES:,} are "
                          "accepted (MAX_BYTES)")
    raw = raw.removeprefix(_UTF8_BOM)
    try:
        header = msgspec.json.decode(raw, type=_Header)
    except msgspec.ValidationError:  # a subclass of DecodeError: first
        header = _Header()  # not an object
    except msgspec.DecodeError:
        raise _not_json(raw, where) from None
    except RecursionError:
        raise _unreadable(f"{where} is nested too deeply") from None
    _check_header(header, where)
    try:
        data = msgspec.json.decode(raw, type=ResultsFile)
    except msgspec.ValidationError as exc:  # a subclass of DecodeError: first
        raise _field_error(exc, lambda: _parse_small(raw), where) from None
    except msgspec.DecodeError:
        raise _not_json(raw, where) from None
    except RecursionError:
        raise _unreadable(f"{where} is nested too deeply") from None
    return _checked(data, where)


def results_from_dict(data: Any, where: str = "results") -> Results:
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
        decoded = msgspec.convert(data, ResultsFile)
    except msgspec.ValidationError as exc:
        raise _field_error(exc, lambda: copy.deepcopy(data), where) from None
    except RecursionError:
        raise _unreadable(f"{where} is nested too deeply") from None
    return _checked(decoded, where)


def _check_header(header: _Header, where: str) -> None:
    if header.schema != SCHEMA:
        raise ResultsFileError("results_not_ours", where=Whole(where), schema=SCHEMA)
    if header.schema_version not in READABLE_VERSIONS:
        readable = ", ".join(map(str, READABLE_VERSIONS))
        raise ResultsFileError("results_version", where=Whole(where),
                               version=repr(header.schema_version), readable=readable)


def _checked(data: ResultsFile, where: str) -> Results:
    try:
        check_results(data)
    except ResultsFileError as exc:
        raise _unreadable(f"{where}: {exc}") from None
    return from_file(data)


def _not_json(raw: bytes, where: str) -> ResultsFileError:
    """Why msgspec could not parse ``raw``, as the project's JSON reader words it."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _unreadable(f"{where} cannot be read as JSON ({exc})")
    try:
        loads_json(text, where, error=ResultsFileError, parse_constant=_reject_constant, fix=FIX)
    except ResultsFileError as exc:
        return exc
    return _unreadable(f"{where} is not valid JSON")


class _Digits:
    """An integer too long for Python to convert (over 4,300 digits): of no type msgspec takes."""

    def __init__(self, digits: str) -> None:
        self.digits = digits

    def __str__(self) -> str:
        return f"{self.digits[:20]}... ({len(self.digits):,} digits)"


def _int_or_digits(digits: str) -> int | _Digits:
    return int(digits) if len(digits) <= 4000 else _Digits(digits)


def _parse_small(raw: bytes) -> Any:
    """``raw`` parsed to look for a field's key, when it is small enough for that."""
    if len(raw) > _NARROW_BYTES:
        raise LookupError("too large to narrow")
    return json.loads(raw, parse_int=_int_or_digits)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


_AT = re.compile(r"^(?P<rule>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+|\.\.\.)\]")
_TYPES = {"int": "an integer", "float": "a number", "str": "text", "bool": "true or false",
          "object": "an object", "array": "a list", "null": "null"}


def _field_error(exc: msgspec.ValidationError, parse: Any, where: str) -> ResultsFileError:
    """One message from msgspec's ``Expected `int` >= 0 - at `$.configs[0].chunks```.

    The field is named in full: a mapping's key that msgspec shows as ``[...]`` is found again
    by typing the file with that mapping narrowed by halves (only on this path, only for a file
    of at most ``_NARROW_BYTES``, and at most ``_NARROW_TRIES`` times: else it stays ``[...]``).
    """
    m = _AT.match(str(exc))
    rule, path = (m.group("rule"), m.group("path") or "") if m else (str(exc), "")
    steps: list[str | int] = []
    shown = ""
    try:
        data = parse()
        steps, value = _locate(data, [s for s in _STEP.findall(path)])
        text = json.dumps(value, ensure_ascii=False, default=str)
        shown = f" (got {text if len(text) <= 60 else text[:57] + '...'})"
    except Exception:  # noqa: BLE001 - naming the key is a courtesy; the rule still stands
        steps = []
    field = _path_text(steps) if steps else path.lstrip(".") or "the top level"
    missing = re.match(r"Object missing required field `(.+)`", rule)
    if missing:
        name = f"{field}.{missing.group(1)}" if path else missing.group(1)
        return _unreadable(f"{where}: {name} is missing")
    if rule.startswith("Invalid enum value"):
        allowed = _schema_at(steps).get("enum") if steps else None
        rule = (f"Expected one of {', '.join(map(str, allowed))}" if allowed
                else "Expected one of the values docs/results-schema.md lists")
    rule = {"Integer value out of range": "Expected an integer in range",
            "Number out of range": "Expected a number in range"}.get(rule, rule)
    words = re.sub(r"`([a-z |]+)`", lambda t: " or ".join(
        _TYPES.get(w, w) for w in t.group(1).split(" | ")), rule)
    words = re.sub(r", got .*$", "", words)
    words = words.replace("Expected ", "must be ", 1)
    return _unreadable(f"{where}: {field} {words}{shown}")


#: Largest file whose mapping keys are looked for, and how many decodes that may take.
_NARROW_BYTES = 8 * 1024 * 1024
_NARROW_TRIES = 24


def _locate(data: Any, steps: list[tuple[str, str]]) -> tuple[list[str | int], Any]:
    """The full path and the value of msgspec's path ``steps`` (keys found for ``[...]``).

    Raises:
        LookupError: A key could not be found within the bounds.
    """
    out: list[str | int] = []
    node = data
    narrowed: list[tuple[dict[str, Any], dict[str, Any]]] = []
    tries = [_NARROW_TRIES]
    try:
        for name, index in steps:
            if name:
                out.append(name)
                node = node[name]
            elif index.isdigit():
                out.append(int(index))
                node = node[int(index)]
            else:
                key = _failing_key(data, node, narrowed, tries)
                out.append(key)
                node = node[key]
    finally:
        for mapping, saved in reversed(narrowed):
            mapping.clear()
            mapping.update(saved)
    return out, node


def _failing_key(root: Any, mapping: dict[str, Any],
                 narrowed: list[tuple[dict[str, Any], dict[str, Any]]], tries: list[int]) -> str:
    """The first key of ``mapping`` whose value fails to type, found by halving the keys.

    ``mapping`` is left narrowed to it, so that deeper keys are found within it; ``_locate``
    restores it. The first failing key is msgspec's: every key before it types.
    """
    saved = dict(mapping)
    narrowed.append((mapping, saved))
    keys = list(saved)
    while len(keys) > 1:
        if tries[0] <= 0:
            raise LookupError("too many tries")
        tries[0] -= 1
        half = keys[: len(keys) // 2]
        mapping.clear()
        mapping.update((k, saved[k]) for k in half)
        try:
            msgspec.convert(root, ResultsFile)
            keys = keys[len(keys) // 2:]
        except msgspec.ValidationError:
            keys = half
    mapping.clear()
    mapping[keys[0]] = saved[keys[0]]
    return keys[0]


def _schema_at(steps: Sequence[str | int]) -> dict[str, Any]:
    """The JSON Schema of the field at ``steps`` (for the values an enum allows)."""
    root = results_json_schema()

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        while True:
            if "$ref" in node:
                node = root["$defs"][node["$ref"].rsplit("/", 1)[1]]
            elif "anyOf" in node:  # the alternative that is not null
                node = next(n for n in node["anyOf"] if n.get("type") != "null")
            else:
                return node

    node = resolve(root)
    for step in steps:
        if isinstance(step, int):
            node = node["prefixItems"][step] if "prefixItems" in node else node["items"]
        elif step in node.get("properties", {}):
            node = node["properties"][step]
        else:
            node = node["additionalProperties"]
        node = resolve(node)
    return node


def _path_text(steps: Sequence[str | int]) -> str:
    text = ""
    for s in steps:
        text += f"[{s}]" if isinstance(s, int) else (f".{s}" if text else s)
    return text


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
        "schema_version": SCHEMA_VERSION, "spec": spec, "backend": backend, "model": model,
        "measure": measure, "sample": sample, "seed": seed,
        "grid": [c.as_dict() for c in configs], "ks": list(ks), "budget_chars": budget_chars,
        "alpha": alpha, "bootstrap": bootstrap, "permutations": permutations,
        "unit": unit, "margins": dict(sorted((margins or {}).items())),
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
        raise ResultsFileError("folder_unwritable", path=Whole(f"{option} {shown_path(folder)}"),
                               cause=cause(exc)) from None
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
    check_writable(cache_dir or default_cache_dir(), "--cache-dir" if cache_dir else
                   f"the embedding cache (${ENV_VAR}/embeddings)")


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
            raise ResultsFileError(f"{path} exists and is not this run ({exc}); move it away or "
                                   "choose another --out") from None
        if _comparable(old) != _comparable(results):
            raise ResultsFileError(f"{path} exists and holds another run with the same id; move "
                                   "it away or choose another --out")
    blob = results_to_json(results).encode("utf-8")
    # What is written must read back: msgspec writes a NaN as null, which reading refuses.
    results_from_json(blob, f"the run {results.run_id} to be saved")
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
    return results_from_json(raw, f"results file {p}")


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
