"""Hostile input: does any strategy's time grow faster than the text on pathological input?

Each pathological text (runs of spaces, dots, newlines, commas, a run of 。 before と, Markdown
tables with commas in their cells, CSV-like blocks, and ordinary prose for reference) is built at
N and 4N characters and chunked by every registered strategy with its defaults, each strategy in
a fresh interpreter. The time of one chunking is the best of several measurements of process CPU
time (``time.process_time``: what other work on a shared machine disturbs least); each
measurement repeats the call until it has run for at least ``--min-time`` seconds, so that fast
strategies are not timed at the clock's resolution. The N and 4N measurements alternate, round
by round, after a garbage collection, so that a change of load on the machine between them does
not land on one side of the ratio; a cell takes at least 3 rounds and more (up to 8, within a
CPU budget) until neither best time moved by more than 1% in two rounds (``settled_pair``). The
growth ratio is time(4N) / time(N): linear is 4, quadratic 16. Every ratio must be at most 5;
the script exits 1 otherwise.

NOTE N is a million characters so that N and 4N both leave the CPU caches: strategies that keep
one offset per character (recursive on a run without separators) are memory-bound, and between
sizes that fit a cache and sizes that do not the time per character itself grows (``list(range(
n))`` alone took 6.8 times longer at 80,000 than at 20,000 here, while the regexes that were
quadratic gave ratios of 16).

Then ``semantic`` (default TF-IDF embedder) runs on 1 MB and 10 MB of prose, each in a fresh
interpreter: its peak resident memory above the interpreter's baseline (after imports, before the
text exists) must stay under 300 MB for 1 MB, and the 10 MB run must complete.

Then the cases of issue 26 (``hostile_rows``): aligning 20,000 chunks that are not in the
document to 1 M characters (a document of one repeated character, where every anchor occurs
everywhere) must take at most 20 s of CPU, synthetic questions on 200,000 characters at most
5 s, and each must grow at most 5x from N to 4N (5,000 chunks to 250,000 characters; 50,000
characters).

Run from the repository root::

    python bench/adversarial.py              # N = 1,000,000 (about ten minutes on 2 cores)
    python bench/adversarial.py --quick      # N = 10,000, 2-3 rounds, 1 MB memory run only
    python bench/adversarial.py --hostile-only   # issue 26's cases only (about a minute)
    python bench/adversarial.py --documents      # issue 41's bombs only (about two minutes)

Issue 41's bombs (``--documents``): an inflate bomb, a page of millions of characters, one of
millions of rectangles, a 1 x 14,400 pt page drawn, a .docx whose main part is not named .xml,
a gridSpan of 2^31, a long vertical merge, a zip of 600,000 entries and a file of millions of
chunks to audit, each built at N and 4N where it has a size, written to a file and read in a
fresh interpreter: its CPU time (imports included) must stay within 20 s and its peak resident
memory within 1.5 GB (1,536 MB); growth is the CPU ratio from N to 4N (about 1 for a bomb
refused at its limit, about 4 for work that is linear).
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import chunkviz  # noqa: E402
from chunkviz.strategies import all_strategies  # noqa: E402

MAX_RATIO = 5.0
MEMORY_LIMIT_MB = 300.0


def _prose(n: int) -> str:
    samples = ROOT / "chunkviz" / "samples"
    base = (
        (samples / "policy_ja.md").read_text(encoding="utf-8")
        + "\n\n"
        + (samples / "tech_en.md").read_text(encoding="utf-8")
    )
    return (base * (n // len(base) + 1))[:n]


def _repeat(unit: str, n: int) -> str:
    return (unit * (n // len(unit) + 1))[:n]


INPUTS: dict[str, Callable[[int], str]] = {
    "spaces": lambda n: "a" + " " * (n - 2) + "b",
    "dots": lambda n: "a" + "." * (n - 2) + "b",
    "newlines": lambda n: "a" + "\n" * (n - 2) + "b",
    "commas": lambda n: "a" + "," * (n - 2) + "b",
    "。 run before と": lambda n: "a" + "。" * (n - 2) + "と",
    "md tables, commas": lambda n: _repeat(
        "| name | price, yen |\n|---|---|\n| a, b | 1,000 |\n| c | 2,000 |\n\n", n
    ),
    "csv blocks": lambda n: _repeat("k,v,w\n1,2,3\n4,5,6\n7,8,9\n\n", n),
    "prose": _prose,
}


def cpu_time(fn: Callable[[], object], min_time: float) -> float:
    """Per-call CPU time of one measurement: ``fn`` repeated for at least ``min_time``."""
    gc.collect()
    calls = 0
    start = time.process_time()
    while True:
        fn()
        calls += 1
        elapsed = time.process_time() - start
        if elapsed >= min_time:
            return elapsed / calls


def settled_pair(
    small: Callable[[], object],
    large: Callable[[], object],
    rounds: tuple[int, int],
    min_time: float,
    budget: float,
) -> tuple[float, float, int]:
    """Best per-call CPU times of ``small`` and ``large``, measured alternately round by round.

    At least ``rounds[0]`` rounds; then more, up to ``rounds[1]``, until neither best time
    improved by more than 1% in the last two rounds, or ``budget`` seconds of CPU have gone.
    The rule looks at each best time on its own, never at their ratio, so it cannot steer the
    ratio; it spends more rounds where one round disturbed by the machine would decide the cell.
    """
    fewest, most = rounds
    bests: list[tuple[float, float]] = []
    best_small = best_large = float("inf")
    spent = 0.0
    while len(bests) < most:
        t_small, t_large = cpu_time(small, min_time), cpu_time(large, min_time)
        spent += t_small + t_large
        best_small, best_large = min(best_small, t_small), min(best_large, t_large)
        bests.append((best_small, best_large))
        if len(bests) >= max(fewest, 3):
            old_small, old_large = bests[-3]
            settled = best_small > 0.99 * old_small and best_large > 0.99 * old_large
            if settled or spent > budget:
                break
    return best_small, best_large, len(bests)


def growth_rows(
    strategy: str,
    n: int,
    rounds: tuple[int, int],
    min_time: float,
    budget: float,
    inputs: list[str],
) -> list[dict[str, object]]:
    """One row per input for ``strategy``: times at N and 4N, their ratio, rounds taken."""
    rows: list[dict[str, object]] = []
    chunkviz.chunk("warm up. Imports and models load here.", strategy)
    for name, make in INPUTS.items():
        if inputs and name not in inputs:
            continue
        small, large = make(n), make(4 * n)
        t1, t4, taken = settled_pair(
            lambda s=small: chunkviz.chunk(s, strategy),
            lambda s=large: chunkviz.chunk(s, strategy),
            rounds,
            min_time,
            budget,
        )
        rows.append(
            {
                "strategy": strategy,
                "input": name,
                "t_n": t1,
                "t_4n": t4,
                "ratio": t4 / t1 if t1 > 0 else float("nan"),
                "rounds": taken,
            }
        )
        print(
            f"  {strategy:<12} {name:<18} {t1 * 1e3:9.2f} ms {t4 * 1e3:9.2f} ms "
            f"{t4 / t1:5.2f}  ({taken} rounds)",
            file=sys.stderr,
            flush=True,
        )
    return rows


def growth_table(
    n: int,
    rounds: tuple[int, int],
    min_time: float,
    budget: float,
    strategies: list[str],
    inputs: list[str],
) -> list[dict[str, object]]:
    """Every strategy's rows, each strategy in a fresh interpreter.

    NOTE a fresh interpreter per strategy: after the strategies before it, the allocator's heap
    is fragmented and grown, which moved the 4N times of later strategies more than earlier
    ones'; each strategy now starts from the same state, whatever the order.
    """
    rows: list[dict[str, object]] = []
    for spec in all_strategies():
        if strategies and spec.name not in strategies:
            continue
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--growth-child",
                spec.name,
                "--n",
                str(n),
                "--rounds",
                f"{rounds[0]},{rounds[1]}",
                "--min-time",
                str(min_time),
                "--budget",
                str(budget),
                "--inputs",
                ",".join(inputs),
            ],
            stdout=subprocess.PIPE,
            text=True,
            check=True,
            cwd=ROOT,
        )
        rows += json.loads(out.stdout.strip().splitlines()[-1])
    return rows


def _status_mb(field: str) -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def semantic_memory_child(size: int) -> None:
    """In a fresh interpreter: chunk ``size`` characters with semantic; print JSON."""
    import scipy.sparse  # noqa: F401  - imports belong to the baseline, not to the run
    import sklearn.feature_extraction.text  # noqa: F401

    chunkviz.chunk("Warm up. Two sentences.", "semantic")
    # NOTE the peak is VmHWM, reset here: getrusage's ru_maxrss survives exec, so a child of a
    # large parent reports the parent's peak (2.6 GB for every size, seen in the first run).
    with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
        f.write("5")
    baseline = _status_mb("VmRSS")
    text = _prose(size)
    start = time.process_time()
    result = chunkviz.chunk(text, "semantic")
    seconds = time.process_time() - start
    peak = _status_mb("VmHWM")
    print(
        json.dumps(
            {
                "chars": size,
                "chunks": len(result.chunks),
                "cpu_s": seconds,
                "peak_above_baseline_mb": peak - baseline,
            }
        )
    )


def semantic_memory(size: int) -> dict[str, object]:
    """Run ``semantic_memory_child`` in a subprocess and return what it printed."""
    out = subprocess.run(
        [sys.executable, __file__, "--semantic-memory-child", str(size)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


#: Issue 26's bounds: alignment of 20,000 chunks to 1 M characters, synthetic questions on
#: 200,000 characters, and growth per 4x of the input.
ALIGN_LIMIT_S = 20.0
SYNTHETIC_LIMIT_S = 5.0


def _hostile_chunks(doc_chars: int, chunks: int) -> tuple[str, list[str]]:
    """A document of one repeated character and chunks of it with another mixed in.

    Every anchor of a partial alignment occurs everywhere, and no chunk is in the document:
    before the alignment's budget, 40-100 ms a chunk (311 s for 20,000 against 1 M).
    """
    import random

    rng = random.Random(0)
    return "a" * doc_chars, ["".join(rng.choice("aab") for _ in range(200)) for _ in range(chunks)]


def hostile_rows(quick: bool) -> list[dict[str, object]]:
    """Alignment and synthetic questions at N and 4N: CPU seconds, their ratio, the bound."""
    from chunkviz.datasets.base import Document
    from chunkviz.eval.align import align_chunks
    from chunkviz.eval.synthetic import synthetic_questions

    scale = 10 if quick else 1
    rows: list[dict[str, object]] = []
    times = []
    for doc_chars, chunks in (
        (250_000 // scale, 5_000 // scale),
        (1_000_000 // scale, 20_000 // scale),
    ):
        doc, pieces = _hostile_chunks(doc_chars, chunks)
        times.append(cpu_time(lambda d=doc, c=pieces: align_chunks(d, c), 0.0))
    rows.append(
        {
            "case": f"align {20_000 // scale:,} chunks to {1_000_000 // scale:,} chars",
            "t_n": times[0],
            "t_4n": times[1],
            "ratio": times[1] / times[0],
            "limit_s": ALIGN_LIMIT_S,
        }
    )
    for form in ("context", "shaped"):  # shaped: the default form
        small, large = (Document("d", "d", _prose(n)) for n in (50_000 // scale, 200_000 // scale))
        # A tenth of a second measured once moved the growth between 2.5 and 6.6: best of
        # settled rounds, as for the strategies.
        t_n, t_4n, _ = settled_pair(
            lambda f=form, d=small: synthetic_questions(d, f),
            lambda f=form, d=large: synthetic_questions(d, f),
            (3, 9),
            0.2,
            30.0,
        )
        times = [t_n, t_4n]
        rows.append(
            {
                "case": f"synthetic {form} questions, {200_000 // scale:,} chars",
                "t_n": times[0],
                "t_4n": times[1],
                "ratio": times[1] / times[0],
                "limit_s": SYNTHETIC_LIMIT_S,
            }
        )
    return rows


def print_hostile(rows: list[dict[str, object]]) -> bool:
    """Print the hostile rows as a table; True when one breaks its time or growth bound."""
    print("\n| case | N: CPU s | 4N: CPU s | growth | bound at 4N |")
    print("|---|---:|---:|---:|---:|")
    failed = False
    for r in rows:
        t_n, t_4n, ratio, limit = (float(r[k]) for k in ("t_n", "t_4n", "ratio", "limit_s"))  # type: ignore[arg-type]
        print(f"| {r['case']} | {t_n:.2f} | {t_4n:.2f} | {ratio:.2f} | {limit:g} s |")
        failed |= ratio > MAX_RATIO or t_4n > limit
    return failed


# --- Issue 41: bombs in documents, each read in a fresh interpreter -----------------------------

#: Every hostile document's bounds: CPU seconds of its interpreter (imports included) and peak
#: resident memory.
DOCUMENT_CPU_S = 20.0
DOCUMENT_PEAK_MB = 1536.0


def _deflate(pieces: Iterable[bytes]) -> bytes:
    """``pieces`` through one zlib stream, never all of them in memory at once."""
    import zlib

    packer = zlib.compressobj(1)
    return b"".join(packer.compress(p) for p in pieces) + packer.flush()


def _pdf_inflate(mib: int) -> tuple[str, bytes]:
    from tests.helpers import one_page_pdf

    spaces = b" " * (1 << 20)
    return "pdf", one_page_pdf(_deflate(spaces for _ in range(mib)), deflated=True)


def _pdf_dense_page(chars: int) -> tuple[str, bytes]:
    from tests.helpers import one_page_pdf

    show = b"(" + b"A" * 10_000 + b") Tj "
    content = (b"BT /F1 1 Tf 0 700 Td ", *(show for _ in range(chars // 10_000)), b"ET")
    return "pdf", one_page_pdf(_deflate(content), deflated=True)


def _pdf_rectangles(count: int) -> tuple[str, bytes]:
    from tests.helpers import one_page_pdf

    square = b"0 0 1 1 re f\n"
    return "pdf", one_page_pdf(
        _deflate(square * 10_000 for _ in range(count // 10_000)), deflated=True
    )


def _pdf_thin_page(_: int) -> tuple[str, bytes]:
    from tests.helpers import one_page_pdf

    return "render", one_page_pdf(b"BT /F1 1 Tf 0 700 Td (A) Tj ET", width=1, height=14_400)


def _docx(edit: Callable[[object], None]) -> bytes:
    import io

    import docx

    document = docx.Document()
    document.add_paragraph("before")
    edit(document)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _docx_renamed_part(mb: int) -> tuple[str, bytes]:
    """A .docx whose main part is ``word/document.bin`` and holds ``mb`` MB of paragraphs."""
    import io
    import zipfile

    base = zipfile.ZipFile(io.BytesIO(_docx(lambda d: None)))
    paragraph = b"<w:p><w:r><w:t>" + b"A" * 100_000 + b"</w:t></w:r></w:p>"
    out = io.BytesIO()
    with base, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in base.infolist():
            body = base.read(item.filename)
            if item.filename == "word/document.xml":
                head, tail = body.split(b"<w:body>", 1)
                with dst.open("word/document.bin", "w") as f:
                    f.write(head + b"<w:body>")
                    for _ in range(mb * 10):
                        f.write(paragraph)
                    f.write(tail)
                continue
            body = body.replace(b"/word/document.xml", b"/word/document.bin")
            body = body.replace(b'Target="word/document.xml"', b'Target="word/document.bin"')
            dst.writestr(item.filename, body)
    return "docx", out.getvalue()


def _docx_grid_span(_: int) -> tuple[str, bytes]:
    def edit(document: object) -> None:
        from docx.oxml.ns import qn
        from docx.oxml.parser import OxmlElement

        table = document.add_table(rows=2, cols=2)  # type: ignore[attr-defined]
        span = OxmlElement("w:gridSpan")
        span.set(qn("w:val"), "2147483647")
        table._tbl.tr_lst[0].tc_lst[0].get_or_add_tcPr().append(span)

    return "docx", _docx(edit)


def _docx_merge(rows: int) -> tuple[str, bytes]:
    def edit(document: object) -> None:
        from docx.table import _Cell

        table = document.add_table(rows=rows, cols=2)  # type: ignore[attr-defined]
        for i, tr in enumerate(table._tbl.tr_lst):
            tr.tc_lst[0].get_or_add_tcPr().vMerge_val = "restart" if i == 0 else "continue"
            _Cell(tr.tc_lst[1], table).text = f"r{i}"

    return "docx", _docx(edit)


def _zip_of_entries(count: int) -> tuple[str, bytes]:
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for i in range(count):
            archive.writestr(str(i), b"")
    return "docx", out.getvalue()


def _chunk_file(count: int) -> tuple[str, bytes]:
    return "audit", ("[" + ",".join(['"a"'] * count) + "]").encode()


#: (case, builder, N, 4N or None): each builder makes (how to read it, the file's bytes).
DOCUMENTS: tuple[tuple[str, Callable[[int], tuple[str, bytes]], int, int | None], ...] = (
    ("PDF stream inflating to N MiB", _pdf_inflate, 384, 1536),
    ("PDF page of N characters", _pdf_dense_page, 5_000_000, 20_000_000),
    ("PDF page of N rectangles", _pdf_rectangles, 1_000_000, 4_000_000),
    ("PDF page 1 x 14,400 pt, drawn", _pdf_thin_page, 1, None),
    ("DOCX main part not .xml, N MB", _docx_renamed_part, 150, 600),
    ("DOCX gridSpan 2,147,483,647", _docx_grid_span, 1, None),
    ("DOCX vertical merge of N rows", _docx_merge, 375, 1_500),
    ("DOCX zip of N empty entries", _zip_of_entries, 150_000, 600_000),
    ("audit of N chunks", _chunk_file, 1_000_000, 3_990_000),
)


def document_child(kind: str, path: str) -> None:
    """In a fresh interpreter: read the hostile file at ``path``; print JSON (outcome, cost)."""
    import resource

    from chunkviz.errors import ChunkvizError

    with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
        f.write("5")  # VmHWM from here: ru_maxrss would report the parent's peak (see above)
    data = Path(path).read_bytes()
    try:
        if kind == "render":
            from chunkviz.pdf.render import render_page

            outcome = f"drawn, {len(render_page(data, 0)):,} PNG bytes"
        elif kind == "audit":
            from chunkviz.eval.align import align_file

            doc = "a" * 1_000
            outcome = f"aligned {len(align_file(doc, path).chunks):,} chunks"
        else:
            from chunkviz.extract import extract

            outcome = f"read, {len(extract(data, f'bomb.{kind}').text):,} characters"
    except ChunkvizError as exc:
        outcome = f"refused: {str(exc)[:90]}"
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(
        json.dumps(
            {
                "outcome": outcome,
                "cpu_s": usage.ru_utime + usage.ru_stime,
                "peak_mb": _status_mb("VmHWM"),
            }
        )
    )


def _read_in_child(kind: str, data: bytes) -> dict[str, object]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"bomb.{'json' if kind == 'audit' else kind}"
        path.write_bytes(data)
        del data
        out = subprocess.run(
            [sys.executable, __file__, "--document-child", kind, str(path)],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def document_rows() -> list[dict[str, object]]:
    """Each hostile document at N (and 4N): file size, CPU s and peak memory of its reading."""
    rows: list[dict[str, object]] = []
    for case, build, n, n4 in DOCUMENTS:
        row: dict[str, object] = {"case": case, "n": n, "n4": n4}
        for size, key in ((n, "n"), (n4, "4n")):
            if size is None:
                continue
            kind, data = build(size)
            row[f"bytes_{key}"] = len(data)
            got = _read_in_child(kind, data)
            row.update({f"{k}_{key}": v for k, v in got.items()})
            print(f"  {case} (N={size:,}): {got}", file=sys.stderr, flush=True)
        rows.append(row)
    return rows


def print_documents(rows: list[dict[str, object]]) -> bool:
    """Print the hostile documents as a table; True when one breaks its CPU or memory bound."""
    print(
        "\n| hostile document | N | file | CPU s | peak MB | 4N: file | CPU s | peak MB | "
        "growth | outcome at the larger |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    failed = False
    for r in rows:
        big = "4n" if r.get("n4") else "n"
        cells = [
            f"{int(r['n']):,}",
            f"{int(r['bytes_n']):,}",
            f"{float(r['cpu_s_n']):.1f}",  # type: ignore[call-overload, arg-type]
            f"{float(r['peak_mb_n']):.0f}",
        ]  # type: ignore[arg-type]
        if big == "4n":
            cells += [
                f"{int(r['bytes_4n']):,}",
                f"{float(r['cpu_s_4n']):.1f}",  # type: ignore[call-overload, arg-type]
                f"{float(r['peak_mb_4n']):.0f}",  # type: ignore[arg-type]
                f"{float(r['cpu_s_4n']) / float(r['cpu_s_n']):.2f}",
            ]  # type: ignore[arg-type]
        else:
            cells += ["", "", "", ""]
        print(f"| {r['case']} | " + " | ".join(cells) + f" | {r[f'outcome_{big}']} |")
        for key in ("n", "4n"):
            if f"cpu_s_{key}" in r:
                failed |= float(r[f"cpu_s_{key}"]) > DOCUMENT_CPU_S  # type: ignore[arg-type]
                failed |= float(r[f"peak_mb_{key}"]) > DOCUMENT_PEAK_MB  # type: ignore[arg-type]
    return failed


def main(argv: list[str] | None = None) -> int:
    """Run the growth table and the semantic memory runs; exit 1 if a bound is broken."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="the smaller size N (characters)")
    parser.add_argument(
        "--rounds", default="3,8", help="fewest,most alternating rounds per cell (see settled_pair)"
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=120.0,
        help="CPU seconds after which a cell takes no more rounds",
    )
    parser.add_argument(
        "--min-time",
        type=float,
        default=0.05,
        help="seconds each measurement runs at least (calls are repeated)",
    )
    parser.add_argument("--quick", action="store_true", help="N=10,000, 2-3 rounds, 1 MB only")
    parser.add_argument("--semantic-memory-child", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--growth-child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    parser.add_argument("--strategies", default="", help="comma-separated subset (default all)")
    parser.add_argument("--inputs", default="", help="comma-separated subset of the inputs")
    parser.add_argument("--memory-only", action="store_true", help="only the semantic runs")
    parser.add_argument(
        "--hostile-only",
        action="store_true",
        help="only the alignment and synthetic-question cases (issue 26)",
    )
    parser.add_argument(
        "--documents",
        action="store_true",
        help="only the hostile documents (issue 41; about two minutes)",
    )
    parser.add_argument("--document-child", nargs=2, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.semantic_memory_child is not None:
        semantic_memory_child(args.semantic_memory_child)
        return 0
    if args.document_child is not None:
        document_child(*args.document_child)
        return 0
    if args.documents:
        print(
            f"# chunkviz adversarial: hostile documents (issue 41), each read in a fresh "
            f"interpreter; bounds {DOCUMENT_CPU_S:g} s CPU and {DOCUMENT_PEAK_MB:g} MB"
        )
        failed = print_documents(document_rows())
        print("\nFAIL" if failed else "\nOK: every hostile document within its bounds")
        return 1 if failed else 0
    fewest, most = (int(x) for x in args.rounds.split(","))
    inputs = [x for x in args.inputs.split(",") if x]
    if args.growth_child is not None:
        print(
            json.dumps(
                growth_rows(
                    args.growth_child, args.n, (fewest, most), args.min_time, args.budget, inputs
                )
            )
        )
        return 0
    if args.quick:
        args.n, fewest, most, args.min_time = 10_000, 2, 3, 0.05
    hostile = hostile_rows(args.quick)
    if args.hostile_only:
        print("# chunkviz adversarial: alignment and synthetic questions (issue 26)")
        return 1 if print_hostile(hostile) else 0
    print(
        f"# chunkviz adversarial growth, N={args.n:,}, best of {fewest}-{most} alternating "
        f"rounds (each >= {args.min_time} s CPU), Python {platform.python_version()}"
    )
    # The memory runs come first, while this process is small.
    sizes = [1_000_000] if args.quick else [1_000_000, 10_000_000]
    memory = [semantic_memory(s) for s in sizes]
    rows = (
        []
        if args.memory_only
        else growth_table(
            args.n,
            (fewest, most),
            args.min_time,
            args.budget,
            [x for x in args.strategies.split(",") if x],
            inputs,
        )
    )

    names = list(dict.fromkeys(str(r["input"]) for r in rows))
    print("\n| strategy | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for spec in all_strategies():
        cells = [f"{float(r['ratio']):.2f}" for r in rows if r["strategy"] == spec.name]  # type: ignore[arg-type]
        if cells:
            print(f"| {spec.name} | " + " | ".join(cells) + " |")
    worst = max(rows, key=lambda r: float(r["ratio"]), default=None)  # type: ignore[arg-type]
    if worst is not None:
        print(
            f"\nworst ratio: {float(worst['ratio']):.2f} ({worst['strategy']}, "  # type: ignore[arg-type]
            f"{worst['input']}); bound {MAX_RATIO}"
        )
    print("\n| semantic on | chunks | CPU s | peak above baseline |")
    print("|---|---:|---:|---:|")
    for m in memory:
        print(
            f"| {int(m['chars']) / 1e6:g} MB | {m['chunks']:,} | {float(m['cpu_s']):.1f} | "  # type: ignore[call-overload]
            f"{float(m['peak_above_baseline_mb']):.0f} MB |"
        )  # type: ignore[arg-type]
    if args.json is not None:
        args.json.write_text(
            json.dumps({"rows": rows, "memory": memory, "hostile": hostile}, indent=1)
        )
    failed = print_hostile(hostile)
    failed |= print_documents(document_rows())
    failed |= worst is not None and float(worst["ratio"]) > MAX_RATIO  # type: ignore[arg-type]
    failed |= float(memory[0]["peak_above_baseline_mb"]) >= MEMORY_LIMIT_MB  # type: ignore[arg-type]
    print("\nFAIL" if failed else "\nOK: every ratio <= 5 and semantic within its memory bound")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
