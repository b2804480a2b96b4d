"""Strategies: the pictures behind semantic, perplexity and parent-child splitting."""

from __future__ import annotations

from typing import Any

import streamlit as st

from chunkviz.lm import CHAR_NGRAM
from chunkviz.model import Chunk
from chunkviz.samples import load_sample, sample_names
from chunkviz.ui.guard import show_error
from chunkviz.ui.highlight_view import highlight_view
from chunkviz.ui.i18n import current_lang, tr
from chunkviz.ui.resources import chunk_cached, load_backend
from chunkviz.ui.sidebar import render_sidebar
from chunkviz.ui.state import init_session
from chunkviz.ui.strategies_figures import clicked_boundary, perplexity_figure, semantic_figure
from chunkviz.ui.strategies_resources import perplexity_curve_cached, semantic_curve_cached
from chunkviz.views.highlight import LABELS_JA, Labels, Mark, page_bounds, page_of, render_html
from chunkviz.views.markup import escape_markdown
from chunkviz.views.parent_expansion import auto_merge, expand_to_parents, hit_rows, rank_children

st.set_page_config(page_title="chunkviz · Strategies", page_icon="✂️", layout="wide")
init_session()
render_sidebar()

_T = {
    "en": {
        "title": "Strategies",
        "intro": "What the advanced splitters see: the similarity curve of semantic splitting, "
                 "the perplexity curve of Meta-PPL, and where a query's child hits expand to "
                 "in parent-child retrieval.",
        "source": "Document",
        "src_session": "Current document ({name})",
        "src_sample": "Sample",
        "sample": "Sample document",
        "empty": "The document is empty (or only blank space): open Explore and paste a text, "
                 "or pick a sample.",
        "tab_semantic": "Semantic",
        "tab_perplexity": "Perplexity",
        "tab_parent": "Parent-child",
        "percentile": "Percentile (%)",
        "percentile_help": "Cut where s_i is below this percentile of the document's own s_i.",
        "min_size": "min_size (characters)",
        "min_size_help": "A topic change does not end a chunk shorter than this.",
        "max_size": "max_size (characters)",
        "max_size_help": "Hard cap; an over-long sentence is cut.",
        "model": "Sentence vectors",
        "model_help": "The active backend is used when it is dense; otherwise choose here.",
        "model_active": "Sentence vectors: the active dense backend **{name}**.",
        "sentences": "Sentences",
        "cuts": "Topic cuts",
        "forced": "Forced by max_size",
        "suppressed": "Skipped (min_size)",
        "threshold": "Threshold",
        "chunks": "Chunks",
        "jump": "Show a cut in the text",
        "jump_help": "Or click a point of the curve: the view scrolls to the chunk that starts "
                     "at that cut.",
        "jump_none": "—",
        "jump_item": "cut {n} after sentence {i} (value {v:.3f})",
        "view_note": "Characters {a:,}–{b:,} of {n:,}; the highlighted number is the chunk after "
                     "the chosen cut.",
        "ppl_threshold": "Threshold on |Δ ln PPL|",
        "ppl_threshold_help": "1.0: perplexity changes by a factor of e ≈ 2.7.",
        "lm": "Language model",
        "lm_help": "char-ngram (offline, reads the document in order) or hf:<local causal model "
                   "path or cached name>.",
        "order": "n-gram order",
        "lm_in_use": "Language model in use: **{name}**.",
        "mode": "Mode",
        "mode_help": "hierarchy: children packed inside parents; sentence_window: each sentence "
                     "is a child and its parent the sentences around it.",
        "child_size": "child_size (characters)",
        "parent_size": "parent_size (characters)",
        "window": "window (sentences each side)",
        "query": "Query",
        "query_help": "Children are ranked for it by the active backend ({backend}).",
        "k": "Child hits (top k)",
        "expansion": "Expansion",
        "expansion_help": "small-to-big: every hit becomes its parent, once; auto-merge: a parent "
                          "replaces its children only when at least m of them are hits.",
        "exp_small": "small-to-big",
        "exp_merge": "auto-merge",
        "min_children": "m (children needed to merge)",
        "hits": "Child hits",
        "contexts": "Contexts sent",
        "duplicates": "Duplicate parents removed",
        "sent": "Characters sent",
        "sent_help": "Without removing duplicates: {naive:,} characters.",
        "col_rank": "rank",
        "col_child": "child",
        "col_parent": "parent",
        "col_fate": "what happens",
        "col_context": "context",
        "col_text": "child text",
        "fate_expanded": "expanded to its parent",
        "fate_absorbed": "its parent is already sent for a better hit: duplicate removed",
        "fate_kept": "sent as it is",
        "no_query": "Type a query to see which parents its child hits expand to.",
        "pc_note": "Bands are the contexts sent (numbered in hit order); underlined text is a "
                   "child hit.",
        "context_word": "context",
        "hit_word": "child hit",
    },
    "ja": {
        "title": "戦略",
        "intro": "高度な分割器が見ているもの：意味分割の類似度曲線、Meta-PPL のパープレキシティ"
                 "曲線、親子検索でクエリの子チャンクのヒットがどの親に広がるか。",
        "source": "文書",
        "src_session": "現在の文書（{name}）",
        "src_sample": "サンプル",
        "sample": "サンプル文書",
        "empty": "文書が空（または空白のみ）です。Explore でテキストを貼り付けるか、"
                 "サンプルを選んでください。",
        "tab_semantic": "意味分割",
        "tab_perplexity": "パープレキシティ",
        "tab_parent": "親子チャンク",
        "percentile": "パーセンタイル（%）",
        "percentile_help": "s_i がこの文書の s_i のこのパーセンタイルを下回る位置で切る。",
        "min_size": "min_size（文字）",
        "min_size_help": "これより短いチャンクは話題の変わり目でも切らない。",
        "max_size": "max_size（文字）",
        "max_size_help": "上限。長すぎる文は途中で切る。",
        "model": "文のベクトル",
        "model_help": "選択中のバックエンドが密ベクトルならそれを使い、そうでなければここで選ぶ。",
        "model_active": "文のベクトル：選択中の密ベクトルバックエンド **{name}**。",
        "sentences": "文の数",
        "cuts": "話題で切った数",
        "forced": "max_size で切った数",
        "suppressed": "見送り（min_size）",
        "threshold": "しきい値",
        "chunks": "チャンク数",
        "jump": "本文で切れ目を表示",
        "jump_help": "曲線の点をクリックしても、その切れ目から始まるチャンクまでスクロールします。",
        "jump_none": "—",
        "jump_item": "切れ目 {n}：文 {i} の後（値 {v:.3f}）",
        "view_note": "全 {n:,} 文字中 {a:,}〜{b:,} 文字目。強調された番号が選んだ切れ目の次の"
                     "チャンクです。",
        "ppl_threshold": "|Δ ln PPL| のしきい値",
        "ppl_threshold_help": "1.0 でパープレキシティが約 2.7 倍変化。",
        "lm": "言語モデル",
        "lm_help": "char-ngram（オフライン、文書を先頭から読む）または hf:<ローカルの因果言語"
                   "モデルのパスかキャッシュ済みの名前>。",
        "order": "n-gram の次数",
        "lm_in_use": "使用中の言語モデル：**{name}**。",
        "mode": "モード",
        "mode_help": "hierarchy：親の中に子を詰める。"
                     "sentence_window：各文が子で、親はその前後の文。",
        "child_size": "child_size（文字）",
        "parent_size": "parent_size（文字）",
        "window": "window（前後の文の数）",
        "query": "クエリ",
        "query_help": "選択中のバックエンド（{backend}）で子チャンクを順位付けします。",
        "k": "子チャンクのヒット数（上位 k）",
        "expansion": "展開方法",
        "expansion_help": "small-to-big：各ヒットを親に置き換え、同じ親は 1 回だけ。auto-merge："
                          "子が m 個以上ヒットした親だけが子を置き換える。",
        "exp_small": "small-to-big",
        "exp_merge": "auto-merge",
        "min_children": "m（親に昇格するのに必要な子の数）",
        "hits": "子のヒット",
        "contexts": "渡す文脈の数",
        "duplicates": "除いた重複した親",
        "sent": "渡す文字数",
        "sent_help": "重複を除かない場合：{naive:,} 文字。",
        "col_rank": "順位",
        "col_child": "子",
        "col_parent": "親",
        "col_fate": "扱い",
        "col_context": "文脈",
        "col_text": "子のテキスト",
        "fate_expanded": "親に展開",
        "fate_absorbed": "より上位のヒットで親を渡し済み：重複を除去",
        "fate_kept": "そのまま渡す",
        "no_query": "クエリを入力すると、子のヒットがどの親に広がるかを表示します。",
        "pc_note": "帯が渡す文脈（ヒット順の番号）、下線が子チャンクのヒットです。",
        "context_word": "文脈",
        "hit_word": "子のヒット",
    },
}

ss = st.session_state
lang = current_lang()
backend_name: str = ss["backend"]
labels = LABELS_JA if lang == "ja" else Labels()

st.title(tr(_T, "title"))
st.caption(tr(_T, "intro"))

# --- Document (the one open in Explore, or a sample) ----------------------------------------
options = ["session", "sample"] if ss["doc_text"] else ["sample"]
if ss.get("strategies_source") not in options:
    ss["strategies_source"] = options[0]
source_labels = {s: tr(_T, f"src_{s}", name=ss["doc_name"] or "—") for s in options}
source = st.radio(tr(_T, "source"), options, key="strategies_source", horizontal=True,
                  format_func=source_labels.__getitem__)
if source == "session":
    text: str = ss["doc_text"]
    pairs: list[dict[str, Any]] = list(ss["qa_pairs"])
else:
    ss.setdefault("strategies_sample", "jsquad_tsuyu")
    titles = {n: load_sample(n).title_ja if lang == "ja" else load_sample(n).title
              for n in sample_names()}
    name = st.selectbox(tr(_T, "sample"), list(titles), key="strategies_sample",
                        format_func=titles.__getitem__)
    text = load_sample(name).text
    pairs = [dict(q) for q in load_sample(name).qa_pairs]
if not text.strip():
    st.info(tr(_T, "empty"))
    st.stop()


def _view(chunks: tuple[Chunk, ...], target: int | None, key: str,
          marks: list[Mark] | None = None, words: Labels | None = None) -> None:
    """The highlight of the page that holds chunk ``target`` (the first page without one)."""
    page = page_of(chunks[target].start) if target is not None and chunks else 0
    a, b = page_bounds(len(text), page)
    markup = render_html(text, chunks, marks or [], start=a, end=b, labels=words or labels)
    highlight_view(markup, scroll_to=target, key=key)
    st.caption(tr(_T, "view_note", a=a, b=b, n=len(text)))


def _cut_picker(cuts: tuple[int, ...], values: tuple[float, ...], key: str,
                clicked: int | None) -> int | None:
    """A select box of the cuts; returns the chunk index that starts at the chosen cut."""
    if clicked is not None and clicked in cuts:
        ss[key] = cuts.index(clicked) + 1
    choices = list(range(len(cuts) + 1))
    item = {0: tr(_T, "jump_none")}
    item.update({n + 1: tr(_T, "jump_item", n=n + 1, i=c, v=values[c])
                 for n, c in enumerate(cuts)})
    chosen = st.selectbox(tr(_T, "jump"), choices, key=key, format_func=item.__getitem__,
                          help=tr(_T, "jump_help"))
    return None if not chosen else int(chosen)  # chunk n starts after cut n


backend = load_backend(backend_name)
tab_sem, tab_ppl, tab_pc = st.tabs([tr(_T, "tab_semantic"), tr(_T, "tab_perplexity"),
                                    tr(_T, "tab_parent")])

# --- Semantic ------------------------------------------------------------------------------
with tab_sem:
    c1, c2, c3, c4 = st.columns(4)
    percentile = c1.slider(tr(_T, "percentile"), 0.0, 100.0, 10.0, 1.0, key="strategies_sem_p",
                           help=tr(_T, "percentile_help"))
    min_size = c2.number_input(tr(_T, "min_size"), 0, 100_000, 100, key="strategies_sem_min",
                               help=tr(_T, "min_size_help"))
    max_size = c3.number_input(tr(_T, "max_size"), 1, 100_000, 1000, key="strategies_sem_max",
                               help=tr(_T, "max_size_help"))
    if backend.kind == "dense":
        model = backend_name
        c4.markdown(tr(_T, "model_active", name=backend_name))
    else:
        model = c4.radio(tr(_T, "model"), ["tfidf", "use-m3"], key="strategies_sem_model",
                         help=tr(_T, "model_help"))
    try:
        curve = semantic_curve_cached(text, float(percentile), int(min_size), int(max_size),
                                      model)
    except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(exc)
    else:
        m = st.columns(5)
        m[0].metric(tr(_T, "sentences"), f"{len(curve.units):,}")
        m[1].metric(tr(_T, "threshold"),
                    "—" if curve.threshold is None else f"{curve.threshold:.3f}")
        m[2].metric(tr(_T, "cuts"), f"{len(curve.cuts) - len(curve.forced):,}")
        m[3].metric(tr(_T, "forced"), f"{len(curve.forced):,}")
        m[4].metric(tr(_T, "suppressed"), f"{len(curve.suppressed):,}")
        event = st.plotly_chart(semantic_figure(curve, float(percentile), lang),
                                key="strategies_sem_chart", on_select="rerun",
                                selection_mode="points")
        target = _cut_picker(curve.cuts, curve.similarities, "strategies_sem_jump",
                             clicked_boundary(event))
        chunks = tuple(Chunk(s, e) for s, e in curve.spans)
        _view(chunks, target, "strategies_sem_view")

# --- Perplexity ----------------------------------------------------------------------------
with tab_ppl:
    c1, c2, c3, c4, c5 = st.columns(5)
    threshold = c1.slider(tr(_T, "ppl_threshold"), 0.0, 5.0, 1.0, 0.05, key="strategies_ppl_t",
                          help=tr(_T, "ppl_threshold_help"))
    p_min = c2.number_input(tr(_T, "min_size"), 0, 100_000, 100, key="strategies_ppl_min",
                            help=tr(_T, "min_size_help"))
    p_max = c3.number_input(tr(_T, "max_size"), 1, 100_000, 1000, key="strategies_ppl_max",
                            help=tr(_T, "max_size_help"))
    lm = c4.text_input(tr(_T, "lm"), CHAR_NGRAM, key="strategies_ppl_lm", help=tr(_T, "lm_help"))
    order = c5.slider(tr(_T, "order"), 1, 8, 3, key="strategies_ppl_order")
    try:
        pcurve = perplexity_curve_cached(text, float(threshold), int(p_min), int(p_max),
                                         lm.strip(), int(order))
    except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(exc)
    else:
        st.info(tr(_T, "lm_in_use", name=escape_markdown(pcurve.model)))
        m = st.columns(4)
        m[0].metric(tr(_T, "sentences"), f"{len(pcurve.units):,}")
        m[1].metric(tr(_T, "cuts"), f"{len(pcurve.cuts) - len(pcurve.forced):,}")
        m[2].metric(tr(_T, "forced"), f"{len(pcurve.forced):,}")
        m[3].metric(tr(_T, "suppressed"), f"{len(pcurve.suppressed):,}")
        event = st.plotly_chart(perplexity_figure(pcurve, lang), key="strategies_ppl_chart",
                                on_select="rerun", selection_mode="points")
        changes = tuple(0.0 if c != c else c for c in pcurve.changes)
        target = _cut_picker(pcurve.cuts, changes, "strategies_ppl_jump",
                             clicked_boundary(event))
        _view(tuple(Chunk(s, e) for s, e in pcurve.spans), target, "strategies_ppl_view")

# --- Parent-child --------------------------------------------------------------------------
with tab_pc:
    c1, c2, c3, c4 = st.columns(4)
    mode = c1.radio(tr(_T, "mode"), ["hierarchy", "sentence_window"], key="strategies_pc_mode",
                    help=tr(_T, "mode_help"))
    child_size = c2.number_input(tr(_T, "child_size"), 1, 100_000, 150,
                                 key="strategies_pc_child")
    parent_size = c3.number_input(tr(_T, "parent_size"), 1, 100_000, 600,
                                  key="strategies_pc_parent")
    window = c4.slider(tr(_T, "window"), 0, 10, 1, key="strategies_pc_window")
    ss.setdefault("strategies_pc_query", pairs[0]["question"] if pairs else "")
    q1, q2, q3, q4 = st.columns([3, 1, 1, 1])
    query = q1.text_input(tr(_T, "query"), key="strategies_pc_query",
                          help=tr(_T, "query_help", backend=backend_name))
    k = q2.slider(tr(_T, "k"), 1, 20, 5, key="strategies_pc_k")
    exp_labels = {"small": tr(_T, "exp_small"), "merge": tr(_T, "exp_merge")}
    expansion_kind = q3.radio(tr(_T, "expansion"), list(exp_labels), key="strategies_pc_exp",
                              format_func=exp_labels.__getitem__, help=tr(_T, "expansion_help"))
    min_children = q4.slider(tr(_T, "min_children"), 1, 10, 2, key="strategies_pc_m",
                             disabled=expansion_kind != "merge")
    params = {"mode": mode, "child_size": int(child_size), "parent_size": int(parent_size),
              "window": int(window)}
    try:
        result = chunk_cached(text, "parent_child", params, backend_name)
    except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(exc)
        st.stop()
    if not query.strip():
        st.info(tr(_T, "no_query"))
        st.stop()
    try:
        ranking = rank_children(result, query, backend)
        if expansion_kind == "merge":
            expansion = auto_merge(result, ranking, k, min_children=int(min_children))
        else:
            expansion = expand_to_parents(result, ranking, k)
    except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(exc)
        st.stop()
    m = st.columns(4)
    m[0].metric(tr(_T, "hits"), f"{len(expansion.hits):,}")
    m[1].metric(tr(_T, "contexts"), f"{len(expansion.contexts):,}")
    m[2].metric(tr(_T, "duplicates"), f"{expansion.duplicates_removed:,}")
    m[3].metric(tr(_T, "sent"), f"{expansion.context_chars:,}",
                help=tr(_T, "sent_help", naive=expansion.naive_chars))
    rows = hit_rows(result, expansion)
    st.dataframe(
        [
            {
                tr(_T, "col_rank"): r.rank,
                tr(_T, "col_child"): f"#{r.child}",
                tr(_T, "col_parent"): "—" if r.parent is None else f"#{r.parent}",
                tr(_T, "col_fate"): tr(_T, f"fate_{r.fate}"),
                tr(_T, "col_context"): f"#{r.context}",
                tr(_T, "col_text"): result.chunk_text(r.child)[:80],
            }
            for r in rows
        ],
        hide_index=True, key="strategies_pc_table", width="stretch",
    )
    # Contexts in document order as bands (numbered by hit order), child hits as marks.
    order = sorted(range(len(expansion.contexts)), key=lambda i: expansion.contexts[i].start)
    bands = tuple(Chunk(expansion.contexts[i].start, expansion.contexts[i].end) for i in order)
    marks = [Mark(result.chunks[r.child].start, result.chunks[r.child].end,
                  f"#{r.rank} {tr(_T, 'fate_' + r.fate)}") for r in rows]
    words = Labels(chunk=tr(_T, "context_word"), chunks=tr(_T, "context_word"),
                   answer=tr(_T, "hit_word"), gap=labels.gap, overlap=labels.overlap,
                   broken=labels.broken)
    st.caption(tr(_T, "pc_note"))
    _view(bands, 0 if bands else None, "strategies_pc_view", marks, words)
