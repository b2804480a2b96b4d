"""App-wide CSS, drawn once by the entrypoint for every page: chart toolbars that hide titles.

Plotly's toolbar (the "modebar") and Streamlit's element toolbar sit over a chart's top right
corner, where a long title runs: on a projector and on a phone they covered the titles. They now
appear only while the pointer is over the chart, and never on a touch screen (no hover there:
a tap on the chart showed them for good). Zoom and download stay one hover away on a desk.
"""

from __future__ import annotations

import streamlit as st

from chunkviz.ui.dom import ELEMENT_TOOLBAR, PLOTLY_CHART, PLOTLY_MODEBAR, PLOTLY_PLOT

CHART_TOOLBAR_CSS = f"""<style>
{PLOTLY_PLOT} {PLOTLY_MODEBAR} {{ opacity: 0; transition: opacity 0.15s; }}
{PLOTLY_PLOT}:hover {PLOTLY_MODEBAR} {{ opacity: 1; }}
@media (hover: none) {{
  {PLOTLY_PLOT} {PLOTLY_MODEBAR} {{ display: none; }}
  {PLOTLY_CHART} {ELEMENT_TOOLBAR} {{ display: none; }}
}}
</style>"""


def app_css() -> None:
    """Mount the app-wide stylesheet (once per run; the entrypoint calls it)."""
    st.html(CHART_TOOLBAR_CSS)
