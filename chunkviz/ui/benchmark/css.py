"""The Benchmark page's stylesheet, built from the selectors of ``chunkviz.ui.dom``."""

from __future__ import annotations

from chunkviz.ui import dom

#: Wide Markdown tables scroll inside their own box instead of widening the page: at 390 px the
#: main table needs about 700 px, and the page itself must not scroll sideways. The page hands
#: this to ``st.html`` once per run.
RESPONSIVE_TABLES_CSS = (
    f"<style>{dom.MARKDOWN} table{{display:block;max-width:100%;overflow-x:auto;}}</style>"
)
