"""The Tune page's Streamlit sections, figures and state glue."""
