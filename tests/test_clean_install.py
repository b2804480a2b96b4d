"""The README's install, as a new user makes it: a fresh venv, the wheel with the README's extras.

The wheel is built from a copy of the sources and installed with its dependencies (the pip cache
serves them) into a new virtual environment with ``pip install "<wheel>[app,lexical,dense]"``,
the extras the README names; every command runs from another folder with that venv's own
executables, so nothing of the checkout or the development venv can be found.

This fails on the code before issue 37: that install had no ``sentencepiece``, so ``chunkviz
bench`` exited 2 at 88% and ``chunkviz tune`` the same ("sentencepiece is not installed; run pip
install -r requirements.txt"). ``tests/test_installed_wheel.py`` could not see it: it installs with
``--no-deps --target`` and runs with the development venv's Python.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.browser.conftest import _free_port
from tests.wheel_build import build_wheel

ROOT = Path(__file__).resolve().parents[1]
#: A small file of the user's: the bundled Japanese policy sample, copied out of the checkout.
DOC = (ROOT / "chunkviz" / "samples" / "policy_ja.md").read_text(encoding="utf-8")

pytestmark = pytest.mark.slow


def _readme_extras() -> str:
    """The extras of the README's ``pip install ".[...]"``: the test installs exactly those."""
    found = re.search(r'pip install "\.\[([a-z,]+)\]"', (ROOT / "README.md").read_text("utf-8"))
    assert found, 'the README no longer shows pip install ".[extras]"'
    return found.group(1)


@dataclass(frozen=True)
class Venv:
    bin: Path
    work: Path
    env: dict[str, str]

    def run(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            cwd=self.work,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Venv:
    base = tmp_path_factory.mktemp("clean")
    wheel = build_wheel(base)
    subprocess.run(
        [sys.executable, "-m", "venv", str(base / "venv")], check=True, capture_output=True
    )
    bin_dir = base / "venv" / "bin"
    install = subprocess.run(
        [
            str(bin_dir / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            f"{wheel}[{_readme_extras()}]",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    work = base / "work"
    work.mkdir()
    (work / "x.txt").write_text(DOC, encoding="utf-8")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CHUNKVIZ_CACHE_DIR", "PYTHONPATH", "VIRTUAL_ENV")
    }
    env.update(
        XDG_CACHE_HOME=str(base / "cache"),
        HF_HUB_OFFLINE="1",
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
    )
    return Venv(bin_dir, work, env)


def test_the_venv_has_the_package_and_not_the_checkout(venv):
    out = venv.run("python", "-c", "import chunkviz; print(chunkviz.__file__)")
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()).is_relative_to(venv.bin.parent)
    assert not Path(out.stdout.strip()).is_relative_to(ROOT)


def test_bench_on_a_sample_runs_to_the_end(venv):
    out = venv.run("chunkviz", "bench", "--dataset", "jsquad", "--sample", "50", "--quiet")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "wrote " in out.stdout
    assert "| Configuration | Recall@5" in out.stdout


def test_tune_on_a_small_file_recommends_and_its_json_is_one_document(venv):
    out = venv.run("chunkviz", "tune", "x.txt", "--synthetic", "20", "--quiet", "--format", "json")
    assert out.returncode == 0, out.stderr[-2000:]
    tool = subprocess.run(
        [str(venv.bin / "python"), "-m", "json.tool"],
        input=out.stdout,
        capture_output=True,
        text=True,
        check=False,
        cwd=venv.work,
        env=venv.env,
    )
    assert tool.returncode == 0, tool.stderr
    assert '"schema": "chunkviz.tune"' in out.stdout


def test_the_readme_s_python_line_prints_a_pick(venv):
    code = "import chunkviz; r = chunkviz.tune(open('x.txt').read()); print(r.pick)"
    out = venv.run("python", "-c", code)
    assert out.returncode == 0, out.stderr[-2000:]
    assert re.fullmatch(r"(fixed|recursive)-\d+-\d+|paragraph|sentence", out.stdout.strip())


def test_backends_lists_use_m3_only_because_it_loads(venv):
    out = venv.run("chunkviz", "backends")
    assert out.returncode == 0, out.stderr
    assert "use-m3  [dense, available]" in out.stdout
    load = venv.run(
        "python",
        "-c",
        "from chunkviz.retrieval.backends import get_backend;print(get_backend('use-m3').name)",
    )
    assert load.returncode == 0, load.stderr[-2000:]


def test_chunkviz_app_answers_its_health_check(venv):
    port = _free_port()
    log = venv.work.parent / "app.log"
    with (
        log.open("wb") as sink,
        subprocess.Popen(
            [
                str(venv.bin / "chunkviz"),
                "app",
                "--server.headless",
                "true",
                "--server.port",
                str(port),
                "--browser.gatherUsageStats",
                "false",
            ],
            cwd=venv.work,
            env=venv.env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        ) as proc,
    ):
        try:
            deadline = time.monotonic() + 120
            answer = ""
            while time.monotonic() < deadline and proc.poll() is None:
                try:
                    with urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/_stcore/health", timeout=2
                    ) as r:
                        answer = r.read().decode()
                        break
                except OSError:
                    time.sleep(0.5)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    assert answer == "ok", log.read_text(encoding="utf-8", errors="replace")[-2000:]
