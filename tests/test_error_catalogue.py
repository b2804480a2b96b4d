"""Every error is worded once, in the catalogues, and ``str(error)`` is that wording (issue 40).

The raise sites are read from the source with ``ast``: every call of a ``ChunkvizError`` class
or of ``Message`` whose first argument is a code (``"too_large"``) names a catalogue template,
and its keyword arguments are the template's fields. Codes built at run time (``limit_<key>``,
``cause_<key>``, a parameter's ``kind_<type>``) are listed from the objects that build them.
No raise site writes an English sentence: every error of the package has a code.
"""

from __future__ import annotations

import ast
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

import chunkviz
from chunkviz import errors
from chunkviz.atomic import _CAUSES
from chunkviz.catalogues import fields, templates
from chunkviz.errors import ChunkvizError, Message, is_code
from chunkviz.limits import LIMITS
from chunkviz.text.messages import error_text

ROOT = Path(chunkviz.__file__).parent


def _error_classes() -> set[str]:
    import chunkviz.limits  # noqa: F401  (LimitError)

    found, todo = set(), [ChunkvizError]
    while todo:
        cls = todo.pop()
        found.add(cls.__name__)
        todo += cls.__subclasses__()
    return found


#: What a raise site calls: an error class, ``Message``, or ``error`` (a parameter holding one).
CALLEES = _error_classes() | {"Message", "error"}


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    # ``st.error``, ``parser.error`` are not ours; ``errors.ParameterError`` is.
    return func.attr if isinstance(func, ast.Attribute) and func.attr != "error" else ""


def _codes(arg: ast.expr) -> list[str] | None:
    """The codes a first argument can be (None: built at run time or a sentence)."""
    if isinstance(arg, ast.Constant) and is_code(arg.value):
        return [arg.value]
    if isinstance(arg, ast.IfExp):
        body, orelse = _codes(arg.body), _codes(arg.orelse)
        return body + orelse if body is not None and orelse is not None else None
    return None


def _assigned(tree: ast.AST) -> dict[str, list[ast.expr]]:
    """What each plain name of a module is assigned anywhere in it (``HINT = "..."``)."""
    out: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    out.setdefault(target.id, []).append(node.value)
    return out


def _is_sentence(arg: ast.expr, assigned: dict[str, list[ast.expr]] | None = None) -> bool:
    """Whether ``arg`` is (or names a variable assigned) an English sentence, not a code."""
    if isinstance(arg, ast.Name):  # raise Error(HINT) with HINT = "x is not installed; ..."
        return any(_is_sentence(v) for v in (assigned or {}).get(arg.id, []))
    if isinstance(arg, ast.Constant):
        return isinstance(arg.value, str) and not is_code(arg.value)
    if isinstance(arg, ast.JoinedStr):  # f"limit_{key}" builds a code; f"{x} is ..." a sentence
        text = "".join(v.value for v in arg.values if isinstance(v, ast.Constant))
        return " " in text or not text
    return isinstance(arg, ast.BinOp)


def raise_sites(root: Path) -> Iterator[tuple[str, int, list[str] | None, set[str] | None, bool]]:
    """(module, line, codes, keyword names (None with ``**``), is a sentence) of every call."""
    for path in sorted(root.rglob("*.py")):
        module = path.relative_to(root.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assigned = _assigned(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _name(node.func) in CALLEES and node.args):
                continue
            names = {k.arg for k in node.keywords if k.arg is not None}
            spread = any(k.arg is None for k in node.keywords)
            yield (
                module,
                node.lineno,
                _codes(node.args[0]),
                None if spread else names,
                _is_sentence(node.args[0], assigned),
            )


SITES = list(raise_sites(ROOT))
STATIC = sorted({c for _, _, codes, _, _ in SITES if codes for c in codes})
#: Codes built at run time, from the objects that build them.
DYNAMIC = sorted(
    {f"limit_{limit.key}" for limit in LIMITS}
    | {f"cause_{key}" for key in {*_CAUSES.values(), "other"}}
    | {f"kind_{t}" for t in ("int", "float", "bool", "choice", "str")}
    | {f"fix_{t}" for t in ("bool", "str")}
    | {
        f"{rule}_{t}"
        for rule in ("rule_between", "rule_at_least", "rule_at_most", "rule_any")
        for t in ("int", "float")
    }
)
CODES = sorted({*STATIC, *DYNAMIC})


def catalogue_problems(code: str, keywords: set[str] | None = None) -> list[str]:
    """What is wrong with ``code`` against the catalogues ([] when nothing is).

    Args:
        code: A message code (``error.<code>``).
        keywords: The values a raise site gives it, or None when unknown (``**params``).
    """
    en, ja = templates("en").get(f"error.{code}"), templates("ja").get(f"error.{code}")
    if en is None or ja is None:
        return [f"error.{code} is missing from {'en.toml' if en is None else 'ja.toml'}"]
    problems = []
    if en == ja:
        problems.append(f"error.{code} is not translated: ja.toml repeats the English")
    if fields(en) != fields(ja):
        problems.append(f"error.{code}: en fills {sorted(fields(en))}, ja {sorted(fields(ja))}")
    if keywords is not None and keywords != fields(en):
        problems.append(f"error.{code}: given {sorted(keywords)}, it fills {sorted(fields(en))}")
    sample = dict.fromkeys(fields(en), 1234)
    try:
        expected = en.format(**sample)
    except (KeyError, IndexError, ValueError) as exc:
        return [*problems, f"error.{code}: the template does not format ({exc})"]
    error = ChunkvizError(code, **sample)
    if str(error) != expected:
        problems.append(f"error.{code}: str(error) is {str(error)!r}, not {expected!r}")
    if str(Message(code, **sample)) != expected:
        problems.append(f"error.{code}: the Message reads otherwise than the error")
    return problems


def test_the_scan_finds_the_raise_sites():
    assert len(STATIC) > 75
    assert {"too_large", "overlap", "param_type", "results_missing"} <= set(STATIC)


@pytest.mark.parametrize("code", CODES)
def test_every_code_is_its_english_template_rendered_and_has_both_languages(code):
    assert catalogue_problems(code) == []


def test_every_raise_site_gives_exactly_the_values_its_template_fills():
    wrong = [
        f"{module}:{line}: {problem}"
        for module, line, codes, names, _ in SITES
        if codes
        for code in codes
        for problem in catalogue_problems(code, names)
    ]
    assert wrong == []


def test_a_code_without_a_template_or_with_other_values_fails_the_check():
    assert catalogue_problems("no_such_code_anywhere") == [
        "error.no_such_code_anywhere is missing from en.toml"
    ]
    assert catalogue_problems("overlap", {"overlap", "size"}) == [
        "error.overlap: given ['overlap', 'size'], it fills ['most', 'overlap', 'size']"
    ]
    # ... and the error still reaches a reader as its code and values, never a traceback.
    assert str(ChunkvizError("no_such_code_anywhere", size=3)) == "no_such_code_anywhere (size=3)"


def test_no_raise_site_writes_english():
    sentences = [f"{module}:{line}" for module, line, _, _, sentence in SITES if sentence]
    assert sentences == []  # give the error a code and templates in en.toml and ja.toml


def test_the_sentence_count_sees_a_sentence():
    tree = ast.parse(
        'raise ParameterError(f"k must be at least 1 (got {k})")\n'
        'raise ParameterError("at_least", name="k", value=k, min=1)\n'
        'HINT = "ray is not installed; run pip install ray"\n'
        "raise MissingDependencyError(HINT)\n"
        "raise ChunkvizError(code, **params)"
    )
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert [_is_sentence(c.args[0], _assigned(tree)) for c in calls] == [True, False, True, False]
    assert [_codes(c.args[0]) for c in calls] == [None, ["at_least"], None, None]


def test_every_error_template_is_raised_or_a_known_fragment():
    """A template no code reaches is dead text (or a code typed differently at its site)."""
    keys = {k.removeprefix("error.") for k in templates("en") if k.startswith("error.")}
    assert keys - set(CODES) == {"list_sep"}  # the separator of a list value, not a message


def test_an_error_reads_in_japanese_with_the_same_values():
    exc = ChunkvizError("pdf_pages", file="a.pdf", pages=1200, max=1000)
    assert str(exc) == (
        "a.pdf has 1,200 pages; PDFs of up to 1,000 pages are read "
        "(MAX_PDF_PAGES); split it into parts and upload one"
    )
    assert error_text("ja", exc).startswith("a.pdf は 1,200 ページあります。")


def test_the_formatter_is_the_standard_one():
    # catalogue_problems' expectation uses str.format: the fields it sees are Python's own.
    assert (
        fields("{a} {b:,} {{c}}")
        == {"a", "b"}
        == {f for _, f, _, _ in string.Formatter().parse("{a} {b:,}") if f}
    )
    assert errors.render("en", "pdf_no_page", {"file": "x", "page": 2, "pages": 1}) == (
        "x has no page 2 (it has 1); pick another page"
    )
