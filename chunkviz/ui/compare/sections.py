"""The Compare page's boundary sections: the pair to diff, its numbers and strip, the panels.

The pair is two configurations by position among those that ran; the strip's click moves the
panels to the part of the text it shows (``chunkviz.ui.jumps.follow_to_page``).
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from chunkviz.document import Document
from chunkviz.text import Lang
from chunkviz.text.messages import backend_text
from chunkviz.ui.compare.aligned import Panel
from chunkviz.ui.compare.figures import diff_figure
from chunkviz.ui.guard import guard
from chunkviz.ui.i18n import tr
from chunkviz.ui.jumps import follow_to_page, keep_choice
from chunkviz.ui.page_start import is_empty
from chunkviz.ui.pickers import configuration_picker
from chunkviz.ui.resources import outcome_cached
from chunkviz.ui.state import AppState
from chunkviz.ui.strategies.figures import clicked_boundary
from chunkviz.views.compare import (
    BoundaryDiff,
    Outcome,
    boundary_diff,
    config_label,
    config_text,
    mark_cuts,
)
from chunkviz.views.explore import qa_marks
from chunkviz.views.highlight import PANEL_PAGE_SIZE, labels_for, render_html

Pair = tuple[int, int]


def configurations(
    state: AppState, document: Document, n: int, ranked: bool
) -> tuple[list[Outcome | None], list[str]]:
    """``n`` configurations side by side, each chunked (and ranked) with its two numbers.

    Returns:
        Each column's outcome (None where it failed, its error shown in the column) and its
        configuration in words.
    """
    backend_words = backend_text(state.lang, state.backend)
    outcomes: list[Outcome | None] = []
    names: list[str] = []
    for i, col in enumerate(st.columns(n)):
        with col:
            st.markdown(f"**{tr('compare.config', i=i + 1)}**")
            strategy, params = configuration_picker(
                state,
                prefix=f"compare_{i}_",
                slot=None if i == 0 else i - 1,
                columns=1,
                expander=tr("compare.parameters"),
            )
            names.append(config_text(state.lang, strategy, params))
            if is_empty(document.text):  # the pickers only: the page says it is empty
                outcomes.append(None)
                continue
            busy = (
                tr("lesson.busy_ranking", n=len(document.questions), backend=backend_words)
                if ranked
                else tr("lesson.busy_chunking", chars=len(document.text))
            )
            with guard() as attempt, st.spinner(busy, show_time=True):
                found = outcome_cached(
                    config_label(strategy, params),
                    document,
                    strategy,
                    params,
                    state.backend,
                    state.imported,
                    rank=ranked,
                )
            if attempt.failed:
                outcomes.append(None)
                continue
            outcomes.append(found)
            left, right = st.columns(2)
            left.metric(tr("compare.chunks"), f"{found.count:,}")
            right.metric(
                tr("compare.broken"),
                f"{found.broken} / {len(found.qa)}",
                help=tr("compare.broken_help"),
            )
    return outcomes, names


def numbered(
    outcomes: Sequence[Outcome | None], names: Sequence[str]
) -> tuple[list[Outcome], list[int]]:
    """The outcomes that ran, labelled with their number and name in the page's language.

    The number keeps table columns unique; ``names`` are the configurations in words
    (``config_text``), while each outcome's own label, a cache key, stays the same in every
    language.
    """
    ready = [
        Outcome(f"{i + 1}: {names[i]}", o.result, o.qa, o.ranks)
        for i, o in enumerate(outcomes)
        if o is not None
    ]
    return ready, [i + 1 for i, o in enumerate(outcomes) if o is not None]


def diff_section(
    ready: Sequence[Outcome], length: int, shown: tuple[int, int], lang: Lang
) -> tuple[Pair, BoundaryDiff] | None:
    """Pick two configurations and draw their boundary numbers and strip; None: no pair."""
    if len(ready) < 2:
        return None
    st.markdown(f"**{tr('compare.diff')}**", help=tr("compare.diff_help"))
    choices = list(range(len(ready)))
    pick_a, pick_b = st.columns(2)
    for key, default in (("compare_diff_a", 0), ("compare_diff_b", 1)):
        keep_choice(st.session_state, key, choices, default)  # fewer configurations than before
    first = pick_a.selectbox(
        tr("compare.diff_a"), choices, key="compare_diff_a", format_func=lambda i: ready[i].label
    )
    second = pick_b.selectbox(
        tr("compare.diff_b"), choices, key="compare_diff_b", format_func=lambda i: ready[i].label
    )
    if first == second:
        st.info(tr("compare.diff_same"))
        return None
    diff = boundary_diff(ready[first], ready[second])
    # Short labels (they fit a fifth of the page), the whole sentence in the help.
    for col, (name, value) in zip(
        st.columns(5),
        (
            ("only_a", len(diff.only_a)),
            ("only_b", len(diff.only_b)),
            ("shared", len(diff.shared)),
            ("broken_a", len(diff.broken_only_a)),
            ("broken_b", len(diff.broken_only_b)),
        ),
        strict=True,
    ):
        col.metric(tr(f"compare.m_{name}"), f"{value:,}", help=tr(f"compare.m_{name}_help"))
    event = st.plotly_chart(
        diff_figure(ready[first], ready[second], diff, shown=shown, lang=lang),
        key="compare_strip",
        on_select="rerun",
        selection_mode="points",
    )
    st.caption(tr("compare.strip_help"))
    if follow_to_page(
        st.session_state,
        "compare_strip_followed",
        "compare_page",
        clicked_boundary(event),
        length,
        PANEL_PAGE_SIZE,
    ):
        st.rerun()
    st.caption(tr("compare.diff_legend"))
    return (first, second), diff


def panels(
    text: str,
    ready: Sequence[Outcome],
    numbers: Sequence[int],
    diffed: tuple[Pair, BoundaryDiff] | None,
    shown: tuple[int, int],
    lang: Lang,
) -> list[Panel]:
    """One highlighted panel per configuration; the pair's panels mark their own cuts."""
    a, b = shown
    labels = labels_for(lang)
    out = []
    for i, found in enumerate(ready):
        markup = render_html(
            text,
            found.result.chunks,
            qa_marks(list(found.qa), found.result),
            start=a,
            end=b,
            labels=labels,
        )
        if diffed is not None and i in diffed[0]:
            (one, two), diff = diffed
            mine, other = (diff.only_a, diff.only_b) if i == one else (diff.only_b, diff.only_a)
            markup = mark_cuts(
                markup,
                mine,
                other,
                here_title=tr("compare.cut_here"),
                there_title=tr("compare.cut_there", other=numbers[two if i == one else one]),
            )
        out.append(Panel(found.label, markup))
    return out
