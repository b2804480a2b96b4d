from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkviz
from chunkviz import Chunk
from chunkviz.strategies.table import find_tables
from tests.helpers import assert_valid_chunking
from tests.strategies import structured_text

EXPENSES = (
    "| 部署 | 費目 | 上限額 |\n"
    "|---|---|---:|\n"
    "| 営業 | 交通費 | 120,000 |\n"
    "| 開発 | 書籍 | 30,000 |\n"
    "| 総務 | 備品 | 50,000 |\n"
)
HEADER = "| 部署 | 費目 | 上限額 |\n|---|---|---:|\n"


def test_markdown_table_rows_carry_the_header_as_prefix():
    result = chunkviz.chunk(EXPENSES, "table", size=55)
    assert result.chunk_texts() == [
        "| 部署 | 費目 | 上限額 |\n|---|---|---:|\n| 営業 | 交通費 | 120,000 |",
        "| 開発 | 書籍 | 30,000 |\n| 総務 | 備品 | 50,000 |",
    ]
    assert [c.prefix for c in result.chunks] == ["", HEADER]
    assert result.embed_texts()[1] == HEADER + "| 開発 | 書籍 | 30,000 |\n| 総務 | 備品 | 50,000 |"


def test_one_row_per_chunk_when_size_fits_one_row():
    result = chunkviz.chunk(EXPENSES, "table", size=32)
    assert result.chunks[1:] == (
        Chunk(33, 55, prefix=HEADER),
        Chunk(56, 76, prefix=HEADER),
        Chunk(77, 97, prefix=HEADER),
    )
    assert result.chunk_text(1) == "| 営業 | 交通費 | 120,000 |"


def test_header_is_not_repeated_when_switched_off():
    result = chunkviz.chunk(EXPENSES, "table", size=32, repeat_header=False)
    assert all(c.prefix == "" for c in result.chunks)


def test_table_fitting_in_size_is_one_chunk_and_prose_is_separate():
    text = "前置きの文章。\n\n" + EXPENSES + "\n後書き。"
    result = chunkviz.chunk(text, "table", size=400)
    assert result.chunk_texts() == ["前置きの文章。", EXPENSES.rstrip("\n"), "後書き。"]
    assert all(c.prefix == "" for c in result.chunks)


def test_csv_block_repeats_its_first_line():
    text = "name,dept,limit\r\nA,営業,120000\r\nB,開発,30000\r\nC,総務,50000"
    result = chunkviz.chunk(text, "table", size=30)
    assert [c.prefix for c in result.chunks] == ["", "name,dept,limit\n"]
    assert result.chunk_texts() == [
        "name,dept,limit\r\nA,営業,120000",
        "B,開発,30000\r\nC,総務,50000",
    ]


def test_csv_quoted_commas_do_not_count_as_delimiters():
    text = 'k,v\n"a,b",1\nc,2\n'
    (table,) = find_tables(text)
    assert table.kind == "csv"
    assert len(table.rows) == 2


def test_html_table_repeats_the_th_row_and_keeps_every_tag_in_some_chunk():
    text = (
        "<table><thead><tr><th>部署</th><th>上限額</th></tr></thead><tbody>\n"
        "<tr><td>営業</td><td>120,000</td></tr>\n"
        "<tr><td>開発</td><td>30,000</td></tr>\n"
        "</tbody></table>"
    )
    result = chunkviz.chunk(text, "table", size=70)
    header = "<tr><th>部署</th><th>上限額</th></tr>\n"
    assert [c.prefix for c in result.chunks] == ["", header, header]
    assert result.chunk_texts()[2] == "<tr><td>開発</td><td>30,000</td></tr>\n</tbody></table>"
    assert_valid_chunking(result, measure=len, size=70)


def test_html_table_without_th_has_no_header():
    (table,) = find_tables("<table><tr><td>1</td></tr><tr><td>2</td></tr></table>")
    assert table.header is None
    assert len(table.rows) == 2


def test_an_overlong_row_is_cut_and_keeps_the_prefix():
    text = "| h |\n|---|\n| " + "長" * 30 + " |\n"
    result = chunkviz.chunk(text, "table", size=12)
    assert_valid_chunking(result, measure=len, size=12)
    assert all(c.prefix == "| h |\n|---|\n" for c in result.chunks[1:])


def test_prose_without_tables_is_split_at_blank_lines():
    result = chunkviz.chunk("a b c\n\nd e f\n\n", "table", size=5)
    assert result.chunk_texts() == ["a b c", "d e f"]


@pytest.mark.parametrize("size", [1, 9, 40])
@given(text=structured_text)
def test_table_invariants_on_structured_text(size, text):
    result = chunkviz.chunk(text, "table", size=size)
    assert_valid_chunking(result, measure=len, size=size)
    for c in result.chunks:
        assert c.prefix == "" or c.prefix.endswith("\n")


@given(st.text(alphabet='ab,;\t"\n ', max_size=40), st.sampled_from([",", "\t", ";"]))
def test_delimiter_count_matches_the_quote_aware_loop(line: str, delimiter: str) -> None:
    from chunkviz.strategies.table import _count_outside_quotes

    count, quoted = 0, False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif ch == delimiter and not quoted:
            count += 1
    assert _count_outside_quotes(line, delimiter) == count
