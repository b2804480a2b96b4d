from __future__ import annotations

import pytest

from chunkviz.datasets.base import Dataset
from chunkviz.document import chunk_document
from chunkviz.errors import ParameterError
from chunkviz.eval.grid import Config, fixed_config, with_context
from chunkviz.eval.results import results_from_json, results_to_json
from chunkviz.eval.runner import run_benchmark
from chunkviz.retrieval.headers import breadcrumbs, check_context, contextual_texts
from chunkviz.samples import load_sample


@pytest.fixture(scope="module")
def policy():
    return load_sample("policy_ja")


def test_none_is_what_the_strategy_embeds(policy):
    for strategy, params in (("fixed", {"size": 200, "overlap": 40}), ("markdown", {"size": 300})):
        result = chunk_document(policy, strategy, params)
        assert contextual_texts(result, policy.title, "none") == result.embed_texts()


def test_title_puts_the_title_on_its_own_line(policy):
    result = chunk_document(policy, "fixed", {"size": 200, "overlap": 0})
    texts = contextual_texts(result, "A  title\non two lines", "title")
    assert texts == ["A title on two lines\n" + t for t in result.embed_texts()]
    assert contextual_texts(result, "", "title") == result.embed_texts()


def test_headings_are_the_title_and_the_markdown_breadcrumb(policy):
    result = chunk_document(policy, "markdown", {"size": 300})
    texts = contextual_texts(result, policy.title, "headings")
    for chunk, text in zip(result.chunks, texts, strict=True):
        source = policy.text[chunk.start : chunk.end]
        crumbs = chunk.prefix.rstrip("\n")
        header = f"{policy.title} > {crumbs}" if crumbs else policy.title
        # the breadcrumb markdown already prefixes is replaced, never repeated
        assert text == f"{header}\n{source}"
    assert any(" > " in t.split("\n", 1)[0].removeprefix(policy.title) for t in texts)


def test_a_fixed_window_gets_the_breadcrumb_of_the_section_it_starts_in(policy):
    result = chunk_document(policy, "fixed", {"size": 150, "overlap": 0})
    texts = contextual_texts(result, policy.title, "headings")
    crumbs = breadcrumbs(policy.text, [c.start for c in result.chunks])
    for chunk, path, text in zip(result.chunks, crumbs, texts, strict=True):
        assert (
            text == " > ".join((policy.title, *path)) + "\n" + policy.text[chunk.start : chunk.end]
        )
    assert len({p for p in crumbs}) > 3


def test_text_without_headings_gets_the_title_alone():
    doc = load_sample("jsquad_tsuyu")
    result = chunk_document(doc, "paragraph", {})
    assert contextual_texts(result, doc.title, "headings") == contextual_texts(
        result, doc.title, "title"
    )


def test_unknown_modes_are_refused_with_the_choices():
    with pytest.raises(ParameterError, match="none, title, headings"):
        check_context("chapter")
    with pytest.raises(ParameterError, match="none, title, headings"):
        Config("x", "paragraph", {}, context="chapter")


def test_with_context_labels_each_mode_and_keeps_none_as_it_is():
    grid = (fixed_config(200, 40), Config("paragraph", "paragraph", {}))
    out = with_context(grid, ["none", "headings"])
    assert [c.label for c in out] == [
        "fixed-200-40",
        "paragraph",
        "fixed-200-40+headings",
        "paragraph+headings",
    ]
    assert out[:2] == grid
    assert {c.context for c in out[2:]} == {"headings"}
    assert Config.from_dict(out[2].as_dict()) == out[2]
    assert "context" not in out[0].as_dict()  # run ids of naive grids do not change


def _run(doc, modes):
    data = Dataset(doc.doc_id, (doc,), doc.questions)
    grid = with_context(
        (fixed_config(200, 40), Config("markdown", "markdown", {"size": 300})), modes
    )
    return run_benchmark(data, grid, "bm25", bootstrap=50, permutations=50)


def test_a_headings_run_differs_from_none_only_where_it_should(policy):
    naive = _run(policy, ["none"])
    ctx = _run(policy, ["headings"])
    assert ctx.labels == tuple(f"{lab}+headings" for lab in naive.labels)
    assert ctx.run_id != naive.run_id
    for a, b in zip(naive.configs, ctx.configs, strict=True):
        # same cuts: chunks, offsets, losses and sizes in characters of the source
        assert (a.strategy, dict(a.params), a.chunks, a.broken, a.mean_chunk_chars) == (
            b.strategy,
            dict(b.params),
            b.chunks,
            b.broken,
            b.mean_chunk_chars,
        )
        assert naive.retrieval.chunk_offsets[a.label] == ctx.retrieval.chunk_offsets[b.label]
        assert [r is None for r in naive.ranks[a.label]] == [r is None for r in ctx.ranks[b.label]]
        # what is embedded grows by exactly the headers
        result = chunk_document(policy, a.strategy, a.params)
        extra = sum(map(len, contextual_texts(result, policy.title, "headings"))) - sum(
            map(len, result.embed_texts())
        )
        assert b.chars_embedded - a.chars_embedded == extra > 0
        assert (a.context, b.context) == ("none", "headings")
    assert naive.question_ids == ctx.question_ids
    assert naive.ranks != ctx.ranks  # the header moves some question's best chunk
    assert results_from_json(results_to_json(ctx)).configs == ctx.configs


def test_naive_and_contextual_in_one_run_are_tested_pairwise(policy):
    both = _run(policy, ["none", "headings"])
    pairs = {(p.a, p.b) for p in both.pairwise}
    assert ("markdown", "markdown+headings") in pairs or ("markdown+headings", "markdown") in pairs
