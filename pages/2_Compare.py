"""Compare: two to four configurations on the same document, side by side."""

from __future__ import annotations

from typing import Any

import streamlit as st

from chunkviz.samples import load_sample, sample_names
from chunkviz.strategies import all_strategies
from chunkviz.ui.compare_resources import outcome_cached
from chunkviz.ui.controls import param_controls, param_key
from chunkviz.ui.guard import show_error
from chunkviz.ui.highlight_view import highlight_view
from chunkviz.ui.i18n import current_lang, tr
from chunkviz.ui.resources import chunk_cached
from chunkviz.ui.sidebar import render_sidebar
from chunkviz.ui.state import init_session
from chunkviz.views.compare import Outcome, config_label, rank_rows, summary_rows
from chunkviz.views.explore import locate_qa, qa_marks
from chunkviz.views.highlight import LABELS_JA, Labels, page_bounds, render_html
from chunkviz.views.markup import escape_markdown

st.set_page_config(page_title="chunkviz · Compare", page_icon="✂️", layout="wide")
init_session()
render_sidebar()

_T = {
    "en": {
        "title": "Compare",
        "intro": "Two to four configurations on the same document and the same questions: "
                 "where each one cuts, how many chunks it makes, which answers it breaks, and "
                 "where each question's best chunk ranks under the active backend ({backend}).",
        "source": "Document",
        "source_help": "The document open in Explore (with its questions), or a built-in sample.",
        "src_session": "Current document ({name})",
        "src_sample": "Sample",
        "sample": "Sample document",
        "count": "Configurations",
        "count_help": "How many configurations to put side by side.",
        "config": "Configuration {i}",
        "strategy": "Strategy",
        "strategy_help": "Registered chunking strategies; their parameters appear below.",
        "parameters": "Parameters",
        "empty": "The document is empty: open Explore and paste a text, or pick a sample.",
        "chunks": "Chunks",
        "broken": "Broken answers",
        "broken_help": "Questions whose every answer span is cut by a boundary: lost before "
                       "retrieval.",
        "summary": "Summary",
        "summary_help": "Recall@k: share of the questions found in the document whose best chunk "
                        "ranks within the top k; a broken answer counts as a miss.",
        "boundaries": "Boundaries",
        "boundaries_note": "Characters {a:,}–{b:,} of {n:,}. Bands are chunks, stripes overlaps, "
                           "red answers no chunk holds whole.",
        "ranks": "Rank of the best chunk per question",
        "ranks_help": "1 is the top of the ranking; 'broken' means no chunk holds the whole "
                      "answer; 'not found' means the answer is not in the document.",
        "no_questions": "No question/answer pairs for this document: add some on Explore to "
                        "compare retrieval ranks.",
        "page": "Part of the document",
    },
    "ja": {
        "title": "比較",
        "intro": "同じ文書・同じ質問で 2〜4 個の設定を並べます：どこで切るか、チャンク数、"
                 "分断される正解、選択中のバックエンド（{backend}）で各質問の最良チャンクが"
                 "何位になるか。",
        "source": "文書",
        "source_help": "Explore で開いている文書（質問付き）または同梱サンプル。",
        "src_session": "現在の文書（{name}）",
        "src_sample": "サンプル",
        "sample": "サンプル文書",
        "count": "設定の数",
        "count_help": "並べて比べる設定の数。",
        "config": "設定 {i}",
        "strategy": "戦略",
        "strategy_help": "登録済みのチャンク戦略。パラメータは下に表示されます。",
        "parameters": "パラメータ",
        "empty": "文書が空です。Explore でテキストを貼り付けるか、サンプルを選んでください。",
        "chunks": "チャンク数",
        "broken": "分断された正解",
        "broken_help": "すべての正解箇所が境界で切られている質問：検索の前に失われています。",
        "summary": "まとめ",
        "summary_help": "Recall@k：文書中に正解が見つかった質問のうち、最良チャンクが上位 k 件に"
                        "入る割合。分断された正解は外れとして数えます。",
        "boundaries": "境界",
        "boundaries_note": "全 {n:,} 文字中 {a:,}〜{b:,} 文字目。帯がチャンク、縞が重なり、"
                           "赤はどのチャンクにも丸ごと入らない正解。",
        "ranks": "質問ごとの最良チャンクの順位",
        "ranks_help": "1 が最上位。「broken」はどのチャンクにも正解全体が入らないこと、"
                      "「not found」は正解が文書中にないことを表します。",
        "no_questions": "この文書には質問と回答の組がありません。検索順位を比べるには Explore で"
                        "追加してください。",
        "page": "文書の表示範囲",
    },
}

# Starting points that show four different ideas: a window, separators, topics, small-to-big.
DEFAULTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("fixed", {"size": 200, "overlap": 0}),
    ("recursive", {"size": 200, "overlap": 0}),
    ("semantic", {"max_size": 400}),
    ("parent_child", {"child_size": 200}),
)

ss = st.session_state
lang = current_lang()
backend_name: str = ss["backend"]

st.title(tr(_T, "title"))
st.caption(tr(_T, "intro", backend=backend_name))

# --- Document ------------------------------------------------------------------------------
options = ["session", "sample"] if ss["doc_text"] else ["sample"]
if ss.get("compare_source") not in options:
    ss["compare_source"] = options[0]
# Labels computed now: a format_func must not read session state when called later.
source_labels = {s: tr(_T, f"src_{s}", name=ss["doc_name"] or "—") for s in options}
source = st.radio(
    tr(_T, "source"), options, key="compare_source", horizontal=True,
    format_func=source_labels.__getitem__,
    help=tr(_T, "source_help"),
)
paragraph_starts: tuple[int, ...] = ()
if source == "session":
    text: str = ss["doc_text"]
    pairs: list[dict[str, Any]] = list(ss["qa_pairs"])
    paragraph_starts = tuple(ss.get("explore_paragraph_starts", ()))
else:
    ss.setdefault("compare_sample", "jsquad_tsuyu")
    name = st.selectbox(
        tr(_T, "sample"), sample_names(), key="compare_sample",
        format_func=lambda n: load_sample(n).title_ja if lang == "ja" else load_sample(n).title,
    )
    sample = load_sample(name)
    text = sample.text
    pairs = [dict(q) for q in sample.qa_pairs]
    paragraph_starts = sample.paragraph_starts
if not text.strip():
    st.info(tr(_T, "empty"))
    st.stop()

# --- Configurations ------------------------------------------------------------------------
n = st.slider(tr(_T, "count"), 2, 4, 2, key="compare_n", help=tr(_T, "count_help"))
specs = {s.name: s for s in all_strategies()}
items = locate_qa(text, pairs)
outcomes: list[Outcome | None] = []
columns = st.columns(n)
for i, col in enumerate(columns):
    default_strategy, default_params = DEFAULTS[i]
    prefix = f"compare_p{i}_"
    for key, value in default_params.items():
        ss.setdefault(param_key(prefix, default_strategy, key), value)
    ss.setdefault(f"compare_strategy_{i}", default_strategy)
    with col:
        st.markdown(f"**{tr(_T, 'config', i=i + 1)}**")
        strategy = st.selectbox(tr(_T, "strategy"), list(specs), key=f"compare_strategy_{i}",
                                help=tr(_T, "strategy_help"))
        with st.expander(tr(_T, "parameters")):
            params = param_controls(specs[strategy], prefix=prefix, columns=1)
        try:
            result = chunk_cached(text, strategy, params, backend_name, paragraph_starts)
            found = outcome_cached(config_label(strategy, params), result, pairs, items,
                                   backend_name)
        except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
            show_error(exc)
            outcomes.append(None)
            continue
        outcomes.append(found)
        left, right = st.columns(2)
        left.metric(tr(_T, "chunks"), f"{found.count:,}")
        right.metric(tr(_T, "broken"), f"{found.broken} / {len(found.qa)}",
                     help=tr(_T, "broken_help"))

ready = [o for o in outcomes if o is not None]
# Labels must be unique table columns: number them.
ready = [Outcome(f"{i + 1}: {o.label}", o.result, o.qa, o.ranks) for i, o in enumerate(ready)]

st.subheader(tr(_T, "summary"), help=tr(_T, "summary_help"))
st.dataframe(summary_rows(ready), hide_index=True, key="compare_summary", width="stretch")

# --- Boundaries side by side ---------------------------------------------------------------
st.subheader(tr(_T, "boundaries"))
page_size = 4000
pages = max(1, -(-len(text) // page_size))
page = st.slider(tr(_T, "page"), 1, pages, 1, key="compare_page") if pages > 1 else 1
a, b = page_bounds(len(text), page - 1, page_size)
st.caption(tr(_T, "boundaries_note", a=a, b=b, n=len(text)))
labels = LABELS_JA if lang == "ja" else Labels()
for i, (col, found_or_none) in enumerate(zip(st.columns(n), outcomes, strict=True)):
    if found_or_none is None:
        continue
    with col:
        st.caption(f"{i + 1}: {escape_markdown(found_or_none.label)}")
        chunks = found_or_none.result.chunks
        marks = qa_marks(list(found_or_none.qa), found_or_none.result)
        markup = render_html(text, chunks, marks, start=a, end=b, labels=labels)
        highlight_view(markup, scroll_to=None, key=f"compare_highlight_{i}")

# --- Ranks ---------------------------------------------------------------------------------
st.subheader(tr(_T, "ranks"), help=tr(_T, "ranks_help"))
if items:
    st.dataframe(rank_rows(ready), hide_index=True, key="compare_ranks", width="stretch")
else:
    st.info(tr(_T, "no_questions"))
