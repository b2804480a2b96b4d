"""The Tune page: a run on a built-in sample names what ``tune()`` names, and says synthetic."""

from __future__ import annotations

from chunkviz.eval.synthetic import DEFAULT_FORM
from chunkviz.eval.tune import document_from_file, tune
from chunkviz.samples import load_sample
from chunkviz.ui.tune import view as tune_view
from chunkviz.ui.tune.view import grid_configs
from tests.app.helpers import app_state, metric, page

GRID = ["fixed-200-0", "fixed-400-80", "paragraph"]
REC = "Recommended at 2,000 characters"


def _run(at, source: str = "synthetic", n: int = 30):  # type: ignore[no-untyped-def]
    at.radio(key="tune_source_en").set_value(source).run()
    if source != "own":
        at.number_input(key="tune_count").set_value(n).run()
    at.multiselect(key="tune_grid").set_value(GRID).run()
    return at.button(key="tune_run").click().run()


def test_the_recommendation_shown_is_tunes_and_synthetic_figures_say_so():
    at = page("6_Tune.py", timeout=300, sample="tech_en", backend="bm25")
    assert not at.exception
    at = _run(at)
    assert not at.exception
    expected = tune(
        load_sample("tech_en"),
        synthetic=30,
        form=DEFAULT_FORM,
        configs=grid_configs(GRID),
        backend="bm25",
        seed=0,
    )
    assert metric(at, REC) == expected.pick
    rec = expected.recommendation
    if rec.best != rec.pick:
        assert metric(at, "Best quality at 2,000 characters") == rec.best
    else:
        assert len(at.metric) == 1  # one tile when the pick is the best
    # The answer comes first: the tile and the verdict line before the chart and the tables.
    assert any(
        f"Recommended at 2,000 characters of context\\: {expected.pick}" in str(m.value)
        for m in at.markdown
    )
    shown = " ".join(str(s.value) for s in at.success)
    # A saturated decision names the best and says the questions cannot separate them.
    assert "Recommended\\: " in shown or expected.recommendation.saturated
    assert "characters" in shown
    assert "fewest chunks" not in shown
    warnings = " ".join(str(w.value) for w in at.warning)
    assert f"Synthetic questions\\: 30 {DEFAULT_FORM} questions (seed 0)" in warnings  # escaped
    assert "favour lexical retrieval" in warnings
    assert "checked on held-out real questions of JSQuAD and JaQuAD" in warnings
    assert "Spearman" not in warnings
    # The pick's stability is shown, and what drove the pick.
    captions = " ".join(str(c.value) for c in at.caption)
    assert expected.stability is not None
    assert f"of {expected.stability.resamples} resamples of the questions" in captions + warnings
    assert "Your document" in captions + warnings
    assert "Held out (bench/verdict\\_holdout.py)" in captions + warnings
    assert len(at.get("plotly_chart")) == 3  # the verdict's chart and the two fronts
    # "key phrases cut 0/705" explains itself: what a key phrase is and how it is counted.
    import json

    columns = json.loads(at.dataframe[-1].proto.columns)
    cut = columns["key phrases cut"]
    assert "no chunk of the configuration holds it whole" in cut["help"]
    assert f"({expected.probes:,} here)" in cut["help"]
    # A rerun keeps the result without running again.
    at.run()
    assert metric(at, REC) == expected.pick


def test_no_questions_counts_the_key_phrases_each_configuration_cuts():
    at = page("6_Tune.py", timeout=300, sample="tech_en", backend="bm25")
    at.radio(key="tune_source_en").set_value("synthetic").run()
    at.number_input(key="tune_count").set_value(0).run()
    at.multiselect(key="tune_grid").set_value(GRID).run()
    assert not at.exception
    lines = [str(m.value) for m in at.markdown if "key phrases in your document" in str(m.value)]
    assert len(lines) == len(GRID)
    assert any("fixed-200-0" in line for line in lines)


def test_a_point_opens_in_explore_with_its_configuration(monkeypatch):
    # A page run alone has no navigation to switch in: record the switch (the browser test
    # follows the real one).
    switched: list[str] = []
    monkeypatch.setattr(tune_view.st, "switch_page", switched.append)
    at = _run(page("6_Tune.py", timeout=300, sample="tech_en", backend="bm25"))
    at.selectbox(key="tune_open_pick").set_value("fixed-400-80").run()
    at.button(key="tune_open").click().run()
    assert not at.exception
    state = app_state(at)
    assert switched == ["pages/1_Explore.py"]
    assert state.strategy == "fixed"
    assert state.params_of("fixed")["size"] == 400
    assert state.params_of("fixed")["overlap"] == 80


def test_the_cli_on_a_user_file_prints_the_pages_recommendation(tmp_path, capsys):
    from chunkviz.cli import main
    from chunkviz.views.markup import escape_markdown

    text = load_sample("tech_en").text
    doc_path = tmp_path / "guide.md"
    doc_path.write_text(text, encoding="utf-8")
    assert main(["tune", str(doc_path), "--synthetic", "30", "--quiet"]) == 0
    out = capsys.readouterr().out
    label = next(
        line for line in out.splitlines() if line.startswith("Recommended at 2,000 characters: ")
    )
    reason = next(line for line in out.splitlines() if line.startswith("Why: "))

    # The same file as the upload picker leaves it in the app state.
    at = page(
        "6_Tune.py",
        timeout=300,
        source="upload",
        document=document_from_file(doc_path),
        backend="bm25",
    )
    at.radio(key="tune_source_en").set_value("synthetic").run()
    at.number_input(key="tune_count").set_value(30).run()
    at = at.button(key="tune_run").click().run()  # the default grid, as the CLI runs it
    assert not at.exception
    assert f"{REC}: {metric(at, REC)}" == label
    assert escape_markdown(reason.removeprefix("Why: ")) in at.success[0].value


def test_a_japanese_run_labels_its_synthetic_figures_in_japanese():
    # Pasted text has no pairs, so the questions start as synthetic (AppTest cannot set a
    # radio whose labels the page translates).
    at = page(
        "6_Tune.py",
        timeout=300,
        source="paste",
        pasted=load_sample("tech_en").text,
        backend="bm25",
        lang="ja",
    )
    at.number_input(key="tune_count").set_value(30).run()
    at.multiselect(key="tune_grid").set_value(GRID).run()
    at = at.button(key="tune_run").click().run()
    assert not at.exception
    warnings = " ".join(str(w.value) for w in at.warning)
    assert "合成質問" in warnings
    assert "BM25" in warnings
    assert "ホールドアウト" in warnings
    assert metric(at, "2,000 文字での推奨")


def test_the_margin_moves_the_recommendation_as_recommend_does_and_names_the_rule():
    from chunkviz.eval.tune import with_margin
    from chunkviz.views.markup import escape_markdown
    from chunkviz.views.tune_report import reason_text

    at = _run(page("6_Tune.py", timeout=300, sample="tech_en", backend="bm25"))
    expected = tune(
        load_sample("tech_en"),
        synthetic=30,
        form=DEFAULT_FORM,
        configs=grid_configs(GRID),
        backend="bm25",
        seed=0,
    )
    assert expected.recommendation.delta == 0.01
    rule = _rule(expected.recommendation)
    assert any(c.value.startswith(escape_markdown(rule)) for c in at.caption)
    # The validation names the backend by its name (it once showed the record's repr).
    assert "backend bm25." in " ".join(str(w.value) for w in at.warning)
    wide = with_margin(expected, 0.3)
    assert wide.recommendation.delta == 0.3
    at.number_input(key="tune_margin").set_value(0.3).run()
    assert not at.exception
    assert metric(at, REC) == wide.pick
    assert escape_markdown(reason_text("en", wide)) in at.success[0].value
    assert any(c.value.startswith(escape_markdown(_rule(wide.recommendation))) for c in at.caption)


def _rule(rec) -> str:  # type: ignore[no-untyped-def]
    """The start of the rule caption the page shows for a decision."""
    if rec.saturated:
        return "Rule: these questions cannot separate"
    if rec.rule == "equivalent":
        return (
            f"Rule: the smallest index among the configurations shown equivalent to the best "
            f"within ±{rec.delta:g}"
        )
    return (
        f"Rule: the best itself; nothing with a smaller index is shown equivalent within "
        f"±{rec.delta:g}"
    )


def test_the_same_file_uploaded_twice_gives_the_clis_recommendation_both_times(tmp_path, capsys):
    """The document's id comes from its text, never from Streamlit's random upload id.

    The id seeds the synthetic questions: an upload id there made one file give different
    recommendations on every upload, and another on the command line.
    """
    from chunkviz.cli import main
    from chunkviz.document import content_id

    text = load_sample("tech_en").text
    data = text.encode("utf-8")
    doc_path = tmp_path / "guide.md"
    doc_path.write_bytes(data)
    assert main(["tune", str(doc_path), "--synthetic", "30", "--quiet"]) == 0
    label = next(
        line for line in capsys.readouterr().out.splitlines() if line.startswith(f"{REC}: ")
    )

    for _ in range(2):  # two sessions, two uploads of the same bytes: two upload ids
        at = page("6_Tune.py", timeout=300, backend="bm25")
        at.radio(key="tune_doc_source_en").set_value("upload").run()
        at.file_uploader(key="tune_doc_upload").upload("guide.md", data, "text/markdown").run()
        assert not at.exception
        document = app_state(at).document
        assert document.doc_id == content_id(text)
        assert document.title == "guide.md"
        at.radio(key="tune_source_en").set_value("synthetic").run()
        at.number_input(key="tune_count").set_value(30).run()
        at = at.button(key="tune_run").click().run()  # the default grid, as the CLI runs it
        assert not at.exception
        assert f"{REC}: {metric(at, REC)}" == label


def test_snapped_twins_are_offered_but_not_selected():
    # issue 38: the grid offers fixed/recursive snapped to phrases; the default run is unchanged.
    from chunkviz.eval.grid import snapped, tune_grid

    at = page("6_Tune.py", timeout=300, sample="tech_en", backend="bm25")
    assert not at.exception
    grid = at.multiselect(key="tune_grid")
    twins = [c.label for c in snapped(tune_grid())]
    assert set(twins) <= set(grid.options)
    assert grid.value == [c.label for c in tune_grid()]


def test_run_without_sentencepiece_says_the_extra_before_any_work(monkeypatch):
    import chunkviz.eval.runner as runner
    from chunkviz.errors import MissingDependencyError

    hint = 'sentencepiece is not installed; run pip install "chunkviz[dense]"'

    def missing():  # type: ignore[no-untyped-def]
        raise MissingDependencyError(hint)

    def never(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("tune ran although a package it needs is missing")

    monkeypatch.setattr(runner, "bundled_sentencepiece", missing)
    monkeypatch.setattr(tune_view, "tune", never)
    at = page("6_Tune.py", timeout=300, sample="tech_en", backend="bm25")
    at = _run(at)
    assert not at.exception
    shown = " ".join(str(e.value) for e in at.error)
    assert 'sentencepiece is not installed; run pip install "chunkviz\\[dense\\]"' in shown
