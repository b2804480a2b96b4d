from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkviz.views.share_link import from_query, to_query


@given(
    st.integers(1, 5000),
    st.integers(0, 4999),
    st.sampled_from(["chars", "tokens"]),
    st.sampled_from([None, "policy_ja", "jsquad_tsuyu", "tech_en"]),
)
def test_round_trip(size, overlap, unit, sample):
    params = {"size": size, "overlap": overlap, "unit": unit}
    query = to_query("fixed", params, sample)
    assert all(isinstance(v, str) for v in query.values())
    shared = from_query(query)
    assert shared.strategy == "fixed"
    assert shared.sample == sample
    if overlap < size:
        assert shared.params == params
        assert shared.problems == ()
    else:  # an invalid pair is left out as a pair, never half applied
        assert shared.params == {"unit": unit}
        assert shared.problems == (
            f"overlap={overlap}, size={size} in the link break the rule overlap < size; "
            "overlap=0 and size=400 are kept instead",
        )


def test_the_document_itself_never_goes_into_the_link():
    query = to_query("fixed", {"size": 100, "overlap": 0, "unit": "chars"}, None)
    assert set(query) == {"strategy", "size", "overlap", "unit"}


def test_bad_values_are_reported_not_guessed():
    shared = from_query(
        {"strategy": "fixed", "size": "0", "overlap": "x", "colour": "red", "sample": "secret.txt"}
    )
    assert shared.params == {}
    assert shared.sample is None
    text = " | ".join(shared.problems)
    assert "size is out of range (got size=0)" in text
    assert "overlap must be an integer (got overlap=x)" in text
    assert "colour=red in the link is not a parameter of fixed" in text
    assert "sample=secret.txt in the link is not a built-in sample" in text


def test_unknown_strategy_is_reported():
    shared = from_query({"strategy": "magic"})
    assert shared.strategy is None
    assert "unknown strategy magic in the link" in shared.problems[0]


def test_list_values_from_streamlit_take_the_first():
    assert from_query({"strategy": ["fixed"], "size": ["120", "130"]}).params == {"size": 120}


def test_link_values_are_quoted_short_in_messages():
    # A crafted link's value reaches a warning; it is cut (and the page escapes it).
    shared = from_query({"strategy": "x" * 5000, "sample": "![s](http://127.0.0.1:8765/s.png)"})
    assert all(len(p) < 300 for p in shared.problems)
    assert "strategy xxxxxxxx" in shared.problems[1]
    assert "…" in shared.problems[1]  # cut to a readable length
    assert "sample=![s](http://127.0.0.1:8765/s.png) in" in shared.problems[0]


def test_a_model_name_too_long_for_a_path_is_a_parameter_problem_not_an_oserror():
    import chunkviz
    from chunkviz.errors import ModelUnavailableError

    # OSError: File name too long reached the page before.
    with pytest.raises(ModelUnavailableError, match="neither a model folder nor a model name"):
        chunkviz.chunk("a. b. c.", "semantic", model="st:" + "x" * 300)


def test_a_benchmark_link_carries_the_context_budget_within_the_pages_range():
    from chunkviz.views.bench_link import BenchView, read_budget, to_query
    from chunkviz.views.share_link import PAGE_KEYS

    assert "budget" in PAGE_KEYS
    query = to_query(BenchView(run="r", metric="recall@5", delta=0.01, view="budget", budget=1500))
    assert query["budget"] == "1500"
    assert read_budget(query) == (1500, None)
    assert read_budget({}) == (None, None)
    for bad in ("50", "100001", "1e3", "-5", "9" * 400):
        value, problem = read_budget({"budget": bad})
        assert value is None
        assert problem is not None
        assert "not a context budget from 100 to 100,000 characters" in str(problem)
        assert len(str(problem)) < 200  # a hostile value is shown cut, never whole
