"""Chunking speed: chunkviz ``fixed`` and ``recursive`` against separator-based peers, one run.

Every contestant chunks the same text at the same size and overlap in characters (400/80 by
default) and produces chunk strings; the ones that also return offsets have them CHECKED
(``text[start:start + len(chunk)] == chunk`` for every chunk, and the count of mismatches is
printed). chunkviz is timed through the public ``chunkviz.chunk`` call plus ``chunk_texts()``,
so it pays for the strings as the peers do. Contestants run round-robin, ``--repeats`` times,
and the best CPU time (``time.process_time``) and best wall time of each are kept; ratios are
given for both (CPU time is what other work on a shared machine disturbs least).

Texts: the 59-document JSQuAD corpus (paragraph bodies in numeric ``pN`` order, title prefix
removed, concatenated without separator; chunked document by document) and a ~20 MB text made
by repeating the concatenated corpus (chunked as one document).

Run from the repository root::

    python bench/chunking.py            # full run (several minutes on 2 cores)
    python bench/chunking.py --quick    # one repeat, a 2 MB long text
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import chunkviz  # noqa: E402

DATA_CANDIDATES = (
    ROOT / "chunkviz" / "data" / "jsquad" / "valid-v1.3.json",
    ROOT.parent / "shared" / "data" / "jsquad" / "valid-v1.3.json",
)

Chunks = list[str]
Offsets = list[int] | None  # start offset of each chunk, or None for peers without offsets


@dataclass
class Row:
    cpu: float  # best process CPU time, s (what other work on a shared machine disturbs least)
    wall: float  # best wall-clock time, s
    chunks: int
    offsets: str


@dataclass
class Contestant:
    name: str
    run: Callable[[str], tuple[Chunks, Offsets]]
    note: str = ""


def jsquad_documents(path: Path | None) -> list[str]:
    """The 59 long documents, built by ``chunkviz.datasets.jsquad`` (the corpus builder)."""
    from chunkviz.datasets.jsquad import build_jsquad

    if path is None:
        path = next((p for p in DATA_CANDIDATES if p.is_file()), None)
        if path is None:
            raise SystemExit("JSQuAD valid-v1.3.json not found; pass --data PATH")
    return [d.text for d in build_jsquad(json.loads(path.read_text("utf-8"))).documents]


BARE = "bare slicing (fixed windows)"
BARE_OBJECT = "bare slicing in one result object"
RECURSIVE = "chunkviz recursive"
FIXED = "chunkviz fixed"
LANGCHAIN_PLAIN = "langchain split_text"
#: The separator-based peers that return offsets (issue 2's list); the fastest is the bar.
OFFSET_PEERS = (
    "langchain add_start_index",
    "semantic-text-splitter chunk_indices",
    "chonkie RecursiveChunker",
    "semchunk offsets=True",
)


@dataclass(frozen=True, slots=True)
class Windows:
    """The least a chunker can hand back per document: the text and its window offsets."""

    text: str
    starts: range
    ends: range

    def texts(self) -> list[str]:
        t = self.text
        return [t[s:e] for s, e in zip(self.starts, self.ends, strict=True)]


def contestants(size: int, overlap: int) -> list[Contestant]:
    """chunkviz, bare slicing and every installed peer, configured for size/overlap chars."""
    stride = size - overlap

    def cv(strategy: str) -> Callable[[str], tuple[Chunks, Offsets]]:
        def run(text: str) -> tuple[Chunks, Offsets]:
            result = chunkviz.chunk(text, strategy, size=size, overlap=overlap)
            return result.chunk_texts(), result.starts()

        return run

    def bare(text: str) -> tuple[Chunks, Offsets]:
        n = len(text)
        starts = range(0, max(n - overlap, 1), stride) if n > size else range(min(n, 1))
        return [text[s : s + size] for s in starts], list(starts)

    def bare_in_object(text: str) -> tuple[Chunks, Offsets]:
        n = len(text)
        starts = range(0, max(n - overlap, 1), stride) if n > size else range(min(n, 1))
        windows = Windows(text, starts, range(size, size + len(starts) * stride, stride))
        return windows.texts(), list(windows.starts)

    out = [
        Contestant(RECURSIVE, cv("recursive")),
        Contestant(FIXED, cv("fixed")),
        Contestant(BARE, bare, "list comprehension of text[s:s+size]"),
        Contestant(
            BARE_OBJECT,
            bare_in_object,
            "control: the same slicing, returned through one small frozen object per "
            "document, without validation",
        ),
    ]
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter
    except ImportError:
        print("langchain-text-splitters not installed: skipped", file=sys.stderr)
    else:
        lc_index = RecursiveCharacterTextSplitter(
            chunk_size=size, chunk_overlap=overlap, add_start_index=True
        )
        lc_plain = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)
        lc_ja = RecursiveCharacterTextSplitter(
            chunk_size=size,
            chunk_overlap=overlap,
            separators=["\n\n", "\n", "。", "、", " ", ""],
            keep_separator="end",
        )

        def langchain_index(text: str) -> tuple[Chunks, Offsets]:
            docs = lc_index.create_documents([text])
            return [d.page_content for d in docs], [d.metadata["start_index"] for d in docs]

        out += [
            Contestant(
                "langchain add_start_index",
                langchain_index,
                "default separators; offsets found with str.find",
            ),
            Contestant(
                LANGCHAIN_PLAIN,
                lambda t: (lc_plain.split_text(t), None),
                "default separators; strings only",
            ),
            Contestant(
                "langchain split_text (。、 separators)",
                lambda t: (lc_ja.split_text(t), None),
                "\\n\\n \\n 。 、 space ''; strings only",
            ),
        ]
    try:
        from semantic_text_splitter import TextSplitter
    except ImportError:
        print("semantic-text-splitter not installed: skipped", file=sys.stderr)
    else:
        splitter = TextSplitter(size, overlap=overlap)

        def sts(text: str) -> tuple[Chunks, Offsets]:
            pairs = splitter.chunk_indices(text)
            return [c for _, c in pairs], [s for s, _ in pairs]

        out.append(Contestant("semantic-text-splitter chunk_indices", sts, "Rust"))
    try:
        import semchunk
    except ImportError:
        print("semchunk not installed: skipped", file=sys.stderr)
    else:
        chunker = semchunk.chunkerify(len, size)

        def semchunk_run(text: str) -> tuple[Chunks, Offsets]:
            chunks, offsets = chunker(text, overlap=overlap, offsets=True)
            return chunks, [s for s, _ in offsets]

        out.append(Contestant("semchunk offsets=True", semchunk_run, "token counter len"))
    try:
        from chonkie import RecursiveChunker
    except ImportError:
        print("chonkie not installed: skipped", file=sys.stderr)
    else:
        chonkie = RecursiveChunker(tokenizer="character", chunk_size=size)

        def chonkie_run(text: str) -> tuple[Chunks, Offsets]:
            chunks = chonkie.chunk(text)
            return [c.text for c in chunks], [c.start_index for c in chunks]

        out.append(
            Contestant(
                "chonkie RecursiveChunker",
                chonkie_run,
                "no overlap option: runs at overlap 0 (less work)",
            )
        )
    return out


def check(texts: Sequence[str], outputs: Sequence[tuple[Chunks, Offsets]]) -> str:
    """How many chunks' offsets do not reproduce their text ("-" when there are no offsets)."""
    total = bad = 0
    for text, (chunks, offsets) in zip(texts, outputs, strict=True):
        if offsets is None:
            return "-"
        if len(offsets) != len(chunks):
            return "count mismatch"
        for start, chunk in zip(offsets, chunks, strict=True):
            total += 1
            bad += text[start : start + len(chunk)] != chunk
    return "ok" if bad == 0 else f"{bad}/{total} wrong"


def measure(field: Sequence[Contestant], texts: Sequence[str], repeats: int) -> dict[str, Row]:
    """Best CPU and wall time, chunk count and offset check of each contestant on ``texts``."""
    rows: dict[str, Row] = {}
    for _ in range(repeats):
        for c in field:  # round-robin: machine noise hits every contestant alike
            # Start every run from a clean heap: the garbage collector would otherwise walk
            # the previous contestant's objects during this one's run.
            gc.collect()
            w0, c0 = time.perf_counter(), time.process_time()
            outputs = [c.run(t) for t in texts]
            cpu, wall = time.process_time() - c0, time.perf_counter() - w0
            if c.name not in rows:
                count = sum(len(o[0]) for o in outputs)
                rows[c.name] = Row(cpu, wall, count, check(texts, outputs))
            else:
                row = rows[c.name]
                row.cpu, row.wall = min(row.cpu, cpu), min(row.wall, wall)
            del outputs
    return rows


def targets(rows: dict[str, Row]) -> list[str]:
    """Issue 2's speed targets, each with its measured CPU-time ratio and whether it holds."""
    rec, fix = rows[RECURSIVE], rows[FIXED]
    lines = []
    peers = [name for name in OFFSET_PEERS if name in rows]
    if peers:
        fastest = min(peers, key=lambda name: rows[name].cpu)
        ratio = rows[fastest].cpu / rec.cpu
        lines.append(
            f"recursive vs fastest offsets peer ({fastest}): {ratio:.2f}x faster "
            f"(target >= 2): {'met' if ratio >= 2 else 'NOT met'}"
        )
    if LANGCHAIN_PLAIN in rows:
        ratio = rows[LANGCHAIN_PLAIN].cpu / rec.cpu
        lines.append(
            f"recursive vs {LANGCHAIN_PLAIN}: {ratio:.2f}x faster "
            f"(target >= 1): {'met' if ratio >= 1 else 'NOT met'}"
        )
    ratio = fix.cpu / rows[BARE].cpu
    lines.append(
        f"fixed vs bare slicing: {ratio:.2f}x the time (target <= 1.5): "
        f"{'met' if ratio <= 1.5 else 'NOT met'}"
    )
    if BARE_OBJECT in rows:
        floor = rows[BARE_OBJECT].cpu / rows[BARE].cpu
        lines.append(
            f"control, bare slicing in one result object: {floor:.2f}x the time of bare slicing"
        )
    return lines


def print_table(title: str, field: Sequence[Contestant], rows: dict[str, Row]) -> None:
    rec = rows[RECURSIVE]
    fix = rows[FIXED]
    print(f"\n### {title}\n")
    print(
        "| contestant | CPU ms | wall ms | chunks | offsets | CPU / recursive | "
        "wall / recursive | CPU / fixed | note |"
    )
    print("|---|---:|---:|---:|---|---:|---:|---:|---|")
    for c in field:
        r = rows[c.name]
        print(
            f"| {c.name} | {r.cpu * 1e3:.1f} | {r.wall * 1e3:.1f} | {r.chunks} | {r.offsets} "
            f"| {r.cpu / rec.cpu:.2f} | {r.wall / rec.wall:.2f} | {r.cpu / fix.cpu:.2f} "
            f"| {c.note} |"
        )
    print()
    for line in targets(rows):
        print(f"- {line}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=400)
    parser.add_argument("--overlap", type=int, default=80)
    parser.add_argument("--repeats", type=int, default=15, help="repeats on the corpus")
    parser.add_argument("--long-repeats", type=int, default=3, help="repeats on the long text")
    parser.add_argument("--long-mb", type=float, default=20.0, help="size of the long text")
    parser.add_argument("--quick", action="store_true", help="1 repeat, a 2 MB long text")
    parser.add_argument("--data", type=Path, default=None, help="JSQuAD valid-v1.3.json")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeats, args.long_repeats, args.long_mb = 1, 1, 2.0
    docs = jsquad_documents(args.data)
    corpus = "".join(docs)
    long_text = corpus * max(1, round(args.long_mb * 1e6 / len(corpus)))
    field = contestants(args.size, args.overlap)
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"size={args.size} overlap={args.overlap} chars"
    )
    print(
        f"corpus: {len(docs)} documents, {len(corpus):,} characters; "
        f"long text: {len(long_text):,} characters"
    )
    print_table(
        f"JSQuAD corpus, {len(docs)} documents (best of {args.repeats})",
        field,
        measure(field, docs, args.repeats),
    )
    print_table(
        f"{len(long_text) / 1e6:.1f} M characters, one document (best of {args.long_repeats})",
        field,
        measure(field, [long_text], args.long_repeats),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
