"""Explore: where a strategy cuts a document, which answers it breaks, and what it costs."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import streamlit as st

from chunkviz.datasets.qa_pairs import parse_qa_pairs
from chunkviz.extract import DOCUMENT_TYPES, extract
from chunkviz.samples import load_sample, sample_names
from chunkviz.strategies import all_strategies, get_strategy
from chunkviz.ui.controls import param_controls, seed_values
from chunkviz.ui.explore_figures import length_figure, token_figure
from chunkviz.ui.guard import show_error
from chunkviz.ui.highlight_view import highlight_view
from chunkviz.ui.i18n import current_lang, tr
from chunkviz.ui.resources import (
    chunk_cached,
    doc_tokens_cached,
    load_backend,
    param_items,
    qa_report_cached,
    token_counts_cached,
)
from chunkviz.ui.sidebar import render_sidebar
from chunkviz.ui.state import init_session
from chunkviz.views import codegen, export
from chunkviz.views.explore import chunk_rows, chunk_stats, summary
from chunkviz.views.highlight import (
    LABELS_JA,
    Labels,
    page_bounds,
    page_count,
    page_of,
    render_html,
)
from chunkviz.views.markup import escape_markdown
from chunkviz.views.share_link import from_query, to_query

st.set_page_config(page_title="chunkviz · Explore", page_icon="✂️", layout="wide")
init_session()
render_sidebar()

PREFIX = "explore_p_"

_T = {
    "en": {
        "title": "Explore",
        "intro": "Pick a document and a strategy: every chunk is a coloured band, overlaps are "
                 "striped, answers are underlined, and answers no chunk holds whole are red.",
        "document": "Document",
        "source": "Source",
        "source_help": "A built-in sample (with its questions), your own text, or a file.",
        "src_sample": "Sample",
        "src_paste": "Paste text",
        "src_upload": "Upload a file",
        "sample": "Sample document",
        "sample_help": "Each sample comes with question/answer pairs.",
        "paste": "Your text",
        "paste_help": "Stays in this browser session; it is never put into the shareable link.",
        "upload": "Document file",
        "upload_help": "txt and md (encoding detected), html, pdf, docx.",
        "keep_terminal": "Keep terminal formatting",
        "keep_terminal_help": "Text files saved from a terminal (man pages, logs) hold ANSI "
                              "escapes and backspace overstrikes; they are removed at load "
                              "unless this is on.",
        "terminal_removed": "Removed {n:,} terminal formatting sequences (ANSI escapes, "
                            "backspace overstrikes) from the file.",
        "doc_info": "{name}: {chars:,} characters",
        "empty": "The document is empty: there is nothing to chunk. Paste text, upload a file "
                 "or pick a sample.",
        "configuration": "Configuration",
        "strategy": "Strategy",
        "strategy_help": "Registered chunking strategies; their parameters appear below.",
        "no_params": "This strategy has no parameters.",
        "link_problem": "Shared link: {msg}",
        "chunks": "Chunks",
        "chunks_help": "Number of chunks this configuration makes.",
        "predicted": "Predicted",
        "predicted_help": "The fixed-window formula ceil((L−o)/(c−o)) for this size c and "
                          "overlap o in the chosen unit (L = document length). Other "
                          "strategies are compared with it.",
        "cost": "Overlap cost",
        "cost_help": "1/(1−r) with r = overlap/size: how much more text is embedded than the "
                     "document holds. "
                     "Measured: embedded characters / document characters = {actual}.",
        "index": "Index size",
        "index_help": "Vectors stored: one per chunk ({chars:,} characters embedded in total). "
                      "Dense backends: chunks × dimensions × 4 bytes.",
        "broken_metric": "Broken answers",
        "broken_help": "Answers that no single chunk holds whole: lost before retrieval.",
        "over_metric": "Over the input limit",
        "over_help": "Chunks longer than the model's {limit} tokens: the model silently "
                     "truncates them.",
        "no_limit": "{backend} has no input limit: no chunk is truncated.",
        "view": "Highlight",
        "legend": "Legend: blue / amber bands = alternating chunks · striped = overlap (in two "
                  "chunks) · #n = chunk n starts · green underline = answer in one chunk · "
                  "**red = broken answer** (hover it for the chunks that cut it).",
        "page_info": "Characters {a:,}–{b:,} of {n:,} (page {p} of {pages}).",
        "jump": "Jump to chunk",
        "jump_help": "Scrolls the highlight to the chunk's number (also: select a row in the "
                     "chunk table).",
        "tab_qa": "Questions & answers",
        "tab_figures": "Figures",
        "tab_table": "Chunk table",
        "tab_export": "Export",
        "tab_share": "Share",
        "qa_counts": "{contained} contained · {broken} broken · {missing} not found "
                     "(of {total} questions)",
        "qa_none": "No question/answer pairs yet: add some by hand or upload a CSV/JSON file.",
        "qa_add": "Add a pair",
        "question": "Question",
        "answer": "Answer (exact text from the document)",
        "add": "Add",
        "qa_need_both": "Fill in both the question and the answer.",
        "qa_upload": "Upload QA pairs (CSV or JSON with question, answer)",
        "qa_upload_help": "Columns/keys question and answer (質問/回答 also work). Answers are "
                          "located in the current document; every occurrence counts.",
        "qa_loaded": "Added {n} pairs from {name}.",
        "qa_clear": "Remove all pairs",
        "col_question": "question",
        "col_answer": "answer",
        "col_status": "status",
        "col_in": "in chunks",
        "col_cut": "cut by chunks",
        "col_found": "occurrences",
        "contained": "✅ contained",
        "broken": "❌ broken",
        "not found": "⚠️ not found",
        "stats": "Lengths (min / median / max)",
        "stat_chars": "characters",
        "stat_min": "min",
        "stat_median": "median",
        "stat_max": "max",
        "stat_tokens": "tokens ({tokenizer})",
        "export_json": "Chunks as JSON",
        "export_jsonl": "Chunks as JSONL",
        "export_csv": "Chunks as CSV",
        "code": "This configuration as code",
        "fidelity_exact": "chunkviz itself: exactly these chunks.",
        "fidelity_equivalent": "Equivalent: the same chunks. {note}",
        "fidelity_closest": "Closest equivalent, not identical: {note}",
        "fidelity_none": "No equivalent: {note}",
        "share_intro": "The page URL now carries this configuration. Copy it from the address "
                       "bar, or this link (your own text is never put into it):",
        "share_own_doc": "Your document is not in the link; whoever opens it sees the same "
                         "configuration on their own document.",
    },
    "ja": {
        "title": "探索",
        "intro": "文書と分割戦略を選ぶと、チャンクごとに色の帯、重なりは縞模様、正解は下線、"
                 "どのチャンクにも丸ごと入らない正解は赤で表示されます。",
        "document": "文書",
        "source": "入力元",
        "source_help": "組み込みサンプル（質問付き）、自分のテキスト、またはファイル。",
        "src_sample": "サンプル",
        "src_paste": "テキストを貼り付け",
        "src_upload": "ファイルをアップロード",
        "sample": "サンプル文書",
        "sample_help": "各サンプルには質問と回答の組が付いています。",
        "paste": "あなたのテキスト",
        "paste_help": "このブラウザのセッション内だけに保持され、共有リンクには入りません。",
        "upload": "文書ファイル",
        "upload_help": "txt・md（文字コード自動判定）、html、pdf、docx。",
        "keep_terminal": "端末の書式を残す",
        "keep_terminal_help": "端末から保存したテキスト（man ページ、ログ）には ANSI エスケープや"
                              "バックスペースによる重ね打ちが含まれます。オンにしない限り読み込み時"
                              "に取り除きます。",
        "terminal_removed": "ファイルから端末の書式（ANSI エスケープ、重ね打ち）を {n:,} 個"
                            "取り除きました。",
        "doc_info": "{name}：{chars:,} 文字",
        "empty": "文書が空なので分割するものがありません。テキストを貼り付けるか、ファイルを"
                 "アップロードするか、サンプルを選んでください。",
        "configuration": "設定",
        "strategy": "分割戦略",
        "strategy_help": "登録済みの分割戦略。パラメータは下に表示されます。",
        "no_params": "この戦略にはパラメータがありません。",
        "link_problem": "共有リンク：{msg}",
        "chunks": "チャンク数",
        "chunks_help": "この設定で作られるチャンクの数。",
        "predicted": "予測（公式）",
        "predicted_help": "固定長の公式 ceil((L−o)/(c−o))：選んだ単位でのサイズ c と"
                          "オーバーラップ o による予測"
                          "（L は文書の長さ）。他の戦略もこれと比べられます。",
        "cost": "重なりのコスト",
        "cost_help": "1/(1−r)、r = overlap/size：文書より何倍のテキストを埋め込むか。"
                     "実測：埋め込む文字数 / 文書の文字数 = {actual}。",
        "index": "インデックス",
        "index_help": "保存するベクトル数：チャンクごとに1つ（埋め込む文字数の合計 {chars:,}）。"
                      "密ベクトルではチャンク数 × 次元数 × 4 バイト。",
        "broken_metric": "分断された正解",
        "broken_help": "どのチャンクにも丸ごと入らない正解：検索の前に失われています。",
        "over_metric": "上限超え",
        "over_help": "モデルの上限 {limit} トークンより長いチャンク：モデルが黙って切り捨てます。",
        "no_limit": "{backend} には入力上限がないため、切り捨てられるチャンクはありません。",
        "view": "ハイライト",
        "legend": "凡例：青／黄の帯 = 交互のチャンク · 縞模様 = 重なり（2つのチャンクに含まれる）· "
                  "#n = チャンク n の開始 · 緑の下線 = 1つのチャンクに収まった正解 · "
                  "**赤 = 分断された正解**（カーソルを合わせると切っているチャンクを表示）。",
        "page_info": "{n:,} 文字中 {a:,}–{b:,} 文字目（{pages} ページ中 {p} ページ）。",
        "jump": "チャンクへ移動",
        "jump_help": "ハイライトをそのチャンクの番号までスクロールします（チャンク表で行を"
                     "選んでも移動します）。",
        "tab_qa": "質問と回答",
        "tab_figures": "グラフ",
        "tab_table": "チャンク表",
        "tab_export": "エクスポート",
        "tab_share": "共有",
        "qa_counts": "収まっている {contained} · 分断 {broken} · 見つからない {missing}"
                     "（全 {total} 問）",
        "qa_none": "質問と回答の組がまだありません。手で追加するか、CSV/JSON ファイルを"
                   "アップロードしてください。",
        "qa_add": "組を追加",
        "question": "質問",
        "answer": "回答（文書中の文字列そのまま）",
        "add": "追加",
        "qa_need_both": "質問と回答の両方を入力してください。",
        "qa_upload": "質問と回答をアップロード（question・answer を持つ CSV または JSON）",
        "qa_upload_help": "列／キーは question と answer（質問／回答も可）。回答は現在の文書内で"
                          "検索され、すべての出現箇所が正解として数えられます。",
        "qa_loaded": "{name} から {n} 組を追加しました。",
        "qa_clear": "すべての組を削除",
        "col_question": "質問",
        "col_answer": "回答",
        "col_status": "状態",
        "col_in": "含むチャンク",
        "col_cut": "切っているチャンク",
        "col_found": "出現数",
        "contained": "✅ 収まっている",
        "broken": "❌ 分断",
        "not found": "⚠️ 見つからない",
        "stats": "長さ（最小 / 中央値 / 最大）",
        "stat_chars": "文字",
        "stat_min": "最小",
        "stat_median": "中央値",
        "stat_max": "最大",
        "stat_tokens": "トークン（{tokenizer}）",
        "export_json": "チャンクを JSON で",
        "export_jsonl": "チャンクを JSONL で",
        "export_csv": "チャンクを CSV で",
        "code": "この設定をコードで",
        "fidelity_exact": "chunkviz 自身：まったく同じチャンク。",
        "fidelity_equivalent": "同等：同じチャンクになります。{note}",
        "fidelity_closest": "最も近いもの（同一ではありません）：{note}",
        "fidelity_none": "相当するものはありません：{note}",
        "share_intro": "ページの URL にこの設定が入りました。アドレスバーからコピーするか、"
                       "次のリンクを使ってください（あなたのテキストは入りません）：",
        "share_own_doc": "あなたの文書はリンクに含まれません。開いた人には同じ設定が"
                         "その人の文書で表示されます。",
    },
}

ss = st.session_state
lang = current_lang()


# --- A shared link is applied once per session, before any widget is drawn. ----------------
if "explore_link_applied" not in ss:
    ss["explore_link_applied"] = True
    shared = from_query(st.query_params.to_dict())
    problems = list(shared.problems)
    if shared.sample is not None:
        ss["explore_source"] = "sample"
        ss["explore_sample"] = shared.sample
    if shared.strategy is not None:
        ss["explore_strategy"] = shared.strategy
        problems += seed_values(get_strategy(shared.strategy), shared.params, prefix=PREFIX)
    ss["explore_link_problems"] = problems

st.title(tr(_T, "title"))
st.caption(tr(_T, "intro"))
for msg in ss.get("explore_link_problems", []):
    st.warning(tr(_T, "link_problem", msg=escape_markdown(msg)))


# --- Document ----------------------------------------------------------------------------
def _use_document(name: str, text: str, pairs: list[dict[str, Any]] | None,
                  starts: tuple[int, ...] = ()) -> None:
    """Make ``text`` the current document; new pairs replace the old ones when given."""
    if ss["doc_name"] != name or ss["doc_text"] != text:
        ss["doc_name"], ss["doc_text"] = name, text
        ss["explore_paragraph_starts"] = starts
        if pairs is not None:
            ss["qa_pairs"] = pairs


with st.expander(tr(_T, "document"), expanded=True):
    ss.setdefault("explore_source", "sample")
    ss.setdefault("explore_sample", "jsquad_tsuyu")
    source = st.radio(
        tr(_T, "source"), ["sample", "paste", "upload"], key="explore_source", horizontal=True,
        format_func=lambda s: tr(_T, f"src_{s}"), help=tr(_T, "source_help"),
    )
    previous_kind = ss["doc_name"].partition(":")[0]
    if source == "sample":
        name = st.selectbox(
            tr(_T, "sample"), sample_names(), key="explore_sample", help=tr(_T, "sample_help"),
            format_func=lambda n: load_sample(n).title_ja if lang == "ja" else load_sample(n).title,
        )
        sample = load_sample(name)
        _use_document(f"sample:{name}", sample.text, [dict(q) for q in sample.qa_pairs],
                      sample.paragraph_starts)
    elif source == "paste":
        ss.setdefault("explore_paste", "")
        pasted = st.text_area(tr(_T, "paste"), key="explore_paste", height=180,
                              help=tr(_T, "paste_help"))
        # Pairs of a sample do not belong to the user's text; the user's own pairs stay.
        _use_document("pasted:", pasted, [] if previous_kind != "pasted" else None)
    else:
        upload = st.file_uploader(tr(_T, "upload"), type=list(DOCUMENT_TYPES),
                                  key="explore_upload", help=tr(_T, "upload_help"))
        keep = st.checkbox(tr(_T, "keep_terminal"), key="explore_keep_terminal",
                           help=tr(_T, "keep_terminal_help"))
        if upload is not None:
            try:
                extracted = extract(upload.getvalue(), upload.name, keep_terminal_formatting=keep)
            except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
                show_error(exc)
            else:
                if extracted.terminal_sequences:
                    st.caption(tr(_T, "terminal_removed", n=extracted.terminal_sequences))
                doc_key = f"upload:{upload.name}"
                _use_document(doc_key, extracted.text,
                              [] if ss["doc_name"] != doc_key else None)
    text: str = ss["doc_text"]
    st.caption(tr(_T, "doc_info", name=escape_markdown(ss["doc_name"] or "—"), chars=len(text)))


# --- Configuration ---------------------------------------------------------------------------
st.subheader(tr(_T, "configuration"))
specs = {s.name: s for s in all_strategies()}
if ss["explore_strategy"] not in specs:
    ss["explore_strategy"] = "fixed"


def _strategy_label(name: str) -> str:
    described = specs[name].description_ja if lang == "ja" else specs[name].description
    return f"{name} — {described}"


strategy = st.selectbox(
    tr(_T, "strategy"), list(specs), key="explore_strategy", help=tr(_T, "strategy_help"),
    format_func=_strategy_label,
)
spec = specs[strategy]
params = param_controls(spec, prefix=PREFIX)
if not spec.params:
    st.caption(tr(_T, "no_params"))
ss["explore_params"] = params
backend_name: str = ss["backend"]

sample_name = ss["explore_sample"] if ss["explore_source"] == "sample" else None
st.query_params.from_dict(to_query(strategy, params, sample_name))

if not text:
    st.info(tr(_T, "empty"))
    st.stop()

try:
    backend = load_backend(backend_name)
    result = chunk_cached(text, strategy, params, backend_name,
                          ss.get("explore_paragraph_starts", ()))
    tokens = token_counts_cached(text, strategy, param_items(params), backend_name,
                                 ss.get("explore_paragraph_starts", ()))
    doc_tokens = doc_tokens_cached(text, backend_name)
    qa, marks = qa_report_cached(text, strategy, params, backend_name,
                                 ss.get("explore_paragraph_starts", ()), ss["qa_pairs"])
except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
    show_error(exc)
    st.stop()

stats = chunk_stats(result, token_lengths=tokens, doc_tokens=doc_tokens,
                    max_input_tokens=backend.max_input_tokens)
broken = sum(1 for r in qa if r.status == "broken")


# --- Numbers -------------------------------------------------------------------------------
cols = st.columns(6)
cols[0].metric(tr(_T, "chunks"), f"{stats.count:,}", help=tr(_T, "chunks_help"))
cols[1].metric(tr(_T, "predicted"), "—" if stats.predicted is None else f"{stats.predicted:,}",
               help=tr(_T, "predicted_help"))
actual = "—" if stats.actual_factor is None else f"{stats.actual_factor:.3f}"
cols[2].metric(tr(_T, "cost"), "—" if stats.cost_factor is None else f"{stats.cost_factor:.3f}",
               help=tr(_T, "cost_help", actual=actual))
dims = getattr(backend, "dims", None)
index_value = f"{stats.count:,}" if not dims else f"{stats.count * dims * 4 / 1024:,.0f} KiB"
cols[3].metric(tr(_T, "index"), index_value, help=tr(_T, "index_help", chars=stats.embedded_chars))
cols[4].metric(tr(_T, "broken_metric"), f"{broken} / {len(qa)}", help=tr(_T, "broken_help"))
limit = backend.max_input_tokens
cols[5].metric(tr(_T, "over_metric"), "—" if limit is None else f"{len(stats.over_limit)}",
               help=tr(_T, "over_help", limit=limit) if limit is not None
               else tr(_T, "no_limit", backend=backend_name))


# --- Highlight -------------------------------------------------------------------------------
def _jump_to(index: int) -> None:
    ss["explore_scroll"] = index
    ss["explore_scroll_pending"] = True


def _on_jump() -> None:
    _jump_to(int(ss["explore_jump"]))


def _on_table_select() -> None:
    rows = ss["explore_table"].selection.rows
    if rows:
        _jump_to(int(rows[0]))


st.subheader(tr(_T, "view"))
st.caption(tr(_T, "legend"))
n_chars = len(text)
pages = page_count(n_chars)
scroll = ss.get("explore_scroll")
if scroll is not None and not 0 <= scroll < stats.count:
    scroll = None
if ss.pop("explore_scroll_pending", False) and scroll is not None:
    # The pagination widget starts again at the chunk's page: its state is dropped and its
    # default moved (writing the widget's key as well drew Streamlit's "default value and also
    # set through the Session State API" warning, with a stack trace, at every jump).
    ss.pop("explore_page", None)
    ss["explore_page_default"] = page_of(result.chunks[scroll].start) + 1
bar = st.columns([3, 1])
page = 1
if pages > 1:
    with bar[0]:
        page = st.pagination(pages, key="explore_page", max_visible_pages=9,
                             default=min(ss.get("explore_page_default", 1), pages))
if stats.count:
    with bar[1]:
        st.number_input(tr(_T, "jump"), min_value=0, max_value=stats.count - 1, step=1,
                        key="explore_jump", on_change=_on_jump, help=tr(_T, "jump_help"))
a, b = page_bounds(n_chars, page - 1)
labels = LABELS_JA if lang == "ja" else Labels()
markup = render_html(text, result.chunks, marks, start=a, end=b, labels=labels)
highlight_view(markup, scroll_to=scroll, key="explore_highlight")
if pages > 1:
    st.caption(tr(_T, "page_info", a=a, b=b, n=n_chars, p=page, pages=pages))


# --- Details -------------------------------------------------------------------------------
def _qa_section() -> None:
    counts = {s: sum(1 for r in qa if r.status == s) for s in ("contained", "broken", "not found")}
    if qa:
        st.markdown(tr(_T, "qa_counts", contained=counts["contained"], broken=counts["broken"],
                       missing=counts["not found"], total=len(qa)))
        # Labels translated once, not once per cell: st.session_state lookups add up.
        col = {k: tr(_T, k) for k in ("col_question", "col_answer", "col_status", "col_in",
                                       "col_cut", "col_found")}
        status = {k: tr(_T, k) for k in ("contained", "broken", "not found")}
        st.dataframe(
            [
                {
                    col["col_question"]: r.item.question,
                    col["col_answer"]: r.item.answer,
                    col["col_status"]: status[r.status],
                    col["col_in"]: ", ".join(f"#{i}" for i in r.containing),
                    col["col_cut"]: ", ".join(f"#{i}" for i in r.cutting)
                    if r.status == "broken" else "",
                    col["col_found"]: len(r.item.spans),
                }
                for r in qa
            ],
            key="explore_qa_table", hide_index=True, width="stretch",
        )
    else:
        st.info(tr(_T, "qa_none"))
    left, right = st.columns(2)
    with left, st.form("explore_add_qa", clear_on_submit=True):
        st.markdown(f"**{tr(_T, 'qa_add')}**")
        question = st.text_input(tr(_T, "question"), key="explore_new_question")
        answer = st.text_input(tr(_T, "answer"), key="explore_new_answer")
        if st.form_submit_button(tr(_T, "add")):
            if question.strip() and answer.strip():
                ss["qa_pairs"] = [*ss["qa_pairs"], {"question": question, "answer": answer}]
                st.rerun()
            else:
                st.error(tr(_T, "qa_need_both"))
    with right:
        qa_file = st.file_uploader(tr(_T, "qa_upload"), type=["csv", "tsv", "json", "jsonl"],
                                   key="explore_qa_upload", help=tr(_T, "qa_upload_help"))
        if qa_file is not None and ss.get("explore_qa_file") != qa_file.file_id:
            try:
                new_pairs = parse_qa_pairs(qa_file.getvalue(), name=qa_file.name)
            except Exception as exc:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
                show_error(exc)
            else:
                ss["explore_qa_file"] = qa_file.file_id
                ss["qa_pairs"] = [*ss["qa_pairs"],
                                  *({"question": p["question"], "answer": p["answer"]}
                                    for p in new_pairs)]
                ss["explore_qa_loaded"] = tr(_T, "qa_loaded", n=len(new_pairs),
                                             name=qa_file.name)
                st.rerun()
        if ss.get("explore_qa_loaded"):
            st.success(ss.pop("explore_qa_loaded"))
        if ss["qa_pairs"] and st.button(tr(_T, "qa_clear"), key="explore_qa_clear"):
            ss["qa_pairs"] = []
            st.rerun()


def _figures_section() -> None:
    tokenizer_name = getattr(backend.tokenizer, "name", backend_name)
    st.markdown(f"**{tr(_T, 'stats')}**")
    rows = []
    for label, values in ((tr(_T, "stat_chars"), stats.char_lengths),
                          (tr(_T, "stat_tokens", tokenizer=tokenizer_name), stats.token_lengths)):
        s = summary(values or ())
        if s is not None:
            rows.append({"": label, tr(_T, "stat_min"): s[0], tr(_T, "stat_median"): s[1],
                         tr(_T, "stat_max"): s[2]})
    st.dataframe(rows, hide_index=True)
    fig_left, fig_right = st.columns(2)
    fig_left.plotly_chart(length_figure(stats, lang), key="explore_fig_chars")
    fig_right.plotly_chart(token_figure(stats, tokenizer_name, lang), key="explore_fig_tokens")


def _table_section() -> None:
    st.dataframe(
        chunk_rows(result, tokens), key="explore_table", hide_index=True,
        on_select=_on_table_select, selection_mode="single-row", width="stretch",
    )


def _export_section() -> None:
    e1, e2, e3 = st.columns(3)
    stem = f"chunks-{strategy}"
    e1.download_button(tr(_T, "export_json"), export.to_json(result), f"{stem}.json",
                       "application/json", key="explore_dl_json")
    e2.download_button(tr(_T, "export_jsonl"), export.to_jsonl(result), f"{stem}.jsonl",
                       "application/jsonl", key="explore_dl_jsonl")
    e3.download_button(tr(_T, "export_csv"), export.to_csv(result), f"{stem}.csv",
                       "text/csv", key="explore_dl_csv")
    st.markdown(f"**{tr(_T, 'code')}**")
    snippets = codegen.snippets(strategy, params)
    for tab, snip in zip(st.tabs([s.library for s in snippets]), snippets, strict=True):
        with tab:
            st.caption(tr(_T, f"fidelity_{snip.fidelity}", note=snip.note))
            st.code(snip.code, language="python")


def _share_section() -> None:
    query = to_query(strategy, params, sample_name)
    st.markdown(tr(_T, "share_intro"))
    base = (st.context.url or "").split("?")[0]
    st.code(f"{base}?{urlencode(query)}", language=None)
    if sample_name is None:
        st.caption(tr(_T, "share_own_doc"))


# Only the open tab runs (on_change="rerun"), so a slider move pays for one tab, not five.
SECTIONS = {"qa": _qa_section, "figures": _figures_section, "table": _table_section,
            "export": _export_section, "share": _share_section}
tab_labels = {name: tr(_T, f"tab_{name}") for name in SECTIONS}
if ss.get("explore_tab") not in tab_labels.values() and ss.get("explore_tab_id") in tab_labels:
    # The language changed: keep the same tab open under its translated label.
    ss["explore_tab"] = tab_labels[ss["explore_tab_id"]]
tabs = st.tabs(list(tab_labels.values()), key="explore_tab", on_change="rerun")
for (name, draw), tab in zip(SECTIONS.items(), tabs, strict=True):
    if tab.open:
        ss["explore_tab_id"] = name
        with tab:
            draw()
