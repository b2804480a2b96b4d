"""Running heads that change per chapter or alternate, and list items (fast: no browser)."""

from __future__ import annotations

from chunkviz.extract import extract
from tests.pdf.printing import simple_pdf

BODY = [
    "Each chapter of this handbook explains one part of the queue and how an operator",
    "changes it safely; the examples use the default settings of a fresh install.",
]


def _with_heads(heads: list[str]) -> bytes:
    """Pages of ``BODY`` with ``heads[i]`` at the top of page i (none where empty)."""
    return simple_pdf(
        [
            [(56.0, h) if h else "", "", "", "", *BODY, f"Page {n} ends here."]
            for n, h in enumerate(heads, start=1)
        ]
    )


def test_running_heads_that_change_per_chapter_or_alternate_are_left_out():
    # Twelve pages: the book's title on odd pages, the chapter's on even ones, two chapters.
    heads = [
        "Orbit Queue Handbook" if n % 2 else f"Chapter {1 + (n - 1) // 6} Retention"
        for n in range(1, 13)
    ]
    got = extract(_with_heads(heads), "book.pdf")
    assert not [h for h in set(heads) if h in got.text]
    assert got.furniture == 12 + 12  # a head and a page number on each page
    assert got.text.count("Each chapter of this handbook") == 12


def test_a_line_at_the_top_of_a_few_pages_far_apart_is_text():
    heads = ["Appendix A" if n in (1, 5, 9) else "" for n in range(1, 13)]
    got = extract(_with_heads(heads), "appendix.pdf")
    assert got.text.count("Appendix A") == 3


def test_a_line_that_starts_with_a_bullet_starts_its_own_line():
    lines = [
        "The operator checks three settings before a release, and writes each one down",
        "- retention of seven days",
        "- compaction on",
        "* the name of the owner",
        "and then starts the release.",
    ]
    text = extract(simple_pdf([lines], numbers=False), "list.pdf").text
    assert (
        "down\n- retention of seven days\n- compaction on\n* the name of the owner\nand then starts"
    ) in text


def test_three_columns_are_read_one_after_another_left_to_right():
    import re

    import numpy as np

    from chunkviz.pdf.layout import PageChars, assemble

    # Drawn row by row across the three columns, as some PDF writers do.
    chars, boxes = [], []
    for i in range(8):
        for x, words in (
            (40.0, f"left {i} of one"),
            (230.0, f"mid {i} of two"),
            (420.0, f"right {i} of three"),
        ):
            for k, ch in enumerate(words):
                chars.append(ch)
                boxes.append((x + 6 * k, 100 + 15 * i, x + 6 * k + 5, 111 + 15 * i))
    text = assemble([PageChars(595, 842, "".join(chars), np.array(boxes, np.float32))]).text
    order = re.findall(r"(left|mid|right) (\d)", text)
    assert order == [(c, str(i)) for c in ("left", "mid", "right") for i in range(8)]


def test_letter_spaced_capitals_read_as_words():
    import numpy as np

    from chunkviz.pdf.layout import PageChars, assemble

    def spaced(words: list[str], x: float, y: float) -> tuple[list[str], list[tuple]]:
        chars, boxes = [], []
        for word in words:
            for ch in word:
                chars.append(ch)
                boxes.append((x, y, x + 7, y + 11))
                x += 7 + 4  # letter spacing: 4 points after every letter
            x += 4  # and a word space on top of it
        return chars, boxes

    chars, boxes = spaced(["CHAPTER", "ONE"], 56, 300)
    # "C H A P T E R" is a word; five one-capital words are five words.
    more, more_boxes = spaced(["Q", "A", "B", "C", "D"], 56, 330)
    page = PageChars(
        595,
        842,
        "".join(chars + more),
        np.array(boxes + more_boxes, np.float32),
        sizes=np.full(len(chars) + len(more), 11.0, np.float32),
    )
    text = assemble([page]).text
    assert text.startswith("CHAPTER ONE")
    assert text.endswith("Q A B C D")


def test_a_slide_title_is_not_joined_to_the_last_line_of_the_slide_before():
    point = "A point that runs across the whole width of the slide and reaches its right edge"
    slides = [
        ["Quarterly review", point],
        ["Retention settings", point, *[f"Detail {i} of the setting." for i in range(20)]],
        ["Next steps", point, *[f"Step {i} to take." for i in range(20)]],
    ]
    text = extract(simple_pdf(slides, width=842, height=595, numbers=False), "slides.pdf").text
    assert f"{point}\n\nRetention settings" in text
