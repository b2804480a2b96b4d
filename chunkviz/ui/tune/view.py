"""The Tune page's helpers: the run (kept per document and settings), its figures and links.

The page only lays out; the work is ``chunkviz.eval.tune.tune`` (the same call the CLI makes,
so both name the same recommendation), kept in session state under the document's digest and
every setting, so a rerun (a widget moved, the page reopened) never recomputes it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import plotly.graph_objects as go
import streamlit as st

from chunkviz.document import Document
from chunkviz.eval.decision import DEFAULT_BUDGET_CHARS
from chunkviz.eval.engine import Stage, run_fraction
from chunkviz.eval.grid import Config, snapped, tune_grid
from chunkviz.eval.imported import IMPORTED, ImportedChunking, imported_config, imported_label
from chunkviz.eval.preflight import preflight
from chunkviz.eval.synthetic import VALIDATION, Form
from chunkviz.eval.tune import (
    Cost,
    TunePoint,
    TuneResult,
    pareto_front,
    probe_lost,
    questions_source,
    tune,
    with_margin,
)
from chunkviz.text import Lang
from chunkviz.text.messages import progress_text, recorded_text
from chunkviz.ui.benchmark.figures import log_ticks
from chunkviz.ui.i18n import tr
from chunkviz.ui.resources import document_key, load_backend
from chunkviz.ui.state import AppState, bind
from chunkviz.ui.verdict_figure import verdict_figure, verdict_heading
from chunkviz.ui.verdict_view import headline as verdict_headline
from chunkviz.views.markup import escape_markdown
from chunkviz.views.numbers import format_bytes
from chunkviz.views.tune_report import (
    decision_lines,
    evidence_lines,
    provenance_lines,
    questions_line,
    reason_text,
)
from chunkviz.views.verdict import detectable_text, outcome_word, panel_text

RESULTS_KEY = "tune_results"
QuestionSource = Literal["own", "synthetic", "both"]
QUESTION_SOURCES: tuple[QuestionSource, ...] = ("own", "synthetic", "both")
#: Forms the page offers (``lm`` needs a local model the page cannot load).
PAGE_FORMS: tuple[Form, ...] = (
    "shaped",
    "calibrated",
    "context",
    "keywords",
    "template",
    "inverse",
    "cloze",
)


@dataclass(frozen=True)
class TuneSettings:
    """What a run depends on besides the document: its cache key with the document's digest."""

    own: bool
    synthetic: int
    form: Form
    configs: tuple[str, ...]
    backend: str
    seed: int = 0
    budget: int = DEFAULT_BUDGET_CHARS


def offered_grid() -> tuple[Config, ...]:
    """The strategies' configurations the page offers: the tune grid, then its snapped twins.

    The snapped ones (``snapped``: fixed and recursive snapped to phrase boundaries) are offered
    but not selected by default (``default_labels``), so the default run stays ``tune_grid()``.
    """
    grid = tune_grid()
    return (*grid, *snapped(grid))


def tune_configs(document: Document, imported: Sequence[ImportedChunking] = ()) -> list[Config]:
    """The grid the page offers: the tune grid, its snapped twins, then the imported chunkings."""
    return [*offered_grid(), *(imported_config(c, document.doc_id) for c in imported)]


def default_labels(offered: Sequence[Config]) -> list[str]:
    """The offered labels selected at first: all but the snapped twins."""
    extra = {c.label for c in snapped(tune_grid())}
    return [c.label for c in offered if c.label not in extra]


def grid_configs(
    labels: Sequence[str],
    document: Document | None = None,
    imported: Sequence[ImportedChunking] = (),
) -> list[Config]:
    """The offered configurations named by ``labels``, in grid order."""
    wanted = set(labels)
    offered = tune_configs(document, imported) if document is not None else offered_grid()
    return [c for c in offered if c.label in wanted]


def grid_label(lang: Lang, label: str, imported: Sequence[ImportedChunking]) -> str:
    """How the grid's multiselect shows a configuration: an import by its file's name."""
    names = {imported_label(c): c.name for c in imported}
    return tr("import.option", name=names[label], lang=lang) if label in names else label


def run_key(document: Document, settings: TuneSettings) -> tuple[Any, ...]:
    """The session-state key of a run: the document's digest and every setting."""
    return (document_key(document), settings)


def stored(document: Document, settings: TuneSettings) -> TuneResult | None:
    """The run already made for this document and these settings, if any."""
    result = st.session_state.get(RESULTS_KEY, {}).get(run_key(document, settings))
    return result if isinstance(result, TuneResult) else None


def run_tune(
    document: Document,
    settings: TuneSettings,
    lang: Lang,
    imported: Sequence[ImportedChunking] = (),
) -> TuneResult:
    """``tune`` with a progress bar; the result is kept under ``run_key``.

    ``imported``: the chunkings imported for ``document`` (their labels may be in the grid).
    """
    # Everything the run needs (backend, context tokenizer, cache) before any work.
    backend = preflight(load_backend(settings.backend)).backend
    bar = st.progress(0.0, text=tr("tune.starting", lang=lang))

    def progress(stage: Stage, done: int, total: int, message: str) -> None:
        bar.progress(run_fraction(stage, done, total), text=progress_text(lang, stage, done, total))

    result = tune(
        document,
        questions=document.questions if settings.own else (),
        synthetic=settings.synthetic,
        form=settings.form,
        configs=grid_configs(settings.configs, document, imported),
        backend=backend,
        seed=settings.seed,
        progress=progress,
        budget=settings.budget,
    )
    bar.progress(1.0, text=tr("tune.done", lang=lang))
    # One run is kept per session (the latest); results are values, shared read-only.
    st.session_state[RESULTS_KEY] = {run_key(document, settings): result}
    return result


def form_label(lang: Lang, form: Form, backend: str) -> str:
    """A form with its JSQuAD validation figure for ``backend``."""
    rho = VALIDATION.get(form, {}).get(backend)
    name = recorded_text(lang, "form", form)
    if rho is None:
        return tr("tune.form_option_none", form=name, lang=lang)
    return tr("tune.form_option", form=name, rho=f"{rho:.2f}", lang=lang)


def validation_lines(lang: Lang, result: TuneResult) -> list[str]:
    """What is shown beside every figure: synthetic or not, the lexical caveat, validation.

    Markdown-safe (a backend's name may be a model path the user gave).
    """
    return [
        escape_markdown(line)
        for line in provenance_lines(
            lang, questions_source(result.source), result.results.backend.name
        )
    ]


def recommended(
    document: Document, settings: TuneSettings, result: TuneResult, margin: float
) -> TuneResult:
    """``result`` recommended under ``margin``; a new margin's recommendation is kept too."""
    if result.recommendation.delta == margin:
        return result
    runs = st.session_state.setdefault(RESULTS_KEY, {})
    key = (*run_key(document, settings), margin)
    found = runs.get(key)
    if not isinstance(found, TuneResult):
        found = runs[key] = with_margin(result, margin)
    return found


def recommendation_lines(lang: Lang, result: TuneResult) -> tuple[str, str]:
    """The reason and the rule used, in ``lang``, Markdown-safe."""
    rec = result.recommendation
    rule = "saturated" if rec.saturated else rec.rule
    return (
        escape_markdown(reason_text(lang, result)),
        escape_markdown(tr(f"tune.rec.rule_{rule}", delta=f"{rec.delta:g}", lang=lang)),
    )


def decision_notes(lang: Lang, result: TuneResult) -> tuple[list[str], bool]:
    """The evidence (what drove the pick, the held-out figure), stability and the second view.

    Markdown-safe; the flag says whether the pick is unstable (shown as a warning).
    """
    unstable = result.stability is not None and not result.stability.stable
    lines = [*evidence_lines(lang, result), *decision_lines(lang, result)]
    asked = questions_line(lang, result)
    if asked:
        lines.append(asked)
    return [escape_markdown(line) for line in lines], unstable


def headline(lang: Lang, result: TuneResult) -> None:
    """The answer before any number, drawn as the Benchmark page draws its own."""
    results = result.results
    verdict_headline(
        result.recommendation,
        result.budget,
        len(results.question_ids),
        lang,
        units=results.stats.units or len(results.question_ids),
        unit=results.stats.unit,
    )


def front_figure(points: Sequence[TunePoint], cost: Cost, lang: Lang) -> go.Figure:
    """Quality against ``cost``, one marker per configuration, the Pareto front as a line."""
    axis = "tune.axis_size" if cost == "index_bytes" else "tune.axis_context"
    title = "tune.front_size" if cost == "index_bytes" else "tune.front_context"
    by_label = {p.label: p for p in points}
    front = [by_label[label] for label in pareto_front(points, cost)]
    fig = go.Figure(
        [
            go.Scatter(
                x=[float(getattr(p, cost)) for p in points],
                y=[p.quality for p in points],
                text=[p.label for p in points],
                mode="markers",
                marker={"size": 10},
                name="",
                hovertemplate="%{text}<br>%{x:,.0f}<br>%{y:.3f}<extra></extra>",
            ),
            go.Scatter(
                x=[float(getattr(p, cost)) for p in front],
                y=[p.quality for p in front],
                text=[p.label for p in front],
                mode="lines+markers+text",
                textposition="top center",
                name=tr("tune.on_front", lang=lang),
                hoverinfo="skip",
            ),
        ]
    )
    fig.update_layout(
        title=tr(title, lang=lang),
        xaxis_title=tr(axis, lang=lang),
        yaxis_title=tr("tune.axis_quality", lang=lang),
        height=380,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        showlegend=False,
    )
    # Round 1-2-5 ticks written in full: plotly's own log ticks read "1000 … 2" (2 for 2,000).
    xs = [float(getattr(p, cost)) for p in points if getattr(p, cost) > 0] or [1.0]
    low, high = min(xs) / 1.3, max(xs) * 1.3
    ticks = log_ticks(low, high)
    shown = format_bytes if cost == "index_bytes" else "{:,}".format
    fig.update_xaxes(
        type="log",
        range=[math.log10(low), math.log10(high)],
        tickvals=ticks,
        ticktext=[shown(t) for t in ticks],
    )
    return fig


def point_rows(lang: Lang, result: TuneResult) -> list[dict[str, Any]]:
    """The table of points, with translated column names and each one's comparison with the best."""
    col = {
        k: tr(f"tune.col_{k}", lang=lang)
        for k in (
            "config",
            "quality",
            "ci",
            "versus",
            "diff",
            "detectable",
            "chunks",
            "context",
            "tokens",
            "bytes",
            "cut",
            "front",
        )
    }
    versus = {v.label: v for v in result.recommendation.versus}
    fronts = {
        "index_bytes": tr("tune.axis_size", lang=lang),
        "context_chars": tr("tune.axis_context", lang=lang),
    }
    rows = []
    for p in result.points:
        v = versus.get(p.label)
        rows.append(
            {
                col["config"]: p.label,
                col["quality"]: round(p.quality, 3),
                col["ci"]: f"{p.ci_low:.3f}–{p.ci_high:.3f}",
                col["versus"]: outcome_word(lang, "best" if v is None else v.outcome),
                col["diff"]: (
                    "—" if v is None else f"{v.diff:+.3f} ({v.ci_low:+.3f}–{v.ci_high:+.3f})"
                ),
                col["detectable"]: "—" if v is None else detectable_text(v.detectable),
                col["chunks"]: p.chunks,
                col["context"]: round(p.context_chars),
                col["tokens"]: round(p.context_tokens),
                col["bytes"]: p.index_bytes,
                col["cut"]: f"{p.probes_cut}/{result.probes}",
                col["front"]: ", ".join(fronts[c] for c in p.front) or "—",
            }
        )
    return rows


def point_columns(lang: Lang, result: TuneResult) -> dict[str, Any]:
    """``column_config`` of the points table: what a key phrase is and how cuts are counted."""
    name = tr("tune.col_cut", lang=lang)
    return {
        name: st.column_config.TextColumn(
            name, help=tr("tune.col_cut_help", total=result.probes, lang=lang)
        )
    }


def open_in_explore(state: AppState, label: str) -> None:
    """Make the configuration ``label`` the current one and open Explore."""
    imported = {imported_label(c): c for c in state.imported_for(state.document)}
    if label in imported:
        state.strategy = IMPORTED
        state.set_params(IMPORTED, {"id": imported[label].id, "name": imported[label].name})
        st.switch_page("pages/1_Explore.py")
    config = next(c for c in offered_grid() if c.label == label)
    state.strategy = config.strategy
    state.set_params(config.strategy, {**state.params_of(config.strategy), **config.params})
    st.switch_page("pages/1_Explore.py")


def config_labels(configs: Sequence[Config]) -> list[str]:
    """The labels of ``configs``, in their order (the grid's options)."""
    return [c.label for c in configs]


def lost_before_retrieval(
    document: Document, chosen: Sequence[str], imported: Sequence[ImportedChunking]
) -> None:
    """Without questions: how many key phrases each chosen configuration cuts, nothing more.

    Lost before retrieval is all that can be counted without a question.
    """
    st.info(tr("tune.no_questions"))
    total, rows = probe_lost(document, grid_configs(chosen, document, imported))
    if not total:
        st.caption(tr("tune.no_probes"))
    for row in rows:
        st.markdown(
            tr(
                "tune.lost_sentence",
                total=total,
                broken=row.broken,
                config=escape_markdown(row.config),
            )
        )
    st.caption(tr("tune.probe_note"))


def open_pick(state: AppState, result: TuneResult) -> None:
    """A picker of the run's points and the button that opens the picked one in Explore."""
    pick_col, open_col = st.columns([3, 1])
    points = [p.label for p in result.points]
    bind("tune_open_pick", result.pick)
    if st.session_state["tune_open_pick"] not in points:
        st.session_state["tune_open_pick"] = result.pick
    picked = pick_col.selectbox(
        tr("tune.open_pick"), points, key="tune_open_pick", help=tr("tune.open_help")
    )
    if open_col.button(tr("tune.open"), key="tune_open"):
        open_in_explore(state, str(picked))


def verdict_chart(lang: Lang, result: TuneResult) -> None:
    """The recommendation at the budget, beside the pick at equal k when the run has one."""
    rec = result.recommendation
    choices = [rec] if result.at_k is None else [rec, result.at_k]
    titles = [panel_text(lang, c, result.budget) for c in choices]
    st.caption(verdict_heading(choices, lang))
    st.plotly_chart(verdict_figure(choices, titles, lang), key="tune_fig_verdict")
