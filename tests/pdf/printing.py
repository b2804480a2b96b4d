"""PDFs printed by Chromium the way a user prints an article: a running header, page numbers.

One browser prints every PDF a test session needs (``print_pdfs``); the blocks of a text
(separated by blank lines) become its printed paragraphs: a short line without a full stop a
heading, a block of several lines a ``<pre>``, anything else a ``<p>``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from tests.helpers import pdf_of

CHROMIUM = "/usr/bin/chromium"
HEADER = "チャンキング戦略 — 社内資料"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def blocks(text: str) -> list[str]:
    """The text's paragraphs: blocks apart by lines that hold only whitespace."""
    return [
        b.strip("\n")
        for b in re.split(r"\n[ \t\u3000]*\n", text.replace("\r\n", "\n"))
        if b.strip()
    ]


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
    return (
        "<html><head><meta charset='utf-8'><style>"
        f"body{{font-family:'Noto Sans CJK JP';font-size:11pt;{cols}}}"
        "pre{white-space:pre-wrap;font-family:'Noto Sans Mono CJK JP',monospace}"
        "h2{font-size:15pt}</style></head><body>" + "".join(body) + "</body></html>"
    )


def print_pdfs(pages: Mapping[str, str], folder: Path) -> dict[str, Path]:
    """Print each HTML page of ``pages`` (name -> markup) to ``folder/<name>.pdf``.

    In a thread of its own: Playwright's sync API refuses to start in a thread whose asyncio
    loop is running, which the browser tests' session-wide Playwright leaves in the main thread
    when the whole suite runs.
    """
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(_print_all, pages, folder).result()


def _print_all(pages: Mapping[str, str], folder: Path) -> dict[str, Path]:
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for name, markup in pages.items():
                out[name] = print_with(browser, markup, folder / f"{name}.pdf")
        finally:
            browser.close()
    return out


def simple_pdf(
    pages: Sequence[Sequence[str | tuple[float, str]]],
    *,
    header: str = "",
    size: float = 11.0,
    numbers: bool = True,
    width: float = 595.0,
    height: float = 842.0,
    rotate: int = 0,
    sideways: bool = False,
) -> bytes:
    """A PDF drawn line by line in Helvetica (ASCII text), fast to make in any test.

    Each page is a list of lines from the top: a string starts at the left margin, an
    ``(x, text)`` pair at ``x`` points (a second column), an empty string is a blank line (a
    paragraph gap); a line given as ``(x, text)`` right after another at the same height... is
    not supported: one line per row. ``header`` is printed at the top of every page and, with
    ``numbers``, "n / N" at the bottom. With ``rotate=90`` each page of ``width`` by ``height``
    (as shown) is stored as a portrait page with ``/Rotate 90``, its text drawn turned; with
    ``sideways`` too, the ``/Rotate`` is left out: the text is shown turned a quarter
    counter-clockwise (read bottom to top), as a landscape table printed on a portrait page.
    """
    count = len(pages)
    streams = []
    for n, lines in enumerate(pages, start=1):
        ops = []
        if header:
            ops.append(_show(width / 2 - 40, height - 30, header, 8))
        if numbers:
            ops.append(_show(width / 2 - 10, 24, f"{n} / {count}", 8))
        y = height - 72
        for line in lines:
            x, body = line if isinstance(line, tuple) else (56.0, line)
            if body:
                ops.append(_show(x, y, body, size))
            y -= size * 1.4
        if rotate == 90:  # drawn on a portrait page turned a quarter, upright when shown
            ops = [f"q 0 1 -1 0 {height:g} 0 cm", *ops, "Q"]
        streams.append("\n".join(ops).encode("latin-1"))
    objects: list[bytes] = [b"", b"", b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for stream in streams:
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        media = (height, width) if rotate == 90 else (width, height)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Rotate %d "
            b"/Contents %d 0 R /Resources << /Font << /F1 3 0 R >> >> >>"
            % (*media, 0 if sideways else rotate, len(objects))
        )
        kids.append(len(objects))
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = (
        b"<< /Type /Pages /Kids ["
        + b" ".join(b"%d 0 R" % k for k in kids)
        + b"] /Count %d >>" % len(kids)
    )
    return pdf_of(objects)


def _show(x: float, y: float, text: str, size: float) -> str:
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return f"BT /F1 {size:g} Tf {x:.1f} {y:.1f} Td ({escaped}) Tj ET"


def jsquad_article(index: int = 0) -> tuple[list[str], list[str]]:
    """The paragraphs (title first) and answers of a vendored JSQuAD validation article."""
    import json

    root = Path(__file__).resolve().parents[2]
    data = json.loads((root / "chunkviz/data/jsquad/valid-v1.3.json").read_text(encoding="utf-8"))
    article = data["data"][index]
    paragraphs = [p["context"].split("[SEP]", 1)[-1].strip() for p in article["paragraphs"]]
    answers = [q["answers"][0]["text"] for p in article["paragraphs"] for q in p["qas"]]
    return [article["title"], *paragraphs], answers


def print_with(browser: object, markup: str, path: Path) -> Path:
    """Print ``markup`` to ``path`` with an already running Playwright ``browser``."""
    page = browser.new_page()  # type: ignore[attr-defined]
    try:
        page.set_content(markup)
        page.pdf(
            path=str(path),
            format="A4",
            display_header_footer=True,
            header_template=(
                "<div style='font-size:9px;width:100%;text-align:center'>"
                f"{html.escape(HEADER)}</div>"
            ),
            footer_template=(
                "<div style='font-size:9px;width:100%;text-align:center'>"
                "<span class='pageNumber'></span> / "
                "<span class='totalPages'></span></div>"
            ),
            margin={"top": "20mm", "bottom": "20mm", "left": "18mm", "right": "18mm"},
        )
    finally:
        page.close()
    return path


def vertical_html(
    parts: Sequence[str],
    *,
    tiers: int = 1,
    per_page: int = 1_000,
    markup: Callable[[str], str] = html.escape,
) -> str:
    """An HTML page of ``parts`` set vertically (``writing-mode: vertical-rl``), as 縦書き.

    Chromium does not paginate vertical text across printed pages, so the parts are laid out
    a page at a time: whole parts, up to ``per_page`` characters a page, in one or more tiers
    (段, a ``column-count`` in vertical writing) of balanced height. ``markup`` turns a part's
    text into HTML (``<ruby>`` readings, for instance).
    """
    pages: list[list[str]] = [[]]
    size = 0
    for part in parts:
        if pages[-1] and size + len(part) > per_page:
            pages.append([])
            size = 0
        pages[-1].append(part)
        size += len(part)
    body = []
    for page in pages:
        inner = "".join(
            f"<h2>{markup(b)}</h2>" if len(b) < 40 and "。" not in b else f"<p>{markup(b)}</p>"
            for b in page
        )
        body.append(f"<div class='page'>{inner}</div>")
    tiered = f"column-count:{tiers};column-gap:3em;" if tiers > 1 else ""
    return (
        "<html><head><meta charset='utf-8'><style>"
        "body{margin:0;font-family:'Noto Sans CJK JP';font-size:11pt}"
        ".page{writing-mode:vertical-rl;height:240mm;width:170mm;overflow:hidden;"
        f"break-after:page;{tiered}}}"
        "p{margin:0 0 0 1em;text-indent:1em}h2{font-size:15pt;margin:0 0 0 1em}"
        "</style></head><body>" + "".join(body) + "</body></html>"
    )


def ruby_markup(text: str) -> str:
    """``text`` as HTML with a ``<ruby>`` reading (hiragana, from MeCab) on every kanji word."""
    out = []
    for word in _tagger()(text):
        out.append(html.escape(word.white_space))  # the whitespace before the word
        kana = getattr(word.feature, "kana", None)
        if kana and any("\u4e00" <= ch <= "\u9fff" for ch in word.surface):
            reading = "".join(chr(ord(ch) - 0x60) if "ァ" <= ch <= "ヶ" else ch for ch in kana)
            out.append(f"<ruby>{html.escape(word.surface)}<rt>{html.escape(reading)}</rt></ruby>")
        else:
            out.append(html.escape(word.surface))
    return "".join(out)


def readings(markup: str) -> list[str]:
    """The ``<rt>`` readings of ``markup``, in order."""
    return [html.unescape(r) for r in re.findall(r"<rt>(.*?)</rt>", markup)]


_TAGGERS: list[object] = []


def _tagger() -> Callable[[str], list[object]]:
    import fugashi  # requirements-dev: MeCab with unidic-lite

    if not _TAGGERS:
        _TAGGERS.append(fugashi.Tagger())
    return _TAGGERS[0]  # type: ignore[return-value]
