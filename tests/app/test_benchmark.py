"""AppTest of the Benchmark page against hand-written results files (tests/fixtures)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from chunkviz.views.results_dirs import RECOMPUTE_DIR_ENV, RESULTS_DIRS_ENV
from tests.app.helpers import bench_tab
from tests.app.helpers import metric as tile

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "4_Benchmark.py")
FIXTURES = ROOT / "tests" / "fixtures"
FIXTURE = FIXTURES / "results_small.json"
SMALL = json.loads(FIXTURE.read_text(encoding="utf-8"))
METRICS = ("recall@5", "ndcg@10", "mrr@10")


@pytest.fixture
def page(monkeypatch, tmp_path) -> AppTest:
    """The page reading the fixtures, writing recomputed runs into ``tmp_path``."""
    monkeypatch.setenv(RESULTS_DIRS_ENV, str(FIXTURES))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path))
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.run()
    assert not at.exception
    return at


def _markdown_starting(at: AppTest, prefix: str) -> str:
    found = [m.value for m in at.markdown if m.value.startswith(prefix)]
    assert found, f"no markdown starting with {prefix!r}"
    return found[0]


def _bullets(at: AppTest) -> list[str]:
    """Every bullet line of the page's Markdown (the "In words" list and its folded part)."""
    return [line for m in at.markdown if m.value.startswith("- ") for line in m.value.splitlines()]


def _plain(cell: str) -> str:
    """A metric cell without its marks (bold for a clear best, ▲ for the tied top group)."""
    return cell.replace("**", "").replace(" ▲", "").replace("\u00a0", " ")


def _table(md: str) -> list[list[str]]:
    lines = md.splitlines()
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in lines[2:]]


# The verdict's sentences begin with the backend in words (escaped Markdown, as shown).
BM25 = "BM25, character bigrams (no weights)"
USE_M3 = "Universal Sentence Encoder multilingual v3 (bundled, offline)"


def _plotly_spec(at: AppTest, index: int) -> dict:
    return json.loads(at.get("plotly_chart")[index].proto.spec)


def test_run_list_shows_every_results_file(page):
    frame = page.dataframe[0].value
    assert list(frame["File"]) == ["results_small.json", "results_small_dense.json"]
    assert list(frame["Backend"]) == ["bm25", "use-m3"]
    assert list(frame["Model"]) == [
        "bm25s char-2gram",
        "Universal Sentence Encoder multilingual v3",
    ]
    assert list(frame["Dataset"]) == ["jsquad-tiny", "jsquad-tiny"]
    assert list(frame["Date"]) == ["2026-11-29T12:00:00Z", "2026-11-29T12:30:00Z"]
    assert list(frame["Questions"]) == [15, 15]
    # A JSON file that is not a results file would be listed as skipped, not crash the page.
    assert not page.warning


def test_main_table_numbers_equal_the_file(page):
    rows = _table(_markdown_starting(page, "| Configuration"))
    assert [r[0] for r in rows] == [c["label"] for c in SMALL["configs"]]
    n = len(SMALL["question_ids"])
    for row, config in zip(rows, SMALL["configs"], strict=True):
        for col, metric in enumerate(METRICS, start=1):
            m = SMALL["metrics"][config["label"]][metric]
            assert _plain(row[col]) == (f"{m['mean']:.3f} [{m['ci_low']:.3f}, {m['ci_high']:.3f}]")
        assert row[4] == f"{config['chunks']:,}"
        assert row[6] == f"{config['encode_seconds']:.2f} s"
        assert row[7].startswith(f"{config['broken']} / {n}")


def test_no_bold_without_a_clear_winner_and_the_tied_group_is_marked(page):
    # paragraph has the best means but beats only fixed-100-0 significantly: no clear best, and
    # the tied group at the top is paragraph with every configuration it cannot be told from.
    rows = _table(_markdown_starting(page, "| Configuration"))
    for col, _metric in enumerate(METRICS, start=1):
        assert not [r for r in rows if r[col].startswith("**")]
        assert {r[0] for r in rows if "▲" in r[col]} == {c["label"] for c in SMALL["configs"]} - {
            "fixed-100-0"
        }


def test_the_verdict_comes_first(page):
    from chunkviz.eval.results import load_results
    from chunkviz.eval.verdict import choose

    results = load_results(FIXTURE)
    at_budget = choose(results, "recall@5", "budget", 0.01)
    at_k = choose(results, "recall@5", "equal_k", 0.01)
    chars = SMALL["budget"]["chars"]
    # The tile and the one-line verdict at the budget, before any number.
    assert tile(page, f"Recommended at {chars:,} characters") == at_budget.pick
    first = page.markdown[1].value  # right after the intro
    assert first.startswith(f"**Recommended at {chars:,} characters of context\\: {at_budget.pick}")
    budget_line = page.markdown[2].value
    assert budget_line.startswith(
        f"**{BM25}** — Recall@budget at Equal context budget\\: {chars:,} characters each"
    )
    # Equal k is the second view; its best is the rule's, never the one sending more context.
    assert page.markdown[3].value.startswith(f"**{BM25}** — Recall@5 at Equal k\\: 5 chunks each")
    assert f"the best is {at_k.best}" in page.markdown[3].value
    assert any(m.value.startswith(f"**{USE_M3}** — Recall@5") for m in page.markdown)


def test_the_first_screen_prices_context_never_chunk_counts_and_leads_with_the_chart(page):
    chart = _plotly_spec(page, 0)  # the first figure of the page
    # Its title is text above it (plotly does not wrap one: cut on a phone), its axis named once.
    assert any(
        c.value.startswith("**Difference from the best, by the context each configuration sends**")
        for c in page.caption
    )
    notes = [a["text"] for a in chart["layout"]["annotations"]]
    assert notes == [
        f"budget {SMALL['budget']['chars']:,} chars",
        "k = 5",
        "characters sent to the generator",
    ]
    assert "xaxis2" in chart["layout"]  # equal k beside equal budget
    names = {t["name"] for t in chart["data"]}
    assert "best" in names
    first_screen = " ".join(m.value for m in page.markdown[1:6])
    assert "characters" in first_screen
    assert "sending" in first_screen
    assert "fewest chunks" not in first_screen
    assert "cheapest" not in first_screen
    caption = " ".join(c.value for c in page.caption)
    assert "never its number of chunks" in caption
    # The budget is a setting: another budget recomputes the tests at it.
    page.number_input(key="bench_budget").set_value(500).run()
    assert not page.exception
    assert page.markdown[2].value.startswith(
        f"**{BM25}** — Recall@budget at Equal context budget\\: 500 characters each"
    )
    assert page.markdown[1].value.startswith("**Recommended at 500 characters of context")


@pytest.mark.parametrize("metric", METRICS)
def test_a_pair_the_file_marks_significant_reads_significant(page, metric):
    page.selectbox(key="bench_sig_metric").set_value(metric).run()
    assert not page.exception
    sentences = _bullets(page)
    for p in (p for p in SMALL["pairwise"] if p["metric"] == metric):
        # The better configuration is named first; labels contain no Markdown specials.
        first, second = (p["a"], p["b"]) if p["diff"] >= 0 else (p["b"], p["a"])
        line = next(s for s in sentences if s.startswith(f"- {first} vs {second}"))
        if p["significant"]:
            assert "survives correction" in line
        else:  # the page tests equivalence within the default ±0.01 from the file's ranks
            assert (
                "inconclusive — no detectable difference" in line
                or "equivalent within ±0.01" in line
                or "saturated — these questions cannot separate them" in line
            )
    matrix = _table(_markdown_starting(page, "| row − column"))
    labels = [r[0] for r in matrix]
    for p in (p for p in SMALL["pairwise"] if p["metric"] == metric):
        cell = matrix[labels.index(p["a"])][1 + labels.index(p["b"])]
        assert ("✓" in cell) == p["significant"]
        assert f"{p['diff']:+.3f}" in cell


def test_sentences_and_labels_switch_to_japanese(page):
    from tests.app.helpers import set_lang

    set_lang(page, "ja")
    assert not page.exception
    assert page.title[0].value == "ベンチマーク"
    sentences = "\n".join(_bullets(page))
    assert "後も有意" in sentences
    assert "判定できない" in sentences
    assert _markdown_starting(page, "| 構成")


def test_equal_k_and_equal_budget_toggle(page):
    bench_tab(page, "plots")
    titles = [
        _plotly_spec(page, i)["layout"].get("title", {}).get("text", "")
        for i in range(len(page.get("plotly_chart")))
    ]
    index = next(i for i, t in enumerate(titles) if t.startswith("Recall when"))
    equal_k = _plotly_spec(page, index)["data"][0]
    assert equal_k["text"][0].startswith("k=5")
    page.radio(key="bench_mode").set_value("budget").run()
    budget = _plotly_spec(page, index)["data"][0]
    ks = SMALL["budget"]["k"]
    assert [t.split(" ")[0] for t in budget["text"]] == [f"k={ks[c]}" for c in budget["x"]]
    expected = [SMALL["budget"]["metrics"][c]["recall@budget"]["mean"] for c in budget["x"]]
    assert budget["y"] == pytest.approx(expected, abs=5e-4)


def test_scatter_points_are_named_with_ci_bars_and_readable_ticks(page):
    bench_tab(page, "plots")
    spec = _plotly_spec(page, 1)  # after the verdict's chart
    traces = spec["data"]
    assert [t["name"] for t in traces] == [c["label"] for c in SMALL["configs"]]
    assert [t["x"][0] for t in traces] == [c["chunks"] for c in SMALL["configs"]]
    highs = [SMALL["metrics"][t["name"]]["recall@5"]["ci_high"] for t in traces]
    assert [t["y"][0] + t["error_y"]["array"][0] for t in traces] == pytest.approx(highs)
    axis = spec["layout"]["xaxis"]
    assert axis["ticktext"] == [f"{v:,}" for v in axis["tickvals"]]
    assert len(axis["tickvals"]) >= 2
    assert all(set(str(v)[1:]) <= {"0"} for v in axis["tickvals"])  # 100, 200, 500: no minor digits


def test_two_backends_side_by_side(page):
    bench_tab(page, "backends")
    text = " ".join(m.value for m in page.markdown)
    assert "nDCG@10\\: the best configuration changes with the retriever" in text
    assert "Recall@5\\: the best configuration does not change" in text


def test_drill_down_shows_the_answer_and_ranks(page):
    bench_tab(page, "question")
    qid = SMALL["question_ids"][8]
    page.selectbox(key="bench_qid").set_value(qid).run()
    assert not page.exception
    text = "\n".join(m.value for m in page.markdown)
    assert "14人" in text  # the answer of a10743p1q0, cut from the document by its offsets
    rows = {r[0]: r for r in _table(_markdown_starting(page, "| Configuration | Rank"))}
    assert {label: r[1] for label, r in rows.items()} == {
        "fixed-100-0": "lost (no chunk contains the answer)",
        "fixed-200-40": "1",
        "paragraph": "3",
    }
    # Lost under fixed-100-0: the chunks at 0–100 and 100–200 of the document cut the answer.
    assert rows["fixed-100-0"][2] == ":red[cut by 0–100, 100–200]"
    assert rows["fixed-200-40"][3].endswith("✓")  # rank 1: the top chunk holds the answer
    assert rows["paragraph"][3].endswith("✗")
    # The tiny fixture's document is not one of Explore's samples: the link opens the configuration.
    assert "(./Explore?strategy=fixed&size=200&overlap=40)" in rows["fixed-200-40"][4]
    assert any("not one of Explore's built-in samples" in c.value for c in page.caption)


def test_no_results_file_opens_recompute(monkeypatch, tmp_path):
    monkeypatch.setenv(RESULTS_DIRS_ENV, str(tmp_path / "empty"))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path / "new"))
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception
    assert "No results file found" in at.info[0].value
    assert at.expander[0].proto.expanded


def test_a_bad_grid_shows_the_named_error(page):
    page.text_input(key="bench_rc_sizes").set_value("100, abc").run()
    assert not page.exception
    assert any("sizes must be whole numbers" in e.value for e in page.error)


def test_shipped_results_load_without_running_the_benchmark(monkeypatch, tmp_path):
    from chunkviz.eval import runner as benchmark
    from chunkviz.eval.results import load_results
    from chunkviz.retrieval import backends as embeddings
    from chunkviz.ui import resources

    def refuse(*args, **kwargs):
        raise AssertionError("the page computed something at load")

    monkeypatch.setattr(benchmark, "run_benchmark", refuse)
    monkeypatch.setattr(embeddings, "get_backend", refuse)
    monkeypatch.setattr(embeddings, "resolve_backend", refuse)
    monkeypatch.setattr(resources, "resolve_backend", refuse)  # the app's one path to a backend
    monkeypatch.delenv(RESULTS_DIRS_ENV, raising=False)
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path))
    shipped = sorted(benchmark.shipped_results_dir().glob("*.json"))
    assert shipped, "results/ holds the shipped runs"
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception
    assert list(at.dataframe[0].value["File"]) == [p.name for p in shipped]
    first = load_results(shipped[0])
    rows = _table(_markdown_starting(at, "| Configuration"))
    assert [r[0] for r in rows] == list(first.labels)


def test_recompute_a_tiny_grid_writes_and_shows_a_new_file(page, tmp_path, monkeypatch):
    from chunkviz.retrieval import backends as embeddings
    from chunkviz.ui import resources

    # The run resolves its backend once, through the app's cache layer, never by name again.
    resolved = []

    def once(name):
        resolved.append(name)
        return embeddings.resolve_backend(name)

    def refuse(*args, **kwargs):
        raise AssertionError("Recompute went around the cache layer")

    monkeypatch.setattr(resources, "resolve_backend", once)
    monkeypatch.setattr(embeddings, "get_backend", refuse)
    # The run uses the app's one backend (the sidebar's), bm25 by default.
    assert any("Retrieval backend: BM25, character bigrams" in c.value for c in page.caption)
    page.multiselect(key="bench_rc_strategies").set_value(["fixed"])
    page.text_input(key="bench_rc_sizes").set_value("200")
    page.text_input(key="bench_rc_overlaps").set_value("0, 20")
    page.text_input(key="bench_rc_dataset").set_value("jsquad")
    page.number_input(key="bench_rc_sample").set_value(20)
    page.number_input(key="bench_rc_seed").set_value(3)
    page.run()
    assert not page.exception
    assert any("2 configurations: fixed-200-0, fixed-200-40" in c.value for c in page.caption)
    resolved.clear()
    page.button(key="bench_rc_run").click().run()
    assert not page.exception
    assert not page.error
    assert resolved.count("bm25") == 1  # the run's one resolution
    written = sorted(tmp_path.glob("*.json"))
    assert len(written) == 1
    assert written[0].name.startswith("jsquad-bm25-n20-s3-")
    data = json.loads(written[0].read_text(encoding="utf-8"))
    assert len(data["question_ids"]) == 20
    assert [c["label"] for c in data["configs"]] == ["fixed-200-0", "fixed-200-40"]
    # The new file is listed and selected, and the page shows its numbers.
    assert written[0].name in list(page.dataframe[0].value["File"])
    assert page.selectbox(key="bench_run").value == str(written[0])
    rows = _table(_markdown_starting(page, "| Configuration"))
    for row in rows:
        m = data["metrics"][row[0]]["recall@5"]
        assert _plain(row[1]) == f"{m['mean']:.3f} [{m['ci_low']:.3f}, {m['ci_high']:.3f}]"


def test_run_and_save_feeds_the_progress_callback(monkeypatch, tmp_path):
    from chunkviz.ui.benchmark.recompute import run_and_save

    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path))
    from chunkviz.eval.engine import run_fraction

    calls: list[tuple[str, int, int]] = []
    spec = f"jsquad:{FIXTURES / 'data' / 'jsquad_tiny.json'}"
    path = run_and_save(
        spec,
        0,
        0,
        ["fixed", "paragraph"],
        "100",
        "0",
        "bm25",
        lambda stage, done, total, message: calls.append((stage, done, total)),
    )
    assert Path(path).parent == tmp_path
    assert json.loads(Path(path).read_text(encoding="utf-8"))["dataset"]["spec"] == spec
    assert calls
    fractions = [run_fraction(*c) for c in calls]
    assert fractions == sorted(fractions)
    assert calls[-1][1] == calls[-1][2]


def test_a_file_without_alternative_definitions_says_so(page):
    bench_tab(page, "robustness")
    assert any("written without the alternative definitions" in i.value for i in page.info)
    # No run of bm25 on another question set among the fixtures.
    assert any("with the same grid on another question set" in i.value for i in page.info)


def test_the_drill_down_lists_questions_by_their_text(page):
    bench_tab(page, "question")
    from chunkviz.datasets import load_dataset

    spec = SMALL["dataset"]["spec"]
    texts = {q.qid: q.question for q in load_dataset(spec).questions}
    options = page.selectbox(key="bench_qid").options
    qid = SMALL["question_ids"][8]
    assert options[8] == f"{texts[qid]} ({qid})"


def test_the_user_sets_the_equivalence_margin(page):
    from chunkviz.eval.results import load_results
    from chunkviz.eval.verdict import choose

    page.number_input(key="bench_margin_recall@5").set_value(0.5).run()
    assert not page.exception
    best = choose(load_results(FIXTURE), "recall@5", "equal_k", 0.5).best
    at_k = next(
        m.value for m in page.markdown if m.value.startswith(f"**{BM25}** — Recall@5 at Equal k")
    )
    assert f"the best is {best}" in at_k
    # Fifteen questions, four of them missed by anything: the pairs the tests cannot separate
    # are saturated, and a wider margin does not make them equivalent.
    lines = _bullets(page)
    assert any("saturated — these questions cannot separate them" in line for line in lines)
    assert not any("equivalent within ±0.5" in line for line in lines)


def test_a_damaged_results_file_is_listed_as_unreadable_and_the_others_still_show(
    monkeypatch, tmp_path
):
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "results_small.json").write_bytes((FIXTURES / "results_small.json").read_bytes())
    damaged = json.loads((FIXTURES / "results_small_dense.json").read_text(encoding="utf-8"))
    damaged["dataset"] = "jsquad"  # one of the hand damages that used to blank the page
    (runs / "damaged.json").write_text(json.dumps(damaged), encoding="utf-8")
    short = json.loads((FIXTURES / "results_small_dense.json").read_text(encoding="utf-8"))
    short["ranks"]["paragraph"] = short["ranks"]["paragraph"][:3]
    (runs / "short.json").write_text(json.dumps(short), encoding="utf-8")
    monkeypatch.setenv(RESULTS_DIRS_ENV, str(runs))
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path / "new"))
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert any("damaged.json" in w and "dataset must be an object" in w for w in warnings)
    # The list reads each file's listed fields only (issue 39): short.json is listed, and read
    # whole, with every rule checked, when it is the run to show.
    assert not any("short.json" in w for w in warnings)
    assert list(at.dataframe[0].value["File"]) == ["results_small.json", "short.json"]
    at.selectbox(key="bench_run").set_value(str(runs / "short.json")).run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert any(
        "short.json" in w and "ranks.paragraph has 3 ranks for 15 questions" in w for w in warnings
    )
    assert at.selectbox(key="bench_run").value == str(runs / "results_small.json")
    assert list(at.dataframe[0].value["File"]) == ["results_small.json"]
    rows = _table(_markdown_starting(at, "| Configuration"))
    assert [r[0] for r in rows] == [c["label"] for c in SMALL["configs"]]


def test_document_weighted_means_stand_beside_question_weighted_ones(page):
    frame = next(d.value for d in page.dataframe if "per document" in d.value.columns)
    assert list(frame["configuration"]) == [c["label"] for c in SMALL["configs"]]
    first = SMALL["metrics"][SMALL["configs"][0]["label"]]["recall@5"]
    assert frame["per question"][0].startswith(f"{first['mean']:.3f}")
    assert any("Document-weighted: every document counts once" in c.value for c in page.caption)


@pytest.mark.parametrize(
    ("content", "english", "japanese"),
    [
        (
            '{"schema": "chunkviz.benchmark", "schema_version": 3, "configs": 7}',
            "see docs/results-schema.md",
            "結果ファイルの中身が規則に合いません",
        ),
        (
            '{"schema": "other"}',
            "not a chunkviz benchmark results file",
            "chunkviz のベンチマーク結果ファイルではありません",
        ),
        (
            '{"schema": "chunkviz.benchmark", "schema_version": 99}',
            "this chunkviz reads versions",
            "この chunkviz が読めるのはバージョン",
        ),
    ],
)
def test_a_skipped_file_is_told_in_the_readers_language(
    monkeypatch, tmp_path, content, english, japanese
):
    from chunkviz.ui.state import STATE_KEY, AppState

    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "broken.json").write_text(content, encoding="utf-8")
    monkeypatch.setenv(RESULTS_DIRS_ENV, f"{FIXTURES}{os.pathsep}{folder}")
    monkeypatch.setenv(RECOMPUTE_DIR_ENV, str(tmp_path))
    for lang, expected, other in (("en", english, japanese), ("ja", japanese, english)):
        at = AppTest.from_file(PAGE, default_timeout=120)
        at.session_state[STATE_KEY] = AppState(lang=lang)
        at.run()
        assert not at.exception
        (notice,) = [w.value for w in at.warning if "broken.json" in w.value]
        assert expected in notice
        assert other not in notice
