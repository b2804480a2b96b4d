"""Messages in the reader's language: an error's or a problem's code and values, not its repr.

``render(lang, message)`` fills ``error.<code>`` of ``lang``'s catalogue with the message's params
shown as values (``value_text``, from ``chunkviz.catalogues``): a string as itself (cut to a
readable length), a list as its items joined by commas, a number as a number, a nested
``Message`` (the rule inside a refusal) rendered in the same language. The English rendering is
the message's own text (``str(error)``), so the two cannot disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chunkviz.catalogues import value_text
from chunkviz.errors import ChunkvizError, Message
from chunkviz.text import Lang, has, text

if TYPE_CHECKING:
    from chunkviz.pdf.quality import ReadQuality

__all__ = [
    "backend_text",
    "error_text",
    "language_model_text",
    "progress_text",
    "read_quality_text",
    "recorded_text",
    "render",
    "value_text",
]


def backend_text(lang: Lang, name: str) -> str:
    """A retrieval backend named in words (``BM25, character bigrams``), not by its model repr.

    A backend the catalogues do not name (a model the user gave, ``st:<path>``) keeps its name.
    """
    key = f"backend.{name}"
    return text(lang, key) if has("en", key) else name


def progress_text(lang: Lang, stage: str, done: int, total: int) -> str:
    """A benchmark or tune run's step in words of ``lang``: ``Encoding chunks (3/7)``.

    The runner's own message (``ndcg@10: pairwise tests``) is English for the command line; a
    page shows the stage (``chunkviz.eval.engine.Stage``) from the catalogue instead.
    """
    return text(lang, f"progress.{stage}", done=done, total=total)


def recorded_text(lang: Lang, kind: str, value: str) -> str:
    """A value a results file records (a test's name, a question form) in words of ``lang``.

    Looked up as ``recorded.<kind>.<value>``; a value the catalogues do not name is shown as it
    is recorded.
    """
    key = f"recorded.{kind}.{value}"
    return text(lang, key) if has(lang, key) else value


def language_model_text(lang: Lang, lm: str, order: int) -> str:
    """The perplexity splitter's language model in words (``lm`` as the strategy takes it)."""
    from chunkviz.lm import CHAR_NGRAM, HF_PREFIX

    if lm == CHAR_NGRAM:
        return text(lang, "strategies.lm_char_ngram", order=order)
    return text(lang, "strategies.lm_transformers", model=lm.removeprefix(HF_PREFIX))


def render(lang: Lang, message: Message | str) -> str:
    """``message`` in ``lang`` from the catalogues; a plain string as it is."""
    if isinstance(message, Message):
        return message.render(lang)
    return str(message)


def error_text(lang: Lang, exc: BaseException) -> str:
    """What a reader of ``lang`` is told about the chunkviz error ``exc``."""
    if isinstance(exc, ChunkvizError):
        return exc.message.render(lang)
    return str(exc)


def read_quality_text(lang: Lang, quality: ReadQuality) -> tuple[str, str | None]:
    """The note on how well a PDF was read, and a warning naming the pages read badly (or None).

    Shown on upload (and kept with the document, ``PageLayout.quality``).
    """
    from chunkviz.pdf.quality import UNMAPPED_WARNING

    note = text(
        lang,
        "document.pdf_quality",
        vertical=len(quality.vertical_pages),
        rotated=len(quality.rotated_pages),
        ruby=quality.ruby,
        unmapped=quality.unmapped_share,
    )
    if not quality.warn_pages:
        return note, None
    pages = value_text(lang, [str(p) for p in quality.warn_pages])
    return note, text(lang, "document.pdf_unmapped", pages=pages, share=UNMAPPED_WARNING)
