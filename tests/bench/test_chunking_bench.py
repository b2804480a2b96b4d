"""bench/chunking.py: every contestant's offsets are checked, and the targets are judged right."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("chunking_bench", ROOT / "bench" / "chunking.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


TEXTS = [
    "富士山は日本一高い山である。標高は3776メートル。「登れるか。」と聞かれた。\n\n" * 8,
    "Short text. Mr. Smith paid 3.14 dollars! Then he left?\r\n" * 12,
    "絵文字😀と結合文字の\u304b\u3099も、ここに。" * 20,
    "",
    "一文字",
]


def test_every_contestant_returns_offsets_that_reproduce_its_chunks(bench):
    field = bench.contestants(40, 8)
    rows = bench.measure(field, TEXTS, repeats=1)
    assert set(rows) == {c.name for c in field}
    for name, row in rows.items():
        assert row.offsets in {"ok", "-"}, (name, row.offsets)
    # The two fixed-window contestants and the control cut the same windows.
    assert rows[bench.FIXED].chunks == rows[bench.BARE].chunks == rows[bench.BARE_OBJECT].chunks


def test_the_checker_catches_wrong_offsets(bench):
    assert bench.check(["abcdef"], [(["abc", "def"], [0, 3])]) == "ok"
    assert bench.check(["abcdef"], [(["abc", "def"], [0, 2])]) == "1/2 wrong"
    assert bench.check(["abcdef"], [(["abc"], [0, 3])]) == "count mismatch"
    assert bench.check(["abcdef"], [(["abc", "def"], None)]) == "-"


def test_targets_name_the_fastest_offsets_peer_and_judge_each_bar(bench):
    def row(cpu):
        return bench.Row(cpu=cpu, wall=cpu, chunks=1, offsets="ok")

    rows = {
        bench.RECURSIVE: row(1.0),
        bench.FIXED: row(0.16),
        bench.BARE: row(0.1),
        bench.BARE_OBJECT: row(0.12),
        bench.LANGCHAIN_PLAIN: row(0.9),
        "semantic-text-splitter chunk_indices": row(1.9),
        "semchunk offsets=True": row(5.0),
    }
    lines = bench.targets(rows)
    assert lines[0].startswith(
        "recursive vs fastest offsets peer (semantic-text-splitter chunk_indices): 1.90x"
    )
    assert lines[0].endswith("NOT met")
    assert lines[1].endswith("(target >= 1): NOT met")
    assert lines[2] == "fixed vs bare slicing: 1.60x the time (target <= 1.5): NOT met"
    assert lines[3].startswith("control, bare slicing in one result object: 1.20x")
    rows[bench.FIXED] = row(0.15)
    rows["semantic-text-splitter chunk_indices"] = row(2.0)
    rows[bench.LANGCHAIN_PLAIN] = row(1.0)
    assert [line.rsplit(": ", 1)[1] for line in bench.targets(rows)[:3]] == ["met"] * 3
