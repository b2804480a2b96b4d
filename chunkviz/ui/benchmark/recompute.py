"""Recompute: run the core benchmark on an edited grid, with a progress bar.

The run happens in this session's own script thread: Streamlit gives every session its own
thread, and nothing here takes a lock or writes to a shared cache, so a long run does not hold
up other users' sessions. Read-only things come from caches: the dataset from ``cache_resource``,
the backend resolved once per run through the app's cache layer (``resources.backend_ref``, the
package's one model cache; a backend builds a fresh index per configuration and keeps no per-run
state). A dense run encodes in this server process with that backend: a spawned encoding worker
would run the page script again (``chunkviz.retrieval.pool.foreign_main``), so the engine keeps
the work here rather than patch the server's ``__main__``.
"""

from __future__ import annotations

import os

import streamlit as st

from chunkviz.eval import runner as benchmark
from chunkviz.eval.engine import Progress, Stage, run_fraction
from chunkviz.eval.estimate import encode_estimate
from chunkviz.eval.grid import build_grid
from chunkviz.eval.results import check_cache_writable, check_writable, save_results
from chunkviz.retrieval.backends import list_backends
from chunkviz.retrieval.cache import EmbeddingCache, default_cache_dir
from chunkviz.strategies import all_strategies
from chunkviz.text.messages import backend_text, progress_text
from chunkviz.ui.benchmark.drilldown import cached_dataset
from chunkviz.ui.guard import guard
from chunkviz.ui.i18n import current_lang, tr
from chunkviz.ui.resources import backend_ref, load_backend
from chunkviz.views.numbers import parse_ints
from chunkviz.views.results_dirs import recompute_dir

#: Session key through which a finished run selects itself in the run list on the next rerun
#: (the list's own widget key cannot be written once the widget exists in the current run).
NEW_RUN_KEY = "bench_new_run"


def run_and_save(
    spec: str,
    sample: int,
    seed: int,
    strategies: list[str],
    sizes: str,
    overlaps: str,
    backend_name: str,
    progress: Progress,
    snaps: tuple[str, ...] = ("none",),
) -> str:
    """Run the benchmark and save the results file; returns its path.

    Raises:
        ChunkvizError: A bad grid, dataset or backend (the message says which and why).
    """
    out = check_writable(recompute_dir(os.environ))  # before any work, not after the run
    ref = backend_ref(backend_name)  # resolved once for the whole run
    check_cache_writable(None, ref.kind)
    configs = build_grid(
        strategies, parse_ints(sizes, "sizes"), parse_ints(overlaps, "overlap percents"), snaps
    )
    results = benchmark.run_benchmark(
        cached_dataset(spec),
        configs,
        ref.backend,
        progress=progress,
        spec=spec,
        sample=sample,
        seed=seed,
    )
    path = save_results(results, out)
    return str(path)


@st.cache_data(max_entries=16, show_spinner=False)
def _estimate(
    spec: str,
    sample: int,
    seed: int,
    strategies: tuple[str, ...],
    sizes: str,
    overlaps: str,
    backend_name: str,
    snaps: tuple[str, ...] = ("none",),
) -> tuple[int, int, float | None] | None:
    """``(chars, missing chars, seconds)`` of the run's encoding (None: lexical backend)."""
    configs = build_grid(
        list(strategies),
        parse_ints(sizes, "sizes"),
        parse_ints(overlaps, "overlap percents"),
        snaps,
    )
    found = encode_estimate(
        cached_dataset(spec),
        configs,
        load_backend(backend_name),
        EmbeddingCache(default_cache_dir()),
        sample=sample,
        seed=seed,
    )
    return None if found is None else (found.chars, found.missing_chars, found.seconds)


def _duration_note(
    spec: str,
    sample: int,
    seed: int,
    strategies: list[str],
    sizes: str,
    overlaps: str,
    backend: str,
    snaps: tuple[str, ...] = ("none",),
) -> None:
    """Before a dense run starts: what it will encode and about how long that takes."""
    kinds = {i.name: i.kind for i in list_backends()}
    if kinds.get(backend, "dense") == "lexical":
        return  # BM25 and TF-IDF index in seconds: nothing to announce
    with guard() as attempt:
        found = _estimate(spec, sample, seed, tuple(strategies), sizes, overlaps, backend, snaps)
    if attempt.failed or found is None:
        return
    chars, missing, seconds = found
    if seconds is None:
        st.caption(
            tr(
                "benchmark.rc_estimate_unknown",
                chars=chars,
                missing=missing,
                backend=backend_text(current_lang(), backend),
            )
        )
    else:
        st.info(
            tr(
                "benchmark.rc_estimate",
                chars=chars,
                missing=missing,
                backend=backend_text(current_lang(), backend),
                minutes=max(1, round(seconds / 60)),
            )
        )


def render(backend: str, expanded: bool) -> None:
    """The Recompute form: grid, dataset sample and seed, and the run button.

    The run uses ``backend``, the app's one backend (the sidebar's picker).
    """
    with st.expander(tr("benchmark.rc_title"), expanded=expanded):
        st.caption(tr("benchmark.rc_backend", name=backend_text(current_lang(), backend)))
        names = [s.name for s in all_strategies()]
        strategies = st.multiselect(
            tr("benchmark.rc_strategies"),
            names,
            key="bench_rc_strategies",
            default=[n for n in ("fixed", "paragraph") if n in names],
        )
        left, right = st.columns(2)
        sizes = left.text_input(
            tr("benchmark.rc_sizes"), "100, 200, 400, 800", key="bench_rc_sizes"
        )
        overlaps = right.text_input(
            tr("benchmark.rc_overlaps"),
            "0, 20",
            key="bench_rc_overlaps",
            help=tr("benchmark.rc_overlaps_help"),
        )
        # Snapped windows run as configurations of their own, beside the unsnapped ones.
        lang = current_lang()
        snaps = tuple(
            st.multiselect(
                tr("benchmark.rc_snaps"),
                ["none", "word", "phrase"],
                default=["none"],
                key=f"bench_rc_snaps_{lang}",
                help=tr("benchmark.rc_snaps_help"),
                format_func=lambda v: tr(f"choice.{v}", lang=lang),
            )
        ) or ("none",)
        spec = st.text_input(
            tr("benchmark.rc_dataset"),
            "jsquad",
            key="bench_rc_dataset",
            help=tr("benchmark.rc_dataset_help"),
        )
        left, right = st.columns(2)
        sample = left.number_input(
            tr("benchmark.rc_sample"),
            min_value=0,
            value=500,
            step=50,
            key="bench_rc_sample",
            help=tr("benchmark.rc_sample_help"),
        )
        seed = right.number_input(
            tr("benchmark.rc_seed"), min_value=0, value=0, key="bench_rc_seed"
        )
        with guard() as attempt:
            grid = build_grid(
                strategies,
                parse_ints(sizes, "sizes"),
                parse_ints(overlaps, "overlap percents"),
                snaps,
            )
        if attempt.failed:
            return
        st.caption(tr("benchmark.rc_grid", n=len(grid), labels=", ".join(c.label for c in grid)))
        _duration_note(spec, int(sample), int(seed), strategies, sizes, overlaps, backend, snaps)
        st.caption(tr("benchmark.rc_stay"))
        if not st.button(tr("benchmark.rc_run"), key="bench_rc_run", type="primary"):
            return
        bar = st.progress(0.0, text=tr("benchmark.rc_starting"))

        def progress(stage: Stage, done: int, total: int, message: str) -> None:
            bar.progress(
                run_fraction(stage, done, total),
                text=progress_text(current_lang(), stage, done, total),
            )

        with guard() as attempt:
            path = run_and_save(
                spec, int(sample), int(seed), strategies, sizes, overlaps, backend, progress, snaps
            )
        if attempt.failed:
            return
        bar.progress(1.0, text=tr("benchmark.rc_done"))
        st.session_state[NEW_RUN_KEY] = path
        st.rerun()
