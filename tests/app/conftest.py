"""AppTest runs pages with Streamlit's developer setting for error details.

``.streamlit/config.toml`` sets ``client.showErrorDetails = "none"`` for users, and then
``chunkviz.ui.guard`` turns an unexpected exception into a short notice. Tests run with ``full``
so that such an exception is re-raised and shows in ``at.exception``: a bug is never hidden
from them. ``tests/app/test_guard.py`` sets ``none`` itself to check what users see.
"""

from __future__ import annotations

import pytest
from streamlit import config


@pytest.fixture(autouse=True)
def _developer_error_details():
    before = config.get_option("client.showErrorDetails")
    config.set_option("client.showErrorDetails", "full")
    yield
    config.set_option("client.showErrorDetails", before)
