"""The one boundary between a page and its users: no traceback ever reaches the browser.

``show_error(exc)`` turns an exception into what a user may see:

- a ``ChunkvizError`` becomes its message in the reader's language, from the catalogues when
  it carries a code (``chunkviz.text.messages``), escaped: messages quote file names and link
  values, which must not become links or images;
- Streamlit's own control flow (``st.rerun``, ``st.stop``, ``st.switch_page``) is re-raised, it
  is not an error;
- anything else is logged with its traceback (the server log keeps it) and shown as a short
  notice naming only the exception's type. Where Streamlit itself is set to show error details
  (``client.showErrorDetails`` ``full`` or ``stacktrace``, a developer's setting and what
  ``AppTest`` runs with), the exception is re-raised instead, so Streamlit shows it and tests
  see it in ``at.exception``. The app's ``.streamlit/config.toml`` sets ``none``, so an
  exception that escapes every guard shows no stack either.

``guard()`` is the same as a context manager, and the one way a page or a ui module catches an
exception (``tests/app/test_guard.py`` fails on an ``except Exception`` anywhere else). What it
yields says whether the block failed, for the code after it::

    with guard() as attempt:
        result = compute(...)
    if attempt.failed:
        return  # the error is on the page already
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import streamlit as st

from chunkviz.errors import ChunkvizError, Message
from chunkviz.text.messages import error_text, render
from chunkviz.ui.i18n import current_lang, tr
from chunkviz.views.markup import escape_markdown

logger = logging.getLogger("chunkviz")

_DEVELOPER_DETAILS = ("full", "stacktrace", "true", "True")


def user_message(exc: BaseException) -> str:
    """What a user is shown for ``exc`` (Markdown-safe), without raising or logging."""
    if isinstance(exc, ChunkvizError):
        return escape_markdown(error_text(current_lang(), exc))
    return tr("guard.unexpected", kind=escape_markdown(type(exc).__name__))


def show_error(exc: BaseException) -> None:
    """Show ``exc`` as a user may see it (see the module docstring).

    Raises:
        BaseException: ``exc`` itself when it is not an ``Exception`` (Streamlit's control flow
            for ``st.rerun``, ``st.stop`` and ``st.switch_page`` derives from ``BaseException``,
            as does ``KeyboardInterrupt``), or unexpected while Streamlit shows error details.
    """
    if not isinstance(exc, Exception):
        raise exc
    if not isinstance(exc, ChunkvizError):
        if str(st.get_option("client.showErrorDetails")) in _DEVELOPER_DETAILS:
            raise exc
        logger.error("unexpected error on a page", exc_info=exc)
    st.error(user_message(exc))


@dataclass(slots=True)
class Guarded:
    """What ``guard()`` yields: ``failed`` once the block raised (and its error was shown)."""

    failed: bool = False

    @property
    def ok(self) -> bool:
        """The block ran to its end."""
        return not self.failed


@contextmanager
def guard() -> Iterator[Guarded]:
    """Run a block; an exception in it goes through ``show_error`` and marks it failed."""
    outcome = Guarded()
    try:
        yield outcome
    except Exception as exc:  # noqa: BLE001 - the boundary: show_error decides
        outcome.failed = True
        show_error(exc)


def message_markdown(message: Message | str) -> str:
    """A ``Message`` (a link problem, an import note) in the reader's language, escaped."""
    return escape_markdown(render(current_lang(), message))
