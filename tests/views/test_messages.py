"""Errors and link problems in the reader's language, with values as values (issue 25)."""

from __future__ import annotations

import pickle
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chunkviz
from chunkviz.errors import ChunkvizError, Message, ParameterError
from chunkviz.strategies import all_strategies, get_strategy
from chunkviz.text import catalogue
from chunkviz.text.messages import error_text, render, value_text
from chunkviz.views.param_ranges import carried
from chunkviz.views.share_link import from_query

REPR = re.compile(r"=\s*'|\['|'\]")
ENGLISH = re.compile(r"\b(the|is|not|must|choose|use|give|link|value)\b")


def _error(fn, *args, **kwargs) -> ChunkvizError:  # type: ignore[no-untyped-def]
    with pytest.raises(ChunkvizError) as info:
        fn(*args, **kwargs)
    return info.value


def test_every_error_key_exists_in_both_languages_with_the_same_fields():
    fields = re.compile(r"\{(\w+)")
    en = {k: v for k, v in catalogue("en").items() if k.startswith("error.")}
    ja = {k: v for k, v in catalogue("ja").items() if k.startswith("error.")}
    assert set(en) == set(ja)
    for key, template in en.items():
        assert set(fields.findall(template)) == set(fields.findall(ja[key])), key


@pytest.mark.parametrize(
    ("call", "english", "japanese"),
    [
        (
            lambda: chunkviz.chunk("abc", "fixed", size="abc"),
            "size must be an integer (got size=abc); use an integer from 1 to",
            "size は整数でなければなりません（size=abc）。1 から",
        ),
        (
            lambda: chunkviz.chunk("abc", "fixed", size=0),
            "size is out of range (got size=0)",
            "size が範囲外です（size=0）",
        ),
        (
            lambda: chunkviz.chunk("abc", "fixed", size=10, overlap=10),
            "overlap must be smaller than size (got overlap=10, size=10)",
            "オーバーラップはサイズより小さくなければなりません（overlap=10、size=10）",
        ),
        (
            lambda: chunkviz.chunk("abc", "nope"),
            "unknown strategy nope; choose one of ",
            "分割戦略 nope はありません",
        ),
        (
            lambda: chunkviz.chunk("abc", "fixed", unit="bytes"),
            "unit must be one of chars, tokens (got unit=bytes)",
            "unit はchars、tokens のいずれかでなければなりません（unit=bytes）",
        ),
    ],
)
def test_a_strategy_refusal_reads_in_each_language_without_reprs(call, english, japanese):
    exc = _error(call)
    assert english in error_text("en", exc)
    ja = error_text("ja", exc)
    assert japanese in ja
    for text in (error_text("en", exc), ja):
        assert not REPR.search(text), text
    assert not ENGLISH.search(ja), ja
    assert str(exc) == error_text("en", exc)  # the CLI prints the catalogue's English


def test_link_problems_render_in_japanese_with_the_values_as_typed():
    shared = from_query(
        {
            "lang": "xx",
            "backend": "nope",
            "sample": "zzz",
            "strategy": "fixed",
            "size": "abc",
            "bogus": "1",
        },
        backends=["bm25", "tfidf"],
    )
    assert len(shared.problems) == 5
    texts = [render("ja", p) for p in shared.problems]
    assert (
        "リンクの backend=nope は利用できるバックエンドではありません。"
        "bm25、tfidf から選んでください"
    ) in texts
    for text in texts:
        assert not REPR.search(text), text
        assert not ENGLISH.search(text), text
    # The English text is still the problem itself (a str), for logs and the CLI.
    assert "backend=nope in the link is not an available backend" in " ".join(shared.problems)


def test_a_message_without_a_code_is_shown_as_its_text():
    assert render("ja", "plain words") == "plain words"
    assert render("ja", Message.empty()) == ""
    assert error_text("ja", ChunkvizError("as raised, a sentence")) == "as raised, a sentence"


@given(
    st.one_of(
        st.text(max_size=200),
        st.integers(),
        st.floats(allow_nan=False),
        st.lists(st.text(max_size=5), max_size=4),
        st.booleans(),
        st.none(),
    )
)
def test_a_value_is_shown_as_a_value_never_as_a_repr(value):
    shown = value_text("en", value)
    assert len(shown) <= 60
    if isinstance(value, str) and len(value) <= 60:
        assert shown == value
    if isinstance(value, list):
        assert "[" not in shown or any("[" in v for v in value)


def test_errors_keep_code_and_params_through_pickling():
    exc = _error(chunkviz.chunk, "abc", "fixed", size=10, overlap=10)
    again = pickle.loads(pickle.dumps(exc))
    assert type(again) is ParameterError
    assert (again.code, dict(again.params), str(again)) == (exc.code, dict(exc.params), str(exc))
    message = pickle.loads(pickle.dumps(exc.message))
    assert (message.code, str(message)) == ("overlap", str(exc))


SIZED = [s for s in all_strategies() if {"size", "overlap"} <= {p.name for p in s.params}]


@pytest.mark.parametrize("spec", SIZED, ids=lambda s: s.name)
@given(size=st.integers(1, 4000), overlap=st.integers(0, 3999))
def test_carried_size_and_overlap_always_make_a_valid_configuration(spec, size, overlap):
    fixed = get_strategy("fixed")
    overlap = min(overlap, size - 1)
    values = carried(
        fixed.params,
        {"size": size, "overlap": overlap, "unit": "chars"},
        spec.params,
        spec.defaults(),
    )
    assert spec.validate(values) == values
    schema = {p.name: p for p in spec.params}
    if schema["size"].min <= size <= schema["size"].max:
        assert values["size"] == size
        assert values["overlap"] == overlap


def test_carried_leaves_a_strategy_without_shared_parameters_alone():
    fixed, paragraph = get_strategy("fixed"), get_strategy("paragraph")
    values = carried(
        fixed.params,
        {"size": 150, "overlap": 30, "unit": "chars"},
        paragraph.params,
        paragraph.defaults(),
    )
    assert values == paragraph.defaults()
