"""An installed wheel works away from the checkout: data, shipped results, cache, the app.

The wheel is built from a copy of the sources and installed with ``pip --target`` into a temporary
folder; every command runs from another temporary folder with only that folder on
``PYTHONPATH``, so nothing can be found through the checkout.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.wheel_build import PIP, build_wheel

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Installed:
    site: Path  # what pip installed: the package, its metadata and bin/chunkviz
    work: Path  # the working directory of every command, outside the checkout
    cache: Path  # $XDG_CACHE_HOME of every command
    env: dict[str, str]

    def run(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            args,
            cwd=self.work,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(base)
    site = base / "site"
    subprocess.run(
        [*PIP, "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
    )
    work = base / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("CHUNKVIZ_CACHE_DIR", "PYTHONPATH")}
    env.update(PYTHONPATH=str(site), XDG_CACHE_HOME=str(base / "cache"), HF_HUB_OFFLINE="1")
    return Installed(site, work, base / "cache", env)


def test_the_installed_package_is_the_one_imported(installed):
    out = installed.run(sys.executable, "-c", "import chunkviz; print(chunkviz.__file__)")
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()).is_relative_to(installed.site)
    assert (installed.site / "chunkviz" / "py.typed").is_file()


def test_bench_on_the_vendored_jsquad_writes_only_to_the_user_cache(installed):
    before = _snapshot(installed.site)
    out = installed.run(
        str(installed.site / "bin" / "chunkviz"),
        "bench",
        "--dataset",
        "jsquad",
        "--sample",
        "50",
        "--quiet",
    )
    assert out.returncode == 0, out.stderr
    (written,) = (installed.cache / "chunkviz" / "results").glob("jsquad-bm25-n50-s0-*.json")
    assert f"wrote {written}" in out.stdout
    assert _snapshot(installed.site) == before
    assert list(installed.work.iterdir()) == []


def test_the_installed_dashboard_lists_the_shipped_results(installed):
    code = (
        "from chunkviz.eval.runner import shipped_results_dir as d;"
        "print(d()); print(len(list(d().glob('jsquad-*.json'))))"
    )
    out = installed.run(sys.executable, "-c", code)
    assert out.returncode == 0, out.stderr
    folder, count = out.stdout.split()
    assert Path(folder) == installed.site / "chunkviz" / "results"
    assert int(count) == len(list((ROOT / "chunkviz" / "results").glob("jsquad-*.json"))) > 0


def test_the_installed_package_makes_shaped_questions_from_its_shipped_shapes(installed):
    code = (
        "import chunkviz.eval.question_shapes as q, chunkviz.eval.synthetic as s;"
        "from chunkviz.datasets.base import Document;"
        "print(q.__file__); print(sum(map(len, q.shipped_shapes().values())));"
        "print(len(s.synthetic_questions(Document('d', 'd', '梅雨前線は六月に北上する。"
        "寒帯ジェット気流が南下すると梅雨前線が停滞する。'), 'shaped')))"
    )
    out = installed.run(sys.executable, "-c", code)
    assert out.returncode == 0, out.stderr
    where, shapes, questions = out.stdout.split()
    assert Path(where).is_relative_to(installed.site)
    assert int(shapes) == 3973
    assert int(questions) > 0


def test_chunkviz_app_runs_the_shipped_entrypoint(installed):
    out = installed.run(str(installed.site / "bin" / "chunkviz"), "app", "--help")
    assert out.returncode == 0, out.stderr
    assert "streamlit run" in out.stdout
    entry = installed.site / "chunkviz" / "_app" / "app.py"
    shipped = sorted(p.name for p in (entry.parent / "pages").glob("*.py"))
    assert shipped == sorted(p.name for p in (ROOT / "pages").glob("*.py"))
    assert (entry.parent / ".streamlit" / "config.toml").is_file()
    code = "from chunkviz.commands.app_cmd import command; print(command([])[-1])"
    out = installed.run(sys.executable, "-c", code)
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()) == entry


def test_the_shipped_app_renders_home_and_explore(installed):
    entry = installed.site / "chunkviz" / "_app" / "app.py"
    code = (
        "from streamlit.testing.v1 import AppTest\n"
        f"at = AppTest.from_file({str(entry)!r}, default_timeout=120).run()\n"
        "assert not at.exception, at.exception\n"
        "print(at.title[0].value)\n"
        "at.switch_page('pages/1_Explore.py').run()\n"
        "assert not at.exception, at.exception\n"
        "print(len(at.metric))\n"
    )
    out = installed.run(sys.executable, "-c", code)
    assert out.returncode == 0, out.stderr
    title, metrics = out.stdout.splitlines()[-2:]
    assert title.startswith("chunkviz")
    assert int(metrics) > 0
