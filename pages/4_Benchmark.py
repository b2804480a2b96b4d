"""Benchmark: the study's table with honest significance, drill-down, and recompute."""

import streamlit as st

from chunkviz.errors import ChunkvizError
from chunkviz.ui import benchmark_data as data
from chunkviz.ui import benchmark_drilldown as drilldown
from chunkviz.ui import benchmark_figures as figs
from chunkviz.ui import benchmark_recompute as recompute
from chunkviz.ui.i18n import current_lang, tr
from chunkviz.ui.sidebar import render_sidebar
from chunkviz.ui.state import init_session
from chunkviz.views import benchmark_tables as tables
from chunkviz.views import dashboard as db
from chunkviz.views.markup import escape_markdown

_T = {
    "en": {
        "title": "Benchmark",
        "intro": "Retrieval quality of each chunking configuration on a question set, as the "
                 "core benchmark computed and saved it. Nothing is computed when this page opens.",
        "runs": "Results files",
        "no_runs": "No results file found in {dirs}. Run one below (Recompute) or with "
                   "`python -m chunkviz bench`.",
        "skipped": "Not a readable results file, skipped: {path} ({why})",
        "run": "Run to show",
        "main": "Configurations",
        "main_caption": "Means over {n:,} questions with 95% bootstrap confidence intervals; the "
                        "best mean of each metric is in **bold**. Lost = questions whose answer no "
                        "chunk contains whole: no retriever can return it. Backend: {backend} "
                        "({model}).",
        "col_config": "Configuration",
        "col_chunks": "Chunks",
        "col_index": "Index size",
        "col_encode": "Encode time",
        "col_lost": "Lost before retrieval",
        "predicted": "formula:",
        "sig": "Which differences are real?",
        "sig_caption": "Paired test on the same questions ({test}), Holm correction over all "
                       "pairs of a metric, alpha = {alpha}. Cells: row minus column; ✓ survives "
                       "the correction, n.s. does not — which is not evidence of equality.",
        "sig_metric": "Metric",
        "row_minus_col": "row − column",
        "sentences": "In words",
        "plots": "Trade-offs",
        "chunks_axis": "Chunks in the index",
        "lost_title": "Questions lost before retrieval",
        "lost_axis": "Questions",
        "curves_title": "Metric vs k",
        "curve_measure": "Measure",
        "mode": "Compare at",
        "mode_equal_k": "equal k (k = {k})",
        "mode_budget": "equal context budget ({chars:,} characters)",
        "mode_title_k": "Recall when every configuration retrieves {k} chunks",
        "mode_title_budget": "Recall when each retrieves about {chars:,} characters",
        "mode_caption": "With equal k, large chunks hand the generator more text; with an equal "
                        "budget, small chunks may retrieve more of them (k per bar).",
        "backends": "Two retrievers side by side",
        "backends_none": "No other backend's run on the same questions ({dataset}, sample "
                         "{sample}, seed {seed}). Recompute with another backend to compare.",
        "backends_other": "Compare with",
        "backends_title": "{metric} under each retriever",
        "drill": "One question",
        "drill_pick": "Question",
        "drill_placeholder": "Pick a question id",
        "drill_rank": "Rank of its best chunk",
        "drill_lost": "lost (no chunk contains the answer)",
        "drill_no_dataset": "The dataset of this run cannot be loaded here ({why}); ranks come "
                            "from the results file alone.",
        "drill_question": "**Question:** {q}",
        "drill_answer": "**Answer:** {a} (characters {start}–{end} of document `{doc}`)",
        "drill_open": "Open in Explore",
        "drill_sample": "Explore opens this document as its built-in sample `{sample}`, under the "
                        "configuration of the row.",
        "drill_no_sample": "This document is not one of Explore's built-in samples: the link "
                           "opens the row's configuration on Explore's current document.",
        "col_rank": "Rank",
        "col_holding": "Chunk holding the answer (characters)",
        "col_top": "Top-ranked chunk (document, characters; ✓ holds the answer)",
        "drill_cut": "cut by {chunks}",
        "rc_title": "Recompute",
        "rc_backend": "Retrieval backend",
        "rc_unavailable": "{name} is not available: {reason}",
        "rc_strategies": "Strategies",
        "rc_sizes": "Sizes (characters)",
        "rc_overlaps": "Overlaps (% of size)",
        "rc_overlaps_help": "20 means an overlap of a fifth of the size (the study's 20%).",
        "rc_dataset": "Dataset",
        "rc_dataset_help": "jsquad, jsquad:PATH, squad:PATH or hf:NAME[:SPLIT].",
        "rc_sample": "Questions to sample (0 = all)",
        "rc_sample_help": "A seeded random sample of the dataset's questions.",
        "rc_seed": "Seed",
        "rc_grid": "{n} configurations: {labels}",
        "rc_run": "Run the benchmark",
        "rc_stay": "The run happens in this browser session and does not hold up other users; "
                   "changing a control on this page while it runs stops it (Streamlit reruns the "
                   "page). Embeddings are cached on disk, so a rerun of the same texts is quick.",
        "rc_starting": "Loading the dataset and the backend…",
        "rc_done": "Done: the new results file is selected above.",
        "col_file": "File",
        "col_folder": "Folder",
        "col_backend": "Backend",
        "col_model": "Model",
        "col_dataset": "Dataset",
        "col_sample": "Sample",
        "col_seed": "Seed",
        "col_questions": "Questions",
        "col_configs": "Configurations",
        "col_date": "Date",
        "all": "all",
    },
    "ja": {
        "title": "ベンチマーク",
        "intro": "質問セットに対する各チャンク構成の検索品質。コアのベンチマークが計算して保存した"
                 "結果を表示します。このページを開いても計算は行いません。",
        "runs": "結果ファイル",
        "no_runs": "{dirs} に結果ファイルがありません。下の「再計算」か "
                   "`python -m chunkviz bench` で作成してください。",
        "skipped": "読めない結果ファイルを飛ばしました：{path}（{why}）",
        "run": "表示する実行",
        "main": "構成",
        "main_caption": "{n:,} 問の平均と 95% ブートストラップ信頼区間。各指標の最良値は**太字**。"
                        "検索前に失われた質問＝答えを丸ごと含むチャンクがなく、どの検索器も返せない"
                        "質問。バックエンド：{backend}（{model}）。",
        "col_config": "構成",
        "col_chunks": "チャンク数",
        "col_index": "インデックスサイズ",
        "col_encode": "エンコード時間",
        "col_lost": "検索前に失われた質問",
        "predicted": "公式：",
        "sig": "どの差が本物か",
        "sig_caption": "同じ質問での対応のある検定（{test}）、各指標の全ペアに Holm 補正、"
                       "有意水準 {alpha}。セル：行 − 列。✓ は補正後も有意、n.s. は有意でない"
                       "（等しいという証拠ではない）。",
        "sig_metric": "指標",
        "row_minus_col": "行 − 列",
        "sentences": "文章で",
        "plots": "トレードオフ",
        "chunks_axis": "インデックス内のチャンク数",
        "lost_title": "検索前に失われた質問",
        "lost_axis": "質問数",
        "curves_title": "k ごとの指標",
        "curve_measure": "指標",
        "mode": "比較の条件",
        "mode_equal_k": "同じ k（k = {k}）",
        "mode_budget": "同じコンテキスト予算（{chars:,} 文字）",
        "mode_title_k": "全構成が {k} 個のチャンクを取得したときの Recall",
        "mode_title_budget": "各構成が約 {chars:,} 文字を取得したときの Recall",
        "mode_caption": "同じ k では大きいチャンクほど生成器に多くの文字を渡し、同じ予算では小さい"
                        "チャンクをより多く取得できます（棒ごとの k）。",
        "backends": "2 つの検索器を並べて",
        "backends_none": "同じ質問（{dataset}、サンプル {sample}、シード {seed}）で別の"
                         "バックエンドの実行がありません。別のバックエンドで再計算すると比較できます。",
        "backends_other": "比較相手",
        "backends_title": "検索器ごとの {metric}",
        "drill": "1 つの質問",
        "drill_pick": "質問",
        "drill_placeholder": "質問 ID を選択",
        "drill_rank": "最良チャンクの順位",
        "drill_lost": "失われた（答えを含むチャンクがない）",
        "drill_no_dataset": "この実行のデータセットをここでは読み込めません（{why}）。順位は結果"
                            "ファイルのみから表示しています。",
        "drill_question": "**質問：** {q}",
        "drill_answer": "**答え：** {a}（文書 `{doc}` の {start}–{end} 文字目）",
        "drill_open": "Explore で開く",
        "drill_sample": "Explore はこの文書を組み込みサンプル `{sample}` として、その行の構成で"
                        "開きます。",
        "drill_no_sample": "この文書は Explore の組み込みサンプルではありません。リンクはその行の"
                           "構成を Explore の現在の文書で開きます。",
        "col_rank": "順位",
        "col_holding": "答えを含むチャンク（文字位置）",
        "col_top": "1 位のチャンク（文書、文字位置。✓ は答えを含む）",
        "drill_cut": "{chunks} で分断",
        "rc_title": "再計算",
        "rc_backend": "検索バックエンド",
        "rc_unavailable": "{name} は利用できません：{reason}",
        "rc_strategies": "戦略",
        "rc_sizes": "サイズ（文字数）",
        "rc_overlaps": "オーバーラップ（サイズに対する %）",
        "rc_overlaps_help": "20 はサイズの 5 分の 1 のオーバーラップ（研究の 20%）。",
        "rc_dataset": "データセット",
        "rc_dataset_help": "jsquad、jsquad:PATH、squad:PATH または hf:NAME[:SPLIT]。",
        "rc_sample": "サンプルする質問数（0 = 全件）",
        "rc_sample_help": "データセットの質問からシード付きで無作為抽出します。",
        "rc_seed": "シード",
        "rc_grid": "{n} 個の構成：{labels}",
        "rc_run": "ベンチマークを実行",
        "rc_stay": "実行はこのブラウザーのセッション内で行われ、他のユーザーを待たせません。"
                   "実行中にこのページの操作を変えると実行は止まります（Streamlit がページを"
                   "再実行するため）。埋め込みはディスクにキャッシュされるので、同じテキストの"
                   "再実行は速く終わります。",
        "rc_starting": "データセットとバックエンドを読み込み中…",
        "rc_done": "完了：新しい結果ファイルを上で選択しました。",
        "col_file": "ファイル",
        "col_folder": "フォルダ",
        "col_backend": "バックエンド",
        "col_model": "モデル",
        "col_dataset": "データセット",
        "col_sample": "サンプル",
        "col_seed": "シード",
        "col_questions": "質問数",
        "col_configs": "構成数",
        "col_date": "日時",
        "all": "全件",
    },
}


def t(key: str) -> str:
    return tr(_T, key)


def fmt(key: str, **kwargs: object) -> str:
    return tr(_T, key, **kwargs)


st.set_page_config(page_title="chunkviz · Benchmark", page_icon="📊", layout="wide")
init_session()
render_sidebar()
lang = current_lang()

st.title(t("title"))
st.write(t("intro"))

found = data.discover()
st.subheader(t("runs"))
for path, why in found.skipped:
    st.warning(fmt("skipped", path=str(path), why=why))
runs = list(found.runs)
if not runs:
    dirs = ", ".join(f"`{d}`" for d in data.results_dirs_now())
    st.info(fmt("no_runs", dirs=dirs))
else:
    st.dataframe(tables.runs_records(runs, t), hide_index=True, width="stretch")
    by_path = {str(r.path): r for r in runs}
    new_run = st.session_state.pop(recompute.NEW_RUN_KEY, None)
    if new_run in by_path:
        st.session_state["bench_run"] = new_run
    if st.session_state.get("bench_run") not in by_path:
        st.session_state["bench_run"] = str(runs[0].path)
    run_path = st.selectbox(
        t("run"),
        options=list(by_path),
        key="bench_run",
        format_func=lambda p: (f"{by_path[p].run_id} — {by_path[p].backend} "
                               f"({by_path[p].model}), {by_path[p].dataset}, "
                               f"{by_path[p].questions} q, {by_path[p].created}"),
    )
    run = by_path[run_path]
    results = data.load_path(run.path)

    # --- main table ---
    st.subheader(t("main"))
    rows = db.main_table(results)
    st.markdown(tables.main_table_markdown(rows, t))
    st.caption(fmt("main_caption", n=run.questions, backend=run.backend, model=run.model))

    # --- significance ---
    st.subheader(t("sig"))
    st.caption(fmt("sig_caption", test=results.stats.test, alpha=results.stats.alpha))
    sig_metrics = db.pairwise_metrics(results)
    if sig_metrics:
        metric = st.selectbox(t("sig_metric"), sig_metrics, key="bench_sig_metric",
                              format_func=db.metric_label)
        st.markdown(tables.matrix_markdown(db.significance_matrix(results, metric), t))
        st.markdown(f"**{t('sentences')}**")
        st.markdown("\n".join(f"- {escape_markdown(s)}"
                              for s in db.sentences(results, metric, lang)))

    # --- plots ---
    st.subheader(t("plots"))
    left, right = st.columns(2)
    left.plotly_chart(figs.quality_scatter(rows, "recall@5", t("chunks_axis")),
                      key="bench_fig_recall")
    right.plotly_chart(figs.quality_scatter(rows, "ndcg@10", t("chunks_axis")),
                       key="bench_fig_ndcg")
    left, right = st.columns(2)
    left.plotly_chart(figs.lost_bar(rows, t("lost_title"), t("lost_axis")), key="bench_fig_lost")
    with right:
        measure = st.radio(t("curve_measure"), db.CURVE_METRICS, key="bench_curve_measure",
                           format_func=db.metric_label, horizontal=True)
        st.plotly_chart(figs.curves_figure(db.curves(results, measure), results.ks, measure,
                                           t("curves_title")), key="bench_fig_curves")
    chars = results.budget.chars
    labels_mode = {"equal_k": fmt("mode_equal_k", k=5),
                   "budget": fmt("mode_budget", chars=chars)}
    mode = st.radio(t("mode"), list(labels_mode), key="bench_mode",
                    format_func=labels_mode.__getitem__, horizontal=True)
    title = (fmt("mode_title_k", k=5) if mode == "equal_k"
             else fmt("mode_title_budget", chars=chars))
    st.plotly_chart(figs.mode_bar(db.mode_rows(results, mode), title, "Recall"),
                    key="bench_fig_mode")
    st.caption(t("mode_caption"))

    # --- two backends ---
    st.subheader(t("backends"))
    partners = db.backend_partners(runs, run)
    if not partners:
        st.info(fmt("backends_none", dataset=run.dataset, sample=run.sample, seed=run.seed))
    else:
        partner_paths = {str(p.path): p for p in partners}
        other_path = st.selectbox(
            t("backends_other"), list(partner_paths), key="bench_partner",
            format_func=lambda p: f"{partner_paths[p].backend} — {partner_paths[p].run_id}",
        )
        other = data.load_path(partner_paths[other_path].path)
        for col, metric in zip(st.columns(2), ("recall@5", "ndcg@10"), strict=True):
            try:
                cmp = db.compare_backends(results, other, metric)
            except ChunkvizError as e:
                col.error(str(e))
                continue
            col.plotly_chart(
                figs.backends_bar(cmp, fmt("backends_title", metric=db.metric_label(metric))),
                key=f"bench_fig_backends_{metric}",
            )
            col.markdown(escape_markdown(db.backend_sentence(cmp, lang)))

    # --- drill-down ---
    st.subheader(t("drill"))
    qid = st.selectbox(t("drill_pick"), results.question_ids, index=None, key="bench_qid",
                       placeholder=t("drill_placeholder"))
    if qid is not None:
        drilldown.render(results, qid, t, fmt)

recompute.render(t, fmt, expanded=not runs)
