"""One state, one chunking: Explore, Compare, Similarity and Strategies count the same chunks.

For every built-in sample and every registered strategy at the registry's defaults, each page
reports the chunk count of ``chunk_document`` on the app state's document and configuration
(paragraph starts included: 梅雨 under ``paragraph`` is 49 chunks on every page).
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from chunkviz.document import chunk_document
from chunkviz.samples import load_sample, sample_names
from chunkviz.strategies import all_strategies
from chunkviz.ui.state import STATE_KEY, AppState
from tests.app.helpers import ROOT

PAGES = ("1_Explore.py", "2_Compare.py", "3_Similarity.py", "5_Strategies.py")
# The strategy select box of the pages that draw one; the others read the state's strategy.
PICKERS = {"1_Explore.py": "explore_strategy_en", "2_Compare.py": "compare_0_strategy_en"}
STRATEGIES = [s.name for s in all_strategies()]


# Strategies names its count of the current configuration apart from each splitter's own.
CHUNK_LABELS = ("Chunks", "Chunks of the current configuration")


def _counts_on_page(page: str, sample: str) -> tuple[dict[str, str], dict[str, str]]:
    """Each strategy's count on ``page`` and ``chunk_document``'s under the state's parameters.

    A strategy picked in a select box takes size, overlap and unit from the one before (issue
    25), so the parameters are the state's, not the registry's defaults.
    """
    at = AppTest.from_file(str(ROOT / "pages" / page), default_timeout=300)
    document = load_sample(sample)
    state = AppState(sample=sample, document=document)
    at.session_state[STATE_KEY] = state
    counts, expected = {}, {}
    at.run()
    for name in STRATEGIES:
        if page in PICKERS:
            at.selectbox(key=PICKERS[page]).set_value(name)
        else:
            state.strategy = name
        at.run()
        assert not at.exception, (page, name, at.exception)
        counts[name] = next(m.value for m in at.metric if m.label in CHUNK_LABELS)
        assert state.strategy == name
        expected[name] = f"{len(chunk_document(document, name, state.params_of(name))):,}"
    return counts, expected


@pytest.mark.slow
@pytest.mark.parametrize("sample", sample_names())
@pytest.mark.parametrize("page", PAGES)
def test_every_page_counts_the_chunks_of_chunk_document(page, sample):
    counts, expected = _counts_on_page(page, sample)
    assert counts == expected


def test_paragraph_on_the_jsquad_sample_is_49_chunks_on_every_page():
    # The case that broke: Similarity chunked without the sample's paragraph starts (1 chunk).
    counts = set()
    for page in PAGES:
        at = AppTest.from_file(str(ROOT / "pages" / page), default_timeout=300)
        at.session_state[STATE_KEY] = AppState(strategy="paragraph")
        at.run()
        assert not at.exception
        counts.add(next(m.value for m in at.metric if m.label in CHUNK_LABELS))
    assert counts == {"49"}
