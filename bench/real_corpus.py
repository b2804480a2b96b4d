"""chunkviz's PDF and DOCX readers on public files other tools made, against PyMuPDF, pdfplumber.

The corpus is ``bench/corpus/manifest.json`` (origin, commit, sha256, licence of each file);
the files whose licence allows it are in ``bench/corpus/files/`` (the rest are listed with
``"stored": false`` and skipped, with a count). Every stored file is read in a child process
of its own (a reader that crashes the process is reported, not fatal), and for each:

PDF
- **reading order**: similarity (``difflib`` ratio, whitespace and compatibility ideographs
  aside, page by page, weighted by length) of our text to PyMuPDF's and to pdfplumber's;
  the higher of the two is the file's score (pdfplumber has no vertical mode, PyMuPDF follows
  the content stream: each is wrong on some files);
- **characters lost**: characters in both PyMuPDF's and pdfplumber's text (the smaller count
  per character; pdfplumber's ``(cid:N)`` for a glyph without a code left out) missing from
  ours (read keeping running heads, readings added back), and how many are outside the BMP
  (there a character either peer read counts);
- **breaks inside sentences** per 1,000 CJK characters: a single line break between two CJK
  characters, the first not ending a sentence (ours, PyMuPDF's, pdfplumber's);
- **refusals and crashes** with their message;
- **CPU per page**: process CPU time of ``chunkviz.extract`` and of PyMuPDF's ``get_text``
  over every page, interleaved (ours, theirs, ours, theirs...), best of ``--rounds``; the
  corpus ratio is the sum of ours over the sum of theirs, in the same run. The load average
  is printed with it, and what PDFium alone costs (opening the file and each page's text
  page, which chunkviz cannot do without).

DOCX
- the share of the words of footnotes, endnotes, comments, text boxes and content controls
  (read straight from the XML) found in our text.

Run from the repository root (``pdfplumber`` and ``pymupdf`` from the ``dev`` extra)::

    nice -n 10 python bench/real_corpus.py [--rounds 3] [--only ID ...] [--json out.json]
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import multiprocessing as mp
import os
import re
import statistics
import sys
import time
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chunkviz.errors import InputTextError  # noqa: E402
from chunkviz.extract import extract  # noqa: E402
from chunkviz.pdf.compat import fold_compat, fold_vertical  # noqa: E402
from chunkviz.pdf.layout import is_cjk  # noqa: E402
from chunkviz.pdf.reader import read_pdf  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "corpus"
#: Characters compared per page for the reading-order similarity (difflib is quadratic).
PAGE_CAP = 6_000
#: Seconds a file may take in its child process.
FILE_TIMEOUT = 300
SENTENCE_END = set("。．！？!?」』）)：:")
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _dense(text: str) -> str:
    """The text without whitespace, compatibility ideographs and vertical forms folded, NFC."""
    import unicodedata

    folded, _ = fold_compat("".join(text.split()))
    folded, _ = fold_vertical(folded)  # as chunkviz reads them, for every reader
    return unicodedata.normalize("NFC", folded)


def inner_breaks(text: str) -> tuple[int, int]:
    """(single line breaks inside sentences between CJK characters, CJK characters)."""
    text, _ = fold_vertical(text)  # "︒" ends a sentence as "。" does
    cjk = sum(1 for c in text if is_cjk(c))
    breaks = 0
    for m in re.finditer(r"(?<=\S)[ \t]*\n[ \t]*(?=\S)", text):
        a, b = text[m.start() - 1], text[m.end()]
        if is_cjk(a) and is_cjk(b) and a not in SENTENCE_END:
            breaks += 1
    return breaks, cjk


def similarity(ours: list[str], theirs: list[str]) -> float | None:
    """Page-by-page difflib ratio of dense texts, weighted by length."""
    num = den = 0.0
    for a, b in zip(ours, theirs, strict=False):
        a, b = _dense(a)[:PAGE_CAP], _dense(b)[:PAGE_CAP]
        if not a and not b:
            continue
        weight = max(len(a), len(b))
        num += weight * difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
        den += weight
    return num / den if den else None


def cpu(fn: Callable[[], object]) -> float:
    c = time.process_time()
    fn()
    return time.process_time() - c


def mupdf_pages(data: bytes) -> list[str]:
    import pymupdf

    with pymupdf.open(stream=data, filetype="pdf") as doc:
        return [page.get_text() for page in doc]


def pdfium_floor(data: bytes) -> None:
    """What PDFium alone costs: open the file and each page's text page (no character read)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        for i in range(len(pdf)):
            page = pdf[i]
            textpage = page.get_textpage()
            textpage.count_chars()
            textpage.close()
            page.close()
    finally:
        pdf.close()


def plumber_pages(data: bytes) -> list[str]:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def pdf_record(data: bytes, name: str, rounds: int) -> dict[str, Any]:
    rec: dict[str, Any] = {}
    try:
        got = read_pdf(data, name, keep_furniture=True)
    except InputTextError as exc:
        rec["refused"] = str(exc)
        return rec
    n = got.layout.page_count
    rec["pages"] = n
    page = got.layout.page
    text = got.text
    # The text of each page: offsets are in page order, an inserted break takes a page.
    bounds = [0]
    for p in range(1, n):
        bounds.append(int(page.searchsorted(p)) if len(page) else 0)
    bounds.append(len(text))
    ours_pages = [text[bounds[i] : bounds[i + 1]] for i in range(n)]
    readings = "".join(r.reading for r in got.ruby)
    ours_count = Counter(_dense(text + readings))
    rec["chars"] = len(text)
    rec["vertical_pages"] = len(got.quality.vertical_pages) if got.quality else 0
    rec["rotated_pages"] = len(got.quality.rotated_pages) if got.quality else 0
    rec["ruby"] = len(got.ruby)
    try:
        mu = mupdf_pages(data)
    except Exception as exc:  # noqa: BLE001  # a peer's failure is reported, not ours
        rec["mupdf_error"] = str(exc)[:200]
        mu = []
    try:
        pl = plumber_pages(data)
    except Exception as exc:  # noqa: BLE001
        rec["plumber_error"] = str(exc)[:200]
        pl = []
    rec["sim_mupdf"] = similarity(ours_pages, mu) if mu else None
    rec["sim_plumber"] = similarity(ours_pages, pl) if pl else None
    rec["sim_peers"] = similarity(mu, pl) if mu and pl else None
    # Characters both peers read (the smaller count): one peer's garbage (PyMuPDF's mojibake on
    # a font without a map, pdfplumber's "(cid:12)" for a glyph without a code) is not ours.
    # Outside the BMP, a character either peer read counts (the larger count).
    ref = Counter(_dense("".join(mu)))
    if pl:
        theirs = Counter(_dense(re.sub(r"\(cid:\d+\)", "", "".join(pl))))
        wide = {ch: max(ref[ch], theirs[ch]) for ch in ref | theirs if ord(ch) > 0xFFFF}
        both = ref & theirs if mu else theirs
        ref = Counter({ch: k for ch, k in both.items() if ord(ch) <= 0xFFFF}) + Counter(wide)
    lost = {ch: k - ours_count[ch] for ch, k in ref.items() if k > ours_count[ch]}
    rec["lost"] = sum(lost.values())
    rec["lost_nonbmp"] = sum(k for ch, k in lost.items() if ord(ch) > 0xFFFF)
    rec["lost_sample"] = "".join(sorted(lost, key=lambda c: -lost[c])[:20])
    rec["ref_nonbmp"] = sum(k for ch, k in ref.items() if ord(ch) > 0xFFFF)
    rec["ours_nonbmp"] = sum(k for ch, k in ours_count.items() if ord(ch) > 0xFFFF)
    default = extract(data, name).text
    for key, t in (("ours", default), ("mupdf", "\n".join(mu)), ("plumber", "\n".join(pl))):
        b, c = inner_breaks(t)
        rec[f"breaks_{key}"] = b
        rec["cjk"] = max(rec.get("cjk", 0), c) if key == "ours" else rec.get("cjk", 0)
    # CPU: interleaved, best of rounds.
    ours_cpu, mu_cpu, floor_cpu = [], [], []
    for _ in range(rounds):
        ours_cpu.append(cpu(lambda: extract(data, name)))
        mu_cpu.append(cpu(lambda: mupdf_pages(data)))
        floor_cpu.append(cpu(lambda: pdfium_floor(data)))
    rec["cpu_ours"] = min(ours_cpu)
    rec["cpu_mupdf"] = min(mu_cpu)
    rec["cpu_pdfium"] = min(floor_cpu)
    rec["cpu_plumber"] = cpu(lambda: plumber_pages(data))
    return rec


def _xml_words(z: zipfile.ZipFile, part: str, path: str) -> list[str]:
    from lxml import etree

    if part not in z.namelist():
        return []
    root = etree.fromstring(z.read(part))
    words: list[str] = []
    for node in root.iterfind(path):
        if node.get(W + "type") in ("separator", "continuationSeparator", "continuationNotice"):
            continue
        paragraphs = node.iter(W + "p")
        for p in paragraphs:
            text = "".join(t.text or "" for t in p.iter(W + "t") if not _deleted(t))
            words += re.findall(r"\w+", text)
    return words


def _deleted(node: Any) -> bool:
    parent = node.getparent()
    while parent is not None:
        if parent.tag in (W + "del", W + "moveFrom"):
            return True
        parent = parent.getparent()
    return False


def docx_record(data: bytes, name: str) -> dict[str, Any]:
    rec: dict[str, Any] = {}
    c = time.process_time()
    try:
        text = extract(data, name).text
    except InputTextError as exc:
        rec["refused"] = str(exc)
        return rec
    rec["cpu_ours"] = time.process_time() - c
    rec["chars"] = len(text)
    z = zipfile.ZipFile(io.BytesIO(data))
    doc = z.read("word/document.xml")
    strict = b"purl.oclc.org/ooxml" in doc
    if strict:
        return rec  # the XPaths below are for transitional namespaces
    parts = {
        "footnotes": _xml_words(z, "word/footnotes.xml", f".//{W}footnote"),
        "endnotes": _xml_words(z, "word/endnotes.xml", f".//{W}endnote"),
        "comments": _xml_words(z, "word/comments.xml", f".//{W}comment"),
    }
    from lxml import etree

    root = etree.fromstring(doc)
    for key, tag in (("textboxes", W + "txbxContent"), ("content_controls", W + "sdtContent")):
        words: list[str] = []
        seen: set[Any] = set()  # the elements themselves: an id() is reused once freed
        for node in root.iter(tag):
            if key == "textboxes" and any(
                a.tag.endswith("}Fallback") for a in node.iterancestors()
            ):
                continue  # Word's VML copy of a DrawingML text box
            for t in node.iter(W + "t"):
                if t in seen or _deleted(t):
                    continue
                seen.add(t)
                words += re.findall(r"\w+", t.text or "")
        parts[key] = words
    dense = "".join(text.split())
    for key, words in parts.items():
        if words:
            rec[f"{key}_words"] = len(words)
            rec[f"{key}_found"] = sum(1 for w in words if w in dense)
    return rec


def run_one(path: Path, kind: str, rounds: int, conn: Any) -> None:
    name = path.name
    try:
        data = path.read_bytes()
        rec = pdf_record(data, name, rounds) if kind == "pdf" else docx_record(data, name)
    except Exception as exc:  # noqa: BLE001  # a crash is what this bench reports
        rec = {"crash": f"{type(exc).__name__}: {str(exc)[:300]}"}
    conn.send(rec)
    conn.close()


def measure(entry: dict[str, Any], rounds: int) -> dict[str, Any]:
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    path = CORPUS / "files" / entry["id"]  # ids end with the file's extension
    proc = ctx.Process(target=run_one, args=(path, entry["kind"], rounds, child))
    proc.start()
    child.close()
    rec: dict[str, Any]
    if parent.poll(FILE_TIMEOUT):
        try:
            rec = parent.recv()
        except EOFError:
            rec = {"crash": "the process died"}
    else:
        rec = {"crash": f"no answer in {FILE_TIMEOUT} s"}
    proc.join(5)
    if proc.is_alive():
        proc.kill()
        proc.join()
    if proc.exitcode not in (0, None) and "crash" not in rec and not rec:
        rec = {"crash": f"exit code {proc.exitcode}"}
    return rec


def median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def report(rows: list[dict[str, Any]], skipped: int, load: tuple[float, float]) -> None:
    pdfs = [r for r in rows if r["kind"] == "pdf"]
    docx = [r for r in rows if r["kind"] == "docx"]
    print(
        f"{len(rows)} files measured ({len(pdfs)} PDF, {len(docx)} DOCX), {skipped} listed but "
        f"not stored (skipped); load average before/after {load[0]:.1f}/{load[1]:.1f}"
    )
    print(
        "\nPDF  id | lang | features | pages | sim PyMuPDF | sim pdfplumber | peers | lost "
        "(non-BMP) | breaks/1k CJK ours/PyMuPDF/pdfplumber | cpu ours/PyMuPDF"
    )
    for r in pdfs:
        if "refused" in r or "crash" in r:
            why = r.get("refused") or r.get("crash")
            print(f"  {r['id']} | {r['language']} | REFUSED/CRASH: {why}")
            continue

        def f(x: float | None) -> str:
            return "  -  " if x is None else f"{x:.3f}"

        k = r.get("cjk", 0)

        def per(b: int, k: int = k) -> str:
            return f"{1000 * b / k:.1f}" if k >= 200 else "-"

        print(
            f"  {r['id']} | {r['language']} | {','.join(r['features']) or '-'} | {r['pages']} | "
            f"{f(r['sim_mupdf'])} | {f(r['sim_plumber'])} | {f(r['sim_peers'])} | {r['lost']} "
            f"({r['lost_nonbmp']}) {r['lost_sample'][:10]!r} | {per(r['breaks_ours'])}/"
            f"{per(r['breaks_mupdf'])}/{per(r['breaks_plumber'])} | "
            f"{1000 * r['cpu_ours'] / r['pages']:.1f}/"
            f"{1000 * r['cpu_mupdf'] / r['pages']:.1f} ms"
        )
    ok = [r for r in pdfs if "pages" in r]
    best = [
        max(x for x in (r["sim_mupdf"], r["sim_plumber"]) if x is not None)
        for r in ok
        if r["sim_mupdf"] is not None or r["sim_plumber"] is not None
    ]
    print("\nPDF summary")
    print(
        f"  read {len(ok)}, refused {sum('refused' in r for r in pdfs)}, "
        f"crashed {sum('crash' in r for r in pdfs)}"
    )
    if ok and best:
        pdf_summary(ok, best)
    report_docx(docx)


def pdf_summary(ok: list[dict[str, Any]], best: list[float]) -> None:
    print(
        f"  reading order (best of the two peers): median {median(best):.3f}, worst "
        f"{min(best):.3f}; files below 0.9: {sum(b < 0.9 for b in best)}"
    )
    for group in ("vertical", "rotated", "non-BMP", "ruby"):
        g = [r for r in ok if group in r["features"]]
        if not g:
            continue
        gb = [max(x for x in (r["sim_mupdf"], r["sim_plumber"]) if x is not None) for r in g]
        print(
            f"  {group} ({len(g)} files): reading order median {median(gb):.3f}, worst "
            f"{min(gb):.3f}; characters lost {sum(r['lost'] for r in g)}, outside the BMP "
            f"{sum(r['lost_nonbmp'] for r in g)} (of {sum(r['ref_nonbmp'] for r in g)} the "
            f"peers read)"
        )
    print(
        f"  characters lost: median {median([r['lost'] for r in ok])}, total "
        f"{sum(r['lost'] for r in ok)}, outside the BMP {sum(r['lost_nonbmp'] for r in ok)} "
        f"(peers read {sum(r['ref_nonbmp'] for r in ok)}, we read "
        f"{sum(r['ours_nonbmp'] for r in ok)})"
    )
    ja = [r for r in ok if r.get("cjk", 0) >= 200]
    for key in ("ours", "mupdf", "plumber") if ja else ():
        rates = [1000 * r[f"breaks_{key}"] / r["cjk"] for r in ja]
        print(
            f"  breaks inside sentences per 1,000 CJK characters ({key}, {len(ja)} files): "
            f"median {median(rates):.1f}, worst {max(rates):.1f}, pooled "
            f"{1000 * sum(r[f'breaks_{key}'] for r in ja) / sum(r['cjk'] for r in ja):.1f}"
        )
    pages = sum(r["pages"] for r in ok)
    co, cm = sum(r["cpu_ours"] for r in ok), sum(r["cpu_mupdf"] for r in ok)
    cp = sum(r["cpu_plumber"] for r in ok)
    cf = sum(r["cpu_pdfium"] for r in ok)
    ratios = [r["cpu_ours"] / r["cpu_mupdf"] for r in ok if r["cpu_mupdf"] > 0]
    print(
        f"  CPU per page over {pages} pages: chunkviz {1000 * co / pages:.1f} ms, PyMuPDF "
        f"{1000 * cm / pages:.1f} ms, pdfplumber {1000 * cp / pages:.1f} ms; ratio to PyMuPDF "
        f"{co / cm:.2f} (per file median {median(ratios):.2f}, worst {max(ratios):.2f})"
    )
    print(
        f"  PDFium alone (open, each page's text page, no character read): "
        f"{1000 * cf / pages:.1f} ms per page, {cf / cm:.2f}x PyMuPDF; chunkviz is "
        f"{co / cf:.2f}x that"
    )


def report_docx(docx: list[dict[str, Any]]) -> None:
    print("\nDOCX  id | features | words found / words per part")
    totals: Counter[str] = Counter()
    for r in docx:
        if "refused" in r or "crash" in r:
            print(f"  {r['id']} | REFUSED/CRASH: {r.get('refused') or r.get('crash')}")
            continue
        parts = []
        for key in ("footnotes", "endnotes", "comments", "textboxes", "content_controls"):
            if f"{key}_words" in r:
                parts.append(f"{key} {r[f'{key}_found']}/{r[f'{key}_words']}")
                totals[key + "_w"] += r[f"{key}_words"]
                totals[key + "_f"] += r[f"{key}_found"]
        print(f"  {r['id']} | {','.join(r['features']) or '-'} | {'; '.join(parts) or '-'}")
    print(
        "DOCX summary: refused "
        f"{sum('refused' in r for r in docx)}, crashed {sum('crash' in r for r in docx)}"
    )
    for key in ("footnotes", "endnotes", "comments", "textboxes", "content_controls"):
        if totals[key + "_w"]:
            print(
                f"  {key}: {totals[key + '_f']}/{totals[key + '_w']} words "
                f"({100 * totals[key + '_f'] / totals[key + '_w']:.1f}%)"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", help="ids (or substrings of ids) to measure")
    parser.add_argument("--json", help="write the per-file records here")
    args = parser.parse_args()
    manifest = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
    entries = manifest["files"]
    if args.only:
        entries = [e for e in entries if any(o in e["id"] for o in args.only)]
    stored = [e for e in entries if e["stored"]]
    skipped = len(entries) - len(stored)
    load0 = os.getloadavg()[0]
    rows = []
    for e in stored:
        rec = measure(e, args.rounds)
        rows.append({**{k: e[k] for k in ("id", "kind", "language", "features")}, **rec})
        print(f"  measured {e['id']}", file=sys.stderr, flush=True)
    report(rows, skipped, (load0, os.getloadavg()[0]))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
