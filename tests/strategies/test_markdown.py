from __future__ import annotations

import chunkviz
from chunkviz import Chunk
from chunkviz.strategies.markdown import heading_sections

RULES = """# 就業規則

前文です。

## 第5章 休暇

### 第21条

年次有給休暇を与える。

```
# コード内は見出しではない
```

## 第6章 服務 ##
規律を守る。
"""


def test_markdown_breadcrumbs_follow_the_heading_levels():
    result = chunkviz.chunk(RULES, "markdown", size=200)
    prefixes = [c.prefix for c in result.chunks]
    assert prefixes == [
        "就業規則\n",
        "就業規則 > 第5章 休暇\n",
        "就業規則 > 第5章 休暇 > 第21条\n",
        "就業規則 > 第6章 服務\n",
    ]
    texts = result.chunk_texts()
    assert texts[0] == "# 就業規則\n\n前文です。"
    assert texts[2].startswith("### 第21条")
    assert texts[2].endswith("```")
    assert "# コード内は見出しではない" in texts[2]
    assert result.embed_texts()[3] == "就業規則 > 第6章 服務\n## 第6章 服務 ##\n規律を守る。"


def test_markdown_prefix_is_not_part_of_the_offsets():
    result = chunkviz.chunk(RULES, "markdown", size=200)
    for c in result.chunks:
        assert not RULES[c.start : c.end].startswith(c.prefix)


def test_markdown_caps_long_sections_and_repeats_the_breadcrumb():
    text = "# 章\n\n一文目です。二文目です。三文目です。"
    result = chunkviz.chunk(text, "markdown", size=12)
    # Pieces are packed greedily, so the heading shares its chunk with the first sentence.
    assert result.chunk_texts() == ["# 章\n\n一文目です。", "二文目です。三文目です。"]
    assert {c.prefix for c in result.chunks} == {"章\n"}


def test_markdown_text_before_the_first_heading_has_no_prefix():
    sections = heading_sections("序文。\n# A\n本文\n")
    assert sections == [(0, 3, ()), (4, 10, ("A",))]


def test_markdown_hash_without_space_is_not_a_heading():
    assert heading_sections("#tag text\n#### 見出し") == [(0, 9, ()), (10, 18, ("見出し",))]


def test_markdown_golden_on_repeated_text():
    assert chunkviz.chunk("w1 w1 w1", "markdown", size=3).chunks == (
        Chunk(0, 3),
        Chunk(3, 6),
        Chunk(6, 8),
    )
    assert chunkviz.chunk("。。。。", "markdown", size=2).chunks == (Chunk(0, 2), Chunk(2, 4))
    result = chunkviz.chunk("# w1\nw1 w1", "markdown", size=100)
    assert result.chunks == (Chunk(0, 10, prefix="w1\n"),)
