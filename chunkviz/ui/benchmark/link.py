"""The Benchmark page's share link: its choices written into the URL and restored from it.

A link opened afresh starts the page's widgets at the link's values (``seed_*``, each before its
widget is drawn); every run then writes the values in effect back (``publish``), after the
sidebar has written the configuration. What a link asked for that this page cannot show is
reported once, in the reader's language, where the page put ``problems_box``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import streamlit as st

from chunkviz.errors import Message
from chunkviz.ui.guard import message_markdown
from chunkviz.ui.i18n import tr
from chunkviz.ui.state import AppState
from chunkviz.views.bench_link import (
    BenchView,
    read_budget,
    read_choice,
    read_delta,
    read_run,
    to_query,
)
from chunkviz.views.run_list import RunSummary

_PENDING = "bench_link_pending"
_PROBLEMS = "bench_link_problems"


def _pending(state: AppState) -> dict[str, str]:
    ss = st.session_state
    if _PENDING not in ss:
        ss[_PENDING] = dict(state.page_query)
        ss[_PROBLEMS] = []
        state.page_query = {}
    pending: dict[str, str] = ss[_PENDING]
    return pending


def _note(problem: Message | None) -> None:
    if problem is not None:
        st.session_state[_PROBLEMS].append(problem)


def show_problems() -> None:
    """What the link asked for and could not be shown (one warning each)."""
    for problem in st.session_state.get(_PROBLEMS, ()):
        st.warning(tr("config.link_problem", msg=message_markdown(problem)))


def seed_run(state: AppState, runs: Sequence[RunSummary], key: str) -> None:
    """Start the run picker ``key`` (values: paths) at the link's run."""
    pending = _pending(state)
    if "run" not in pending:
        return
    run_id, problem = read_run(pending, [r.run_id for r in runs])
    del pending["run"]
    _note(problem)
    if run_id is not None:
        st.session_state[key] = next(str(r.path) for r in runs if r.run_id == run_id)


def seed_choice(state: AppState, link_key: str, choices: Collection[str], key: str) -> None:
    """Start the widget ``key`` at the link's ``link_key`` if it is one of ``choices``."""
    pending = _pending(state)
    if link_key not in pending:
        return
    value, problem = read_choice(pending, link_key, choices)
    del pending[link_key]
    _note(problem)
    if value is not None:
        st.session_state[key] = value


def seed_delta(state: AppState, key: str, default: float) -> None:
    """Start the margin input ``key`` at the link's δ, else (when it holds none) at ``default``.

    The widget is then drawn without a ``value``: its state is its only source.
    """
    _seed_number(state, "delta", read_delta, key, default)


def seed_budget(state: AppState, key: str, default: int) -> None:
    """Start the budget input ``key`` at the link's budget, else (none there) at ``default``."""
    _seed_number(state, "budget", read_budget, key, default)


def _seed_number(
    state: AppState,
    link_key: str,
    read: Callable[[Mapping[str, str]], tuple[Any, Message | None]],
    key: str,
    default: float,
) -> None:
    """Start the number input ``key`` at the link's ``link_key`` as ``read`` checks it."""
    pending = _pending(state)
    value, problem = read(pending)
    pending.pop(link_key, None)
    _note(problem)
    if value is not None:
        st.session_state[key] = value
    else:
        st.session_state.setdefault(key, default)


def publish(view: BenchView) -> None:
    """Write the page's choices into the URL, beside the configuration the sidebar wrote."""
    for name, value in to_query(view).items():
        st.query_params[name] = value
