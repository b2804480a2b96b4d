"""Hypothesis text strategies: Japanese, English, emoji, combining marks, CRLF, repeated text."""

from __future__ import annotations

from hypothesis import strategies as st

_PIECES = [
    "梅雨", "は", "日本", "の", "気象現象", "である", "。", "、", "！", "？", "「引用」", "』", "）",
    "word", "w1", "Mr.", "3.14", "e.g.", "Hello", " ", "  ", ". ", "! ", "? ", ", ",
    "\n", "\n\n", "\r\n", "\r\n\r\n", "\t",
    "😀", "👨‍👩‍👧", "🇯🇵",
    "e\u0301", "か\u3099", "a\u0308\u0304",
    "# 見出し\n", "## Heading\n", "- item\n", "| a | b |\n",
]

piece = st.sampled_from(_PIECES) | st.text(min_size=1, max_size=3)
mixed_text = st.lists(piece, min_size=0, max_size=60).map("".join)
repeated_text = st.tuples(st.sampled_from(["w1 ", "。", "ab", "日本語。", "\r\n"]),
                          st.integers(1, 40)).map(lambda t: t[0] * t[1])
texts = mixed_text | repeated_text
