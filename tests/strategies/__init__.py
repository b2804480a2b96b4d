"""Hypothesis text strategies: Japanese, English, emoji, combining marks, CRLF, repeated text."""

from __future__ import annotations

from hypothesis import strategies as st

_PIECES = [
    "梅雨",
    "は",
    "日本",
    "の",
    "気象現象",
    "である",
    "。",
    "、",
    "！",
    "？",
    "「引用」",
    "』",
    "）",
    "word",
    "w1",
    "Mr.",
    "3.14",
    "e.g.",
    "Hello",
    " ",
    "  ",
    ". ",
    "! ",
    "? ",
    ", ",
    "\n",
    "\n\n",
    "\r\n",
    "\r\n\r\n",
    "\t",
    "😀",
    "👨‍👩‍👧",
    "🇯🇵",
    "e\u0301",
    "か\u3099",
    "a\u0308\u0304",
    "# 見出し\n",
    "## Heading\n",
    "- item\n",
    "| a | b |\n",
    # Lone surrogates (a JSON "\\ud800", a file decoded with surrogateescape): UTF-8 libraries
    # such as SentencePiece refuse them.
    "\ud800",
    "\udbff\udc00",
    "x\udfff",
    # Pathological runs (issue 14): regexes that retry inside a run are quadratic on them.
    " " * 40,
    "." * 40,
    "\n" * 12,
    "," * 30,
    "。" * 12 + "と",
    "| a,b | 1,000 |\n",
]

piece = st.sampled_from(_PIECES) | st.text(min_size=1, max_size=3)
mixed_text = st.lists(piece, min_size=0, max_size=60).map("".join)
repeated_text = st.tuples(
    st.sampled_from(["w1 ", "。", "ab", "日本語。", "\r\n"]), st.integers(1, 40)
).map(lambda t: t[0] * t[1])
texts = mixed_text | repeated_text

# Structured text for the table- and code-aware strategies: Markdown/CSV/HTML tables and Python
# definitions mixed with the pieces above, so boundaries land inside and around structures.
_cell = st.sampled_from(
    ["営業", "交通費", "120,000", "a", "😀", "e\u0301", "", "x y", '"q,u"', ",,,", "\ud800"]
)
_row = st.lists(_cell, min_size=1, max_size=4)
markdown_table = st.lists(_row, min_size=1, max_size=6).map(
    lambda rows: "| h1 | h2 |\n|---|:-:|\n" + "".join("| " + " | ".join(r) + " |\n" for r in rows)
)
csv_table = st.lists(st.lists(_cell, min_size=3, max_size=3), min_size=2, max_size=6).map(
    lambda rows: "".join(",".join(r) + "\r\n" for r in [["k", "v", "w"], *rows])
)
html_table = st.lists(_row, min_size=0, max_size=5).map(
    lambda rows: (
        "<table><thead><tr><th>h</th></tr></thead><tbody>"
        + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>\n" for r in rows)
        + "</tbody></table>"
    )
)
_python_piece = st.sampled_from(
    [
        "import os\n",
        "\n",
        "x = 1\n",
        "# note\n",
        "@dec\n",
        "def f(a):\n    return a\n",
        "class 日本:\n    def m(self):\n        return 'é😀'\n",
        "async def g():\n    pass\n",
        "    y = 2\n",
        "```python\n",
        "```\n",
        "~~~\n",
        "```js\nlet a = 1;\n```\n",
    ]
)
structured_text = st.lists(
    markdown_table | csv_table | html_table | _python_piece | piece, min_size=0, max_size=25
).map("".join)
