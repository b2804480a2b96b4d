"""Explore's configuration, numbers, highlight and tabs are one fragment (issue 39).

A slider move reruns the fragment only: the document picker above it, whose text area holds the
whole document, is not executed again (the browser keeps what it drew). AppTest always runs the
whole script, so the test records *where* each part runs: inside ``st.fragment`` or outside.
"""

from __future__ import annotations

import functools
from typing import Any

import streamlit as st

import chunkviz.ui.explore.sections as sections
import chunkviz.ui.pickers as pickers
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
    for module, name in ((pickers, "document_picker"), (pickers, "configuration_picker"),
                         (sections, "number_tiles"), (sections, "detail_tabs")):
        spy(module, name)
    at = page("1_Explore.py", timeout=90)
    assert not at.exception
    at.slider(key="explore_p_fixed_size").set_value(300).run()
    assert not at.exception
    assert inside["document_picker"] == [False, False]  # drawn by the page, kept on a move
    assert inside["configuration_picker"] == [True, True]
    assert inside["number_tiles"] == [True, True]
    assert inside["detail_tabs"] == [True, True]
