"""Explore with a PDF: the page view follows the selected chunk and draws broken answers."""

from __future__ import annotations

from chunkviz.document import Document, locate_questions
from chunkviz.extract import extract
from tests.app.helpers import component_data, page
from tests.pdf.printing import simple_pdf
from tests.pdf.test_layout import ONE, TWO


def _document() -> Document:
    got = extract(simple_pdf([ONE, TWO], header="Orbit Queue Handbook"), "handbook.pdf")
    pairs = [{"question": "Kept how long?", "answer": "seven days unless"}]
    return Document(
        "up:1",
        "handbook.pdf",
        got.text,
        origin="upload",
        layout=got.layout,
        questions=tuple(locate_questions(got.text, pairs)),
    )


def test_the_page_view_draws_the_selected_chunk_on_its_pages_and_broken_answers_in_red():
    document = _document()
    text = document.text
    size = text.index("seven days unless") + 5  # chunk 0 ends inside the answer
    at = page(
        "1_Explore.py",
        timeout=90,
        source="upload",
        document=document,
        strategy="fixed",
        params={"fixed": {"size": size, "overlap": 0, "unit": "chars"}},
    )
    assert not at.exception
    at.toggle(key="explore_pdf_view").set_value(True).run()
    assert not at.exception
    view = component_data(at, "explore_pdf")
    assert view["page"] == 0
    assert view["image"].startswith("data:image/png;base64,")
    svg = view["svg"]
    assert 'data-chunk="0"' in svg
    assert 'class="pv-broken"' in svg  # the answer is cut on page 0
    assert "✂#0|#1" in svg
    # The chunk that runs from page 1 onto page 2: selecting it shows its first page, its boxes
    # are outlined there, and the next page holds boxes of it too.
    layout = document.layout
    assert layout is not None
    start = layout.page_range(1)[0]
    over = start // size
    assert layout.pages_of(over * size, min(len(text), over * size + size)) == (0, 1)
    at.number_input(key="explore_jump").set_value(over).run()
    assert not at.exception
    assert at.number_input(key="explore_pdf_page").value == 1
    selected = f'class="pv-chunk pv-sel" data-chunk="{over}"'
    assert selected in component_data(at, "explore_pdf")["svg"]
    assert any("runs over pages 1, 2" in c.value for c in at.caption)
    at.number_input(key="explore_pdf_page").set_value(2).run()
    assert not at.exception
    view = component_data(at, "explore_pdf")
    assert view["page"] == 1
    assert f'data-chunk="{over}"' in view["svg"]
