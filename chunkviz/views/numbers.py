"""Numbers as text: a byte size for display, a user's list of whole numbers read back."""

from __future__ import annotations

from chunkviz.errors import ParameterError


def format_bytes(n: int) -> str:
    """``4014080`` -> ``3.8 MiB`` (binary units, one decimal)."""
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{int(size)} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")  # pragma: no cover


def parse_ints(text: str, name: str) -> tuple[int, ...]:
    """``"100, 200 400"`` -> ``(100, 200, 400)``: whole numbers separated by commas or spaces.

    Raises:
        ParameterError: A piece that is not a whole number (the message names ``name``).
    """
    pieces = [p for p in text.replace("、", ",").replace(",", " ").split() if p]
    values = []
    for p in pieces:
        try:
            values.append(int(p))
        except ValueError:
            raise ParameterError("whole_numbers", name=name, piece=p, value=text) from None
    return tuple(dict.fromkeys(values))
