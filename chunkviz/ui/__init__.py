"""The Streamlit layer: the only part of chunkviz that imports Streamlit."""
