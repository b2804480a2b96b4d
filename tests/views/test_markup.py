"""The one escaping helper: crafted values render as literal text."""

from __future__ import annotations

import pytest

from chunkviz.views.markup import escape_html, escape_markdown


@pytest.mark.parametrize(
    "value",
    [
        "[Session expired - log in again](https://evil.example/login)",
        "![s](http://127.0.0.1:8765/s.png)",
        ":red[alarm] $x^2$ <b>bold</b> **strong** `code`",
        "# heading\n- item\r\n| a | b |",
    ],
)
def test_escape_markdown_leaves_no_unescaped_special_character(value):
    out = escape_markdown(value)
    assert "\n" not in out
    assert "\r" not in out
    i = 0
    while i < len(out):
        if out[i] == "\\":
            i += 2  # an escape and the character it protects
            continue
        assert out[i] not in "\\`*_{}[]#!|<>~$:", (value, out, i)
        i += 1


def test_escape_markdown_keeps_plain_text_and_japanese():
    assert escape_markdown("梅雨 は 日本") == "梅雨 は 日本"


def test_escape_html_escapes_markup_and_quotes():
    assert escape_html("<script>\"x\" & 'y'</script>") == (
        "&lt;script&gt;&quot;x&quot; &amp; &#x27;y&#x27;&lt;/script&gt;"
    )


def test_escape_markdown_neutralises_a_leading_block_marker_only():
    assert escape_markdown("- item") == "\\- item"
    assert escape_markdown("3. step") == "3\\. step"
    assert escape_markdown("fixed-400-80 (0.5)") == "fixed-400-80 (0.5)"


@pytest.mark.parametrize(
    "text",
    ["https://evil.example/login", "see www.evil.example", "mail a@evil.example", "HTTP://X.Y"],
)
def test_bare_urls_and_addresses_cannot_become_links(text):
    # GFM links bare URLs after escapes are resolved: "https\\://evil.example" was a link.
    import re

    from chunkviz.views.markup import WORD_JOINER

    escaped = escape_markdown(text)
    assert WORD_JOINER in escaped
    assert not re.search(r"(?i)(https?:|www\.|@\w)", escaped.replace("\\", ""))
    assert escaped.replace(WORD_JOINER, "").replace("\\", "") == text


def test_escape_markdown_keeps_metric_names_that_are_no_address():
    assert escape_markdown("nDCG@10 and Recall@5") == "nDCG@10 and Recall@5"
