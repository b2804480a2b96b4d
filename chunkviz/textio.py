"""Reading documents as text: encoding detection, binary refusal, line ends.

Offsets always refer to the text this module returns, which is the text the user sees. Line ends
are normalised once, here (CRLF and CR become LF) when asked, and never again later.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from pathlib import Path
from typing import Literal

from chunkviz.errors import InputTextError

#: Largest file accepted, in bytes (the upload limit in ``.streamlit/config.toml`` is the same).
MAX_BYTES = 64 * 1024 * 1024
#: Largest text accepted, in characters, however it was obtained: a 256 KB .docx unpacks to
#: hundreds of millions of characters, so extraction counts as it goes and stops here.
MAX_CHARS = 16_000_000
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
        raise InputTextError(
            f"{name} holds more than {MAX_CHARS:,} characters of text (the limit on extracted "
            "characters, MAX_CHARS); split the document or upload a part of it"
        )


def check_bytes(size: int, name: str) -> None:
    """Refuse input of more than ``MAX_BYTES`` bytes.

    Raises:
        InputTextError: ``size`` is over the limit; the message names it and the fix.
    """
    if size > MAX_BYTES:
        raise InputTextError(
            f"{name} is {size / 1e6:.1f} MB; files up to {MAX_BYTES // _MIB} MiB are accepted; "
            "split the file or chunk a part of it"
        )


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


def read_file_bytes(path: str | Path) -> bytes:
    """The bytes of a regular file, its size checked before anything is read.

    Raises:
        InputTextError: The path is missing, unreadable, not a regular file (a FIFO, a device,
            a directory: reading one may never end), or larger than ``MAX_BYTES``.
    """
    p = Path(path)
    try:
        # O_NONBLOCK: opening a FIFO with no writer would wait forever; fstat then refuses it.
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputTextError(f"cannot read {p} ({exc.strerror}); check the path") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputTextError(
                f"cannot read {p}: it is not a regular file (a directory, FIFO or device); "
                "give the path of a file"
            )
        check_bytes(info.st_size, p.name)
        with os.fdopen(fd, "rb") as f:
            fd = -1  # closed by the file object from here on
            data = f.read(MAX_BYTES + 1)  # the file may have grown since fstat
    except OSError as exc:
        raise InputTextError(f"cannot read {p} ({exc.strerror}); check the path") from None
    finally:
        if fd >= 0:
            os.close(fd)
    check_bytes(len(data), p.name)
    return data


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
            f"{name} starts with a {label} byte-order mark but is not valid {label} "
            f"(byte {exc.start}: {exc.reason}); save it again as UTF-8"
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
        raise InputTextError(
            f"{name} looks like a binary file (it contains NUL or control bytes), not text; "
            "give a .txt, .md, .html, .pdf or .docx file, or paste the text"
        )
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
    from charset_normalizer import from_bytes

    best = from_bytes(data, cp_isolation=list(strict or _DETECTABLE)).best()
    if best is None and strict:
        return strict["cp932"]
    if best is None:
        best = from_bytes(data).best()
    if best is None:
        raise InputTextError(
            f"cannot detect the text encoding of {name}; save it as UTF-8 and try again"
        )
    return str(best)
