"""Server-side time of an Explore rerun after a slider move, on 20,000 and 200,000 characters.

Two measurements per document size, both on Japanese text (JSQuAD long documents concatenated,
with their questions as QA pairs, so span checks and answer marks are part of the work):

1. ``apptest``: the whole page script run by Streamlit's ``AppTest`` after ``slider.set_value``
   (every slider value is new, so the chunking is computed, not served from the cache). This is
   what the server does between the browser sending the new value and sending the new page,
   minus the websocket.
2. ``core``: the core functions that rerun calls, timed one by one (chunk, token counts, the
   status of every answer and the marks of the drawn page, highlight HTML of that page), in
   wall and CPU time, to show where the time goes; ``reference`` is the work the rerun did
   before (every token span listed, every answer assessed and marked), timed in the same run
   on the same chunkings.

A third line reruns the page with nothing changed (all cached): the fixed cost of drawing the
page plus AppTest's own overhead (it polls the script thread every 10 ms).

3. ``fragment``: the call of Explore's ``@st.fragment`` function inside that AppTest run, in
   wall and script-thread CPU time: what a slider move costs the server in the browser, where
   only the fragment reruns (issue 39's target: under 80 ms at 200,000 characters).

Usage: python bench/explore_rerun.py [--moves N] [--core-only]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import chunkviz  # noqa: E402
from chunkviz.datasets import load_dataset  # noqa: E402
from chunkviz.document import Document, locate_questions  # noqa: E402
from chunkviz.retrieval.backends import get_backend  # noqa: E402
from chunkviz.views.explore import (  # noqa: E402
    QuestionSpans,
    assess_qa,
    chunk_stats,
    chunk_token_counts,
    qa_marks,
)
from chunkviz.views.highlight import page_bounds, render_html  # noqa: E402

SIZES = (20_000, 200_000)


def japanese_document(length: int) -> tuple[str, list[dict[str, Any]]]:
    """JSQuAD long documents concatenated up to ``length`` characters, with their questions."""
    dataset = load_dataset("jsquad")
    by_doc: dict[str, list[Any]] = {}
    for q in dataset.questions:
        by_doc.setdefault(q.doc_id, []).append(q)
    text = ""
    pairs: list[dict[str, Any]] = []
    while len(text) < length:
        for doc in dataset.documents:
            offset = len(text)
            text += doc.text
            for q in by_doc.get(doc.doc_id, ()):
                start = offset + q.spans[0].start
                if start + len(q.answer) <= length:
                    pairs.append({"question": q.question, "answer": q.answer, "start": start})
            if len(text) >= length:
                break
    return text[:length], pairs


def _ms(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(round(0.9 * (len(values) - 1))))]
    return f"median {statistics.median(values) * 1000:7.1f} ms   p90 {p90 * 1000:7.1f} ms"


#: (wall, thread CPU) seconds of each call of Explore's fragment, recorded by ``_timed_fragments``.
FRAGMENT_CALLS: list[tuple[float, float]] = []


def _timed_fragments() -> None:
    """Make ``st.fragment`` time each call of the function it decorates (``FRAGMENT_CALLS``).

    A slider move in the browser reruns Explore's fragment only (the ``@st.fragment`` function
    ``configured``); AppTest reruns the whole page, but the fragment's call inside it does the
    same work with the same arguments, so its duration is the server time of a fragment rerun
    (Streamlit's own overhead of a fragment rerun aside). Thread CPU time is the script
    thread's own, less sensitive to other processes than wall time.
    """
    import streamlit as st

    original = st.fragment
    if getattr(original, "_timed", False):
        return

    def fragment(func: Any = None, **kwargs: Any) -> Any:
        if func is None:
            return lambda f: fragment(f, **kwargs)

        def timed(*args: Any, **kw: Any) -> Any:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return func(*args, **kw)
            finally:
                FRAGMENT_CALLS.append((time.perf_counter() - wall, time.thread_time() - cpu))

        timed.__name__ = timed.__qualname__ = func.__name__
        timed.__module__ = func.__module__
        return original(timed, **kwargs)

    fragment._timed = True  # type: ignore[attr-defined]
    st.fragment = fragment  # type: ignore[assignment]


def bench_apptest(
    text: str, pairs: list[dict[str, Any]], moves: int
) -> tuple[list[float], list[float], list[tuple[float, float]]]:
    from streamlit.testing.v1 import AppTest

    _timed_fragments()

    from chunkviz.ui.state import STATE_KEY, AppState

    at = AppTest.from_file(str(ROOT / "pages" / "1_Explore.py"), default_timeout=300)
    document = Document("paste", "", text, origin="paste")
    # The user's text with the questions as the user's own pairs, as Explore holds them.
    at.session_state[STATE_KEY] = AppState(
        source="paste",
        pasted=text,
        user_pairs=tuple(pairs),
        document=document.with_questions(locate_questions(text, pairs)),
    )
    at.run()
    if at.exception:
        raise SystemExit(f"page failed: {at.exception[0].message}")
    times = []
    fragment: list[tuple[float, float]] = []
    for i in range(moves):
        size = 100 + 7 * (i + 1)  # a new value every time: the chunking is not cached
        slider = at.slider(key="explore_p_fixed_size").set_value(size)
        FRAGMENT_CALLS.clear()
        start = time.perf_counter()
        slider.run()
        times.append(time.perf_counter() - start)
        if len(FRAGMENT_CALLS) != 1:
            raise SystemExit(f"expected one call of Explore's fragment, got {len(FRAGMENT_CALLS)}")
        fragment.append(FRAGMENT_CALLS[0])
        if at.exception or at.error:
            raise SystemExit(f"page failed at size {size}")
    # The same rerun with nothing changed (every computation served from the cache): the cost
    # of drawing the page and of the AppTest harness itself.
    idle = []
    for _ in range(moves):
        start = time.perf_counter()
        at.run()
        idle.append(time.perf_counter() - start)
    return times, idle, fragment


def bench_core(
    text: str, pairs: list[dict[str, Any]], moves: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall and CPU seconds of each core step per slider move: ``(wall, cpu)`` by step."""
    tokenizer = get_backend("bm25").tokenizer
    items = locate_questions(text, pairs)
    spans = QuestionSpans(items)  # once per document, as the page caches it
    keys = ("chunk", "tokens", "spans", "highlight", "total", "reference")
    wall: dict[str, list[float]] = {k: [] for k in keys}
    cpu: dict[str, list[float]] = {k: [] for k in keys}
    for i in range(moves):
        size = 100 + 7 * (i + 1)
        clocks = [(time.perf_counter(), time.process_time())]
        result = chunkviz.chunk(text, "fixed", size=size, overlap=0)
        clocks.append((time.perf_counter(), time.process_time()))
        tokens = chunk_token_counts(result, tokenizer)
        chunk_stats(result, token_lengths=tokens, doc_tokens=None, max_input_tokens=None)
        clocks.append((time.perf_counter(), time.process_time()))
        # Statuses of every answer (the broken count and the QA table need them all), marks of
        # the page the view draws only (what the page's cache holds per page).
        a, b = page_bounds(len(text), 0)
        qa = assess_qa(result, spans)
        marks = qa_marks(qa, result, start=a, end=b)
        clocks.append((time.perf_counter(), time.process_time()))
        render_html(text, result.chunks, marks, start=a, end=b)
        clocks.append((time.perf_counter(), time.process_time()))
        # Reference, in the same run: the work the rerun did before issue 27 on the same
        # chunking (every span listed to count tokens, every answer's QAResult and mark built,
        # the page drawn from all the marks).
        [len(tokenizer.token_spans(t)) for t in result.embed_texts()]
        every = list(assess_qa(result, items))
        render_html(text, result.chunks, qa_marks(every, result), start=a, end=b)
        clocks.append((time.perf_counter(), time.process_time()))
        for key, lo, hi in (
            ("chunk", 0, 1),
            ("tokens", 1, 2),
            ("spans", 2, 3),
            ("highlight", 3, 4),
            ("total", 0, 4),
            ("reference", 4, 5),
        ):
            wall[key].append(clocks[hi][0] - clocks[lo][0])
            cpu[key].append(clocks[hi][1] - clocks[lo][1])
    return wall, cpu


def main() -> None:
    """Print both measurements for each document size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=15, help="slider moves per document size")
    parser.add_argument(
        "--core-only",
        action="store_true",
        help="time the core functions only, not the page under AppTest",
    )
    args = parser.parse_args()
    load = os.getloadavg()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
        f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    print(
        f"Explore rerun after a slider move (fixed window, sizes 107..{100 + 7 * args.moves}, "
        f"overlap 0, backend bm25), {args.moves} moves each"
    )
    for length in SIZES:
        text, pairs = japanese_document(length)
        print(f"\n{length:,} characters, {len(pairs)} QA pairs")
        wall, cpu = bench_core(text, pairs, args.moves)
        for key in wall:
            print(f"  core {key:<10} wall {_ms(wall[key])}   CPU {_ms(cpu[key])}")
        if args.core_only:
            continue
        moved, idle, fragment = bench_apptest(text, pairs, args.moves)
        print(f"  apptest rerun after a slider move   {_ms(moved)}")
        print(f"  fragment after a slider move, wall  {_ms([f[0] for f in fragment])}")
        print(f"  fragment after a slider move, CPU   {_ms([f[1] for f in fragment])}")
        print(f"  apptest rerun, nothing changed      {_ms(idle)}")


if __name__ == "__main__":
    main()
