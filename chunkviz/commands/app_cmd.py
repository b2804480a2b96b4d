"""``chunkviz app``: start the Streamlit app (``streamlit run`` on the shipped entrypoint)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from typing import Any

from chunkviz.errors import MissingDependencyError
from chunkviz.paths import app_script

#: Whether ``chunkviz app`` becomes Streamlit (``os.execv``) instead of running it as a child.
REPLACE_PROCESS = os.name == "posix"


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "app",
        help="start the app in the browser",
        description="Start the chunkviz app with Streamlit. Arguments after the command go to "
        "streamlit run, e.g. chunkviz app --server.port 8600.",
    )
    p.set_defaults(run=run, accepts_extra=True)


def command(extra: list[str]) -> list[str]:
    """The ``streamlit run`` command line for the shipped entrypoint, with ``extra`` appended.

    Raises:
        MissingDependencyError: Streamlit is not installed.
    """
    if importlib.util.find_spec("streamlit") is None:
        raise MissingDependencyError(
            "not_installed", package="streamlit", requirement="chunkviz[app]"
        )
    return [sys.executable, "-m", "streamlit", "run", str(app_script()), *extra]


def run(args: argparse.Namespace, extra: list[str]) -> int:
    """Run Streamlit until it exits; its exit status is the command's.

    On POSIX the process becomes Streamlit: a signal sent to ``chunkviz app`` (a service
    manager's or a test's SIGTERM) then reaches the server itself. Run as a child, Streamlit
    outlived a terminated ``chunkviz app`` (found as orphans left by the clean-install test).
    """
    cmd = command(extra)
    if REPLACE_PROCESS:
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(cmd[0], cmd)
    return subprocess.call(cmd)
