"""Reading documents as text: encoding detection, binary refusal, line ends.

Offsets always refer to the text this module returns, which is the text the user sees. Line ends
are normalised once, here (CRLF and CR become LF) when asked, and never again later.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import numpy as np

from chunkviz.errors import ChunkvizError, InputTextError, Message, Whole
from chunkviz.limits import MAX_BYTES as MAX_BYTES  # re-exported: its checks live here
from chunkviz.limits import MAX_CHARS as MAX_CHARS

#: Deepest nesting of arrays and objects a JSON file may have: every format chunkviz reads is
#: at most a few levels deep, and Python's parser (and everything that walks its result
#: recursively) stops with RecursionError near 1,000.
MAX_JSON_DEPTH = 64
#: Most digits a JSON integer may have: offsets and counts fit in 20; Python refuses to convert
#: more than 4,300 (a ValueError mid-parse), and converting is quadratic below that.
MAX_JSON_DIGITS = 30
NewlineMode = Literal["keep", "lf"]

_MIB = 1024 * 1024
# Legacy Japanese encodings tried strictly before the detector: a real Shift_JIS file with an
# IBM extension character (髙) decodes only as CP932, and the detector gave up on it.
_STRICT_JAPANESE = ("cp932", "euc_jp")
_DETECTABLE = ("cp932", "euc_jp", "shift_jis", "iso2022_jp", "utf_8", "cp1252", "latin_1")
_UTF32_BOMS = (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")

#: Terminal formatting: ANSI/VT escape sequences (CSI such as colours, OSC such as titles and
#: links, two-character escapes) and backspace overstrikes (``X\bX`` bold, ``_\bX`` underline,
#: as ``man`` writes them). A stray backspace left over is removed too.
_TERMINAL = re.compile(
    r"\x1b\[[0-?]*+[ -/]*+[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*+(?:\x07|\x1b\\)?"  # OSC, ended by BEL or ST
    r"|\x1b[@-Z\\-_]"  # other two-character escapes
    r"|[^\x08\n]\x08|\x08"  # overstrike: the character before a backspace, or a lone one
)


def check_chars(count: int, name: str) -> None:
    """Refuse a text of more than ``MAX_CHARS`` characters.

    Args:
        count: Characters extracted so far.
        name: What to call the input in the message (a file name).

    Raises:
        InputTextError: ``count`` is over the limit; the message names it.
    """
    if count > MAX_CHARS:
        raise InputTextError("too_many_chars", file=Whole(name), max=MAX_CHARS)


def check_bytes(size: int, name: str) -> None:
    """Refuse input of more than ``MAX_BYTES`` bytes.

    Raises:
        InputTextError: ``size`` is over the limit; the message names it and the fix.
    """
    _check_size(size, name, MAX_BYTES, InputTextError)


def strip_terminal_formatting(text: str) -> tuple[str, int]:
    """``text`` without ANSI escape sequences and backspace overstrikes.

    A ``man`` page saved as text is full of both; left in, they show in the highlight and in
    every export, and they count as characters of the chunks.

    Returns:
        The cleaned text and how many sequences were removed.
    """
    if "\x1b" not in text and "\x08" not in text:
        return text, 0
    return _TERMINAL.subn("", text)


def decode_bytes(data: bytes, *, name: str = "input", newlines: NewlineMode = "keep") -> str:
    """Decode ``data`` to text: UTF-8 (with or without BOM), UTF-16/32, CP932, EUC-JP, others.

    Order: a BOM decides (UTF-32 before UTF-16, whose BOM is a prefix of it); UTF-16 without a
    BOM is recognised by its NUL bytes; then strict UTF-8; then strict CP932 and EUC-JP; then
    charset-normalizer.

    Args:
        data: Raw file content.
        name: What to call the input in error messages (a file name).
        newlines: ``keep`` leaves line ends as they are; ``lf`` turns CRLF and CR into LF.

    Raises:
        InputTextError: The data is binary, too large (bytes or characters), invalid in the
            encoding its BOM declares, or in no encoding that can be detected.
    """
    check_bytes(len(data), name)
    text = _decode(data, name)
    check_chars(len(text), name)
    if newlines == "lf":
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def read_file_bytes(
    path: str | Path,
    *,
    max_bytes: int = MAX_BYTES,
    error: type[ChunkvizError] = InputTextError,
) -> bytes:
    """The bytes of a regular file, its size checked before anything is read.

    Every file a command or page reads comes through here (documents, QA pairs, datasets,
    chunk files, results files).

    Args:
        path: The file.
        max_bytes: Largest size accepted (default ``MAX_BYTES``).
        error: The error class raised (a dataset reader raises ``DatasetError``).

    Raises:
        InputTextError: (or ``error``) The path is missing, unreadable, not a regular file (a
            FIFO, a device, a directory: reading one may never end), or larger than
            ``max_bytes``.
    """
    p = Path(path)
    try:
        # O_NONBLOCK: opening a FIFO with no writer would wait forever; fstat then refuses it.
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        raise error("read_failed", path=shown_path(p), reason=_reason(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error("not_regular_file", path=shown_path(p))
        _check_size(info.st_size, p.name, max_bytes, error)
        with os.fdopen(fd, "rb") as f:
            fd = -1  # closed by the file object from here on
            data = f.read(max_bytes + 1)  # the file may have grown since fstat
    except OSError as exc:
        raise error("read_failed", path=shown_path(p), reason=_reason(exc)) from None
    finally:
        if fd >= 0:
            os.close(fd)
    _check_size(len(data), p.name, max_bytes, error)
    return data


def check_regular_file(
    path: str | Path, *, max_bytes: int = MAX_BYTES, error: type[ChunkvizError] = InputTextError
) -> Path:
    """Refuse what ``read_file_bytes`` refuses, without reading: for files another library opens.

    Raises:
        InputTextError: (or ``error``) Missing, not a regular file, or larger than ``max_bytes``.
    """
    p = Path(path)
    try:
        info = os.stat(p)  # stat never opens: a FIFO does not block it
    except (OSError, ValueError) as exc:
        raise error("read_failed", path=shown_path(p), reason=_reason(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise error("not_regular_file", path=shown_path(p))
    _check_size(info.st_size, p.name, max_bytes, error)
    return p


def shown_path(path: str | Path, limit: int = 120) -> Whole:
    """A path as a message shows it: bidi controls neutralised, cut to ``limit`` characters.

    A ``Whole``: a message shows it as it is, in every language (it is bounded here).
    """
    text = neutral_bidi(str(path))
    return Whole(text if len(text) <= limit else "..." + text[-(limit - 3) :])


def _reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)


def _check_size(size: int, name: str, max_bytes: int, error: type[ChunkvizError]) -> None:
    if size > max_bytes:
        raise error(
            "too_large",
            file=Whole(neutral_bidi(name)),
            mb=f"{size / 1e6:.1f}",
            max_mib=f"{max_bytes / _MIB:g}",
        )


#: Unicode bidirectional controls (embeddings, overrides, isolates, marks): in a file name or a
#: title they reverse the text around them where it is shown.
# The bidi controls (as a regex character class body): obeyed, they reorder the text around them.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")


def neutral_bidi(text: str) -> str:
    """``text`` with every bidi control shown as its code (``<U+202E>``) instead of obeyed."""
    if not _BIDI.search(text):
        return text
    return _BIDI.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


# ---------------------------------------------------------------------------------- JSON

#: A JSON string literal (escapes included): brackets and digits inside it are text.
_JSON_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"')
_JSON_LONG_NUMBER = re.compile(rf"(?<![0-9.eE+-])-?[0-9]{{{MAX_JSON_DIGITS + 1},}}")


def json_problem(text: str) -> str | None:
    """Why ``text`` must not be parsed (too deep, a number too long), or None.

    Linear in the text, and run before ``json.loads``: the parser itself would stop with
    RecursionError or ValueError halfway, or return a value that breaks whatever walks it.
    """
    bare = _JSON_STRING.sub('""', text)
    long = _JSON_LONG_NUMBER.search(bare)
    if long is not None:
        return (
            f"a number of {len(long.group().lstrip('-')):,} digits; at most "
            f"{MAX_JSON_DIGITS} are accepted (MAX_JSON_DIGITS)"
        )
    brackets = re.sub(r"[^\[\]{}]+", "", bare)
    if len(brackets) > 2 * MAX_JSON_DEPTH:
        codes = np.frombuffer(brackets.encode("ascii"), dtype=np.uint8)
        steps = np.where((codes == ord("[")) | (codes == ord("{")), 1, -1)
        depth = int(np.cumsum(steps).max())
        if depth > MAX_JSON_DEPTH:
            return (
                f"nested too deeply: {depth:,} levels, at most {MAX_JSON_DEPTH} are "
                "accepted (MAX_JSON_DEPTH)"
            )
    return None


def json_values(text: str) -> int:
    """How many values a JSON list or JSON Lines text holds, counted without parsing it.

    A list's top-level items, or JSONL's non-blank lines: linear, with numpy, after
    ``json_problem``.

    A reader bounds a count before ``json.loads`` builds millions of objects (a 32 MB file of
    3.99 million chunks ran out of memory while parsed).
    """
    body = text.strip()
    if not body.startswith("["):
        return sum(1 for line in body.splitlines() if line.strip())
    bare = re.sub(r"[^\[\]{},]+", "", _JSON_STRING.sub('""', body)).encode("ascii")
    codes = np.frombuffer(bare, dtype=np.uint8)
    steps = np.zeros(len(codes), np.int16)
    steps[(codes == ord("[")) | (codes == ord("{"))] = 1
    steps[(codes == ord("]")) | (codes == ord("}"))] = -1
    depth = np.cumsum(steps, dtype=np.int32)
    commas = int(np.count_nonzero((codes == ord(",")) & (depth == 1)))
    empty = re.fullmatch(r"\[\s*\]", body) is not None
    return 0 if empty else commas + 1


def loads_json(
    text: str,
    name: str,
    *,
    fix: Message,
    error: type[ChunkvizError] = InputTextError,
    what: str = "JSON",
    parse_constant: Callable[[str], Any] | None = None,
    line: int | None = None,
) -> Any:
    """Parse ``text`` as JSON after ``json_problem`` found nothing wrong with it.

    Args:
        text: The file's text.
        name: What to call the file in messages.
        fix: What the user should give instead (ends the message).
        error: The error class raised.
        what: What the text should be (``JSON``, ``JSON Lines``), for the message.
        parse_constant: Passed to ``json.loads`` (a results file refuses NaN).
        line: The line of ``name`` that ``text`` is (JSON Lines), or None.

    Raises:
        InputTextError: (or ``error``) One line: the file, what is wrong with it, ``fix``.
    """
    problem = json_problem(text)
    if problem is None:
        try:
            return json.loads(text, parse_constant=parse_constant)
        except (ValueError, RecursionError) as exc:  # the checks above make both unlikely
            problem = (
                str(exc)
                if isinstance(exc, json.JSONDecodeError)
                else (
                    "nested too deeply"
                    if isinstance(exc, RecursionError)
                    else str(exc).split(";")[0]
                )
            )
    if line is not None:
        raise error(
            "bad_json_line",
            file=Whole(neutral_bidi(name)),
            line=line,
            what=what,
            problem=Whole(problem),
            fix=fix,
        )
    raise error(
        "bad_json", file=Whole(neutral_bidi(name)), what=what, problem=Whole(problem), fix=fix
    )


def read_json_file(
    path: str | Path,
    *,
    fix: Message,
    error: type[ChunkvizError] = InputTextError,
    max_bytes: int = MAX_BYTES,
) -> Any:
    """A JSON file read through ``read_file_bytes`` and parsed by ``loads_json``.

    Raises:
        InputTextError: (or ``error``) See ``read_file_bytes``, ``decode_bytes`` and
            ``loads_json``.
    """
    p = Path(path)
    data = read_file_bytes(p, max_bytes=max_bytes, error=error)
    try:
        text = decode_bytes(data, name=p.name)
    except InputTextError as exc:
        raise error(exc.code or str(exc), **exc.params) from None
    return loads_json(text, p.name, fix=fix, error=error)


def read_text_file(path: str | Path, *, newlines: NewlineMode = "keep") -> str:
    """Read a text file from disk with ``decode_bytes`` (see ``read_file_bytes`` for checks).

    Raises:
        InputTextError: The file is missing, unreadable, not regular, too large, binary or
            undecodable.
    """
    return decode_bytes(read_file_bytes(path), name=Path(path).name, newlines=newlines)


def _looks_binary(data: bytes) -> bool:
    sample = data[:8192]
    if b"\x00" in sample:
        return True
    # Tab, line feed, form feed, carriage return, escape and backspace occur in text files
    # (terminal output); other control bytes do not.
    controls = sum(1 for b in sample if b < 32 and b not in (8, 9, 10, 12, 13, 27))
    return bool(sample) and controls / len(sample) > 0.05


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 text without a BOM (ASCII-range text has a NUL in every other byte), or None."""
    sample = data[:8192]
    if len(data) % 2 or len(sample) < 4:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    half = len(sample) // 2
    if odd > 0.3 * half and even < 0.05 * half:
        encoding = "utf-16-le"
    elif even > 0.3 * half and odd < 0.05 * half:
        encoding = "utf-16-be"
    else:
        return None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


def _strict(data: bytes, encoding: str, name: str, label: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InputTextError(
            "bad_bom", file=Whole(name), label=label, byte=exc.start, reason=exc.reason
        ) from None


def _decode(data: bytes, name: str) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return _strict(data[3:], "utf-8", name, "UTF-8")
    if data.startswith(_UTF32_BOMS):
        return _strict(data, "utf-32", name, "UTF-32")
    if data.startswith(_UTF16_BOMS):
        return _strict(data, "utf-16", name, "UTF-16")
    utf16 = _utf16_without_bom(data)
    if utf16 is not None:
        return utf16
    if _looks_binary(data):
        raise InputTextError("binary_file", file=Whole(name))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        if "\x1b$" in text or "\x1b(" in text:  # ISO-2022-JP is 7-bit: UTF-8 accepts its bytes
            try:
                return data.decode("iso2022_jp")
            except UnicodeDecodeError:
                pass
        return text
    strict: dict[str, str] = {}
    for encoding in _STRICT_JAPANESE:
        with contextlib.suppress(UnicodeDecodeError):
            strict[encoding] = data.decode(encoding)
    if len(strict) == 1:
        return next(iter(strict.values()))
    # Deferred: slow to import, and only text in an undeclared encoding needs it.
    from charset_normalizer import from_bytes

    best = from_bytes(data, cp_isolation=list(strict or _DETECTABLE)).best()
    if best is None and strict:
        return strict["cp932"]
    if best is None:
        best = from_bytes(data).best()
    if best is None:
        raise InputTextError("no_encoding", file=Whole(name))
    return str(best)
