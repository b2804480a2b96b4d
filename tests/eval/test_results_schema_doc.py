"""docs/results-schema.md and docs/results-schema.json say what the structs say, field by field.

The JSON Schema is generated from ``chunkviz.eval.results_schema``; the committed file must be
that output (``python -m chunkviz schema --out docs/results-schema.json``), and the Markdown
must have one table per struct, listing exactly its fields, each with its type and bounds.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from chunkviz.cli import main
from chunkviz.commands.schema_cmd import schema_text
from chunkviz.eval.results_schema import results_json_schema

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCHEMA = json.loads(json.dumps(results_json_schema()))  # as JSON holds it (tuples as lists)
DEFS = SCHEMA["$defs"]
#: A struct's section: a heading ending in the struct's name in backticks and parentheses.
HEADING = re.compile(r"^#{2,4} .*\(`(\w+)`\)\s*$")


def _struct(title: str) -> str:
    return title.split("[")[0]  # a generic struct's title, Name[Arg] -> Name


STRUCTS = {_struct(d["title"]): d for d in DEFS.values()}


def doc_tables(text: str) -> dict[str, dict[str, tuple[str, str]]]:
    """Struct name -> field -> (type cell, meaning cell), from each struct's section."""
    tables: dict[str, dict[str, tuple[str, str]]] = {}
    current: str | None = None
    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading:
            current = heading.group(1)
            assert current not in tables, f"two sections for {current}"
            tables[current] = {}
            continue
        if line.startswith("#"):
            current = None
            continue
        if current is None or not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        assert len(cells) >= 3, line
        for name in re.findall(r"`([^`]+)`", cells[0]):
            assert name not in tables[current], f"{current}.{name} documented twice"
            tables[current][name] = (cells[1], " | ".join(cells[2:]))
    return tables


def _num(x: float) -> str:
    return f"{x:g}"


def expected_words(node: dict[str, Any]) -> list[str]:
    """What the type cell of a field with this JSON Schema must say (each, as a substring)."""
    alternatives = node.get("anyOf", [node])
    words = ["or null"] if any(a.get("type") == "null" for a in alternatives) else []
    (main_type,) = [a for a in alternatives if a.get("type") != "null"]
    if "$ref" in main_type:
        return [*words, "object"]
    if "enum" in main_type:
        return [*words, *(f'"{v}"' if isinstance(v, str) else f"`{v}`" for v in main_type["enum"])]
    kind = main_type.get("type")
    if kind == "integer":
        low, high = main_type.get("minimum"), main_type.get("maximum")
        words += ["integer" if low is None else f"integer ≥ {_num(low)}"]
        return words if high is None else [*words, f"≤ {_num(high)}"]
    if kind == "number":
        lo, hi = main_type.get("minimum"), main_type.get("maximum")
        xlo, xhi = main_type.get("exclusiveMinimum"), main_type.get("exclusiveMaximum")
        if xlo is not None and xhi is not None:
            return [*words, f"number in ({_num(xlo)}, {_num(xhi)})"]
        if lo is not None and hi is not None:
            return [*words, f"number in [{_num(lo)}, {_num(hi)}]"]
        if lo is not None:
            return [*words, f"number ≥ {_num(lo)}"]
        if xlo is not None:
            return [*words, f"number > {_num(xlo)}"]
        return [*words, "number"]
    if kind == "string":
        return [*words, "non-empty string" if main_type.get("minLength") else "string"]
    if kind == "boolean":
        return [*words, "boolean"]
    if kind == "array":
        return [*words, "[" if "prefixItems" in main_type else "list"]
    if kind == "object":
        return [*words, "→" if "additionalProperties" in main_type else "object"]
    raise AssertionError(f"no rule for {main_type}")


def test_the_committed_json_schema_is_the_generated_one():
    committed = (DOCS / "results-schema.json").read_text(encoding="utf-8")
    assert committed == schema_text(), (
        "docs/results-schema.json is stale: python -m chunkviz schema --out "
        "docs/results-schema.json"
    )
    assert json.loads(committed) == SCHEMA


def test_the_schema_command_prints_it(capsys, tmp_path):
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == SCHEMA
    assert main(["schema", "--out", str(tmp_path / "s.json")]) == 0
    assert (tmp_path / "s.json").read_text(encoding="utf-8") == schema_text()


TABLES = doc_tables((DOCS / "results-schema.md").read_text(encoding="utf-8"))


def test_every_struct_has_a_section_and_every_section_a_struct():
    assert sorted(TABLES) == sorted(STRUCTS)


@pytest.mark.parametrize("struct", sorted(STRUCTS))
def test_the_doc_lists_exactly_the_fields_of_the_struct(struct):
    documented = set(TABLES.get(struct, {}))
    fields = set(STRUCTS[struct]["properties"])
    assert not fields - documented, f"{struct}: fields without a row in the doc"
    assert not documented - fields, f"{struct}: rows for fields the struct does not have"


@pytest.mark.parametrize(
    ("struct", "field"), [(s, f) for s in sorted(STRUCTS) for f in STRUCTS[s]["properties"]]
)
def test_each_field_is_documented_with_its_type_bounds_and_optionality(struct, field):
    node = STRUCTS[struct]["properties"][field]
    type_cell, _meaning = TABLES[struct][field]
    for word in expected_words(node):
        assert word in type_cell.replace("−", "-"), (
            f"{struct}.{field}: the type column {type_cell!r} must say {word!r}"
        )
    optional = field not in STRUCTS[struct].get("required", [])
    assert ("optional" in type_cell) == optional, (
        f"{struct}.{field}: the type column must say 'optional' exactly when the field may be "
        "absent"
    )


def test_the_rule_checks_what_it_should():
    # the checker itself: a wrong type cell fails
    assert "integer ≥ 1" in expected_words({"type": "integer", "minimum": 1})
    assert expected_words(
        {"anyOf": [{"type": "number", "minimum": 0, "maximum": 1}, {"type": "null"}]}
    ) == ["or null", "number in [0, 1]"]
    assert expected_words({"enum": ["a", "b"]}) == ['"a"', '"b"']
