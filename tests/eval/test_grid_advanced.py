"""The benchmark runs every new strategy through chunkviz.eval.grid.Config, with no extra resources:
the sentence embedder and the language model are named by parameters (``model``, ``lm``)."""

from __future__ import annotations

from chunkviz import Span
from chunkviz.datasets.base import Dataset, Document, Question
from chunkviz.document import chunk_document
from chunkviz.eval.grid import Config
from chunkviz.eval.runner import run_benchmark

TEXT = (
    "梅雨は日本の雨季である。梅雨前線が停滞すると雨が続く。\n\n"
    "| 地域 | 梅雨入り |\n|---|---|\n| 九州 | 6月上旬 |\n| 関東 | 6月中旬 |\n\n"
    "台風は夏から秋にかけて日本に来る。台風は強い風と雨をもたらす。"
)
CONFIGS = (
    Config("semantic-200", "semantic", {"max_size": 200, "min_size": 20}),
    Config("perplexity-200", "perplexity", {"max_size": 200, "min_size": 20}),
    Config("parent_child-40", "parent_child", {"child_size": 40}),
    Config("table-60", "table", {"size": 60}),
    Config("code-60", "code", {"size": 60}),
)


def _dataset() -> Dataset:
    doc = Document("d1", "weather", TEXT)
    answers = ["梅雨前線が停滞", "6月中旬", "強い風と雨"]
    questions = tuple(
        Question(f"q{i}", "d1", q, a, (Span("d1", TEXT.index(a), TEXT.index(a) + len(a)),))
        for i, (q, a) in enumerate(
            zip(
                ["梅雨前線はどうなる？", "関東の梅雨入りは？", "台風は何をもたらす？"],
                answers,
                strict=True,
            )
        )
    )
    return Dataset("tiny", (doc,), questions)


def test_chunk_document_runs_every_new_strategy_without_resources():
    doc = _dataset().documents[0]
    for config in CONFIGS:
        result = chunk_document(doc, config.strategy, config.params)
        assert result.strategy == config.strategy
        assert result.chunks


def test_run_benchmark_accepts_the_new_strategies(tmp_path):
    results = run_benchmark(
        _dataset(), CONFIGS, "bm25", cache_dir=tmp_path, bootstrap=50, permutations=50
    )
    labels = list(results.labels)
    assert labels == [c.label for c in CONFIGS]
    ranks = results.ranks
    assert set(ranks) == set(labels)
    for label in labels:
        assert len(ranks[label]) == 3
