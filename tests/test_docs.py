"""Links in README.md and docs/*.md resolve: every relative file and every ``#anchor``.

Anchors are GitHub's: a heading's text, lower-cased, with everything but letters, digits,
``_``, ``-`` and spaces dropped and each space made a ``-``; a repeated slug gets ``-1``, ``-2``.
Headings and links inside fenced code blocks do not count. Code and docs that name a section of
docs/benchmarks.md in words (``docs/benchmarks.md, "Encoder threads"``) are held to its
headings too, so splitting or renaming a section cannot strand them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BENCHMARKS = ROOT / "docs" / "benchmarks.md"

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LINK = re.compile(r"(?<!!)\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HTML_ID = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"", re.IGNORECASE)
#: ``docs/benchmarks.md`` (or ``benchmarks.md``), then a section named in double quotes.
_NAMED = re.compile(r"benchmarks\.md`?(?:,\s*|\s*\(\s*)\"([^\"=()]{1,80})\"")


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks."""
    out, fence = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fence = not fence
            continue
        if not fence:
            out.append(line)
    return out


def heading_text(raw: str) -> str:
    """A heading as rendered text: links become their text, code and emphasis marks go."""
    raw = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    return raw.replace("`", "").replace("*", "")


def slug(text: str) -> str:
    """GitHub's anchor for a heading's rendered text."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def headings(path: Path) -> list[str]:
    """The rendered text of every heading of a Markdown file, in order."""
    out = []
    for line in prose_lines(path.read_text(encoding="utf-8")):
        m = _HEADING.match(line)
        if m:
            out.append(heading_text(m.group(2)))
    return out


def anchors(path: Path) -> set[str]:
    """Every anchor a link into ``path`` may use."""
    seen: dict[str, int] = {}
    out = set()
    for text in headings(path):
        base = slug(text)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    out.update(_HTML_ID.findall(path.read_text(encoding="utf-8")))
    return out


def links(path: Path) -> list[str]:
    """Every link target of a Markdown file outside fenced code (inline code spans dropped)."""
    out = []
    for line in prose_lines(path.read_text(encoding="utf-8")):
        out.extend(_LINK.findall(re.sub(r"`[^`]*`", "", line)))
    return out


def relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)


def test_the_slug_rule_on_known_headings() -> None:
    assert slug(heading_text("Chunking speed (`bench/chunking.py`)")) == (
        "chunking-speed-benchchunkingpy"
    )
    assert slug(heading_text("Tune's CPU time on a 30,000-character document")) == (
        "tunes-cpu-time-on-a-30000-character-document"
    )
    assert slug("Growth of every strategy: every ratio ≤ 5") == (
        "growth-of-every-strategy-every-ratio--5"
    )
    assert slug("梅雨 の 例") == "梅雨-の-例"


def test_fenced_code_is_not_a_heading_nor_a_link(tmp_path: Path) -> None:
    doc = tmp_path / "x.md"
    doc.write_text(
        "# Real\n\n```\n# not a heading\n[no](missing.md)\n```\n[yes](y.md)\n## Real\n",
        encoding="utf-8",
    )
    assert anchors(doc) == {"real", "real-1"}
    assert links(doc) == ["y.md"]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(doc: Path) -> None:
    broken = []
    for target in links(doc):
        if not relative(target):
            continue
        file_part, _, anchor = target.partition("#")
        dest = (doc.parent / file_part).resolve() if file_part else doc
        if not dest.exists():
            broken.append(f"{target}: no file {dest.relative_to(ROOT)}")
            continue
        if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with anchor #{anchor} in {dest.relative_to(ROOT)}")
    assert not broken, f"{doc.relative_to(ROOT)}: " + "; ".join(broken)


def test_docs_link_the_benchmark_history() -> None:
    history = ROOT / "docs" / "benchmarks-history.md"
    assert history.exists()
    assert "benchmarks-history.md" in links(BENCHMARKS)
    assert "benchmarks.md" in links(history)


def named_sections() -> list[tuple[str, str]]:
    """``(file, name)`` for every section of docs/benchmarks.md named in words elsewhere."""
    files = [
        *DOCS,
        *sorted((ROOT / "chunkviz").rglob("*.py")),
        *sorted((ROOT / "bench").glob("*.py")),
        *sorted((ROOT / "chunkviz" / "text").glob("*.toml")),
    ]
    out: list[tuple[str, str]] = []
    for path in files:
        if path == BENCHMARKS or path.name == "benchmarks-history.md":
            continue
        text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))
        out.extend((str(path.relative_to(ROOT)), name) for name in _NAMED.findall(text))
    return out


def test_sections_named_in_words_exist() -> None:
    named = named_sections()
    # The known ones are found, so the pattern is not vacuous.
    assert {"Encoder threads", "Retrieval benchmark", "Dense encoding on worker processes"} <= {
        name for _, name in named
    }
    heads = headings(BENCHMARKS)
    missing = [
        f"{where}: {name!r}" for where, name in named if not any(h.startswith(name) for h in heads)
    ]
    assert not missing, (
        "sections of docs/benchmarks.md named elsewhere but not headings there: "
        + "; ".join(missing)
    )
