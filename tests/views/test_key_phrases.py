"""Key phrases a chunking cuts, for a document without questions (issue 39)."""

from __future__ import annotations

import chunkviz
from chunkviz.document import Document
from chunkviz.eval.probes import extract_probes
from chunkviz.views.explore import assess_qa
from chunkviz.views.highlight import legend_html, render_html
from chunkviz.views.key_phrases import (
    cut_phrase_marks,
    key_phrase_labels,
    key_phrase_line,
    key_phrases,
)

TEXT = "梅雨前線は寒帯ジェット気流の影響を受ける。1989年10月に観測された。"


def _document(text: str = TEXT) -> Document:
    return Document("paste", "", text, origin="paste")


def test_the_key_phrases_are_tunes_probes_with_their_spans():
    phrases = key_phrases(_document())
    probes = extract_probes(TEXT)
    assert [(q.spans[0].start, q.spans[0].end) for q in phrases] == [
        (p.start, p.end) for p in probes
    ]
    assert all(q.answer == TEXT[q.spans[0].start : q.spans[0].end] for q in phrases)
    assert "寒帯ジェット気流" in {q.answer for q in phrases}


def test_a_boundary_inside_a_phrase_cuts_it_and_only_cut_phrases_are_red():
    start = TEXT.index("ジェット")  # cuts 寒帯|ジェット気流 ... at a fixed offset
    result = chunkviz.chunk(TEXT, "fixed", size=start, overlap=0)
    report = assess_qa(result, key_phrases(_document()))
    marks = cut_phrase_marks(report, 0, len(TEXT))
    assert marks  # something red on a document with no questions
    assert all(m.broken for m in marks)
    assert all(any(m.start < c.end < m.end for c in result.chunks) for m in marks)
    cut = {TEXT[m.start : m.end] for m in marks}
    assert any("ジェット" in phrase for phrase in cut)
    line = key_phrase_line("en", report)
    assert f"of {len(report):,} key phrases are cut" in line
    assert "answers are cut" not in line
    # One chunk holding the whole text cuts nothing.
    whole = assess_qa(chunkviz.chunk(TEXT, "fixed", size=1000), key_phrases(_document()))
    assert cut_phrase_marks(whole, 0, len(TEXT)) == ()
    assert "no key phrase is cut" in key_phrase_line("en", whole)


def test_cut_phrases_are_never_called_answers():
    """The words that name a broken answer appear nowhere in the key-phrase view."""
    from chunkviz.text import text
    from chunkviz.views.highlight import labels_for

    result = chunkviz.chunk(TEXT, "fixed", size=TEXT.index("ジェット"), overlap=0)
    report = assess_qa(result, key_phrases(_document()))
    marks = list(cut_phrase_marks(report, 0, len(TEXT)))
    for lang in ("en", "ja"):
        answer_words = [
            labels_for(lang).broken,
            labels_for(lang).cut,
            labels_for(lang).answer,
            *(text(lang, f"highlight.legend.{k}") for k in ("broken", "cut", "answer")),
        ]
        markup = render_html(TEXT, result.chunks, marks, labels=key_phrase_labels(lang))
        legend = legend_html(lang, key_phrases=True)
        assert key_phrase_labels(lang).broken in markup
        for words in answer_words:
            assert words not in markup
            assert words not in legend
        assert text(lang, "highlight.legend.kp_broken") in legend
        # The usual legend still explains answers.
        assert text(lang, "highlight.legend.broken") in legend_html(lang)
