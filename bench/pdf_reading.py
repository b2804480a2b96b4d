"""Reading a 50-page Japanese PDF by layout, and rendering one page of it, against pypdf.

The PDF is printed here by Chromium (Noto Sans CJK JP, a running header and "n / N" footers,
as ``tests/pdf/printing.py`` prints): the vendored JSQuAD validation articles, one after
another, until it has at least 50 pages. Timed in the same run, best of ``--rounds`` (process
CPU time, what a shared machine disturbs least, and wall time):

- chunkviz's ``extract`` (pypdfium2 characters with boxes, the layout rules, the box arrays);
- pypdf's ``extract_text`` of every page (the reader chunkviz used before: Kangxi radicals,
  a line break at every printed line end, headers and page numbers in the text) as reference;
- PyMuPDF's ``get_text`` of every page, where ``pymupdf`` is installed (requirements-dev),
  on that PDF and on the same articles printed vertically (縦書き, ``writing-mode:
  vertical-rl``: chunkviz reads them as columns; issue 36), CPU per page;
- one page view: ``render_page`` of a middle page (PNG, 900 px wide) and its chunk overlay
  (``page_shapes`` + ``page_svg`` for fixed 400-character chunks).

Run from the repository root (needs /usr/bin/chromium and fonts-noto-cjk)::

    python bench/pdf_reading.py
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chunkviz  # noqa: E402
from chunkviz.extract import extract  # noqa: E402
from chunkviz.pdf.render import render_page  # noqa: E402
from chunkviz.views.page_view import page_shapes, page_svg  # noqa: E402
from tests.pdf.printing import (  # noqa: E402
    article_html,
    jsquad_article,
    print_pdfs,
    vertical_html,
)

PAGES = 50


def best(fn: Callable[[], object], rounds: int) -> tuple[float, float]:
    """Best CPU and best wall seconds of ``rounds`` calls."""
    cpu, wall = [], []
    for _ in range(rounds):
        c, w = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return min(cpu), min(wall)


def build(folder: Path) -> Path:
    paragraphs: list[str] = []
    index = 0
    while True:
        article, _ = jsquad_article(index)
        paragraphs += article
        index += 1
        if index % 6 == 0 or index >= 60:
            pdf = print_pdfs({"bench": article_html(paragraphs)}, folder)["bench"]
            with pdf.open("rb") as f:
                from pypdf import PdfReader

                if len(PdfReader(f).pages) >= PAGES or index >= 60:
                    return pdf


def vertical_pdf(folder: Path) -> bytes:
    """The first 12 vendored JSQuAD articles printed vertically, a page at a time."""
    paragraphs: list[str] = []
    for index in range(12):
        paragraphs += jsquad_article(index)[0]
    return print_pdfs({"vertical": vertical_html(paragraphs)}, folder)["vertical"].read_bytes()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from pypdf import PdfReader

    with tempfile.TemporaryDirectory() as tmp:
        pdf = build(Path(tmp))
        data = pdf.read_bytes()
    got = extract(data, "bench.pdf")
    layout = got.layout
    assert layout is not None
    result = chunkviz.chunk(got.text, "fixed", size=400, overlap=0)
    middle = layout.page_count // 2

    def pypdf_text() -> None:
        reader = PdfReader(io.BytesIO(data))
        "".join(page.extract_text() or "" for page in reader.pages)

    def page_view() -> None:
        render_page(data, middle)
        page_svg(page_shapes(layout, result.chunks, [], middle))

    ours = best(lambda: extract(data, "bench.pdf"), args.rounds)
    ref = best(pypdf_text, args.rounds)
    view = best(page_view, args.rounds)
    with tempfile.TemporaryDirectory() as tmp:
        upright = vertical_pdf(Path(tmp))
    vertical = extract(upright, "vertical.pdf")
    assert vertical.layout is not None
    assert vertical.quality is not None
    load = os.getloadavg()
    print(
        f"PDF: {layout.page_count} pages, {len(data) / 1e6:.1f} MB, {len(got.text):,} characters"
        f" read, {got.furniture} header/footer lines left out; load average {load[0]:.1f}"
    )
    print(f"read by layout (chunkviz): cpu {ours[0]:.2f} s, wall {ours[1]:.2f} s")
    print(f"pypdf extract_text:        cpu {ref[0]:.2f} s, wall {ref[1]:.2f} s")
    print(f"ratio chunkviz / pypdf (cpu): {ours[0] / ref[0]:.2f}")
    print(
        f"one page view (render + overlay, page {middle + 1}): cpu {view[0]:.2f} s, "
        f"wall {view[1]:.2f} s"
    )
    try:
        import pymupdf
    except ImportError:
        print("PyMuPDF not installed: pip install pymupdf (requirements-dev) to compare")
        return 0

    def mupdf_text(pdf: bytes) -> None:
        with pymupdf.open(stream=pdf, filetype="pdf") as doc:
            "".join(page.get_text() for page in doc)

    for name, pdf, pages in (
        ("horizontal", data, layout.page_count),
        ("vertical", upright, vertical.layout.page_count),
    ):
        mine = best(lambda pdf=pdf: extract(pdf, "bench.pdf"), args.rounds)
        theirs = best(lambda pdf=pdf: mupdf_text(pdf), args.rounds)
        print(
            f"{name} ({pages} pages): chunkviz cpu {1000 * mine[0] / pages:.1f} ms/page, "
            f"PyMuPDF get_text cpu {1000 * theirs[0] / pages:.1f} ms/page, "
            f"ratio {mine[0] / theirs[0]:.2f}"
        )
    print(
        f"vertical pages read as columns: {len(vertical.quality.vertical_pages)} of "
        f"{vertical.layout.page_count}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
