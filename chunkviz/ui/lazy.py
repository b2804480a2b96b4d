"""Work that runs only when it is on screen: the open tab, and a model's encoding when asked.

A hidden tab that ranks every chunk with a dense model made a page wait half a minute for a
picture nobody opened (issue 39). Tabs here track which one is open (``on_change="rerun"``) and
only the open one runs; a step that encodes every chunk with a model runs once the reader asks
(a toggle), while lexical backends, which build no vectors, run at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from chunkviz.retrieval.backends import backend_kind
from chunkviz.ui.jumps import reopen_tab


def lazy_tabs(labels: Mapping[str, str], key: str) -> Iterator[tuple[str, DeltaGenerator]]:
    """Tabs by id (``labels``: id -> label); yields only the open one, as ``(id, tab)``.

    Streamlit keeps the open tab's *label* under ``key``; its id is kept under ``key + "_id"``
    so that a language switch reopens the same tab under its new label.
    """
    ss = st.session_state
    id_key = f"{key}_id"
    reopen_tab(ss, key, id_key, labels)
    tabs = st.tabs(list(labels.values()), key=key, on_change="rerun")
    for name, tab in zip(labels, tabs, strict=True):
        if tab.open:
            ss[id_key] = name
            yield name, tab


def encoding_asked(backend: str, *, key: str, label: str, help: str) -> bool:
    """Whether to encode with ``backend`` now: at once when lexical, else when the reader asks.

    A lexical backend (BM25, TF-IDF) builds no model vectors and runs in a fraction of a
    second; a dense or hybrid one encodes every chunk, seconds to minutes on a CPU, so the page
    shows a toggle (``key``) and runs nothing until it is on.
    """
    if backend_kind(backend) == "lexical":
        return True
    return bool(st.toggle(label, key=key, help=help))
