from __future__ import annotations

import pytest

import chunkviz
from chunkviz.document import locate_questions
from chunkviz.retrieval.backends import get_backend
from chunkviz.views.compare import config_label, outcome, rank_rows, summary_rows

TEXT = "梅雨は日本の雨季である。寒帯ジェット気流が南下する。台風は夏から秋に来る。"
PAIRS = [
    {"question": "寒帯ジェット気流はどうなる？", "answer": "寒帯ジェット気流が南下する"},
    {"question": "台風はいつ来る？", "answer": "夏から秋"},
    {"question": "雪はいつ降る？", "answer": "冬"},
]


@pytest.fixture(scope="module")
def bm25():
    return get_backend("bm25")


def test_a_cut_answer_has_no_rank_and_a_whole_one_has_its_rank(bm25):
    items = locate_questions(TEXT, PAIRS)
    fixed = outcome("fixed 14", chunkviz.chunk(TEXT, "fixed", size=14), items, bm25)
    sentences = outcome("sentence", chunkviz.chunk(TEXT, "sentence", size=40), items, bm25)
    assert [q.status for q in fixed.qa] == ["broken", "contained", "not found"]
    assert fixed.ranks[0] is None
    assert fixed.ranks[2] is None
    assert sentences.ranks[:2] == (1, 1)  # each question shares most bigrams with its sentence
    assert sentences.recall_at(1) == 1.0
    assert fixed.recall_at(5) == 0.5  # one of the two found questions is broken
    rows = rank_rows([fixed, sentences])
    assert rows[0] == {"question": PAIRS[0]["question"], "answer": PAIRS[0]["answer"],
                       "fixed 14": "broken", "sentence": "1"}
    assert rows[2]["sentence"] == "not found"


def test_summary_counts_chunks_broken_answers_and_uncovered_characters(bm25):
    items = locate_questions(TEXT, PAIRS)
    paragraph = outcome("p", chunkviz.chunk("a b\n\nc d", "paragraph"), [], None)
    fixed = outcome("f", chunkviz.chunk(TEXT, "fixed", size=14), items, None)
    rows = summary_rows([paragraph, fixed])
    assert rows[0]["chunks"] == 2
    assert rows[0]["chars in no chunk"] == 2  # the blank line between the paragraphs
    assert rows[0]["Recall@1"] is None
    assert rows[1]["broken answers"] == 1
    assert rows[1]["chunks"] == 3
    assert rows[1]["Recall@5"] == 0.0  # no backend: no ranks


def test_config_label_skips_switched_off_parameters():
    assert config_label("sentence", {"size": 400, "max_sentences": None}) == "sentence size=400"

