"""Explore's configuration, numbers, highlight and tabs are one fragment (issue 39).

A slider move reruns the fragment only: the document picker above it, whose text area holds the
whole document, is not executed again (the browser keeps what it drew). AppTest always runs the
whole script, so the test records *where* each part runs: inside ``st.fragment`` or outside.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

import streamlit as st

import chunkviz.ui.explore.lesson as lesson
import chunkviz.ui.page_start as page_start
from tests.app.helpers import page


def test_the_configuration_and_everything_it_decides_run_in_a_fragment(monkeypatch):
    depth = [0]
    inside: dict[str, list[bool]] = {}
    real_fragment = st.fragment

    def fragment(func: Any = None, **kwargs: Any) -> Any:
        @functools.wraps(func)
        def counted(*args: Any, **kw: Any) -> Any:
            depth[0] += 1
            try:
                return func(*args, **kw)
            finally:
                depth[0] -= 1

        return real_fragment(counted, **kwargs)

    def spy(module: Any, name: str) -> None:
        real = getattr(module, name)

        def recorded(*args: Any, **kwargs: Any) -> Any:
            inside.setdefault(name, []).append(depth[0] > 0)
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, recorded)

    monkeypatch.setattr(st, "fragment", fragment)
    # The fragment is made when its module is imported: import it again under the spy.
    importlib.reload(lesson)
    try:
        for module, name in (
            (page_start, "document_picker"),
            (lesson, "configuration_picker"),
            (lesson, "number_tiles"),
            (lesson, "detail_tabs"),
        ):
            spy(module, name)
        at = page("1_Explore.py", timeout=90)
        assert not at.exception
        at.slider(key="explore_p_fixed_size").set_value(300).run()
        assert not at.exception
    finally:
        monkeypatch.undo()
        importlib.reload(lesson)
    assert inside["document_picker"] == [False, False]  # drawn by the page, kept on a move
    assert inside["configuration_picker"] == [True, True]
    assert inside["number_tiles"] == [True, True]
    assert inside["detail_tabs"] == [True, True]
