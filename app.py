"""chunkviz home page."""

import streamlit as st

from chunkviz.ui.state import init_session

st.set_page_config(page_title="chunkviz", page_icon="✂️", layout="wide")
init_session()

st.title("chunkviz")
st.write("See where a chunker cuts a document, what each cut costs, and what it does to retrieval.")
