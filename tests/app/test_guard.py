"""What users see when something fails (issue 14): messages, short notices, never a traceback."""

from __future__ import annotations

import ast
import logging
from pathlib import Path

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
EXPLORE = str(ROOT / "pages" / "1_Explore.py")
#: Where an exception may reach a user: the pages, the entrypoint and the Streamlit layer.
PAGE_CODE = sorted(
    [*(ROOT / "pages").glob("*.py"), ROOT / "app.py", *(ROOT / "chunkviz" / "ui").rglob("*.py")]
)
GUARD = ROOT / "chunkviz" / "ui" / "guard.py"
_EVERYTHING = {"Exception", "BaseException"}


def catch_alls(source: str) -> list[int]:
    """Lines of the handlers in ``source`` that catch every exception (``Exception`` and up)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ExceptHandler):
            continue
        caught = (
            node.type.elts
            if isinstance(node.type, ast.Tuple)
            else []
            if node.type is None
            else [node.type]
        )
        names = {getattr(c, "id", getattr(c, "attr", None)) for c in caught}
        if node.type is None or names & _EVERYTHING:
            lines.append(node.lineno)
    return lines


def test_only_the_guard_catches_every_exception():
    """One page boundary: a page or ui module uses ``guard()``, never a handler of its own."""
    assert GUARD in PAGE_CODE
    assert len(PAGE_CODE) > 50  # the ui package was read
    found = {
        str(p.relative_to(ROOT)): catch_alls(p.read_text(encoding="utf-8"))
        for p in PAGE_CODE
        if p != GUARD
    }
    assert {path: lines for path, lines in found.items() if lines} == {}
    assert catch_alls(GUARD.read_text(encoding="utf-8"))  # the boundary itself


@pytest.mark.parametrize(
    ("handler", "found"),
    [
        ("except Exception as exc:", True),
        ("except BaseException:", True),
        ("except:", True),
        ("except (ValueError, Exception):", True),
        ("except builtins.Exception:", True),
        ("except ChunkvizError:", False),
        ("except (KeyError, ValueError):", False),
    ],
)
def test_a_catch_all_is_found(handler, found):
    source = f"try:\n    x = 1\n{handler}\n    show_error(x)\n"
    assert bool(catch_alls(source)) is found


@pytest.mark.parametrize(
    ("raised", "failed"), [("raise InputTextError('no such file')", True), ("x = 1", False)]
)
def test_the_guard_says_whether_its_block_failed(raised, failed):
    source = (
        "import streamlit as st\n"
        "from chunkviz.errors import InputTextError\n"
        "from chunkviz.ui.guard import guard\n"
        "with guard() as attempt:\n"
        f"    {raised}\n"
        "st.write(f'failed={attempt.failed} ok={attempt.ok}')\n"
    )
    at = AppTest.from_string(source, default_timeout=60).run()
    assert not at.exception
    assert at.markdown[0].value == f"failed={failed} ok={not failed}"
    assert [e.value for e in at.error] == (["no such file"] if failed else [])


def test_config_shows_users_no_error_details():
    text = (ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8")
    assert 'showErrorDetails = "none"' in text


def test_an_unexpected_exception_is_a_short_notice_and_the_log_keeps_the_traceback(caplog):
    config.set_option("client.showErrorDetails", "none")
    source = (
        "import streamlit as st\n"
        "from chunkviz.ui.guard import guard\n"
        "with guard():\n"
        "    raise MemoryError('/srv/secret/path/extract.py')\n"
        "st.write('the page goes on')\n"
    )
    with caplog.at_level(logging.ERROR, logger="chunkviz"):
        at = AppTest.from_string(source, default_timeout=60).run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        "Something went wrong here (MemoryError); the server log has the details. Try other "
        "settings or another document."
    ]
    assert "/srv/secret" not in at.error[0].value
    assert at.markdown[0].value == "the page goes on"
    assert any(r.exc_info and "secret" in str(r.exc_info[1]) for r in caplog.records)


def test_a_chunkviz_error_is_its_escaped_message():
    source = (
        "from chunkviz.errors import InputTextError\n"
        "from chunkviz.ui.guard import guard\n"
        "with guard():\n"
        "    raise InputTextError('cannot read [x](https://evil.example).txt')\n"
    )
    at = AppTest.from_string(source, default_timeout=60).run()
    assert not at.exception
    assert at.error[0].value == "cannot read \\[x\\](https\u2060\\://evil.example).txt"


@pytest.mark.parametrize("control", ["st.rerun()", "st.stop()"])
def test_streamlit_control_flow_passes_through_the_guard(control):
    source = (
        "import streamlit as st\n"
        "from chunkviz.ui.guard import guard\n"
        "st.session_state.setdefault('runs', 0)\n"
        "st.session_state['runs'] += 1\n"
        "if st.session_state['runs'] == 1:\n"
        "    with guard():\n"
        f"        {control}\n"
        "st.write('after')\n"
    )
    at = AppTest.from_string(source, default_timeout=60).run()
    assert not at.exception
    assert not at.error
    # rerun: the second run reaches the end; stop: the first run ends at the guard.
    assert [m.value for m in at.markdown] == (["after"] if "rerun" in control else [])


def test_in_developer_mode_an_unexpected_exception_reaches_at_exception():
    source = (
        "from chunkviz.ui.guard import guard\nwith guard():\n    raise ValueError('a real bug')\n"
    )
    at = AppTest.from_string(source, default_timeout=60).run()
    assert at.exception[0].message == "a real bug"


def test_crafted_share_link_values_are_shown_literally():
    at = AppTest.from_file(EXPLORE, default_timeout=90)
    at.query_params.update(
        {
            "strategy": "[Session expired - log in again](https://evil.example/login)",
            "sample": "![s](http://127.0.0.1:8765/s.png)",
        }
    )
    at.run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert any(
        "\\[Session expired - log in again\\](https\u2060\\://evil.example/" in w for w in warnings
    )
    assert any("\\!\\[s\\](http\u2060\\://127.0.0.1\\:8765/s.png)" in w for w in warnings)
    assert not any("](http" in w.replace("\\]", "") for w in warnings)
