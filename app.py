"""chunkviz home page: what the app shows, and links to the pages that exist."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from chunkviz.ui.i18n import tr
from chunkviz.ui.sidebar import render_sidebar
from chunkviz.ui.state import init_session

st.set_page_config(page_title="chunkviz", page_icon="✂️", layout="wide")
init_session()
render_sidebar()

_T = {
    "en": {
        "tagline": "See where a chunker cuts a document, what each cut costs, and what it does "
                   "to retrieval.",
        "what": "What chunkviz shows",
        "point_cuts": "**Where the cuts fall**: every chunk as a coloured band over your text, "
                      "overlaps shared by two chunks, chunk numbers at each start.",
        "point_lost": "**Answers lost before retrieval**: an answer that no single chunk holds "
                      "whole is shown in red; no retriever can ever return it.",
        "point_cost": "**What it costs**: chunk count against the formula, lengths in characters "
                      "and tokens, the overlap factor 1/(1−r), chunks a model would truncate.",
        "point_offline": "Everything runs locally and offline: your document never leaves this "
                         "machine and is never put into a shared link.",
        "pages": "Pages",
        "Explore": "Explore — highlight the chunks of a document, find broken answers, export "
                   "chunks and code.",
        "Compare": "Compare — several configurations side by side on one document.",
        "Similarity": "Similarity — dot product, cosine and L2, and why long chunks win under "
                      "a raw dot product.",
        "Benchmark": "Benchmark — Recall@5, nDCG@10 and MRR@10 per configuration with "
                     "confidence intervals and corrected tests.",
        "Strategies": "Strategies — semantic, perplexity and parent-child splitting, with their "
                      "curves.",
        "sidebar_hint": "The sidebar sets the language and the retrieval backend for every page.",
    },
    "ja": {
        "tagline": "チャンク分割が文書のどこを切るか、その切り方のコスト、検索への影響を見る。",
        "what": "chunkviz でわかること",
        "point_cuts": "**どこで切れるか**：テキストの上にチャンクごとの色の帯、2つのチャンクが"
                      "共有する重なり、各チャンクの開始位置の番号を表示します。",
        "point_lost": "**検索の前に失われる正解**：どのチャンクにも丸ごと入らない正解は赤で"
                      "表示されます。どんな検索器もそれを返せません。",
        "point_cost": "**コスト**：公式と比べたチャンク数、文字数とトークン数での長さ、"
                      "重なりの係数 1/(1−r)、モデルが切り捨てるチャンク。",
        "point_offline": "すべてローカル・オフラインで動きます。文書がこのマシンの外に出る"
                         "ことはなく、共有リンクにも入りません。",
        "pages": "ページ",
        "Explore": "探索 — 文書のチャンクをハイライトし、分断された正解を見つけ、チャンクと"
                   "コードを書き出す。",
        "Compare": "比較 — 1つの文書で複数の設定を並べて比べる。",
        "Similarity": "類似度 — 内積・コサイン・L2 と、生の内積で長いチャンクが勝つ理由。",
        "Benchmark": "ベンチマーク — 設定ごとの Recall@5・nDCG@10・MRR@10 を信頼区間と"
                     "補正済みの検定で。",
        "Strategies": "分割戦略 — 意味・パープレキシティ・親子分割とその曲線。",
        "sidebar_hint": "サイドバーで、すべてのページの言語と検索バックエンドを選べます。",
    },
}

PAGES = (
    ("pages/1_Explore.py", "Explore", ":material/travel_explore:"),
    ("pages/2_Compare.py", "Compare", ":material/compare:"),
    ("pages/3_Similarity.py", "Similarity", ":material/scatter_plot:"),
    ("pages/4_Benchmark.py", "Benchmark", ":material/leaderboard:"),
    ("pages/5_Strategies.py", "Strategies", ":material/account_tree:"),
)

st.title("chunkviz")
st.markdown(tr(_T, "tagline"))

st.subheader(tr(_T, "what"))
for point in ("point_cuts", "point_lost", "point_cost", "point_offline"):
    st.markdown(f"- {tr(_T, point)}")

st.subheader(tr(_T, "pages"))
root = Path(__file__).parent
for path, name, icon in PAGES:
    if (root / path).exists():
        st.page_link(path, label=tr(_T, name), icon=icon)
st.caption(tr(_T, "sidebar_hint"))
