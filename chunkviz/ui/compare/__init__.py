"""The Compare page's Streamlit sections, figures and state glue."""
