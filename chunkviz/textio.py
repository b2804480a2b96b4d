"""Reading documents as text: encoding detection, binary refusal, line ends.

Offsets always refer to the text this module returns, which is the text the user sees. Line ends
are normalised once, here (CRLF and CR become LF) when asked, and never again later.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from chunkviz.errors import InputTextError

MAX_BYTES = 64 * 1024 * 1024
NewlineMode = Literal["keep", "lf"]

# Encodings tried before asking the detector: UTF-8 is by far the most common, and a strict
# decode that succeeds is never wrong about it.
_JAPANESE_LEGACY = ("cp932", "euc_jp", "shift_jis", "iso2022_jp")


def decode_bytes(data: bytes, *, name: str = "input", newlines: NewlineMode = "keep") -> str:
    """Decode ``data`` to text, detecting UTF-8 (with or without BOM), Shift_JIS/CP932, EUC-JP.

    Args:
        data: Raw file content.
        name: What to call the input in error messages (a file name).
        newlines: ``keep`` leaves line ends as they are; ``lf`` turns CRLF and CR into LF.

    Raises:
        InputTextError: The data is binary, too large, or in no encoding that can be detected.
    """
    if len(data) > MAX_BYTES:
        raise InputTextError(
            f"{name} is {len(data) / 1e6:.1f} MB; files up to {MAX_BYTES // (1024 * 1024)} MiB "
            "are accepted; split the file or chunk a part of it"
        )
    if _looks_binary(data):
        raise InputTextError(
            f"{name} looks like a binary file (it contains NUL or control bytes), not text; "
            "upload a .txt, .md, .html, .pdf or .docx file, or paste the text"
        )
    text = _decode(data, name)
    if newlines == "lf":
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def read_text_file(path: str | Path, *, newlines: NewlineMode = "keep") -> str:
    """Read a text file from disk with ``decode_bytes``.

    Raises:
        InputTextError: The file is missing, unreadable, binary or undecodable.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputTextError(f"cannot read {p} ({exc.strerror}); check the path") from None
    return decode_bytes(data, name=p.name, newlines=newlines)


def _looks_binary(data: bytes) -> bool:
    if data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        return False
    sample = data[:8192]
    if b"\x00" in sample:
        return True
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13, 27))
    return bool(sample) and controls / len(sample) > 0.05


def _decode(data: bytes, name: str) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="strict")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data, cp_isolation=[*_JAPANESE_LEGACY, "utf_8", "cp1252", "latin_1"]).best()
    if best is None:
        best = from_bytes(data).best()
    if best is None:
        raise InputTextError(
            f"cannot detect the text encoding of {name}; save it as UTF-8 and try again"
        )
    return str(best)
