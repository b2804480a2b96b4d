from __future__ import annotations

import re

import chunkviz
from chunkviz.document import locate_questions
from chunkviz.samples import load_sample
from chunkviz.views.explore import qa_report
from chunkviz.views.highlight import STYLE, page_bounds, render_html
from chunkviz.views.standalone import CSP, standalone_filename, standalone_html


def test_saved_view_holds_the_whole_document_with_the_page_marks():
    sample = load_sample("jsquad_tsuyu")
    result = chunkviz.chunk(sample.text, "fixed", size=100, overlap=0)
    qa, marks = qa_report(result, sample.questions)
    saved = standalone_html(result, marks, qa, name=sample.title, lang="en")
    assert saved.startswith("<!DOCTYPE html>")
    assert STYLE in saved
    assert saved.count('class="cn"') == len(result.chunks)
    a, b = page_bounds(len(sample.text), 0)
    assert b == len(sample.text)  # one page: the page and the file must draw the same
    page = render_html(sample.text, result.chunks, marks, start=a, end=b)
    box = saved[saved.index('<div class="hl-box">') :]
    red = re.compile(r'class="[^"]*\bbroken"')
    assert len(red.findall(box)) == len(red.findall(page)) > 0
    broken = sum(1 for r in qa if r.status == "broken")
    assert f"{broken} of 180 answers broken" in saved
    assert "size=100, overlap=0" in saved
    assert 'class="hl-legend"' in saved


def test_saved_view_runs_nothing_and_loads_nothing():
    text = "<script>alert(1)</script> <img src=x onerror=alert(1)> <link rel=stylesheet href=//x>"
    name = '"><script>alert(2)</script>.txt'
    items = locate_questions(text, [{"question": "<b>q</b>", "answer": "alert(1)"}])
    result = chunkviz.chunk(text, "fixed", size=30, overlap=5)
    qa, marks = qa_report(result, items)
    saved = standalone_html(result, marks, qa, name=name, lang="ja")
    assert "<script" not in saved
    assert "<img" not in saved
    assert "<link" not in saved
    assert "src=" not in saved.replace("src=x", "")
    escaped_name = "&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;.txt"
    assert f"<title>chunkviz ハイライト：{escaped_name}</title>" in saved
    assert "&lt;script&gt;" in saved  # the document's tag, split over chunk bands, as text
    assert f'content="{CSP}"' in saved
    assert "default-src 'none'" in CSP
    assert "凡例" in saved
    assert re.fullmatch(r"highlight-[\w-]+-fixed\.html", standalone_filename(name, "fixed"))
    assert standalone_filename("", "fixed") == "highlight-document-fixed.html"
