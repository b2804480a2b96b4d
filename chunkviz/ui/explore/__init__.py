"""The Explore page's Streamlit sections, figures and state glue."""
