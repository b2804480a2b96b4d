"""Messages in the reader's language: an error's or a problem's code and values, not its repr.

``render(lang, message)`` looks up ``error.<code>`` in ``lang``'s catalogue and fills it with
the message's params shown as values (``value_text``): a string as itself (cut to a readable
length), a list as its items joined by commas, a number as a number, a nested ``Message`` (the
rule inside a refusal) rendered in the same language. A message without a code, or whose code no
catalogue has, is shown as its English text: nothing is lost, and a new error is translated by
adding its key to the catalogues.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from chunkviz.errors import ChunkvizError, Message
from chunkviz.text import Lang, has, text

if TYPE_CHECKING:
    from chunkviz.pdf.quality import ReadQuality

#: Longest value shown inside a message (a link may carry anything).
VALUE_LIMIT = 60


def value_text(lang: Lang, value: Any) -> str:
    """``value`` as a reader sees it in a message of ``lang`` (never a Python repr)."""
    if isinstance(value, Message):
        return render(lang, value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return text(lang, "error.list_sep").join(value_text(lang, v) for v in items) or "—"
    shown = str(value)
    return shown if len(shown) <= VALUE_LIMIT else shown[: VALUE_LIMIT - 1] + "…"


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


def _fields(lang: Lang, params: Mapping[str, Any]) -> dict[str, str]:
    return {name: value_text(lang, value) for name, value in params.items()}


def render(lang: Lang, message: Message | str) -> str:
    """``message`` in ``lang`` from the catalogues; its English text when it has no code."""
    code = getattr(message, "code", None)
    if code is None or not has("en", f"error.{code}"):
        return str(message)
    params: Mapping[str, Any] = getattr(message, "params", {})
    return text(lang, f"error.{code}", **_fields(lang, params))


def error_text(lang: Lang, exc: BaseException) -> str:
    """What a reader of ``lang`` is told about the chunkviz error ``exc``."""
    if isinstance(exc, ChunkvizError):
        return render(lang, exc.message)
    return str(exc)


def read_quality_text(lang: Lang, quality: ReadQuality) -> tuple[str, str | None]:
    """The note on how well a PDF was read, and a warning naming the pages read badly (or None).

    Shown on upload (and kept with the document, ``PageLayout.quality``).
    """
    from chunkviz.pdf.quality import UNMAPPED_WARNING

    note = text(lang, "document.pdf_quality", vertical=len(quality.vertical_pages),
                rotated=len(quality.rotated_pages), ruby=quality.ruby,
                unmapped=quality.unmapped_share)
    if not quality.warn_pages:
        return note, None
    pages = value_text(lang, [str(p) for p in quality.warn_pages])
    return note, text(lang, "document.pdf_unmapped", pages=pages, share=UNMAPPED_WARNING)
