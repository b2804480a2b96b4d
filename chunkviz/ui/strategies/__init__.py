"""The Strategies page's Streamlit sections, figures and state glue."""
