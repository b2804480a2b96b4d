"""The sidebar every page shares: the UI language and the active retrieval backend."""

from __future__ import annotations

import streamlit as st

from chunkviz.retrieval.backends import DEFAULT_BACKEND, ST_PREFIX, BackendInfo
from chunkviz.retrieval.dense import MINILM_ALIAS, RURI_DEFAULT
from chunkviz.ui.i18n import LANGUAGES, current_lang, tr
from chunkviz.ui.resources import backend_infos

_T = {
    "en": {
        "language": "Language / 言語",
        "language_help": "Language of every label and help text.",
        "backend": "Retrieval backend",
        "backend_help": (
            "Its tokenizer counts tokens (lengths, token-sized chunks) and its input limit marks "
            "chunks it would silently truncate; the Compare, Similarity and Benchmark pages "
            "retrieve with it."
        ),
        "unavailable": "Unavailable backends ({n})",
        "kind_lexical": "lexical",
        "kind_dense": "dense",
    },
    "ja": {
        "language": "言語 / Language",
        "language_help": "すべてのラベルとヘルプの表示言語。",
        "backend": "検索バックエンド",
        "backend_help": (
            "そのトークナイザーでトークン数（長さ・トークン単位のチャンク）を数え、入力上限を"
            "超えて黙って切り捨てられるチャンクを示します。比較・類似度・ベンチマークの各ページは"
            "このバックエンドで検索します。"
        ),
        "unavailable": "利用できないバックエンド（{n}）",
        "kind_lexical": "語彙ベース",
        "kind_dense": "密ベクトル",
    },
}

# Japanese names of the listed backends (the core's labels are English); an ``st:`` model the
# user names keeps its own label.
_LABELS_JA = {
    "bm25": "BM25・文字バイグラム（重み不要）",
    "tfidf": "TF-IDF・文字バイグラム・生ベクトル",
    "use-m3": "Universal Sentence Encoder 多言語 v3（同梱・オフライン）",
    f"{ST_PREFIX}{RURI_DEFAULT}": "ruri-v3-130m（sentence-transformers・日本語）",
    f"{ST_PREFIX}{MINILM_ALIAS}": "all-MiniLM-L6-v2（同梱・英語のみ）",
}


def backend_label(info: BackendInfo) -> str:
    """The backend's name in the UI language."""
    if current_lang() == "ja":
        return _LABELS_JA.get(info.name, info.label)
    return info.label


def render_sidebar() -> None:
    """Draw the shared controls; their values live in ``st.session_state``."""
    infos = backend_infos()
    available = [i for i in infos if i.available]
    labels = {i.name: f"{backend_label(i)} — {tr(_T, 'kind_' + i.kind)}" for i in available}
    names = list(labels)
    if st.session_state.get("backend") not in labels:
        # A backend that vanished (uninstalled, or named by an old session) falls back to the
        # default rather than leaving the selectbox with a value it cannot show.
        st.session_state["backend"] = DEFAULT_BACKEND if DEFAULT_BACKEND in labels else names[0]
    with st.sidebar:
        st.radio(
            tr(_T, "language"),
            options=list(LANGUAGES),
            format_func=LANGUAGES.__getitem__,
            key="lang",
            horizontal=True,
            help=tr(_T, "language_help"),
        )
        st.selectbox(
            tr(_T, "backend"),
            options=names,
            format_func=labels.__getitem__,
            key="backend",
            help=tr(_T, "backend_help"),
        )
        missing = [i for i in infos if not i.available]
        if missing:
            with st.expander(tr(_T, "unavailable", n=len(missing))):
                for info in missing:
                    st.markdown(f"**{backend_label(info)}** (`{info.name}`)")
                    st.caption(info.reason)
