"""bench/replication.py: JSQuAD's conclusions set beside JaQuAD's, and the doc section it writes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from chunkviz.eval.stats import Replication

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location(
        "replication_bench", ROOT / "bench" / "replication.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


@pytest.fixture(scope="module")
def pairs(bench):
    return bench.shipped_pairs(bench.shipped_results_dir())


def test_the_seed_studys_pairs(bench):
    labels = ("fixed-100-0", "fixed-100-20", "fixed-800-160", "paragraph")
    assert bench.seed_pairs(labels) == [
        ("paragraph vs fixed", "paragraph", "fixed-100-0"),
        ("paragraph vs fixed", "paragraph", "fixed-100-20"),
        ("paragraph vs fixed", "paragraph", "fixed-800-160"),
        ("overlap vs none", "fixed-100-20", "fixed-100-0"),
    ]


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("a_better", "a_better", "holds"),
        ("a_better", "b_better", "reverses"),
        ("a_better", "equivalent", "differs"),
        ("inconclusive", "b_better", "one only"),
        ("inconclusive", "inconclusive", "neither"),
        ("equivalent", "equivalent", "holds"),
    ],
)
def test_statuses(bench, first, second, expected):
    assert bench.status(Replication("recall@5", "a", "b", first, second)) == expected


def test_bm25_runs_of_both_corpora_are_paired(pairs):
    assert ("bm25", "jsquad", "jaquad") in {
        (js.backend.name, js.dataset.spec, ja.dataset.spec) for js, ja in pairs
    }


def test_every_pair_is_counted_once_per_metric(bench, pairs):
    js, ja = next((a, b) for a, b in pairs if a.backend.name == "bm25")
    section = bench.backend_section(js, ja, "recall@5", "recall@budget")
    counts = section.split("**Every pair, counted**")[1].split("\n\n")[1]
    for line in counts.splitlines()[2:]:
        assert sum(int(c) for c in line.strip("|").split("|")[1:]) == 28
    # The seed study's ten pairs, each with both corpora's outcome at k and at the budget.
    seed = section.split("**The seed study's conclusions**")[1].split("\n\n")[1]
    assert len(seed.splitlines()) == 2 + 10
    assert "| overlap vs none | fixed-400-80 vs fixed-400-0 |" in seed


def test_the_section_is_replaced_between_its_markers(bench, tmp_path, pairs):
    doc = tmp_path / "doc.md"
    doc.write_text(f"# Title\n\n{bench.START}\nold\n{bench.END}\n\nafter\n", encoding="utf-8")
    bench.write_section(doc, "new body")
    assert doc.read_text(encoding="utf-8") == (
        f"# Title\n\n{bench.START}\nnew body\n{bench.END}\n\nafter\n"
    )
    doc.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="has no replication section"):
        bench.write_section(doc, "x")


def test_the_shipped_doc_keeps_its_markers(bench):
    # `--write docs/benchmarks.md` finds its section there: each marker once, in order.
    text = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert text.count(bench.START) == 1
    assert text.count(bench.END) == 1
    assert text.index(bench.START) < text.index(bench.END)
