"""Probe spans: candidate answers extracted from the document, and loss counted without labels."""

from __future__ import annotations

import sys

import pytest

from chunkviz.datasets.base import Document
from chunkviz.errors import MissingDependencyError, ParameterError
from chunkviz.eval import probes as probes_module
from chunkviz.eval.grid import fixed_config
from chunkviz.eval.lost import lost_table
from chunkviz.eval.probes import Probe, extract_probes, lost_sentence, probe_dataset

JA = (
    "梅雨は1989年10月に始まり、費用は10万円。寒帯ジェット気流が「梅雨前線」を押す。"
    "NHKのWeb APIでは\n"
    "| 項目 | 気温 |\n|---|---|\n| 東京 | 25度 |\n"
)


def _texts(text: str, found: tuple[Probe, ...]) -> list[tuple[str, str]]:
    return [(text[p.start : p.end], p.kind) for p in found]


def test_character_classes_find_each_kind_with_exact_offsets() -> None:
    found = extract_probes(JA, method="chars")
    assert _texts(JA, found) == [
        ("梅雨", "kanji"),
        ("1989年10月", "number"),
        ("費用", "kanji"),
        ("10万円", "number"),
        ("寒帯ジェット気流", "compound"),
        ("梅雨前線", "kanji"),
        ("NHK", "latin"),
        ("Web API", "latin"),
        ("項目", "kanji"),
        ("気温", "kanji"),
        ("東京", "kanji"),
        ("25度", "number"),
    ]
    assert list(found) == sorted(found, key=lambda p: (p.start, p.end))
    assert extract_probes(JA, method="chars") == found  # deterministic


def test_quotes_and_cells_are_probes_of_their_own() -> None:
    text = "「ながら運転」は禁止。\n名前\tvalue one\n"
    assert _texts(text, extract_probes(text)) == [
        ("ながら運転", "quoted"),
        ("運転", "kanji"),
        ("禁止", "kanji"),
        ("名前", "kanji"),
        ("value one", "latin"),
    ]


def test_english_keeps_names_numbers_and_acronyms_not_every_word() -> None:
    text = (
        "The Tokyo Stock Exchange opened in 1878. It moved to Nihonbashi in 2001 under the "
        "name TSE. New York is far."
    )
    assert [t for t, _ in _texts(text, extract_probes(text))] == [
        "Tokyo Stock Exchange",
        "1878",
        "Nihonbashi",
        "2001",
        "TSE",
        "New York",
    ]


def test_fugashi_merges_noun_tokens_into_compounds() -> None:
    found = _texts(JA, extract_probes(JA, method="fugashi"))
    assert ("寒帯ジェット気流", "compound") in found
    assert ("1989年10月", "number") in found
    assert ("10万円", "number") in found
    for p in extract_probes(JA, method="fugashi"):
        assert 2 <= p.end - p.start <= 40


def test_fugashi_missing_gives_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    probes_module._tagger.cache_clear()
    monkeypatch.setitem(sys.modules, "fugashi", None)
    with pytest.raises(MissingDependencyError, match="pip install fugashi unidic-lite"):
        extract_probes(JA, method="fugashi")
    probes_module._tagger.cache_clear()


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ParameterError, match="method must be one of chars, fugashi"):
        extract_probes(JA, method="mecab")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="min_chars"):
        extract_probes(JA, min_chars=5, max_chars=3)


def test_lost_before_retrieval_with_no_questions() -> None:
    # "寒帯ジェット気流" straddles offset 30: a 30-character window cuts it, as in the seed study.
    text = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへ寒帯ジェット気流です。" * 2
    doc = Document("d", "doc", text)
    data = probe_dataset([doc])
    assert all(q.qid.startswith("d:probe:") for q in data.questions)
    assert "synthetic" in data.notes[0]
    rows = lost_table(data, [fixed_config(30, 0), fixed_config(60, 0)])
    cut = rows[0].broken
    assert cut >= 1
    assert rows[1].broken < cut
    assert lost_sentence(rows[0].config, cut, len(data.questions)) == (
        f"of {len(data.questions)} key phrases in your document, {cut} are cut by fixed-30-0"
    )


def test_probe_sample_is_reproducible_by_seed() -> None:
    doc = Document("d", "doc", JA * 5)
    a = probe_dataset([doc], sample=10, seed=1)
    b = probe_dataset([doc], sample=10, seed=1)
    c = probe_dataset([doc], sample=10, seed=2)
    assert len(a.questions) == 10
    assert a.questions == b.questions
    assert a.questions != c.questions
