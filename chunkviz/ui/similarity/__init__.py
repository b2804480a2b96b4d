"""The Similarity page's Streamlit sections, figures and state glue."""
