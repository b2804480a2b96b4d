from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from chunkviz.cli import main
from chunkviz.commands import app_cmd

ROOT = Path(__file__).resolve().parents[2]


def test_in_a_checkout_the_app_is_the_checkouts_entrypoint():
    cmd = app_cmd.command(["--server.port", "8600"])
    assert cmd == [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(ROOT / "app.py"),
        "--server.port",
        "8600",
    ]


def test_streamlit_arguments_pass_through_the_cli(monkeypatch):
    calls = []
    monkeypatch.setattr(app_cmd, "REPLACE_PROCESS", False)
    monkeypatch.setattr(app_cmd.subprocess, "call", lambda cmd: calls.append(cmd) or 3)
    assert main(["app", "--server.headless", "true"]) == 3
    assert calls[0][-3:] == [str(ROOT / "app.py"), "--server.headless", "true"]


def test_on_posix_the_command_becomes_streamlit_so_a_signal_reaches_it(monkeypatch):
    replaced = []

    class Replaced(Exception):
        pass

    def execv(path, argv):  # type: ignore[no-untyped-def]
        replaced.append((path, argv))
        raise Replaced

    monkeypatch.setattr(app_cmd, "REPLACE_PROCESS", True)
    monkeypatch.setattr(app_cmd.os, "execv", execv)
    monkeypatch.setattr(app_cmd.subprocess, "call", lambda cmd: pytest.fail("ran as a child"))
    with pytest.raises(Replaced):
        app_cmd.run(None, ["--server.headless", "true"])  # type: ignore[arg-type]
    ((path, argv),) = replaced
    assert path == sys.executable
    assert argv[1:4] == ["-m", "streamlit", "run"]
    assert argv[-2:] == ["--server.headless", "true"]


def test_without_streamlit_the_cli_says_how_to_install(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        app_cmd.importlib.util,
        "find_spec",
        lambda name: None if name == "streamlit" else real(name),
    )
    assert main(["app"]) == 2
    assert 'pip install "chunkviz[app]"' in capsys.readouterr().err


def test_help_names_streamlit_run(capsys):
    # The CLI turns argparse's exits into return codes (one line, exit 2, for a refusal).
    assert main(["app", "--help"]) == 0
    assert "streamlit run" in capsys.readouterr().out
