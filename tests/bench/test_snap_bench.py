"""bench/snap.py and bench/boundary_metrics.py run end to end on a tiny SQuAD file."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONTEXT = (
    "梅雨は、北海道と小笠原諸島を除く日本でみられる気象現象である。" * 12
    + "寒帯ジェット気流が南下する。" * 10
)


def _load(name: str):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def squad(tmp_path: Path) -> str:
    answers = [("気象現象", CONTEXT.index("気象現象")), ("寒帯ジェット気流", CONTEXT.index("寒帯"))]
    qas = [
        {"id": f"q{i}", "question": f"何か{i}", "answers": [{"text": a, "answer_start": s}]}
        for i, (a, s) in enumerate(answers)
    ]
    data = {
        "version": "1.1",
        "data": [
            {
                "title": "梅雨",
                "paragraphs": [
                    {"context": CONTEXT, "qas": qas},
                    {
                        "context": CONTEXT[::-1] + CONTEXT,
                        "qas": [
                            {
                                "id": "q9",
                                "question": "何",
                                "answers": [
                                    {
                                        "text": "気象現象",
                                        "answer_start": len(CONTEXT) + CONTEXT.index("気象現象"),
                                    }
                                ],
                            }
                        ],
                    },
                ],
            }
        ],
    }
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return f"squad:{path}"


def test_snap_bench_prints_one_row_per_window(squad, capsys):
    assert (
        _load("snap").main(["--dataset", squad, "--permutations", "20", "--bootstrap", "20"]) == 0
    )
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| `")]
    assert [r.split("`")[1] for r in rows] == [
        "fixed-200-0",
        "fixed-200-0-snap=phrase",
        "fixed-200-0-snap=word",
        "fixed-400-80",
        "fixed-400-80-snap=phrase",
        "fixed-400-80-snap=word",
        "fixed-800-0",
        "fixed-800-0-snap=phrase",
        "fixed-800-0-snap=word",
    ]
    assert "p_Holm" in rows[1]


def test_boundary_metrics_bench_prints_every_metric(squad, capsys):
    assert _load("boundary_metrics").main(["--dataset", squad]) == 0
    out = capsys.readouterr().out
    for name in (
        "Pk vs paragraphs",
        "WindowDiff vs paragraphs",
        "size compliance",
        "words cut",
        "sentences cut",
        "answers cut",
    ):
        assert f"| {name} |" in out
