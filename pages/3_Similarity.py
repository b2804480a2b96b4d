"""Similarity: drag a query and watch dot product, cosine and L2 disagree (seed 003's lesson)."""

import pandas as pd
import streamlit as st

from chunkviz.retrieval.backends import list_backends
from chunkviz.retrieval.similarity import MEASURES
from chunkviz.ui.guard import show_error
from chunkviz.ui.i18n import current_lang, tr
from chunkviz.ui.plane_component import similarity_plane
from chunkviz.ui.sidebar import render_sidebar
from chunkviz.ui.similarity_view import (
    chunk_cached,
    lesson_cached,
    load_backend,
    norm_figure,
    pca_figure,
    rank_figure,
)
from chunkviz.ui.state import init_session
from chunkviz.views.markup import escape_markdown
from chunkviz.views.plane import (
    DEFAULT_QUERY,
    MEASURE_NAMES,
    PRESETS,
    describe_measures,
    describe_move,
    points_from_rows,
    points_to_rows,
    preset,
    rankings,
    scores,
)
from chunkviz.views.similarity_lesson import DEFAULT_QUERY_TEXT, DEFAULT_TEXT, lesson_rows

_T = {
    "en": {
        "title": "Similarity: dot product, cosine and L2",
        "intro": (
            "An embedding turns each chunk into a vector. When nothing normalises it, a longer "
            "chunk tends to get a **longer vector**, and the raw **dot product** "
            "(|q| |d| cos θ) rewards that length: a long chunk pointing roughly the right way "
            "beats a short one pointing exactly the right way. **Cosine** (cos θ) looks at the "
            "direction only. **L2** (distance between the tips) prefers chunks whose vector is "
            "about as long as the query's. With unit vectors the three give the same order."
        ),
        "plane_header": "The plane",
        "plane_intro": (
            "Each arrow is a chunk; its length stands for the chunk's length. Drag the red query "
            "point (mouse or touch): the badges show each measure's top k live — "
            "**D** dot product, **C** cosine, **L** L2."
        ),
        "preset": "Preset",
        "preset_long_vs_short": "Long vs short",
        "preset_normalised": "All normalised",
        "preset_random": "Random",
        "help_long_vs_short": (
            "A and B are short and point at the query; C and D are long and point elsewhere. "
            "Dot product puts a long one first, cosine a short one."
        ),
        "help_normalised": (
            "Every vector has length 1: wherever the query goes, the three measures agree."
        ),
        "help_random": "Random directions and lengths, drawn from the seed.",
        "seed": "Seed",
        "k": "Top k marked",
        "edit": "Add, move or resize chunk vectors",
        "edit_help": (
            "One row per chunk: direction in degrees (0 = right, 90 = up) and length (0 to 5). "
            "Add a row to add a chunk; delete a row to remove it."
        ),
        "label": "Label",
        "angle": "Direction (°)",
        "length": "Length",
        "no_points": "Add at least one chunk vector to the table.",
        "query": "Query",
        "top": "Top",
        "drag_hint": (
            "Drag the query point or click anywhere on the plane; with the keyboard, focus the "
            "point (Tab) and use the arrow keys (Shift: bigger steps)."
        ),
        "rankings": "Rankings at the query ({x:.2f}, {y:.2f})",
        "rank": "Rank",
        "chunk": "Chunk",
        "score": "Score",
        "measures_sentence": "Between the measures",
        "move_sentence": "Since the previous position",
        "real_header": "The same lesson on real embeddings",
        "real_intro": (
            "The chunks of the current document under the current chunking configuration, "
            "embedded by a backend that exposes its raw vectors. Does the norm follow the chunk "
            "length here, and which chunks change rank when the measure changes?"
        ),
        "doc_from_explore": "Document: {name} ({n:,} characters), from the Explore page.",
        "doc_default": (
            "Document: a built-in sample of paragraphs of very different lengths (load your own "
            "on the Explore page)."
        ),
        "config": "Chunking: {strategy} {params}",
        "backend": "Embedding backend",
        "backend_help": (
            "TF-IDF gives raw (unnormalised) vectors offline; a sentence-transformers model is "
            "used with normalize_embeddings=False. use-m3 only returns unit vectors."
        ),
        "no_backend": "No backend with vectors is available offline.",
        "query_text": "Query",
        "query_empty": "Type a query to rank the chunks.",
        "empty_doc": "The document has no chunks (it is empty).",
        "unit_only": (
            "**{name} returns unit vectors only** (length 1, normalised inside the model; there "
            "is no public way to get the raw vector). So every norm is 1, dot product equals "
            "cosine, and L2 is a monotone function of them: the three rankings below are the "
            "same by construction, not by discovery. Pick TF-IDF or a sentence-transformers "
            "model to see the effect of length."
        ),
        "n_chunks": "Chunks",
        "pearson": "Pearson r (length, norm)",
        "pearson_na": "undefined",
        "pearson_help": "Undefined when all norms (or all lengths) are equal.",
        "moved": "Rank moves most",
        "moved_none": "none: all measures agree",
        "norm_title": "Vector norm vs chunk length",
        "norm_x": "chunk length (characters)",
        "norm_y": "vector norm",
        "fit": "least-squares line",
        "rank_title": "Rank of each chunk under each measure (1 = best)",
        "rank_x": "chunk",
        "rank_y": "rank",
        "pca_title": "Chunks and query, 2-D PCA of the chunk vectors (size: chunk length)",
        "chunks": "chunks",
        "query_point": "query",
        "table": "Ranks per chunk (spread = worst rank − best rank across the measures)",
        "col_chunk": "chunk",
        "col_text": "text",
        "col_chars": "characters",
        "col_norm": "norm",
        "col_spread": "spread",
        "col_moved": "moves most",
    },
    "ja": {
        "title": "類似度: 内積・コサイン・L2",
        "intro": (
            "埋め込みは各チャンクを1本のベクトルにします。正規化しなければ、長いチャンクほど"
            "**ベクトルも長く**なりがちで、生の**内積**（|q| |d| cos θ）は"
            "その長さに報酬を与えます。"
            "少しずれた方向を向いた長いチャンクが、ぴったり同じ方向を向いた短いチャンクに勝つのです。"
            "**コサイン類似度**（cos θ）は向きだけを見ます。**L2距離**（矢印の先端どうしの距離）は"
            "クエリと同じくらいの長さのベクトルを好みます。単位ベクトルなら3つの順位は一致します。"
        ),
        "plane_header": "平面で試す",
        "plane_intro": (
            "矢印1本が1チャンクで、長さはチャンクの長さを表します。赤いクエリ点をドラッグ"
            "（マウスでもタッチでも）すると、各尺度の上位kがバッジでその場で更新されます — "
            "**D** 内積、**C** コサイン、**L** L2。"
        ),
        "preset": "プリセット",
        "preset_long_vs_short": "長いチャンク対短いチャンク",
        "preset_normalised": "すべて正規化",
        "preset_random": "ランダム",
        "help_long_vs_short": (
            "AとBは短くクエリの方向を向き、CとDは長く別の方向を向いています。"
            "内積では長いチャンクが、コサインでは短いチャンクが1位になります。"
        ),
        "help_normalised": (
            "すべてのベクトルの長さが1です。クエリをどこに置いても3つの尺度は一致します。"
        ),
        "help_random": "シードから決まるランダムな向きと長さです。",
        "seed": "シード",
        "k": "マークする上位k",
        "edit": "チャンクベクトルを追加・移動・伸縮する",
        "edit_help": (
            "1行が1チャンクです。向きは度（0 = 右、90 = 上）、長さは0〜5。"
            "行を追加するとチャンクが増え、行を消すと減ります。"
        ),
        "label": "ラベル",
        "angle": "向き（°）",
        "length": "長さ",
        "no_points": "表にチャンクベクトルを1つ以上追加してください。",
        "query": "クエリ",
        "top": "上位",
        "drag_hint": (
            "クエリ点をドラッグするか、平面上の好きな場所をクリックしてください。キーボードでは"
            "Tabで点を選び、矢印キーで動かせます（Shiftで大きく動きます）。"
        ),
        "rankings": "クエリ ({x:.2f}, {y:.2f}) での順位",
        "rank": "順位",
        "chunk": "チャンク",
        "score": "スコア",
        "measures_sentence": "尺度のあいだの違い",
        "move_sentence": "前の位置からの変化",
        "real_header": "実際の埋め込みで同じことを確かめる",
        "real_intro": (
            "現在の文書を現在のチャンキング設定で切ったチャンクを、生のベクトルを返すバックエンドで"
            "埋め込みます。ここでもノルムはチャンクの長さに従うか、尺度を変えると順位が動くのは"
            "どのチャンクかを見てみましょう。"
        ),
        "doc_from_explore": "文書: {name}（{n:,}文字、Exploreページから）",
        "doc_default": (
            "文書: 長さの大きく異なる段落からなる組み込みのサンプル"
            "（自分の文書はExploreページで読み込めます）"
        ),
        "config": "チャンキング: {strategy} {params}",
        "backend": "埋め込みバックエンド",
        "backend_help": (
            "TF-IDFはオフラインで生の（正規化していない）ベクトルを返します。sentence-transformers"
            "のモデルは normalize_embeddings=False で使います。"
            "use-m3 は単位ベクトルしか返しません。"
        ),
        "no_backend": "オフラインで使えるベクトル付きのバックエンドがありません。",
        "query_text": "クエリ",
        "query_empty": "チャンクを順位付けするクエリを入力してください。",
        "empty_doc": "文書にチャンクがありません（空です）。",
        "unit_only": (
            "**{name} は単位ベクトルしか返しません**（モデル内部で長さ1に正規化され、正規化前の"
            "ベクトルを得る公開の方法はありません）。そのためノルムはすべて1で、内積はコサインに"
            "等しく、L2はそれらの単調関数です。下の3つの順位は、発見ではなく定義から一致します。"
            "長さの効果を見るにはTF-IDFかsentence-transformersのモデルを選んでください。"
        ),
        "n_chunks": "チャンク数",
        "pearson": "ピアソン相関 r（長さとノルム）",
        "pearson_na": "定義できない",
        "pearson_help": "ノルム（または長さ）がすべて等しいときは定義できません。",
        "moved": "順位が最も動くチャンク",
        "moved_none": "なし（すべての尺度が一致）",
        "norm_title": "ベクトルのノルムとチャンクの長さ",
        "norm_x": "チャンクの長さ（文字）",
        "norm_y": "ベクトルのノルム",
        "fit": "最小二乗直線",
        "rank_title": "尺度ごとの各チャンクの順位（1が最上位）",
        "rank_x": "チャンク",
        "rank_y": "順位",
        "pca_title": "チャンクとクエリ（チャンクベクトルの2次元PCA、点の大きさはチャンクの長さ）",
        "chunks": "チャンク",
        "query_point": "クエリ",
        "table": "チャンクごとの順位（順位の幅 = 尺度間での最下位と最上位の差）",
        "col_chunk": "チャンク",
        "col_text": "本文",
        "col_chars": "文字数",
        "col_norm": "ノルム",
        "col_spread": "順位の幅",
        "col_moved": "最も動く",
    },
}

st.set_page_config(page_title="Similarity · chunkviz", page_icon="📐", layout="wide")
init_session()
render_sidebar()

lang = current_lang()
names = MEASURE_NAMES[lang]
st.session_state.setdefault("sim_query", DEFAULT_QUERY)
st.session_state.setdefault("sim_prev_query", None)
st.session_state.setdefault("sim_query_seq", 0)
st.session_state.setdefault("sim_preset", PRESETS[0])


def _reset_query() -> None:
    st.session_state["sim_query"] = DEFAULT_QUERY
    st.session_state["sim_prev_query"] = None


def _on_preset(widget_key: str) -> None:
    st.session_state["sim_preset"] = st.session_state[widget_key]
    _reset_query()


def _on_release() -> None:
    pos = st.session_state["sim_plane"]["pos"]
    if pos is not None:
        st.session_state["sim_prev_query"] = st.session_state["sim_query"]
        st.session_state["sim_query"] = (float(pos["x"]), float(pos["y"]))
        st.session_state["sim_query_seq"] = int(pos.get("seq", 0))


st.title(tr(_T, "title"))
st.markdown(tr(_T, "intro"))


# --- the plane -----------------------------------------------------------------------------------
# A fragment: dragging the query reruns this section only, not the embeddings below.
@st.fragment
def _plane_section() -> None:
    st.header(tr(_T, "plane_header"))
    st.markdown(tr(_T, "plane_intro"))
    c1, c2, c3 = st.columns([3, 1, 1])
    # NOTE: a radio's state is its *displayed* option, which changes with the language, so the
    # widget is keyed per language and the chosen preset lives in the neutral "sim_preset".
    preset_key = f"sim_preset_{lang}"
    preset_name = c1.radio(
        tr(_T, "preset"),
        PRESETS,
        index=PRESETS.index(st.session_state["sim_preset"]),
        format_func=lambda p: tr(_T, f"preset_{p}"),
        key=preset_key,
        horizontal=True,
        on_change=_on_preset,
        args=(preset_key,),
    )
    seed = int(
        c2.number_input(
            tr(_T, "seed"),
            min_value=0,
            max_value=9999,
            value=0,
            key="sim_seed",
            disabled=preset_name != "random",
            on_change=_reset_query,
        )
    )
    k = c3.slider(tr(_T, "k"), min_value=1, max_value=3, value=2, key="sim_k")
    st.caption(tr(_T, f"help_{preset_name}"))

    base = preset(preset_name, seed=seed)
    with st.expander(tr(_T, "edit")):
        st.caption(tr(_T, "edit_help"))
        edited = st.data_editor(
            pd.DataFrame(points_to_rows(base), columns=["label", "angle", "length"]),
            num_rows="dynamic",
            key=f"sim_points_{preset_name}_{seed}",
            column_config={
                "label": st.column_config.TextColumn(tr(_T, "label"), max_chars=12),
                "angle": st.column_config.NumberColumn(
                    tr(_T, "angle"), min_value=-360, max_value=360
                ),
                "length": st.column_config.NumberColumn(
                    tr(_T, "length"), min_value=0.05, max_value=5
                ),
            },
            hide_index=True,
        )
    try:
        points = points_from_rows(edited.to_dict("records"))
    except Exception as e:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(e)
        points = base

    query = st.session_state["sim_query"]
    if not points:
        st.info(tr(_T, "no_points"))
    else:
        similarity_plane(
            points,
            query,
            k=min(k, len(points)),
            measure_names=names,
            text={"query": tr(_T, "query"), "top": tr(_T, "top"), "drag_hint": tr(_T, "drag_hint")},
            key="sim_plane",
            on_release=_on_release,
            seq=st.session_state["sim_query_seq"],
        )
        st.subheader(tr(_T, "rankings", x=query[0], y=query[1]))
        ranks = rankings(points, query)
        all_scores = scores(points, query)
        for col, m in zip(st.columns(3), MEASURES, strict=True):
            with col, st.container(key=f"sim_rank_{m}"):
                st.markdown(f"**{names[m]}**")
                st.table(
                    pd.DataFrame(
                        {
                            tr(_T, "rank"): [str(r) for r in range(1, len(points) + 1)],
                            tr(_T, "chunk"): [escape_markdown(points[i].label) for i in ranks[m]],
                            tr(_T, "length"): [f"{points[i].length:.2f}" for i in ranks[m]],
                            tr(_T, "score"): [f"{all_scores[m][i]:.3f}" for i in ranks[m]],
                        }
                    ),
                    hide_index=True,
                )
        with st.container(key="sim_change"):
            st.info(f"**{tr(_T, 'measures_sentence')}:** {describe_measures(points, query, lang)}")
            prev = st.session_state["sim_prev_query"]
            if prev is not None:
                st.caption(f"{tr(_T, 'move_sentence')}: {describe_move(points, prev, query, lang)}")


# --- real embeddings -----------------------------------------------------------------------------
@st.fragment
def _real_section() -> None:
    st.header(tr(_T, "real_header"))
    st.markdown(tr(_T, "real_intro"))

    doc_text = st.session_state.get("doc_text") or ""
    from_explore = bool(doc_text)
    if from_explore:
        st.caption(
            tr(
                _T,
                "doc_from_explore",
                name=st.session_state.get("doc_name") or "—",
                n=len(doc_text),
            )
        )
        strategy = st.session_state.get("explore_strategy") or "paragraph"
        params = dict(st.session_state.get("explore_params") or {})
    else:
        st.caption(tr(_T, "doc_default"))
        doc_text, strategy, params = DEFAULT_TEXT, "paragraph", {}
    st.caption(tr(_T, "config", strategy=escape_markdown(strategy),
                   params=escape_markdown(str(params or ""))))

    available = [b for b in list_backends() if b.available and b.name != "bm25"]
    if not available:
        st.warning(tr(_T, "no_backend"))
        return
    choices = [b.name for b in available]
    shared_backend = st.session_state.get("backend")
    default_backend = shared_backend if shared_backend in choices else "tfidf"
    labels_by_name = {b.name: f"{b.name} — {b.label}" for b in available}
    bc1, bc2 = st.columns([1, 2])
    backend_name = bc1.selectbox(
        tr(_T, "backend"),
        choices,
        # The sidebar's retrieval backend when it has vectors, else raw TF-IDF.
        index=choices.index(default_backend) if default_backend in choices else 0,
        format_func=labels_by_name.__getitem__,
        help=tr(_T, "backend_help"),
        key="sim_backend",
    )
    query_text = bc2.text_input(
        tr(_T, "query_text"),
        value=DEFAULT_QUERY_TEXT if not from_explore else "",
        key="sim_query_text",
    )

    try:
        result = chunk_cached(doc_text, strategy, tuple(sorted(params.items())))
        backend = load_backend(backend_name)
    except Exception as e:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(e)
        return

    if len(result.chunks) == 0:
        st.info(tr(_T, "empty_doc"))
        return
    if backend.normalized and not backend.raw_vectors:
        st.warning(tr(_T, "unit_only", name=backend_name))
    if not query_text.strip():
        st.info(tr(_T, "query_empty"))
        return

    texts = result.chunk_texts()
    lengths = [c.end - c.start for c in result.chunks]
    try:
        with st.spinner(backend_name):
            lesson = lesson_cached(
                backend,
                backend.name,
                backend.model,
                tuple(result.embed_texts()),
                tuple(lengths),
                query_text,
            )
    except Exception as e:  # noqa: BLE001 - chunkviz.ui.guard decides what is shown
        show_error(e)
        return

    m1, m2, m3 = st.columns(3)
    m1.metric(tr(_T, "n_chunks"), len(texts))
    m2.metric(
        tr(_T, "pearson"),
        f"{lesson.stats.pearson:.2f}" if lesson.stats.pearson is not None else tr(_T, "pearson_na"),
        help=tr(_T, "pearson_help"),
    )
    m3.metric(
        tr(_T, "moved"),
        ", ".join(f"#{i + 1}" for i in lesson.moved) if lesson.moved else tr(_T, "moved_none"),
    )

    g1, g2 = st.columns(2)
    g1.plotly_chart(
        norm_figure(
            lesson,
            texts,
            {
                "title": tr(_T, "norm_title"),
                "x": tr(_T, "norm_x"),
                "y": tr(_T, "norm_y"),
                "fit": tr(_T, "fit"),
                "chunks": tr(_T, "chunks"),
            },
        ),
        key="sim_norm_chart",
    )
    g2.plotly_chart(
        rank_figure(
            lesson,
            names,
            {"title": tr(_T, "rank_title"), "x": tr(_T, "rank_x"), "y": tr(_T, "rank_y")},
        ),
        key="sim_rank_chart",
    )
    st.plotly_chart(
        pca_figure(
            lesson,
            texts,
            {
                "title": tr(_T, "pca_title"),
                "chunks": tr(_T, "chunks"),
                "query": tr(_T, "query_point"),
            },
        ),
        key="sim_pca_chart",
    )
    st.caption(tr(_T, "table"))
    st.dataframe(
        pd.DataFrame(lesson_rows(texts, lesson)).rename(
            columns={
                **names,
                **{
                    c: tr(_T, f"col_{c}")
                    for c in ("chunk", "text", "chars", "norm", "spread", "moved")
                },
            }
        ),
        hide_index=True,
        key="sim_rank_table",
    )


_plane_section()
_real_section()
