"""Where a highlight view looks: jumps, paging and follow-once, for Explore, Compare, Strategies.

Pure functions over a session-state mapping (``st.session_state`` in the app, a ``dict`` in the
unit tests), so the rules are tested without Streamlit. A view under ``prefix`` keeps:

- ``{prefix}_scroll``: the chunk whose badge is marked (and scrolled to on a request);
- ``{prefix}_focus``: a character to mark and scroll to (an answer's start); it wins the scroll;
- ``{prefix}_jump_request``: bumped by every jump, so a jump to the same place scrolls again
  while other reruns keep the reader's place (``highlight_view(request=...)``);
- ``{prefix}_scroll_pending``: a jump the pager has not followed yet;
- ``{prefix}_page`` / ``{prefix}_page_default``: the pager's key and its default (1-based).

A selection that stays selected across reruns (a table row, a clicked point) is followed once:
``follow_once`` remembers the handled choice, so the reader may move on while it stays selected,
and clearing it makes the same choice a new request.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from chunkviz.model import Chunk
from chunkviz.views.highlight import PAGE_SIZE, page_count, page_of
from chunkviz.views.qa_table import answer_place

# Any keys: st.session_state is a mapping of str | int keys, a test passes a dict[str, Any].
State = MutableMapping[Any, Any]


@dataclass(frozen=True, slots=True)
class Jump:
    """What a view is asked to show in this run (both None: the reader's own place)."""

    scroll: int | None
    focus: int | None
    request: int


def request_jump(
    state: State, prefix: str, index: int | None = None, *, offset: int | None = None
) -> None:
    """Bring chunk ``index`` (or character ``offset``) into view at the next run."""
    state[f"{prefix}_scroll"] = index
    state[f"{prefix}_focus"] = offset
    state[f"{prefix}_jump_request"] = int(state.get(f"{prefix}_jump_request", 0)) + 1
    state[f"{prefix}_scroll_pending"] = True


def current_jump(
    state: State, prefix: str, chunks: Sequence[Chunk], length: int, page_size: int = PAGE_SIZE
) -> Jump:
    """The jump to draw now; a pending one moves the pager to the target's page.

    A target out of range (the configuration or the document changed since) is dropped. The
    pager's own state is removed and its default moved, rather than its key written: writing a
    widget's key that also has a default draws Streamlit's "default value and also set through
    the Session State API" warning at every jump.
    """
    scroll = state.get(f"{prefix}_scroll")
    if scroll is not None and not 0 <= scroll < len(chunks):
        scroll = None
    focus = state.get(f"{prefix}_focus")
    if focus is not None and not 0 <= focus < length:
        focus = None
    if state.pop(f"{prefix}_scroll_pending", False) and (scroll is not None or focus is not None):
        state.pop(f"{prefix}_page", None)
        target = focus if focus is not None else chunks[scroll or 0].start
        state[f"{prefix}_page_default"] = page_of(target, page_size) + 1
    return Jump(scroll, focus, int(state.get(f"{prefix}_jump_request", 0)))


def page_default(state: State, prefix: str, pages: int) -> int:
    """The pager's default page (1-based), within ``pages``."""
    return max(1, min(int(state.get(f"{prefix}_page_default", 1)), pages))


def follow_once(state: State, key: str, chosen: Hashable | None) -> bool:
    """Whether ``chosen`` is new and must be followed now (remembered under ``key``).

    None (nothing selected) forgets the handled choice, so choosing it again is a new request.
    """
    if chosen is None:
        state.pop(key, None)
        return False
    if state.get(key) == chosen:
        return False
    state[key] = chosen
    return True


def selected(rows: Sequence[int], shown: Sequence[int]) -> int | None:
    """The item of the first selected row of a table that lists ``shown`` (row is not item)."""
    return shown[rows[0]] if rows and 0 <= rows[0] < len(shown) else None


def follow_answer(
    state: State,
    prefix: str,
    kind: str,
    rows: Sequence[int],
    shown: Sequence[int],
    qa: Sequence[Any],
    chunks: Sequence[Chunk],
) -> bool:
    """Jump to the answer of a newly selected QA row; True when the page must run again.

    The handled choice is remembered per filter ``kind`` (one table per filter): row 0 of
    "broken" is another question than row 0 of "all".
    """
    item = selected(rows, shown)
    if not follow_once(state, f"{prefix}_qa_followed", None if item is None else (kind, item)):
        return False
    place = answer_place(qa[item], chunks) if item is not None else None
    if place is None:
        return False
    request_jump(state, prefix, place[0], offset=place[1])
    return True


def valid_page(state: State, key: str, pages: int) -> int:
    """The 1-based page under ``key``, dropped (back to 1) when past ``pages``."""
    if not 1 <= int(state.get(key, 1)) <= pages:  # a shorter document than before
        state.pop(key, None)
    return int(state.get(key, 1))


def follow_to_page(
    state: State, key: str, page_key: str, offset: int | None, length: int, page_size: int
) -> bool:
    """Move the pager under ``page_key`` to a newly clicked ``offset``; True: run again.

    Called before the pager is drawn in the run, so its key may still be written.
    """
    if not follow_once(state, key, offset) or offset is None:
        return False
    pages = page_count(length, page_size)
    target = min(page_of(offset, page_size) + 1, pages)
    if pages > 1 and target != state.get(page_key, 1):
        state[page_key] = target
        return True
    return False


def chunk_page(chunks: Sequence[Chunk], target: int | None, page_size: int = PAGE_SIZE) -> int:
    """The 0-based page holding chunk ``target`` (the first page without one)."""
    if target is None or not 0 <= target < len(chunks):
        return 0
    return page_of(chunks[target].start, page_size)


def pick_cut(state: State, key: str, cuts: Sequence[int], clicked: int | None) -> None:
    """Point the cut picker under ``key`` at a clicked boundary (choice n is cut n - 1)."""
    if clicked is not None and clicked in cuts:
        state[key] = list(cuts).index(clicked) + 1


def keep_choice(state: State, key: str, choices: Sequence[Any], kept: Any) -> None:
    """Undo a click that cleared a one-of control (a segmented control's chosen segment)."""
    if state.get(key) not in choices:
        state[key] = kept


def reopen_tab(state: State, key: str, id_key: str, labels: Mapping[str, str]) -> None:
    """After a language switch, open the same tab (``id_key``) under its translated label.

    Tabs keep their *label* under ``key``; ``labels`` maps each tab's id to its label now.
    """
    if state.get(key) not in labels.values() and state.get(id_key) in labels:
        state[key] = labels[state[id_key]]
