"""Built-in sample documents with their questions (package data), as ``Document``s.

- ``policy_ja``: a Japanese company policy (就業規則) with Markdown headings and a table, written
  for chunkviz.
- ``jsquad_tsuyu``: the JSQuAD article 梅雨 as one long document, built as the study built its
  corpus (``scripts/build_jsquad_sample.py``), with its questions and their exact answer offsets
  and its paragraph starts. JSQuAD is CC BY-SA 4.0 (JGLUE, Kurihara et al., LREC 2022).
- ``tech_en``: an English operator guide with headings, code and a table, written for chunkviz.

A sample's title is in the text catalogues (``sample.<name>``), in every UI language.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from chunkviz.document import Document, locate_questions
from chunkviz.errors import InputTextError
from chunkviz.text import text as catalogue_text

_NAMES = ("policy_ja", "jsquad_tsuyu", "tech_en")
DEFAULT_SAMPLE = "jsquad_tsuyu"


def sample_names() -> tuple[str, ...]:
    """Names of the built-in samples, in display order."""
    return _NAMES


def _read(filename: str) -> str:
    return resources.files(__name__).joinpath(filename).read_text(encoding="utf-8")


@lru_cache(maxsize=8)
def load_sample(name: str) -> Document:
    """The built-in sample called ``name`` as a Document (origin ``sample``, id ``name``).

    Its title is the English one; pages show ``sample.<name>`` in the user's language.

    Raises:
        InputTextError: No sample has that name; the message lists the names.
    """
    if name not in _NAMES:
        raise InputTextError("unknown_sample", name=name, choices=list(sample_names()))
    title = catalogue_text("en", f"sample.{name}")
    if name == "jsquad_tsuyu":
        data = json.loads(_read("jsquad_tsuyu.json"))
        text, pairs = data["text"], data["qa_pairs"]
        starts = tuple(data["paragraph_starts"])
    else:
        text, pairs, starts = _read(f"{name}.md"), json.loads(_read(f"{name}.qa.json")), ()
    questions = locate_questions(text, pairs, doc_id=name)
    return Document(name, title, text, starts, "sample", tuple(questions))
