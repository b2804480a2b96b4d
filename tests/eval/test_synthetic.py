"""Synthetic questions: every form, labelled synthetic, reproducible by seed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from chunkviz.datasets.base import Document
from chunkviz.errors import ModelUnavailableError, ParameterError
from chunkviz.eval import synthetic
from chunkviz.eval.probes import extract_probes, script_of
from chunkviz.eval.synthetic import (
    CAVEATS,
    FORMS,
    MASK,
    SYNTHETIC_NOTE,
    VALIDATION,
    VALIDATION_MIN,
    synthetic_dataset,
    synthetic_questions,
    synthetic_record,
)
from chunkviz.lm import get_language_model
from tests.strategies import texts

TEXT = (
    "梅雨前線は六月に北上する。寒帯ジェット気流が南下すると梅雨前線が停滞し、九州で大雨になる。"
    "気象庁は1989年10月に新しい予報を始めた。"
)
DOC = Document("d", "doc", TEXT)


def _by_answer(form: str) -> dict[str, str]:
    return {q.answer: q.question for q in synthetic_questions(DOC, form)}  # type: ignore[arg-type]


def test_cloze_masks_the_probe_in_its_sentence() -> None:
    q = _by_answer("cloze")["寒帯ジェット気流"]
    assert q == f"{MASK}が南下すると梅雨前線が停滞し、九州で大雨になる。"


def test_keywords_are_other_terms_of_the_sentence_without_the_answer() -> None:
    q = _by_answer("keywords")["寒帯ジェット気流"]
    assert "寒帯ジェット気流" not in q
    assert q.split(" ") == ["南下", "梅雨前線", "停滞"]


def test_context_takes_a_term_from_each_neighbouring_sentence() -> None:
    q = _by_answer("context")["寒帯ジェット気流"]
    # Nearest term of the previous sentence, of the next one, then of its own sentence.
    assert q.split(" ") == ["北上", "気象庁", "南下"]


def test_inverse_cloze_is_the_neighbouring_sentence() -> None:
    questions = _by_answer("inverse")
    assert questions["寒帯ジェット気流"] == "梅雨前線は六月に北上する。"
    assert questions["北上"] == "寒帯ジェット気流が南下すると梅雨前線が停滞し、九州で大雨になる。"


def test_template_wraps_keywords_by_the_probe_kind() -> None:
    questions = _by_answer("template")
    assert questions["1989年10月"].endswith("はいつ、いくつ？")
    assert questions["寒帯ジェット気流"].endswith("とは何？")


@pytest.mark.parametrize("form", [f for f in FORMS if f != "lm"])
def test_every_question_is_labelled_synthetic_and_answers_a_probe(form: str) -> None:
    probes = {(p.start, p.end) for p in extract_probes(TEXT)}
    data = synthetic_dataset([DOC], form)  # type: ignore[arg-type]
    assert data.questions
    assert data.notes == (SYNTHETIC_NOTE, CAVEATS[form])  # type: ignore[index]
    for q in data.questions:
        assert q.qid.startswith(f"synthetic:{form}:d:")
        (span,) = q.spans
        assert (span.start, span.end) in probes
        assert TEXT[span.start : span.end] == q.answer


def test_cloze_caveat_says_it_favours_lexical_retrieval() -> None:
    assert "favour lexical retrieval" in CAVEATS["cloze"]
    record = synthetic_record("cloze", "bm25", 10, 0)
    assert record["synthetic"] is True
    assert "favour lexical retrieval" in record["caveat"]
    assert f"{VALIDATION['cloze']['bm25']:.2f}" in record["validation"]
    assert "not a useful ranking" in record["validation"]
    # The figure shown is per document (Tune runs on one), with its lowest article.
    question = synthetic_record("calibrated", "bm25", 10, 0)
    assert question["validation_rho"] == VALIDATION["calibrated"]["bm25"]
    assert "median Spearman rho" in question["validation"]
    assert f"lowest {VALIDATION_MIN['calibrated']['bm25']:.2f}" in question["validation"]
    assert "not validated per document" in synthetic_record("context", "st:x", 10, 0)["validation"]
    assert synthetic_record("keywords", "bm25", 10, 0)["validation_rho"] is None


def test_sample_is_reproducible_by_seed() -> None:
    doc = Document("d", "doc", TEXT * 6)
    a = synthetic_dataset([doc], "context", n=5, seed=3)
    assert a.questions == synthetic_dataset([doc], "context", n=5, seed=3).questions
    assert a.questions != synthetic_dataset([doc], "context", n=5, seed=4).questions
    assert len(a.questions) == 5


class _Writer:
    def __init__(self, give_away: str) -> None:
        self.give_away = give_away

    def write_question(self, passage: str, answer: str) -> str:
        return f"{answer}は何？" if answer == self.give_away else f"{passage[:4]}について何？"


def test_lm_form_drops_questions_that_give_the_answer_away() -> None:
    questions = synthetic_questions(DOC, "lm", writer=_Writer("寒帯ジェット気流"))
    answers = [q.answer for q in questions]
    assert "寒帯ジェット気流" not in answers
    assert "梅雨前線" in answers


def test_lm_form_needs_a_model_and_says_so() -> None:
    with pytest.raises(ParameterError, match="hf:<local model path>"):
        synthetic_questions(DOC, "lm")
    with pytest.raises(ModelUnavailableError, match="not available offline"):
        get_language_model("hf:/nonexistent/causal-lm")


def test_calibrated_form_asks_with_other_terms_and_a_question_word() -> None:
    questions = synthetic_questions(DOC, "calibrated")
    assert questions
    probes = [TEXT[p.start : p.end] for p in extract_probes(TEXT)]
    for q in questions:
        assert q.answer not in q.question
        assert q.question.endswith(("は何？", "はいつ？"))
        # Only answers whose surface is a key term once in the document are asked about.
        assert probes.count(q.answer) == 1
    by_answer = {q.answer: q.question for q in questions}
    assert "梅雨前線" not in by_answer  # twice in the text: its place would be ambiguous
    assert by_answer["1989年10月"].endswith("はいつ？")
    terms = by_answer["寒帯ジェット気流"].removesuffix("は何？").split("の")
    assert set(terms) <= {"南下", "梅雨前線", "停滞", "九州", "大雨", "北上", "気象庁", "予報"}


@pytest.mark.parametrize("form", ["calibrated", "shaped"])
def test_seeded_forms_are_reproducible_by_seed_and_vary_with_it(form) -> None:
    doc = Document("d", "doc", TEXT * 3 + "台風は八月に沖縄へ接近し、那覇で強風が吹いた。")
    a = synthetic_questions(doc, form, seed=1)
    assert a
    assert a == synthetic_questions(doc, form, seed=1)
    assert [q.question for q in a] != [q.question for q in synthetic_questions(doc, form, seed=2)]


@pytest.mark.parametrize("form", ["calibrated", "shaped"])
def test_seeded_forms_use_spaces_and_english_question_words_for_latin_text(form) -> None:
    text = (
        "The Orbit Queue stores Kafka offsets. Operators restart the Broker Service nightly. "
        "The Metrics Exporter reads Prometheus targets."
    )
    questions = synthetic_questions(Document("e", "en", text), form)
    assert questions
    assert all(
        q.question.endswith((" what?", " when?")) and "の" not in q.question for q in questions
    )


def _shaped_with(
    monkeypatch: pytest.MonkeyPatch,
    *shapes: tuple[tuple[int, float, int, bool], ...],
    text: str = TEXT,
    paragraph_starts: tuple[int, ...] = (),
) -> dict[str, str]:
    monkeypatch.setattr(synthetic, "shapes_for", lambda doc_id: shapes)
    doc = Document("d", "doc", text, paragraph_starts=paragraph_starts)
    return {q.answer: q.question for q in synthetic_questions(doc, "shaped")}


def test_shaped_pieces_land_where_the_real_question_had_its_words(monkeypatch) -> None:
    # Right after the answer, grown to the whole kanji word it cuts into: が南 -> が南下.
    assert _shaped_with(monkeypatch, ((0, 0.0, 2, True),))["寒帯ジェット気流"] == "が南下は何？"
    # Ending right before the answer, grown back to the word: 庁は -> 気象庁は.
    assert _shaped_with(monkeypatch, ((0, -1.0, 2, True),))["1989年10月"] == "気象庁ははいつ？"
    # At the start of the previous sentence, then 5 characters after the answer.
    pieces = ((-1, 0.0, 3, True), (0, 5.0, 2, True))
    assert _shaped_with(monkeypatch, pieces)["寒帯ジェット気流"] == ("梅雨前線 と梅雨前線は何？")


def test_shaped_pieces_never_hold_the_answer(monkeypatch) -> None:
    # A piece that would reach into the answer is cut at it, or dropped.
    questions = _shaped_with(
        monkeypatch, ((0, -1.0, 40, True), (0, 0.0, 40, True), (1, 0.0, 40, True))
    )
    for answer, question in questions.items():
        assert answer not in question
    # The last sentence has no next one: a shape's far sentences wrap around the document.
    assert questions["1989年10月"] == (
        "気象庁は に新しい予報を始めた。 梅雨前線は六月に北上する。はいつ？"
    )


def test_shaped_pieces_keep_to_the_answers_paragraph_as_the_real_one_did(monkeypatch) -> None:
    second = "台風は八月に沖縄へ接近し、那覇で強風が吹いた。"
    text = TEXT + second
    starts = (0, len(TEXT))  # two paragraphs: TEXT's three sentences, then one more
    # The sentence after the answer's, inside its paragraph: the paragraph's first sentence
    # (its sentences wrap around), grown to a whole word: 梅雨前 -> 梅雨前線.
    inside = _shaped_with(monkeypatch, ((1, 0.0, 3, True),), text=text, paragraph_starts=starts)
    assert inside["1989年10月"] == "梅雨前線はいつ？"
    # The same piece outside the paragraph: the next paragraph's sentence, its length kept.
    outside = _shaped_with(monkeypatch, ((1, 0.0, 3, False),), text=text, paragraph_starts=starts)
    assert outside["1989年10月"] == "台風ははいつ？"
    # A run outside the paragraph is not grown: 寒帯ジ stays, where inside it is 寒帯ジェット.
    assert _shaped_with(monkeypatch, ((-1, 0.0, 3, False),))["1989年10月"] == "寒帯ジはいつ？"
    assert _shaped_with(monkeypatch, ((-1, 0.0, 3, True),))["1989年10月"] == (
        "寒帯ジェットはいつ？"
    )


def test_shaped_words_grow_over_the_runs_probes_are_made_of() -> None:
    # One definition of a kanji or katakana run: a probe of that kind is one run of script_of.
    text = TEXT + "ジョン・スミスは々木〆切のヶ月前にヴァイオリンを弾いた。"
    kinds: dict[str, set[str]] = {}
    for p in extract_probes(text):
        if p.kind in ("kanji", "katakana"):
            kinds.setdefault(p.kind, set()).update(script_of(c) for c in text[p.start : p.end])
    assert kinds == {"kanji": {"kanji"}, "katakana": {"katakana"}}
    assert script_of("・") == script_of("の") == script_of("。") == ""
    assert script_of("A") == script_of("7") == "word"


def test_shaped_questions_are_the_documents_words_in_a_real_questions_layout() -> None:
    doc = Document("d", "doc", TEXT * 3 + "台風は八月に沖縄へ接近し、那覇で強風が吹いた。")
    questions = synthetic_questions(doc, "shaped", seed=1)
    assert questions
    probes = [doc.text[p.start : p.end] for p in extract_probes(doc.text)]
    for q in questions:
        assert q.answer not in q.question
        assert probes.count(q.answer) == 1
        pieces = q.question.removesuffix("は何？").removesuffix("はいつ？").split(" ")
        assert all(piece in doc.text for piece in pieces)


@settings(max_examples=150, deadline=None)
@given(texts)
def test_shaped_questions_hold_on_any_text(text: str) -> None:
    doc = Document("h", "doc", text)
    questions = synthetic_questions(doc, "shaped")
    assert questions == synthetic_questions(doc, "shaped")
    for q in questions:
        (span,) = q.spans
        assert text[span.start : span.end] == q.answer
        assert q.answer not in q.question
        assert q.qid.startswith("synthetic:shaped:h:")
