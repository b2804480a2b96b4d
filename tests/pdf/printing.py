"""PDFs printed by Chromium the way a user prints an article: a running header, page numbers.

One browser prints every PDF a test session needs (``print_pdfs``); the blocks of a text
(separated by blank lines) become its printed paragraphs: a short line without a full stop a
heading, a block of several lines a ``<pre>``, anything else a ``<p>``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
HEADER = "チャンキング戦略 — 社内資料"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def blocks(text: str) -> list[str]:
    """The text's paragraphs: blocks apart by lines that hold only whitespace."""
    return [b.strip("\n") for b in re.split(r"\n[ \t\u3000]*\n", text.replace("\r\n", "\n"))
            if b.strip()]


def article_html(parts: Sequence[str], *, columns: int = 1) -> str:
    """An HTML page of ``parts`` (see the module docstring), in one or two columns."""
    body = []
    for b in parts:
        if "\n" in b:
            body.append(f"<pre>{html.escape(b)}</pre>")
        elif len(b) < 40 and "。" not in b:
            body.append(f"<h2>{html.escape(b)}</h2>")
        else:
            body.append(f"<p>{html.escape(b)}</p>")
    cols = f"column-count:{columns};column-gap:2em;" if columns > 1 else ""
    return ("<html><head><meta charset='utf-8'><style>"
            f"body{{font-family:'Noto Sans CJK JP';font-size:11pt;{cols}}}"
            "pre{white-space:pre-wrap;font-family:'Noto Sans Mono CJK JP',monospace}"
            "h2{font-size:15pt}</style></head><body>" + "".join(body) + "</body></html>")


def print_pdfs(pages: Mapping[str, str], folder: Path) -> dict[str, Path]:
    """Print each HTML page of ``pages`` (name -> markup) to ``folder/<name>.pdf``."""
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            for name, markup in pages.items():
                page.set_content(markup)
                path = folder / f"{name}.pdf"
                page.pdf(path=str(path), format="A4", display_header_footer=True,
                         header_template=("<div style='font-size:9px;width:100%;"
                                          f"text-align:center'>{html.escape(HEADER)}</div>"),
                         footer_template=("<div style='font-size:9px;width:100%;text-align:"
                                          "center'><span class='pageNumber'></span> / "
                                          "<span class='totalPages'></span></div>"),
                         margin={"top": "20mm", "bottom": "20mm", "left": "18mm",
                                 "right": "18mm"})
                out[name] = path
        finally:
            browser.close()
    return out
