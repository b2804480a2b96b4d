"""The Benchmark page's Streamlit sections, figures and state glue."""
