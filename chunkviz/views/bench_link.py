"""What a Benchmark link carries besides the configuration: run, metric, δ, budget and view.

A stakeholder's link must open on the sender's screen, so the page's choices travel as values:
``?run=jsquad-use-m3-all-s0-4266905b&metric=ndcg@10&delta=0.02&budget=1500&view=budget``. The
run is named by its ``run_id`` (stable across machines; a path is not), the metric by its key,
δ and the context budget (characters) as numbers and the view (``VIEWS``) by its id. Reading a
link checks each value against what this page can show and reports the others as ``Message`` s,
rendered in the reader's language.

Also here: a run's name in words for pickers (dataset, backend, questions, date), never its id.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from chunkviz.errors import Message
from chunkviz.limits import MAX_BUDGET_CHARS, MIN_BUDGET_CHARS
from chunkviz.text import Lang, has, text
from chunkviz.text.messages import backend_text
from chunkviz.views.run_list import RunSummary

#: The views of the retrieval-rule figure: every configuration at equal k, or at equal budget.
VIEWS = ("equal_k", "budget")
#: The margin δ a link may set (the page's own input range).
DELTA_RANGE = (0.001, 0.5)


@dataclass(frozen=True, slots=True)
class BenchView:
    """The Benchmark page's shareable choices (None: the page's own default)."""

    run: str | None = None
    metric: str | None = None
    delta: float | None = None
    view: str | None = None
    budget: int | None = None


def to_query(view: BenchView) -> dict[str, str]:
    """The query parameters of ``view`` (only the values it sets)."""
    out = {}
    if view.run is not None:
        out["run"] = view.run
    if view.metric is not None:
        out["metric"] = view.metric
    if view.delta is not None:
        out["delta"] = f"{view.delta:g}"
    if view.view is not None:
        out["view"] = view.view
    if view.budget is not None:
        out["budget"] = str(view.budget)
    return out


def _bad(key: str, value: str, choices: Collection[str]) -> Message:
    return Message("bench_link_value", field=key, value=value, choices=list(choices))


def read_run(
    query: Mapping[str, str], run_ids: Collection[str]
) -> tuple[str | None, Message | None]:
    """The link's run if this page lists it, else None and why."""
    value = query.get("run")
    if value is None:
        return None, None
    if value in run_ids:
        return value, None
    return None, Message("bench_link_run", value=value)


def read_choice(
    query: Mapping[str, str], key: str, choices: Collection[str]
) -> tuple[str | None, Message | None]:
    """The link's ``key`` if it is one of ``choices``, else None and why."""
    value = query.get(key)
    if value is None:
        return None, None
    if value in choices:
        return value, None
    return None, _bad(key, value, choices)


def read_delta(query: Mapping[str, str]) -> tuple[float | None, Message | None]:
    """The link's δ if it is a number in ``DELTA_RANGE``, else None and why."""
    value = query.get("delta")
    if value is None:
        return None, None
    low, high = DELTA_RANGE
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if math.isfinite(number) and low <= number <= high:
        return number, None
    return None, Message("bench_link_delta", value=value, min=low, max=high)


def read_budget(query: Mapping[str, str]) -> tuple[int | None, Message | None]:
    """The link's context budget if it is a whole number of characters the page accepts."""
    value = query.get("budget")
    if value is None:
        return None, None
    low, high = MIN_BUDGET_CHARS, MAX_BUDGET_CHARS
    number = int(value) if value.isdigit() and len(value) <= 7 else -1
    if low <= number <= high:
        return number, None
    return None, Message("bench_link_budget", value=value[:40], min=low, max=high)


def run_label(lang: Lang, run: RunSummary) -> str:
    """A run in words: dataset, backend, questions and date (``JSQuAD · BM25 … · 500 q``)."""
    dataset = (
        text(lang, f"bench_link.dataset_{run.dataset}")
        if has("en", f"bench_link.dataset_{run.dataset}")
        else run.dataset
    )
    backend = backend_text(lang, run.backend)
    return text(
        lang,
        "bench_link.run_label",
        dataset=dataset,
        backend=backend,
        questions=run.questions,
        date=run.created[:10],
    )
