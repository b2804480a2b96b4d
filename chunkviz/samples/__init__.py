"""Built-in sample documents with their question/answer pairs (package data).

- ``policy_ja``: a Japanese company policy (就業規則) with Markdown headings and a table, written
  for chunkviz.
- ``jsquad_tsuyu``: the JSQuAD article 梅雨 as one long document, built as the study built its
  corpus (``scripts/build_jsquad_sample.py``), with its questions and their exact answer offsets.
  JSQuAD is CC BY-SA 4.0 (JGLUE, Kurihara et al., LREC 2022).
- ``tech_en``: an English operator guide with headings, code and a table, written for chunkviz.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from chunkviz.errors import InputTextError


@dataclass(frozen=True, slots=True)
class Sample:
    """A built-in document.

    Attributes:
        name: Identifier used in URLs (``?sample=policy_ja``).
        title: English title.
        title_ja: Japanese title.
        text: The document.
        qa_pairs: Question/answer dicts (``question``, ``answer`` and, where the position is
            known, ``start``); answers without ``start`` are located in the text.
        paragraph_starts: The document's own paragraph starts, when it has them (JSQuAD).
    """

    name: str
    title: str
    title_ja: str
    text: str
    qa_pairs: tuple[dict[str, Any], ...]
    paragraph_starts: tuple[int, ...] = ()


_TITLES = {
    "policy_ja": ("Company policy (Japanese, Markdown)", "就業規則（日本語・Markdown）"),
    "jsquad_tsuyu": ("JSQuAD article: 梅雨 (rainy season)", "JSQuAD 記事：梅雨"),
    "tech_en": ("Operator guide (English, Markdown)", "運用ガイド（英語・Markdown）"),
}


def sample_names() -> tuple[str, ...]:
    """Names of the built-in samples, in display order."""
    return tuple(_TITLES)


def _read(filename: str) -> str:
    return resources.files(__name__).joinpath(filename).read_text(encoding="utf-8")


@lru_cache(maxsize=8)
def load_sample(name: str) -> Sample:
    """The built-in sample called ``name``.

    Raises:
        InputTextError: No sample has that name; the message lists the names.
    """
    if name not in _TITLES:
        raise InputTextError(
            f"unknown sample {name!r}; choose one of {', '.join(sample_names())}"
        )
    title, title_ja = _TITLES[name]
    if name == "jsquad_tsuyu":
        data = json.loads(_read("jsquad_tsuyu.json"))
        pairs = tuple(
            {"question": q["question"], "answer": q["answer"], "start": q["start"]}
            for q in data["qa_pairs"]
        )
        return Sample(name, title, title_ja, data["text"], pairs, tuple(data["paragraph_starts"]))
    text = _read(f"{name}.md")
    pairs = tuple(dict(q) for q in json.loads(_read(f"{name}.qa.json")))
    return Sample(name, title, title_ja, text, pairs)
