"""A running chunkviz app and a headless Debian Chromium page for the browser tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {proc.returncode} before health")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().decode().strip() == "ok":
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"streamlit did not answer {url}/_stcore/health within {timeout} s")


def start_app(
    root: Path = ROOT, output: int | IO[bytes] = subprocess.DEVNULL
) -> tuple[subprocess.Popen[bytes], str]:
    """``streamlit run app.py`` in ``root`` on a free port, once it answers its health check.

    The browser tests, ``bench/page_speed.py`` and ``scripts/readme_screenshots.py`` start the
    app this way: offline, headless, no usage statistics. The server is killed if it never
    becomes healthy. Returns the process and its URL.
    """
    port = _free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=root,
        env=env,
        stdout=output,
        stderr=subprocess.STDOUT if output is not subprocess.DEVNULL else subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc)
    except BaseException:
        stop_app(proc)
        raise
    return proc, url


def stop_app(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server ``start_app`` started (killed if it does not stop within 20 s)."""
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start ``streamlit run app.py`` on a free port; killed at teardown."""
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    with log.open("wb") as out:
        proc, url = start_app(ROOT, out)
    try:
        yield url
    finally:
        stop_app(proc)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium, headless, through Playwright."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing; run scripts/ensure-chromium.sh")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser):  # type: ignore[no-untyped-def]
    """A fresh page (1400×1000) whose dialogs are recorded in ``page.dialogs`` and dismissed."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    dialogs: list[str] = []

    def on_dialog(dialog):  # type: ignore[no-untyped-def]
        dialogs.append(dialog.message)
        dialog.dismiss()

    pg.on("dialog", on_dialog)
    pg.dialogs = dialogs
    ARTIFACTS.mkdir(exist_ok=True)
    yield pg
    context.close()
