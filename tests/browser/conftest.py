"""Fixtures for real-browser tests: the app in a subprocess and a headless Debian Chromium page.

``streamlit_app`` starts ``python -m streamlit run app.py`` on a free port (once per session) and
yields its base URL after ``/_stcore/health`` answers ``ok``. ``browser_page`` gives each test a
fresh page of one shared Chromium. Both work with the network unplugged.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking flags Chromium keeps trying to reach the internet.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = ROOT / "test-artifacts"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.read().decode().strip() == "ok":
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.3)
    raise RuntimeError(f"streamlit did not become healthy in {timeout:.0f} s:\n{log.read_text()}")


@pytest.fixture(scope="session")
def streamlit_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of the app, served by a subprocess for the whole test session."""
    port = _free_port()
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
        "PYTHONPATH": str(ROOT),
    }
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "app.py",
        "--server.headless",
        "true",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--browser.gatherUsageStats",
        "false",
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log, timeout=90)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless Debian Chromium for the session (Playwright without its own browsers)."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: run scripts/ensure-chromium.sh (apt-get install chromium)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def browser_page(browser: object) -> Iterator[object]:
    """A fresh page (1280×1000) whose context is closed after the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def artifacts_dir() -> Path:
    """``test-artifacts/`` at the repository root (ignored by git), for screenshots."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
