"""Narrow screens: the sidebar folds away once, so a projector or a small laptop shows the page.

At 1280×720 with 150% zoom (853 CSS pixels wide) the open sidebar took 35% of the width.
Streamlit folds it by itself only below its phone breakpoint; this small component, mounted
once in the sidebar by the entrypoint, folds it on the first page of a browser tab whose window
is narrower than ``NARROW_PX`` (the reader can open it again; it is not folded a second time).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import streamlit as st

from chunkviz.ui.dom import SIDEBAR_FOLD_BUTTON

#: Below this window width (CSS pixels) the sidebar starts folded.
NARROW_PX = 1000

_JS = """
export default function (component) {
  const { data } = component;
  const flag = "chunkviz-sidebar-folded";
  if (window.sessionStorage.getItem(flag)) { return; }
  window.sessionStorage.setItem(flag, "1");
  if (window.innerWidth >= data.narrow) { return; }
  let tries = 0;
  const fold = () => {
    // The fold button exists only while the sidebar is open.
    const button = document.querySelector(data.fold);
    if (button) {
      button.click();
    } else if (tries < 20) {
      tries += 1;
      window.setTimeout(fold, 100);
    }
  };
  fold();
}
"""


@lru_cache(maxsize=1)
def _component() -> Any:
    return st.components.v2.component("chunkviz.narrow", html="<span></span>", js=_JS)


def fold_sidebar_when_narrow() -> None:
    """Mount the folding script (call it inside ``st.sidebar``, once per run)."""
    _component()(key="chunkviz_narrow", data={"narrow": NARROW_PX, "fold": SIDEBAR_FOLD_BUTTON})
