"""The app's pickers, one of each: backend, document source, configuration, question pairs.

Each reads the session's ``AppState`` and writes the user's choice back into it, so every page
that draws a picker shows, and changes, the same thing. Widgets offer ids (a strategy name, a
sample name, a backend name) and show labels through ``format_func``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, get_args

import streamlit as st

from chunkviz.datasets.qa_pairs import parse_qa_pairs
from chunkviz.document import Document, content_id, locate_questions
from chunkviz.errors import ChunkvizError
from chunkviz.eval.imported import IMPORTED
from chunkviz.extract import DOCUMENT_TYPES, extract
from chunkviz.retrieval.backends import DEFAULT_BACKEND, BackendInfo
from chunkviz.samples import load_sample, sample_names
from chunkviz.strategies import all_strategies, get_strategy
from chunkviz.text import LANGUAGES, Lang
from chunkviz.text.messages import backend_text, read_quality_text
from chunkviz.ui.controls import param_controls, strategy_description, typed_key, widget_key
from chunkviz.ui.guard import guard, message_markdown
from chunkviz.ui.i18n import tr
from chunkviz.ui.resources import backend_infos, load_backend
from chunkviz.ui.state import (
    DEFAULT_STRATEGY,
    AppState,
    Configuration,
    Source,
    bind,
    lang_key,
    publish_link,
)
from chunkviz.ui.uploader import file_uploader
from chunkviz.views.markup import escape_markdown
from chunkviz.views.param_ranges import carried

SOURCES: tuple[Source, ...] = get_args(Source)


# --- backend ---------------------------------------------------------------------------------
def backend_label(lang: Lang, info: BackendInfo) -> str:
    """A backend's name in ``lang``; a model the user named keeps its own label."""
    named = backend_text(lang, info.name)
    return info.label if named == info.name else named


def backend_picker(state: AppState) -> None:
    """The retrieval backend (one select box; the sidebar draws it) and what is unavailable."""
    lang = state.lang
    infos = backend_infos()
    labels = {
        i.name: tr(
            "backend.option",
            label=backend_label(lang, i),
            kind=tr(f"sidebar.kind_{i.kind}", lang=lang),
            lang=lang,
        )
        for i in infos
        if i.available
    }
    if state.backend not in labels:
        # A backend that vanished (uninstalled, or named by an old session) falls back to the
        # default rather than leaving the select box with a value it cannot show.
        state.backend = DEFAULT_BACKEND if DEFAULT_BACKEND in labels else next(iter(labels))
    key = lang_key("backend", state)
    bind(key, state.backend)
    state.backend = st.selectbox(
        tr("sidebar.backend", lang=lang),
        list(labels),
        key=key,
        format_func=labels.__getitem__,
        help=tr("sidebar.backend_help", lang=lang),
    )
    missing = [i for i in infos if not i.available]
    if missing:
        with st.expander(tr("sidebar.unavailable", n=len(missing), lang=lang)):
            for info in missing:
                st.markdown(f"**{escape_markdown(backend_label(lang, info))}**")
                st.caption(message_markdown(info.reason))


def _tokenizer_name(state: AppState) -> str | None:
    """The tokenizer that counts "tokens" for the state's backend (None if it cannot load)."""
    try:
        tokenizer = load_backend(state.backend).tokenizer
    except ChunkvizError:
        return None  # the page that uses the backend says why it cannot load
    return str(getattr(tokenizer, "name", state.backend))


# --- document ----------------------------------------------------------------------------------
def document_label(lang: Lang, document: Document) -> str:
    """What to call the document on a page (a sample's title in ``lang``; never an id)."""
    if document.origin == "sample":
        return tr(f"sample.{document.doc_id}", lang=lang)
    if document.origin == "paste":
        return tr("document.pasted", lang=lang)
    return document.title or document.doc_id


def _compose(base: Document, pairs: tuple[Mapping[str, Any], ...]) -> Document:
    """``base`` with its own questions and the user's pairs located in its text."""
    if not pairs:
        return base
    own = tuple(q for q in base.questions if not q.qid.startswith("u"))
    located = locate_questions(base.text, pairs, doc_id=base.doc_id)
    # The user's questions are "u1", "u2", ...: apart from the document's own (q1, q2, ...).
    mine = tuple(replace(q, qid=f"u{n}") for n, q in enumerate(located, start=1))
    return base.with_questions((*own, *mine))


def use_document(state: AppState, base: Document) -> None:
    """Make ``base`` the current document; the user's pairs stay only with the same document."""
    current = state.document
    # A paste being edited stays the same document (its id follows its text).
    same = current.origin == base.origin and (
        base.origin == "paste" or current.doc_id == base.doc_id
    )
    if same and current.text == base.text:
        return
    if not same:
        state.user_pairs = ()
    state.document = _compose(base, state.user_pairs)
    # Run the page again at once: what was drawn before the picker (the document's heading) and
    # Explore's fragment, whose reruns keep the document they were given, show the new one.
    st.rerun()


def add_pairs(state: AppState, pairs: list[Mapping[str, Any]]) -> None:
    """Add question/answer pairs of the user's to the current document (answers are located)."""
    state.user_pairs = (*state.user_pairs, *pairs)
    state.document = _compose(state.document, state.user_pairs)


def clear_pairs(state: AppState) -> None:
    """Remove every question of the current document (its own and the user's)."""
    state.user_pairs = ()
    state.document = state.document.with_questions(())


def document_picker(state: AppState, *, prefix: str) -> Document:
    """Source (sample, paste, upload) and the document itself; returns the current document.

    Args:
        state: The app state.
        prefix: Start of the widget keys, one per page: Streamlit gives a widget on another page
            a new identity, and a key left by the previous page's widget would hand it that
            widget's default instead of the state's value.
    """
    lang = state.lang
    key = lang_key(f"{prefix}doc_source", state)
    bind(key, state.source)
    state.source = st.radio(
        tr("document.source", lang=lang),
        SOURCES,
        key=key,
        horizontal=True,
        format_func=lambda s: tr(f"document.src_{s}", lang=lang),
        help=tr("document.source_help", lang=lang),
    )
    if state.source == "sample":
        key = lang_key(f"{prefix}doc_sample", state)
        bind(key, state.sample)
        state.sample = st.selectbox(
            tr("document.sample", lang=lang),
            sample_names(),
            key=key,
            format_func=lambda n: tr(f"sample.{n}", lang=lang),
            help=tr("document.sample_help", lang=lang),
        )
        use_document(state, load_sample(state.sample))
    elif state.source == "paste":
        bind(f"{prefix}doc_paste", state.pasted)
        state.pasted = st.text_area(
            tr("document.paste", lang=lang),
            key=f"{prefix}doc_paste",
            height=180,
            help=tr("document.paste_help", lang=lang),
        )
        use_document(state, Document(content_id(state.pasted), "", state.pasted, origin="paste"))
    else:
        upload = file_uploader(
            tr("document.upload", lang=lang),
            types=list(DOCUMENT_TYPES),
            key=f"{prefix}doc_upload",
            lang=lang,
            help=tr("document.upload_help", lang=lang),
        )
        keep = st.checkbox(
            tr("document.keep_terminal", lang=lang),
            key=f"{prefix}keep_terminal",
            help=tr("document.keep_terminal_help", lang=lang),
        )
        furniture = st.checkbox(
            tr("document.keep_furniture", lang=lang),
            key=f"{prefix}keep_furniture",
            help=tr("document.keep_furniture_help", lang=lang),
        )
        doc = state.document
        # Streamlit's upload id only says whether this upload was read already; the document's
        # id comes from its text (content_id), so the same file gives the same id every time.
        seen = f"{prefix}doc_upload_read"
        wanted = f"{upload.file_id}:{keep}:{furniture}" if upload is not None else ""
        if upload is not None and (doc.origin != "upload" or st.session_state.get(seen) != wanted):
            st.session_state[seen] = wanted
            with guard() as attempt:
                extracted = extract(
                    upload.getvalue(),
                    upload.name,
                    keep_terminal_formatting=keep,
                    keep_furniture=furniture,
                )
            if attempt.ok:
                st.session_state[f"{prefix}terminal_removed"] = extracted.terminal_sequences
                st.session_state[f"{prefix}pdf_read"] = (
                    (
                        extracted.pages,
                        extracted.compat_ideographs,
                        extracted.furniture,
                        extracted.pages_without_text,
                    )
                    if extracted.layout is not None
                    else None
                )
                use_document(
                    state,
                    Document(
                        content_id(extracted.text),
                        upload.name,
                        extracted.text,
                        origin="upload",
                        layout=extracted.layout,
                    ),
                )
        elif upload is None and doc.origin == "upload":
            st.caption(tr("document.upload_kept", name=escape_markdown(doc.title), lang=lang))
        removed = st.session_state.get(f"{prefix}terminal_removed")
        if removed and state.document.origin == "upload":
            st.caption(tr("document.terminal_removed", n=removed, lang=lang))
        pdf_read = st.session_state.get(f"{prefix}pdf_read")
        if pdf_read and state.document.layout is not None:
            pages, compat, lines, empty = pdf_read
            st.caption(
                tr("document.pdf_read", pages=pages, compat=compat, furniture=lines, lang=lang)
            )
            if empty:
                st.warning(tr("document.pdf_no_text", n=empty, pages=pages, lang=lang))
        layout = state.document.layout
        if state.document.origin == "upload" and layout is not None and layout.quality:
            # Kept with the document: the same note wherever the document is shown.
            note, warning = read_quality_text(lang, layout.quality)
            st.caption(note)
            if warning:
                st.warning(warning)
    doc = state.document
    st.caption(
        tr(
            "document.info",
            name=escape_markdown(document_label(lang, doc)),
            chars=len(doc.text),
            questions=len(doc.questions),
            lang=lang,
        )
    )
    publish_link(state)
    return doc


def question_editor(state: AppState) -> None:
    """Add a pair by hand, upload pairs (CSV/JSON), or remove them all."""
    lang = state.lang
    left, right = st.columns(2)
    with left, st.form("qa_add", clear_on_submit=True):
        st.markdown(f"**{tr('explore.qa_add', lang=lang)}**")
        question = st.text_input(tr("explore.question", lang=lang), key="qa_new_question")
        answer = st.text_input(tr("explore.answer", lang=lang), key="qa_new_answer")
        if st.form_submit_button(tr("explore.add", lang=lang)):
            if question.strip() and answer.strip():
                add_pairs(state, [{"question": question, "answer": answer}])
                st.rerun()
            else:
                st.error(tr("explore.qa_need_both", lang=lang))
    with right:
        qa_file = file_uploader(
            tr("explore.qa_upload", lang=lang),
            types=["csv", "tsv", "json", "jsonl"],
            key="qa_upload",
            lang=lang,
            help=tr("explore.qa_upload_help", lang=lang),
        )
        if qa_file is not None and st.session_state.get("qa_file") != qa_file.file_id:
            with guard() as attempt:
                pairs = parse_qa_pairs(qa_file.getvalue(), name=qa_file.name)
            if attempt.ok:
                st.session_state["qa_file"] = qa_file.file_id
                add_pairs(
                    state, [{"question": p["question"], "answer": p["answer"]} for p in pairs]
                )
                added = state.document.questions[len(state.document.questions) - len(pairs) :]
                missing = sum(1 for q in added if not q.spans)
                st.session_state["qa_loaded"] = tr(
                    "explore.qa_loaded",
                    n=len(pairs),
                    name=escape_markdown(qa_file.name),
                    found=len(pairs) - missing,
                    missing=missing,
                    lang=lang,
                )
                st.rerun()
        if st.session_state.get("qa_loaded"):
            st.success(st.session_state.pop("qa_loaded"))
        if state.document.questions and st.button(
            tr("explore.qa_clear", lang=lang), key="qa_clear"
        ):
            clear_pairs(state)
            st.rerun()


# --- configuration -----------------------------------------------------------------------------
def strategy_picker(
    lang: Lang, key: str, current: str, imported: Mapping[str, str] | None = None
) -> str:
    """A select box of the registered strategies (name — description); returns the chosen name.

    Args:
        lang: The UI language.
        key: The widget key.
        current: The option to start at when the widget holds no value yet.
        imported: Extra options, ``imported_option(id)`` → the file name, for the chunkings
            imported for the current document.
    """
    extra = dict(imported or {})
    names = [s.name for s in all_strategies()] + list(extra)
    if st.session_state.get(key, names[0]) not in names:
        # The option it held is gone (an import for another document): start again at current.
        del st.session_state[key]
    bind(key, current if current in names else names[0])

    def label(n: str) -> str:
        if n in extra:
            return tr("import.option", name=extra[n], lang=lang)
        return tr(
            "config.strategy_option",
            name=n,
            description=strategy_description(lang, get_strategy(n)),
            lang=lang,
        )

    return str(
        st.selectbox(
            tr("config.strategy", lang=lang),
            names,
            key=key,
            format_func=label,
            help=tr("config.strategy_help", lang=lang),
        )
    )


def imported_option(ident: str) -> str:
    """The select box option of an imported chunking (an id, never a label)."""
    return f"{IMPORTED}:{ident}"


def _imported_configuration(
    state: AppState, configuration: Configuration
) -> tuple[str, dict[str, str]]:
    """The picker's starting option and the imported options of the current document.

    An imported configuration whose chunks were aligned to another text is not offered: the
    picker starts at the default strategy and says why.
    """
    strategy, params = configuration
    offered = {imported_option(c.id): c.name for c in state.imported_for(state.document)}
    if strategy != IMPORTED:
        return strategy, offered
    option = imported_option(str(params.get("id", "")))
    if option in offered:
        return option, offered
    old = state.imported.get(str(params.get("id", "")))
    st.caption(
        tr(
            "import.not_this_document",
            name=escape_markdown(old.name if old else str(params.get("name", ""))),
            lang=state.lang,
        )
    )
    return DEFAULT_STRATEGY, offered


def configuration_picker(
    state: AppState,
    *,
    prefix: str,
    slot: int | None = None,
    columns: int = 3,
    expander: str | None = None,
) -> Configuration:
    """Strategy and parameter controls; returns the configuration and keeps it in the state.

    Chunkings imported for the current document (``chunkviz.ui.import_view``) are offered
    beside the registered strategies; choosing one gives the configuration
    ``(IMPORTED, {"id": ..., "name": ...})``, which ``chunk_cached`` resolves.

    Args:
        state: The app state.
        prefix: Start of the widget keys (``<prefix>strategy_<lang>``, ``<prefix>p_...``).
        slot: None for the current configuration; ``i`` for Compare's extra configuration ``i``.
        columns: Parameter widgets per row.
        expander: Put the parameters in an expander with this label.
    """
    lang = state.lang
    configuration = state.configuration() if slot is None else state.compare[slot]
    start, offered = _imported_configuration(state, configuration)
    strategy, params = configuration
    picked = strategy_picker(lang, f"{prefix}strategy_{lang}", start, offered)
    if picked in offered:
        ident = picked.removeprefix(f"{IMPORTED}:")
        strategy, chosen = IMPORTED, {"id": ident, "name": offered[picked]}
        st.caption(tr("import.chunks", n=len(state.imported[ident].result.chunks), lang=lang))
    else:
        values: Mapping[str, Any] = params if picked == strategy else {}
        if picked != strategy and strategy != IMPORTED:
            values = _carry_over(state, slot, strategy, picked, prefix=prefix)
        chosen = _parameters(
            state, slot, picked, values, prefix=prefix, columns=columns, expander=expander
        )
        strategy = picked
    if slot is None:
        state.strategy = strategy
        state.set_params(strategy, chosen)
        publish_link(state)
    else:
        state.compare[slot] = (strategy, chosen)
    return strategy, chosen


def _carry_over(
    state: AppState, slot: int | None, old: str, new: str, *, prefix: str
) -> dict[str, Any]:
    """Switching ``old`` to ``new``: the shared parameters (size, overlap, unit) come along.

    The new strategy's values take the old one's shared values (``param_ranges.carried``);
    its widgets' keys are dropped so they start at those values in this run. Returns the
    values the new strategy's controls start at.
    """
    old_values = state.params_of(old) if slot is None else dict(state.compare[slot][1])
    new_spec = get_strategy(new)
    start = (
        state.params_of(new)
        if slot is None
        else {**new_spec.defaults(), **state.params.get(new, {})}
    )
    values = carried(get_strategy(old).params, old_values, new_spec.params, start)
    ss = st.session_state
    for p in new_spec.params:
        if values.get(p.name) != start.get(p.name):
            for lang in LANGUAGES:
                key = widget_key(f"{prefix}p_", new, p, lang)
                ss.pop(key, None)
                ss.pop(typed_key(key), None)
    if slot is None:
        state.set_params(new, values)
    return values


def _parameters(
    state: AppState,
    slot: int | None,
    strategy: str,
    params: Mapping[str, Any],
    *,
    prefix: str,
    columns: int,
    expander: str | None,
) -> dict[str, Any]:
    """The parameter controls of a registered strategy; returns the chosen values."""
    lang = state.lang
    defaults = get_strategy(strategy).defaults()
    values = state.params_of(strategy) if slot is None else {**defaults, **params}
    box = st.expander(expander) if expander else st.container()
    with box:
        chosen = param_controls(
            get_strategy(strategy),
            values,
            prefix=f"{prefix}p_",
            lang=lang,
            columns=columns,
            tokenizer=_tokenizer_name(state),
        )
        if not chosen:
            st.caption(tr("config.no_params", lang=lang))
    return chosen
