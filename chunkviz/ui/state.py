"""The one app state of a session: the document, the configuration, the language, the backend.

``app_state()`` is the first call of the entrypoint and of every page (a page also runs alone,
as ``AppTest.from_file("pages/x.py")`` does): it creates the state once per session, applies a
shared link once, and returns it. The state holds values and ids only (a strategy name, a
language code, a backend name, a ``Document``), never a translated label, so moving between
pages, switching the language or any rerun leaves it as it is.

Widgets are bound to it through ``bind``: a widget key that holds no value yet (a page just
opened, the language just switched) starts at the state's value; the widget's value is written
back after it is drawn. Choice widgets whose labels are translated are keyed per language
(``lang_key``): Streamlit keeps a radio's or select box's value as its displayed label, so a key
shared by two languages would hand back a label of the other language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import streamlit as st

from chunkviz.document import Document
from chunkviz.errors import Message
from chunkviz.eval.imported import IMPORTED, ImportedChunking
from chunkviz.retrieval.backends import DEFAULT_BACKEND
from chunkviz.samples import DEFAULT_SAMPLE, load_sample
from chunkviz.strategies import get_strategy
from chunkviz.text import Lang
from chunkviz.ui.deep_link import leave_pages_directory_mode
from chunkviz.ui.resources import backend_infos
from chunkviz.views.qa_table import QAFilter
from chunkviz.views.share_link import (
    from_query,
    link_problems,
    page_query,
    settle_pairs,
    to_query,
)

STATE_KEY = "chunkviz_state"

Source = Literal["sample", "paste", "upload"]
Configuration = tuple[str, dict[str, Any]]

DEFAULT_STRATEGY = "fixed"
# Compare's extra configurations beside the current one: separators, topics, the document's own
# paragraphs. Each cuts the default sample elsewhere (parent_child's children were recursive 200's).
COMPARE_DEFAULTS: tuple[Configuration, ...] = (
    ("recursive", {"size": 200, "overlap": 0}),
    ("semantic", {"max_size": 400}),
    ("paragraph", {}),
)


def _default_document() -> Document:
    return load_sample(DEFAULT_SAMPLE)


@dataclass
class AppState:
    """What every page reads and writes (one per session, in ``st.session_state``).

    Attributes:
        lang: The UI language.
        backend: The retrieval backend's name.
        source: Where the current document comes from (the picker's choice).
        sample: The last chosen built-in sample.
        pasted: The user's pasted text (kept when the source changes; never in a link).
        document: The current document, with its questions (its own and the user's).
        user_pairs: Question/answer pairs the user added to this document.
        strategy: The current strategy.
        params: Parameter values by strategy (the current one is ``params[strategy]``).
        compare: Compare's configurations beside the current one.
        qa_filter: Which questions Explore's question table shows (``QA_FILTERS``).
        link_problems: What a shared link asked for that could not be applied.
        imported: Chunkings imported from other libraries, by id (each is tied to the text it
            was aligned to; the configuration ``(IMPORTED, {"id": id})`` selects one).
        page_query: A shared link's page-owned values (the Benchmark page's run, metric, δ
            and view), kept until that page applies them.
        context: The contextual chunk header embedded with each chunk (``none``, ``title``,
            ``headings``; ``chunkviz.retrieval.headers``): Explore counts tokens with it.
    """

    lang: Lang = "en"
    backend: str = DEFAULT_BACKEND
    source: Source = "sample"
    sample: str = DEFAULT_SAMPLE
    pasted: str = ""
    document: Document = field(default_factory=_default_document)
    user_pairs: tuple[Mapping[str, Any], ...] = ()
    strategy: str = DEFAULT_STRATEGY
    params: dict[str, dict[str, Any]] = field(default_factory=dict)
    compare: list[Configuration] = field(
        default_factory=lambda: [(s, dict(p)) for s, p in COMPARE_DEFAULTS]
    )
    qa_filter: QAFilter = "all"
    link_problems: tuple[Message, ...] = ()
    imported: dict[str, ImportedChunking] = field(default_factory=dict)
    page_query: dict[str, str] = field(default_factory=dict)
    context: str = "none"

    def params_of(self, strategy: str) -> dict[str, Any]:
        """Values of every parameter of ``strategy``: the user's, else the registry's defaults."""
        if strategy == IMPORTED:  # not in the registry: its only parameter is the import's id
            return dict(self.params.get(IMPORTED, {}))
        return {**get_strategy(strategy).defaults(), **self.params.get(strategy, {})}

    def configuration(self) -> Configuration:
        """The current strategy and all its parameter values."""
        return self.strategy, self.params_of(self.strategy)

    def set_params(self, strategy: str, values: Mapping[str, Any]) -> None:
        """Remember ``values`` as ``strategy``'s parameters."""
        self.params[strategy] = dict(values)

    def imported_for(self, document: Document) -> list[ImportedChunking]:
        """The imported chunkings aligned to ``document``'s text, in import order."""
        return [c for c in self.imported.values() if c.matches(document.text)]

    def link(self) -> dict[str, str]:
        """The shareable query: configuration, sample (never the user's text), language, backend.

        An imported chunking is the user's own data: the link then names no configuration.
        """
        strategy, params = self.configuration()
        sample = self.document.doc_id if self.document.origin == "sample" else None
        if strategy == IMPORTED:
            query = to_query(DEFAULT_STRATEGY, {}, sample, self.lang, self.backend)
            del query["strategy"]  # to_query writes a strategy; this link names none
            return query
        return to_query(strategy, params, sample, self.lang, self.backend)


def _apply_link(state: AppState, query: Mapping[str, Any]) -> None:
    available = [i.name for i in backend_infos() if i.available]
    shared = from_query(query, available)
    problems = list(shared.problems)
    state.page_query = page_query(query)
    if shared.lang is not None:
        state.lang = shared.lang
    if shared.backend is not None:
        state.backend = shared.backend
    if shared.sample is not None:
        state.source, state.sample = "sample", shared.sample
        state.document = load_sample(shared.sample)
    if shared.strategy is not None:
        spec = get_strategy(shared.strategy)
        state.strategy = shared.strategy
        too_big = link_problems(spec, shared.params)
        problems += too_big.values()
        current = state.params_of(spec.name)
        # Settled as pairs over the values they join, before either side is applied.
        kept, paired = settle_pairs(
            spec.params, {k: v for k, v in shared.params.items() if k not in too_big}, current
        )
        problems += paired
        state.set_params(spec.name, {**current, **kept})
    state.link_problems = tuple(problems)


def app_state() -> AppState:
    """The session's state, created (and a shared link applied) on the session's first run.

    A test may put its own ``AppState`` under ``STATE_KEY`` before the first run (a page run
    alone has no sidebar to set the language or the backend).
    """
    leave_pages_directory_mode()
    ss = st.session_state
    state = ss.get(STATE_KEY)
    if not isinstance(state, AppState):
        state = AppState()
        ss[STATE_KEY] = state
        _apply_link(state, st.query_params.to_dict())
    return state


def bind(key: str, value: Any) -> None:
    """Start the widget ``key`` at ``value`` unless it already holds the user's own value."""
    st.session_state.setdefault(key, value)


def lang_key(base: str, state: AppState) -> str:
    """The key of a choice widget with translated labels: one per language."""
    return f"{base}_{state.lang}"


def publish_link(state: AppState) -> None:
    """Write the state's shareable query into the page URL."""
    st.query_params.from_dict(state.link())
