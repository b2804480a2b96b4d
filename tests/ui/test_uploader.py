"""The uploader's button and limits line, worded from the catalogues by CSS (issue 39)."""

from __future__ import annotations

import re

import pytest

from chunkviz.ui.uploader import css_string, uploader_css


@pytest.mark.parametrize(
    ("lang", "button", "limits"),
    [
        ("en", '"Upload"', '"64 MB per file • TXT, PDF, DOCX"'),
        ("ja", '"アップロード"', '"1 ファイル 64 MB まで・TXT, PDF, DOCX"'),
    ],
)
def test_the_button_and_the_limits_are_the_catalogues(lang, button, limits):
    css = uploader_css("explore_doc_upload", ["txt", ".pdf", "docx"], lang, 64)
    assert f"::after {{ content: {button};" in css
    assert f"::after {{ content: {limits};" in css
    # Only this uploader: every rule is scoped to its key's class.
    rules = re.findall(r"([^{}]+)\{", css.removeprefix("<style>"))
    for selectors in rules:
        for selector in selectors.split(","):
            assert selector.strip().startswith(".st-key-explore_doc_upload "), selector


@pytest.mark.parametrize("value", ['a"b', "a\\b", "a\nb", "</style><script>x</script>"])
def test_a_css_string_cannot_end_early(value):
    quoted = css_string(value)
    inner = quoted[1:-1]
    assert quoted.startswith('"')
    assert quoted.endswith('"')
    assert not re.search(r'(?<!\\)"', inner)  # every quote inside is escaped
    assert "\n" not in inner
    assert "<" not in inner
    assert ">" not in inner
