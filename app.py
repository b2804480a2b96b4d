"""chunkviz: the entrypoint. Draws the sidebar once and runs the chosen page; home is here."""

from __future__ import annotations

import streamlit as st

from chunkviz.ui.guard import guard
from chunkviz.ui.i18n import tr
from chunkviz.ui.sidebar import render_sidebar
from chunkviz.ui.state import app_state

PAGES = (
    ("pages/1_Explore.py", "explore", ":material/travel_explore:"),
    ("pages/2_Compare.py", "compare", ":material/compare:"),
    ("pages/3_Similarity.py", "similarity", ":material/scatter_plot:"),
    ("pages/4_Benchmark.py", "benchmark", ":material/leaderboard:"),
    ("pages/5_Strategies.py", "strategies", ":material/account_tree:"),
    ("pages/6_Tune.py", "tune", ":material/tune:"),
)

st.set_page_config(page_title="chunkviz", page_icon="✂️", layout="wide")
state = app_state()
render_sidebar(state)
pages = [st.Page(path, title=tr(f"nav.{name}"), icon=icon) for path, name, icon in PAGES]


def home() -> None:
    """What chunkviz shows, and a link to every page."""
    st.title("chunkviz")
    st.markdown(tr("home.tagline"))
    st.subheader(tr("home.what"))
    for point in ("point_cuts", "point_lost", "point_cost", "point_offline"):
        st.markdown(f"- {tr('home.' + point)}")
    st.subheader(tr("home.pages"))
    for page, (_path, name, _icon) in zip(pages, PAGES, strict=True):
        st.page_link(page, label=tr(f"home.{name}"), icon=page.icon)
    st.caption(tr("home.sidebar_hint"))


home_page = st.Page(
    home, title=tr("nav.home"), icon=":material/home:", url_path="home", default=True
)
# One call runs every page: the guard keeps any traceback out of the browser.
with guard():
    st.navigation([home_page, *pages]).run()
